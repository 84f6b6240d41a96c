import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toRetrieve.js'
import { failureMessage } from '../helpers/failure-message.js'

expect.extend(matcher)

const ids = ['faq', 'refund-policy', 'shipping', 'passwords']
const scored = [
  { id: 'faq', score: 0.91 },
  { id: 'refund-policy', score: 0.71 },
  { id: 'shipping', score: 0.71 },
  { id: 'passwords', score: 0.4 },
]

describe('.toRetrieve', () => {
  test('passes when a relevant id is within the top k', () => {
    expect(ids).toRetrieve(['refund-policy'], { k: 2 })
  })

  test('passes when a relevant id is exactly at rank k (inclusive)', () => {
    expect(ids).toRetrieve(['shipping'], { k: 3 })
  })

  test('passes anywhere in the list when k is not given', () => {
    expect(ids).toRetrieve(['passwords'])
  })

  test('passes when one of several relevant ids is in the top k', () => {
    expect(ids).toRetrieve(['returns', 'faq'], { k: 1 })
  })

  test('passes with scored items given in any order, ranked by score', () => {
    expect([
      { id: 'passwords', score: 0.2 },
      { id: 'refund-policy', score: 0.8 },
    ]).toRetrieve(['refund-policy'], { k: 1 })
  })

  test('passes when a tie at the cut-off is only with another relevant item', () => {
    expect(scored).toRetrieve(['refund-policy', 'shipping'], { k: 2 })
  })

  test('passes when one hit is clean even though another is a lucky tie', () => {
    expect(scored).toRetrieve(['refund-policy', 'faq'], { k: 2 })
  })

  test('passes when the score is above minScore', () => {
    expect(scored).toRetrieve(['faq'], { k: 1, minScore: 0.9 })
  })

  test('fails when the relevant id is ranked below k', () => {
    expect(failureMessage(() => expect(ids).toRetrieve(['passwords'], { k: 2 }))).toMatchInlineSnapshot(`
      "expect(retrieved).toRetrieve(relevantIds, options)

      Expected: a relevant id in the top 2, not there by luck
      Received: no relevant id in the top 2

      Relevant ids:
        "passwords": rank 4: outside the top 2

      precision@2 0, recall@2 0, MRR 0

      Retrieved (4):
         1. "faq"
         2. "refund-policy" (cut-off)
         3. "shipping"
         4. "passwords" (relevant)"
    `)
  })

  test('fails when the relevant id is not retrieved at all', () => {
    expect(failureMessage(() => expect(ids).toRetrieve(['returns'], { k: 3 }))).toMatchInlineSnapshot(`
      "expect(retrieved).toRetrieve(relevantIds, options)

      Expected: a relevant id in the top 3, not there by luck
      Received: no relevant id in the top 3

      Relevant ids:
        "returns": not retrieved

      precision@3 0, recall@3 0, MRR 0

      Retrieved (4):
         1. "faq"
         2. "refund-policy"
         3. "shipping" (cut-off)
         4. "passwords""
    `)
  })

  test('fails when the only hit ties with an irrelevant item at the cut-off', () => {
    expect(failureMessage(() => expect(scored).toRetrieve(['refund-policy'], { k: 2 }))).toMatchInlineSnapshot(`
      "expect(retrieved).toRetrieve(relevantIds, options)

      Expected: a relevant id in the top 2, not there by luck
      Received: only a lucky hit (a tie at the cut-off), which does not count

      Relevant ids:
        "refund-policy": rank 2, score 0.71: LUCKY, does not count: it ties at score 0.71 with irrelevant "shipping" ranked just outside the top 2, so it is in the top 2 only by tie order

      precision@2 0.5, recall@2 1, MRR 0.5

      Retrieved (4):
         1. "faq" 0.91
         2. "refund-policy" 0.71 (relevant, cut-off)
         3. "shipping" 0.71 (ties with the cut-off)
         4. "passwords" 0.4"
    `)
  })

  test('fails when the only hit has a score not above minScore', () => {
    expect(failureMessage(() => expect(scored).toRetrieve(['faq'], { k: 2, minScore: 0.95 }))).toMatchInlineSnapshot(`
      "expect(retrieved).toRetrieve(relevantIds, options)

      Expected: a relevant id in the top 2, not there by luck
      Received: only a lucky hit (a score not above minScore 0.95), which does not count

      Relevant ids:
        "faq": rank 1, score 0.91: LUCKY, does not count: its score 0.91 is not above minScore 0.95

      precision@2 0.5, recall@2 1, MRR 1

      Retrieved (4):
         1. "faq" 0.91 (relevant)
         2. "refund-policy" 0.71 (cut-off)
         3. "shipping" 0.71 (ties with the cut-off)
         4. "passwords" 0.4"
    `)
  })

  test('fails when one hit ties at the cut-off and another is under minScore, naming both causes', () => {
    expect(failureMessage(() => expect(scored).toRetrieve(['faq', 'refund-policy'], { k: 2, minScore: 0.95 }))).toContain(
      'Received: only lucky hits (a tie at the cut-off; a score not above minScore 0.95), which do not count',
    )
  })

  test('fails when nothing was retrieved', () => {
    expect(failureMessage(() => expect([]).toRetrieve(['faq'], { k: 3 }))).toMatchInlineSnapshot(`
      "expect(retrieved).toRetrieve(relevantIds, options)

      Expected: a relevant id in the top 3, not there by luck
      Received: no relevant id in the top 3

      Relevant ids:
        "faq": not retrieved

      precision@3 0, recall@3 0, MRR 0

      Retrieved: nothing (an empty list)"
    `)
  })

  test('fails when the received value is not an array', () => {
    expect(() => expect('faq').toRetrieve(['faq'])).toThrow(
      '[expect-llm] Failed to run toRetrieve: the received value must be the retrieved list (an array of ids or { id, score? } objects), got a string ("faq"). Pass the retriever results to expect(), mapped to ids or { id, score }.',
    )
  })

  test('fails when a retrieved item has no string id', () => {
    expect(() => expect([{ docId: 'faq' }]).toRetrieve(['faq'])).toThrow(
      '[expect-llm] Failed to run toRetrieve: retrieved item 0 has an id that is not a string: undefined. Give every item a string id.',
    )
  })

  test('fails when only some retrieved items have scores', () => {
    expect(() => expect([{ id: 'a', score: 0.5 }, 'b']).toRetrieve(['a'])).toThrow(
      '[expect-llm] Failed to run toRetrieve: 1 of 2 retrieved items have a score but item 1 ("b") has none, so the ranking is ambiguous. Give every item a score, or none (then the given order is the ranking).',
    )
  })

  test('fails when the relevant ids are missing', () => {
    expect(() => (expect(ids).toRetrieve as (...args: unknown[]) => void)()).toThrow(
      "[expect-llm] Failed to run toRetrieve: the relevant ids must be a non-empty array of strings, got undefined. Pass them as an array, e.g. ['refund-policy'].",
    )
  })

  test('fails when the relevant ids are a single string', () => {
    expect(() => expect(ids).toRetrieve('faq' as unknown as string[])).toThrow('the relevant ids must be a non-empty array of strings, got a string ("faq").')
  })

  test.each([
    [0, 'got 0'],
    [1.5, 'got 1.5'],
    ['3', 'got a string ("3")'],
  ])('fails when k is %s', (k, got) => {
    expect(() => expect(ids).toRetrieve(['faq'], { k: k as number })).toThrow(
      `[expect-llm] Failed to run toRetrieve: k must be an integer >= 1, ${got}. Pass a whole number such as 1.`,
    )
  })

  test('fails when minScore is NaN', () => {
    expect(() => expect(scored).toRetrieve(['faq'], { minScore: Number.NaN })).toThrow(
      'minScore must be a finite number, got NaN. Pass the lowest score that still counts, such as 0.75, or leave it out.',
    )
  })

  test('fails when minScore is set but the items have no scores', () => {
    expect(() => expect(ids).toRetrieve(['faq'], { minScore: 0.5 })).toThrow(
      '[expect-llm] Failed to run toRetrieve: minScore is set but the retrieved items have no scores. Pass items as { id, score } to check scores, or leave minScore out.',
    )
  })

  test('fails when an option is unknown', () => {
    expect(() => expect(ids).toRetrieve(['faq'], { topK: 3 } as never)).toThrow('unknown option "topK". Valid options are: k, minScore.')
  })
})

