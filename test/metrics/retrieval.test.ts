import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { retrievalScores, type RetrievedItem } from '../../src/metrics/retrieval.js'

const log2 = Math.log2

describe('retrievalScores: metrics', () => {
  test('precision, recall, reciprocal rank and nDCG for a ranked list of ids', () => {
    const r = retrievalScores(['d3', 'd1', 'd7', 'd2'], ['d1', 'd2', 'd9'], { k: 3 })
    expect(r.precision).toBe(1 / 3)
    expect(r.recall).toBe(1 / 3)
    expect(r.mrr).toBe(1 / 2)
    expect(r.ndcg).toBeCloseTo(1 / log2(3) / (1 + 1 / log2(3) + 1 / log2(4)), 15)
    expect(r.hit).toBe(true)
    expect(r.k).toBe(3)
  })

  test('k defaults to the number of retrieved items', () => {
    const r = retrievalScores(['a', 'b', 'c', 'd'], ['d'])
    expect(r.k).toBe(4)
    expect(r.precision).toBe(1 / 4)
    expect(r.mrr).toBe(1 / 4)
  })

  test('a relevant item below k does not count', () => {
    const r = retrievalScores(['a', 'b', 'c'], ['c'], { k: 2 })
    expect([r.hit, r.precision, r.recall, r.mrr, r.ndcg]).toEqual([false, 0, 0, 0, 0])
    expect(r.ranks).toStrictEqual([{ id: 'c', rank: 3, lucky: false, reason: 'ranked 3, outside the top 2' }])
  })

  test('nDCG is 1 when all relevant items come first', () => {
    expect(retrievalScores(['a', 'b', 'x'], ['b', 'a'], { k: 3 }).ndcg).toBe(1)
  })

  test('the ideal DCG uses min(k, number of relevant ids)', () => {
    // 3 relevant ids but k = 1: one relevant item at rank 1 is ideal.
    expect(retrievalScores(['a', 'x'], ['a', 'b', 'c'], { k: 1 }).ndcg).toBe(1)
  })

  test('sorts items by score, highest first', () => {
    const r = retrievalScores(
      [
        { id: 'low', score: 0.1 },
        { id: 'high', score: 0.9 },
        { id: 'mid', score: 0.5 },
      ],
      ['high'],
      { k: 1 },
    )
    expect(r.mrr).toBe(1)
    expect(r.ranks[0]).toEqual({ id: 'high', rank: 1, score: 0.9, lucky: false })
  })

  test('items given as { id } without a score keep their given order, and their ranks have no score', () => {
    const r = retrievalScores([{ id: 'a' }, { id: 'b' }], ['b'])
    expect(r.mrr).toBe(1 / 2)
    expect(r.ranks).toStrictEqual([{ id: 'b', rank: 2, lucky: false }])
  })

  test('equal scores keep their given order (stable)', () => {
    const r = retrievalScores(
      [
        { id: 'x', score: 0.5 },
        { id: 'y', score: 0.5 },
        { id: 'z', score: 0.5 },
      ],
      ['y'],
    )
    expect(r.ranks[0]?.rank).toBe(2)
  })

  test('an id retrieved twice counts once, at its best rank, so precision stays <= 1', () => {
    const r = retrievalScores(['a', 'a', 'a'], ['a'])
    expect(r.precision).toBe(1 / 3)
    expect(r.recall).toBe(1)
    expect(r.ndcg).toBe(1)
    expect(r.ranks[0]?.rank).toBe(1)
  })

  test('duplicate relevant ids count once', () => {
    const r = retrievalScores(['a', 'b'], ['a', 'a'])
    expect(r.recall).toBe(1)
    expect(r.ranks).toHaveLength(1)
  })

  test('when fewer than k items were retrieved, the missing positions count as irrelevant', () => {
    const r = retrievalScores(['a', 'b'], ['a', 'b'], { k: 4 })
    expect(r.precision).toBe(2 / 4)
    expect(r.recall).toBe(1)
    expect(r.ndcg).toBe(1)
  })

  test('an empty result retrieves nothing', () => {
    const r = retrievalScores([], ['a'])
    expect(r).toMatchObject({ hit: false, precision: 0, recall: 0, mrr: 0, ndcg: 0, luckyTie: false, k: 1 })
    expect(r.ranks).toEqual([{ id: 'a', rank: null, lucky: false, reason: 'not retrieved' }])
  })
})

