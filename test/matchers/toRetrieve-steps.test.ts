// The named steps behind toRetrieve's verdict explanation (src/metrics/retrieval-explain.ts), each on
// hand-made input with literal expected values.
import { describe, expect, test } from 'vitest'
import { retrievalScores } from '../../src/metrics/retrieval.js'
import { cutOffScore, luckCauses, rankLine, rankRetrieved, retrievalInputError, retrievedRows, SHOWN_AFTER_K } from '../../src/metrics/retrieval-explain.js'

describe('rankRetrieved', () => {
  test('scored items by score, highest first, equal scores in the order given', () => {
    const ranked = rankRetrieved([
      { id: 'a', score: 0.2 },
      { id: 'b', score: 0.9 },
      { id: 'c', score: 0.5 },
      { id: 'd', score: 0.9 },
    ])
    expect(ranked.map((item) => (typeof item === 'string' ? item : item.id))).toEqual(['b', 'd', 'c', 'a'])
  })

  test('ids keep their order, and the input is not sorted in place', () => {
    const input = ['z', 'a', 'm']
    expect(rankRetrieved(input)).toEqual(['z', 'a', 'm'])
    const scored = [
      { id: 'a', score: 0.1 },
      { id: 'b', score: 0.3 },
    ]
    rankRetrieved(scored)
    expect(scored[0]).toEqual({ id: 'a', score: 0.1 })
  })

  test('an empty list ranks as empty', () => {
    expect(rankRetrieved([])).toEqual([])
  })
})

describe('cutOffScore', () => {
  const ranked = [
    { id: 'a', score: 0.9 },
    { id: 'b', score: 0.7 },
    { id: 'c', score: 0.7 },
  ]
  test('the score at rank k when items lie past it', () => {
    expect(cutOffScore(ranked, 2)).toBe(0.7)
    expect(cutOffScore(ranked, 1)).toBe(0.9)
  })
  test('undefined when nothing lies past the cut-off, or without scores', () => {
    expect(cutOffScore(ranked, 3)).toBeUndefined()
    expect(cutOffScore(['a', 'b', 'c'], 1)).toBeUndefined()
  })
})

describe('rankLine', () => {
  test('a hit, with and without a score', () => {
    expect(rankLine({ id: 'a', rank: 1, score: 0.9, lucky: false }, 3)).toBe('  "a": rank 1, score 0.9: hit')
    expect(rankLine({ id: 'a', rank: 2, lucky: false }, 3)).toBe('  "a": rank 2: hit')
  })
  test('not retrieved, outside the top k, lucky', () => {
    expect(rankLine({ id: 'x', rank: null, lucky: false }, 3)).toBe('  "x": not retrieved')
    expect(rankLine({ id: 'a', rank: 4, lucky: false }, 3)).toBe('  "a": rank 4: outside the top 3')
    expect(rankLine({ id: 'a', rank: 3, score: 0.5, lucky: true, reason: 'tied with "b" at the cut-off' }, 3)).toBe(
      '  "a": rank 3, score 0.5: LUCKY, does not count: tied with "b" at the cut-off',
    )
  })
})

describe('luckCauses', () => {
  test('a relevant item tied at the cut-off with an irrelevant one past it', () => {
    const retrieved = [
      { id: 'x', score: 0.9 },
      { id: 'rel', score: 0.5 },
      { id: 'y', score: 0.5 },
    ]
    const scores = retrievalScores(retrieved, ['rel'], { k: 2 })
    expect(scores.luckyTie).toBe(true)
    expect(luckCauses(scores, rankRetrieved(retrieved), new Set(['rel']), undefined)).toEqual(['a tie at the cut-off'])
  })

  test('a relevant item whose score is not above minScore', () => {
    const retrieved = [
      { id: 'rel', score: 0.6 },
      { id: 'x', score: 0.4 },
    ]
    const scores = retrievalScores(retrieved, ['rel'], { k: 1, minScore: 0.7 })
    expect(luckCauses(scores, rankRetrieved(retrieved), new Set(['rel']), 0.7)).toEqual(['a score not above minScore 0.7'])
  })

  test('both causes at once: tied at the cut-off and under minScore', () => {
    const retrieved = [
      { id: 'rel', score: 0.5 },
      { id: 'y', score: 0.5 },
    ]
    const scores = retrievalScores(retrieved, ['rel'], { k: 1, minScore: 0.6 })
    expect(luckCauses(scores, rankRetrieved(retrieved), new Set(['rel']), 0.6)).toEqual(['a tie at the cut-off', 'a score not above minScore 0.6'])
  })

  test('no lucky hit, no cause', () => {
    const retrieved = [
      { id: 'rel', score: 0.9 },
      { id: 'y', score: 0.5 },
    ]
    const scores = retrievalScores(retrieved, ['rel'], { k: 1 })
    expect(luckCauses(scores, rankRetrieved(retrieved), new Set(['rel']), undefined)).toEqual([])
  })
})

describe('retrievedRows', () => {
  test('the top k and SHOWN_AFTER_K more, with the relevant, cut-off and tie marks', () => {
    expect(SHOWN_AFTER_K).toBe(3)
    const ranked = [
      { id: 'a', score: 0.9 },
      { id: 'rel', score: 0.5 },
      { id: 'b', score: 0.5 },
      { id: 'c', score: 0.4 },
      { id: 'd', score: 0.3 },
      { id: 'e', score: 0.2 },
    ]
    expect(retrievedRows(ranked, 2, new Set(['rel']))).toEqual([
      '   1. "a" 0.9',
      '   2. "rel" 0.5 (relevant, cut-off)',
      '   3. "b" 0.5 (ties with the cut-off)',
      '   4. "c" 0.4',
      '   5. "d" 0.3',
    ])
  })

  test('ids without scores; no cut-off mark when the list ends at k', () => {
    expect(retrievedRows(['a', 'b'], 2, new Set(['b']))).toEqual(['   1. "a"', '   2. "b" (relevant)'])
  })

  test('ranks of two digits are aligned', () => {
    const ids = Array.from({ length: 12 }, (_, i) => `d${i + 1}`)
    expect(retrievedRows(ids, 10, new Set()).slice(8)).toEqual(['   9. "d9"', '  10. "d10" (cut-off)', '  11. "d11"', '  12. "d12"'])
  })
})

describe('retrievalInputError', () => {
  test('an input error of the metrics: its reason and its fix sentence', () => {
    let error: unknown
    try {
      retrievalScores([{ id: 'a', score: 0.5 }, 'b'], ['a'])
    } catch (e) {
      error = e
    }
    expect(retrievalInputError(error)).toEqual({
      reason: '1 of 2 retrieved items have a score but item 1 ("b") has none, so the ranking is ambiguous',
      fix: 'Give every item a score, or none (then the given order is the ranking).',
    })
  })

  test('a message without a fix sentence keeps its text as the reason', () => {
    const error = new TypeError('[expect-llm] Failed to compute retrieval scores: something odd.')
    expect(retrievalInputError(error)).toEqual({ reason: 'something odd', fix: 'Pass ids, or { id, score } objects.' })
  })

  test('any other error is not restated', () => {
    expect(retrievalInputError(new TypeError('[expect-llm] Failed to run check "x": no.'))).toBeUndefined()
    expect(retrievalInputError(new RangeError('[expect-llm] Failed to compute retrieval scores: k is 0. Pass 1.'))).toBeUndefined()
    expect(retrievalInputError('a string')).toBeUndefined()
  })
})
