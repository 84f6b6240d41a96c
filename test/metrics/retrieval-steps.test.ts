// The named steps of retrievalScores (src/metrics/retrieval.ts), each on hand-made input.
import { describe, expect, test } from 'vitest'
import { idealDcg, readRelevant, readRetrievalOptions, readRetrieved, walkRanking } from '../../src/metrics/retrieval.js'

describe('readRetrieved', () => {
  test('ids and scored items; scores on all or none', () => {
    expect(readRetrieved(['a', 'b'])).toEqual({
      items: [
        { id: 'a', score: undefined },
        { id: 'b', score: undefined },
      ],
      hasScores: false,
    })
    expect(readRetrieved([{ id: 'a', score: 0.5 }]).hasScores).toBe(true)
    expect(() => readRetrieved([{ id: 'a', score: 0.5 }, 'b'])).toThrow('1 of 2 retrieved items have a score but item 1 ("b") has none')
  })
})

describe('readRelevant', () => {
  test('a non-empty list of strings', () => {
    expect(() => readRelevant(['a'])).not.toThrow()
    expect(() => readRelevant([])).toThrow('the relevant ids are empty')
    expect(() => readRelevant(['a', 3 as never])).toThrow('relevant id 1 is not a string: a number (3)')
  })
})

describe('readRetrievalOptions', () => {
  test('k defaults to every item (at least 1); minScore needs scores', () => {
    expect(readRetrievalOptions({}, 4, false)).toEqual({ k: 4, minScore: undefined })
    expect(readRetrievalOptions({}, 0, false)).toEqual({ k: 1, minScore: undefined })
    expect(readRetrievalOptions({ k: 2, minScore: 0.3 }, 4, true)).toEqual({ k: 2, minScore: 0.3 })
    expect(() => readRetrievalOptions({ k: 0 }, 4, false)).toThrow('k must be a positive integer, got a number (0)')
    expect(() => readRetrievalOptions({ minScore: 0.3 }, 4, false)).toThrow('minScore is set but the retrieved items have no scores')
  })
})

describe('walkRanking', () => {
  test('first ranks, top-k occurrences, distinct hits and DCG', () => {
    const ranking = ['x', 'a', 'a', 'b', 'c'].map((id) => ({ id, score: undefined }))
    const walk = walkRanking(ranking, new Set(['a', 'c']), 3)
    expect(walk.firstRank).toEqual(
      new Map([
        ['a', 2],
        ['c', 5],
      ]),
    )
    expect(walk.occurrencesInTopK.get('a')).toBe(2)
    expect(walk).toMatchObject({ found: 1, firstHitRank: 2, dcg: 1 / Math.log2(3) })
  })
})

describe('idealDcg', () => {
  test('min(k, relevant) hits ranked first', () => {
    expect(idealDcg(3, 1)).toBe(1)
    expect(idealDcg(2, 5)).toBeCloseTo(1 + 1 / Math.log2(3), 15)
  })
})