describe('retrievalScores: lucky ties and minScore', () => {
  const faq = { id: 'faq', score: 0.9 }

  test('a relevant item tied with an irrelevant item just below the cut-off is lucky', () => {
    const r = retrievalScores([faq, { id: 'refunds', score: 0.71 }, { id: 'shipping', score: 0.71 }], ['refunds'], { k: 2 })
    expect(r.luckyTie).toBe(true)
    expect(r.hit).toBe(false)
    expect(r.ranks[0]?.lucky).toBe(true)
    expect(r.ranks[0]?.reason).toMatch(/ties at score 0\.71 with irrelevant "shipping"/)
    // The standard metrics still count it.
    expect(r.recall).toBe(1)
  })

  test('a tie inside the top k is not lucky', () => {
    const r = retrievalScores(
      [
        { id: 'refunds', score: 0.71 },
        { id: 'shipping', score: 0.71 },
        { id: 'other', score: 0.2 },
      ],
      ['refunds'],
      { k: 2 },
    )
    expect(r.luckyTie).toBe(false)
    expect(r.hit).toBe(true)
  })

  test('a relevant item scored above the cut-off score is not lucky, even if others tie at the cut-off', () => {
    const r = retrievalScores(
      [
        { id: 'refunds', score: 0.9 },
        { id: 'x', score: 0.5 },
        { id: 'y', score: 0.5 },
      ],
      ['refunds'],
      { k: 2 },
    )
    expect(r.luckyTie).toBe(false)
    expect(r.hit).toBe(true)
  })

  test('a tie with another relevant item across the cut-off is not lucky', () => {
    const r = retrievalScores([faq, { id: 'refunds', score: 0.7 }, { id: 'returns', score: 0.7 }], ['refunds', 'returns'], { k: 2 })
    expect(r.luckyTie).toBe(false)
    expect(r.hit).toBe(true)
    expect(r.ranks[1]).toMatchObject({ id: 'returns', rank: 3, lucky: false })
  })

  test('two copies of the relevant id in the tie need two irrelevant items to be pushed out', () => {
    const items = (irrelevant: number): RetrievedItem[] => [
      faq,
      { id: 'r', score: 0.5 },
      { id: 'r', score: 0.5 },
      ...Array.from({ length: irrelevant }, (_, i) => ({ id: `x${i}`, score: 0.5 })),
    ]
    expect(retrievalScores(items(1), ['r'], { k: 3 }).luckyTie).toBe(false)
    expect(retrievalScores(items(2), ['r'], { k: 3 }).luckyTie).toBe(true)
  })

  test('a clean hit and a lucky one give hit and luckyTie together', () => {
    const r = retrievalScores(
      [
        { id: 'a', score: 0.9 },
        { id: 'b', score: 0.5 },
        { id: 'x', score: 0.5 },
      ],
      ['a', 'b'],
      { k: 2 },
    )
    expect(r.hit).toBe(true)
    expect(r.luckyTie).toBe(true)
    expect(r.ranks.map((rank) => rank.lucky)).toEqual([false, true])
  })

  test('a relevant item whose score is not above minScore is lucky', () => {
    const items = [
      { id: 'a', score: 0.75 },
      { id: 'b', score: 0.6 },
    ]
    const equal = retrievalScores(items, ['a'], { minScore: 0.75 })
    expect(equal.luckyTie).toBe(true)
    expect(equal.hit).toBe(false)
    expect(equal.ranks[0]?.reason).toBe('its score 0.75 is not above minScore 0.75')
    expect(retrievalScores(items, ['a'], { minScore: 0.7 }).hit).toBe(true)
  })

  test('a relevant item both under minScore and tied at the cut-off gives both reasons', () => {
    const r = retrievalScores([faq, { id: 'a', score: 0.5 }, { id: 'x', score: 0.5 }], ['a'], { k: 2, minScore: 0.6 })
    expect(r.ranks[0]?.reason).toBe(
      'its score 0.5 is not above minScore 0.6; it ties at score 0.5 with irrelevant "x" ranked just outside the top 2, so it is in the top 2 only by tie order',
    )
  })

  test('relevant items below k are never lucky', () => {
    const r = retrievalScores(
      [
        { id: 'x', score: 0.9 },
        { id: 'a', score: 0.1 },
      ],
      ['a'],
      { k: 1, minScore: 0.5 },
    )
    expect(r.luckyTie).toBe(false)
    expect(r.ranks[0]?.lucky).toBe(false)
  })

  test('ids without scores never tie', () => {
    expect(retrievalScores(['x', 'a', 'b'], ['a'], { k: 2 }).luckyTie).toBe(false)
  })
})

describe('retrievalScores: input errors', () => {
  test('an empty relevant list is a TypeError: nothing to check', () => {
    expect(() => retrievalScores(['a'], [])).toThrow(/nothing to check/)
  })

  test('k must be a positive integer', () => {
    for (const k of [0, -1, 1.5, Number.NaN, Infinity, '2']) {
      expect(() => retrievalScores(['a'], ['a'], { k: k as number })).toThrow(/k must be a positive integer/)
    }
  })

  test('retrieved must be an array of ids or { id, score } objects', () => {
    expect(() => retrievalScores('a' as unknown as string[], ['a'])).toThrow(/must be an array/)
    expect(() => retrievalScores([42] as unknown as string[], ['a'])).toThrow(/item 0 must be an id string/)
    expect(() => retrievalScores([{ score: 1 }] as unknown as string[], ['a'])).toThrow(/id that is not a string/)
    expect(() => retrievalScores([{ id: 'a', score: Number.NaN }], ['a'])).toThrow(/not a finite number/)
  })

  test('scores on some items but not others are rejected', () => {
    expect(() => retrievalScores([{ id: 'a', score: 1 }, 'b'], ['a'])).toThrow(/item 1 \("b"\) has none/)
  })

  test('minScore must be finite and needs scores', () => {
    expect(() => retrievalScores([{ id: 'a', score: 1 }], ['a'], { minScore: Number.NaN })).toThrow(/minScore must be a finite number/)
    expect(() => retrievalScores(['a'], ['a'], { minScore: 0.5 })).toThrow(/no scores/)
  })

  test('relevant ids must be strings', () => {
    expect(() => retrievalScores(['a'], [1] as unknown as string[])).toThrow(/relevant id 0 is not a string/)
  })
})