describe('.not.toRetrieve', () => {
  test('passes when the relevant id is below k', () => {
    expect(ids).not.toRetrieve(['passwords'], { k: 2 })
  })

  test('passes when the only hit is a lucky tie', () => {
    expect(scored).not.toRetrieve(['refund-policy'], { k: 2 })
  })

  test('fails when a relevant id is in the top k', () => {
    expect(failureMessage(() => expect(scored).not.toRetrieve(['faq', 'returns'], { k: 2 }))).toMatchInlineSnapshot(`
      "expect(retrieved).not.toRetrieve(relevantIds, options)

      Expected: no relevant id in the top 2 (lucky ones aside)
      Received: a hit: "faq" at rank 1

      Relevant ids:
        "faq": rank 1, score 0.91: hit
        "returns": not retrieved

      precision@2 0.5, recall@2 0.5, MRR 1

      Retrieved (4):
         1. "faq" 0.91 (relevant)
         2. "refund-policy" 0.71 (cut-off)
         3. "shipping" 0.71 (ties with the cut-off)
         4. "passwords" 0.4"
    `)
  })

  test('fails with a usage error, not a pass, when the received value is not an array', () => {
    expect(() => expect(undefined).not.toRetrieve(['faq'])).toThrow(
      'the received value must be the retrieved list (an array of ids or { id, score? } objects), got undefined.',
    )
  })
})