/**
 * Brute force of the documented lucky definition: R (in the top k) is lucky iff some ordering that is
 * still sorted by score puts every copy of R outside the top k while the only items that enter the
 * top k are irrelevant ones (nothing else leaves). Orders are enumerated by permuting item indices.
 */
function bruteForceLucky(items: { id: string; score: number }[], relevant: Set<string>, k: number, id: string): boolean {
  const sorted = items.map((item, index) => ({ ...item, index })).sort((a, b) => b.score - a.score)
  const topK = new Set(sorted.slice(0, k).map((item) => item.index))
  if (!sorted.slice(0, k).some((item) => item.id === id)) return false
  const permutations = (xs: number[]): number[][] =>
    xs.length <= 1 ? [xs] : xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]))
  return permutations(items.map((_, i) => i)).some((order) => {
    const scores = order.map((i) => (items[i] as { score: number }).score)
    if (scores.some((s, i) => i > 0 && s > (scores[i - 1] as number))) return false
    const newTop = new Set(order.slice(0, k))
    if ([...newTop].some((i) => (items[i] as { id: string }).id === id)) return false
    const left = [...topK].filter((i) => !newTop.has(i))
    const entered = [...newTop].filter((i) => !topK.has(i))
    return left.every((i) => (items[i] as { id: string }).id === id) && entered.every((i) => !relevant.has((items[i] as { id: string }).id))
  })
}

describe('properties', () => {
  const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e')
  const scoredItems = fc.array(fc.record({ id: ids, score: fc.constantFrom(0.2, 0.5, 0.5, 0.8, 1) }), { maxLength: 6 })
  const relevantIds = fc.array(ids, { minLength: 1, maxLength: 3 })

  test('every value is in [0, 1] and hit / luckyTie agree with the ranks', () => {
    fc.assert(
      fc.property(scoredItems, relevantIds, fc.integer({ min: 1, max: 8 }), fc.option(fc.constantFrom(0.2, 0.5, 0.8)), (items, relevant, k, minScore) => {
        const r = retrievalScores(items, relevant, minScore === null ? { k } : { k, minScore })
        for (const value of [r.precision, r.recall, r.mrr, r.ndcg]) {
          expect(value).toBeGreaterThanOrEqual(0)
          expect(value).toBeLessThanOrEqual(1)
        }
        const inTopK = r.ranks.filter((rank) => rank.rank !== null && rank.rank <= k)
        expect(r.hit).toBe(inTopK.some((rank) => !rank.lucky))
        expect(r.luckyTie).toBe(inTopK.some((rank) => rank.lucky))
        expect(r.recall).toBe(inTopK.length / r.ranks.length)
        expect(r.mrr > 0).toBe(inTopK.length > 0)
      }),
    )
  })

  test('the lucky flag matches a brute-force search over all score-consistent orderings', () => {
    fc.assert(
      fc.property(scoredItems, relevantIds, fc.integer({ min: 1, max: 6 }), (items, relevant, k) => {
        const r = retrievalScores(items, relevant, { k })
        const relevantSet = new Set(relevant)
        for (const rank of r.ranks) {
          expect(rank.lucky, `${JSON.stringify(items)} relevant ${relevant} k ${k} id ${rank.id}`).toBe(bruteForceLucky(items, relevantSet, k, rank.id))
        }
      }),
      { numRuns: 300 },
    )
  })

  test('the input order of items with distinct scores does not matter', () => {
    const distinct = fc.uniqueArray(fc.record({ id: ids, score: fc.integer({ min: 0, max: 100 }) }), {
      selector: (item) => item.score,
      maxLength: 6,
    })
    fc.assert(
      fc.property(distinct, relevantIds, fc.integer({ min: 1, max: 6 }), (items, relevant, k) => {
        expect(retrievalScores([...items].reverse(), relevant, { k })).toEqual(retrievalScores(items, relevant, { k }))
      }),
    )
  })

  test('retrieving exactly the relevant ids, once each, is perfect', () => {
    fc.assert(
      fc.property(fc.uniqueArray(ids, { minLength: 1 }), (relevant) => {
        const r = retrievalScores(relevant, relevant)
        expect([r.hit, r.precision, r.recall, r.mrr, r.ndcg, r.luckyTie]).toEqual([true, 1, 1, 1, 1, false])
      }),
    )
  })
})