describe('toRetrieve messages, case by case', () => {
  const lines = (message: string) => message.split('\n')

  test('scored items given out of order are listed by score; a long list shows k + 3 of them', () => {
    const shuffled = [
      { id: 'e', score: 0.2 },
      { id: 'a', score: 0.9 },
      { id: 'c', score: 0.5 },
      { id: 'b', score: 0.8 },
      { id: 'f', score: 0.1 },
      { id: 'd', score: 0.3 },
      { id: 'g', score: 0.05 },
    ]
    // Ranked a, b | c, d, e, f, g: "c" is at rank 3, outside the top 2; MRR counts hits in the top k only.
    expect(failureMessage(() => expect(shuffled).toRetrieve(['c'], { k: 2 }))).toBe(
      [
        'expect(retrieved).toRetrieve(relevantIds, options)',
        '',
        'Expected: a relevant id in the top 2, not there by luck',
        'Received: no relevant id in the top 2',
        '',
        'Relevant ids:',
        '  "c": rank 3, score 0.5: outside the top 2',
        '',
        'precision@2 0, recall@2 0, MRR 0',
        '',
        'Retrieved (7, first 5 shown):',
        '   1. "a" 0.9',
        '   2. "b" 0.8 (cut-off)',
        '   3. "c" 0.5 (relevant)',
        '   4. "d" 0.3',
        '   5. "e" 0.2',
      ].join('\n'),
    )
  })

  test('without options the hint has no options argument, and k is the whole list', () => {
    expect(lines(failureMessage(() => expect(['a', 'b']).toRetrieve(['z'])))).toEqual([
      'expect(retrieved).toRetrieve(relevantIds)',
      '',
      'Expected: a relevant id in the top 2, not there by luck',
      'Received: no relevant id in the top 2',
      '',
      'Relevant ids:',
      '  "z": not retrieved',
      '',
      'precision@2 0, recall@2 0, MRR 0',
      '',
      'Retrieved (2):',
      '   1. "a"',
      '   2. "b"',
    ])
  })

  test('a list exactly k long has no cut-off mark', () => {
    expect(failureMessage(() => expect(['a', 'b']).toRetrieve(['z'], { k: 2 }))).toMatch(/\n {3}2\. "b"$/)
  })

  test('.not names every clean hit in the top k, the one at rank k included, and none below it', () => {
    expect(lines(failureMessage(() => expect(['a', 'b', 'c', 'd']).not.toRetrieve(['a', 'c', 'd'], { k: 3 })))[3]).toBe(
      'Received: a hit: "a" at rank 1, "c" at rank 3',
    )
  })

  // Relevant "c" at rank 2 of 3 with k 2 and minScore 0.8; the scores of a, c, d decide the cause.
  test.each([
    ['at the cut-off under minScore, with no tie: minScore only', [0.9, 0.7, 0.5], 'a score not above minScore 0.8'],
    ['tied with an irrelevant item inside the top k, not at the cut-off: minScore only', [0.7, 0.7, 0.5], 'a score not above minScore 0.8'],
    ['equal to minScore, which is not above it', [0.9, 0.8, 0.5], 'a score not above minScore 0.8'],
    ['tied at the cut-off above minScore: the tie only', [0.9, 0.85, 0.85], 'a tie at the cut-off'],
    ['tied at the cut-off under minScore: both causes', [0.9, 0.7, 0.7], 'a tie at the cut-off; a score not above minScore 0.8'],
  ])('a lucky hit %s', (_, [a, c, d], causes) => {
    const items = [
      { id: 'a', score: a as number },
      { id: 'c', score: c as number },
      { id: 'd', score: d as number },
    ]
    expect(lines(failureMessage(() => expect(items).toRetrieve(['c'], { k: 2, minScore: 0.8 })))[3]).toBe(
      `Received: only a lucky hit (${causes}), which does not count`,
    )
  })

  test('item errors from the engine become usage errors with the reason and the fix, word for word', () => {
    expect(failureMessage(() => expect([{ docId: 'faq' }]).toRetrieve(['faq']))).toBe(
      'expect(retrieved).toRetrieve(relevantIds)\n\n[expect-llm] Failed to run toRetrieve: retrieved item 0 has an id that is not a string: undefined. Give every item a string id.',
    )
    expect(failureMessage(() => expect([{ id: 'a', score: 0.5 }, 'b']).toRetrieve(['a'], {}))).toBe(
      'expect(retrieved).toRetrieve(relevantIds, options)\n\n[expect-llm] Failed to run toRetrieve: 1 of 2 retrieved items have a score but item 1 ("b") has none, so the ranking is ambiguous. Give every item a score, or none (then the given order is the ranking).',
    )
  })

  test('an error that is not about the retrieved items is thrown as it is, not restated', () => {
    const items = [
      {
        get id(): string {
          throw new Error('the id getter failed')
        },
      },
    ]
    expect(() => expect(items).toRetrieve(['faq'])).toThrow(new Error('the id getter failed'))
  })

  test('minScore that is not a number is described', () => {
    expect(failureMessage(() => expect(scored).toRetrieve(['faq'], { minScore: '0.5' as unknown as number }))).toBe(
      'expect(retrieved).toRetrieve(relevantIds, options)\n\n[expect-llm] Failed to run toRetrieve: minScore must be a finite number, got a string ("0.5"). Pass the lowest score that still counts, such as 0.75, or leave it out.',
    )
    expect(() => expect(scored).toRetrieve(['faq'], { minScore: Number.POSITIVE_INFINITY })).toThrow('minScore must be a finite number, got Infinity.')
  })
})
