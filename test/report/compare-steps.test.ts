// The named steps of a merged comparison's statistics (src/report/merge.ts), on hand-made rows.
import { describe, expect, test } from 'vitest'
import type { CompareRow } from '../../src/golden/report.js'
import { differingRows, expectationVerdict, passStatistics, scorerComparisons } from '../../src/report/merge.js'

const row = (id: string, a: number, b: number, passA = true, passB = true): CompareRow =>
  ({ id, input: id, tags: [], outputs: { a: 'x', b: 'y' }, pass: { a: passA, b: passB }, scores: { a: { rougeL: a }, b: { rougeL: b } } }) as never
const rows = [row('1', 0.2, 0.6), row('2', 0.4, 0.4, true, false), row('3', 0.6, 0.8, false, true)]
const bootstrap = { resamples: 200, seed: 1, confidence: 0.95 }

describe('scorerComparisons', () => {
  test('each variant mean over the rows scored for every variant, and a pair against the first', () => {
    const [rouge] = scorerComparisons(rows, ['a', 'b'], ['rougeL', 'semantic'], bootstrap)
    expect(rouge!.means.a).toBeCloseTo(0.4, 15)
    expect(rouge!.means.b).toBeCloseTo(0.6, 15)
    expect(rouge!.pairs).toHaveLength(1)
    expect(rouge!.pairs[0]).toMatchObject({ a: 'a', b: 'b', cases: 3, wins: 2, ties: 1, losses: 0 })
  })
})

describe('passStatistics', () => {
  test('pass rates and the discordant counts of McNemar', () => {
    const { passRates, mcnemar } = passStatistics(rows, ['a', 'b'])
    expect(passRates).toEqual({ a: 2 / 3, b: 2 / 3 })
    expect(mcnemar[0]).toMatchObject({ a: 'a', b: 'b', aOnly: 1, bOnly: 1 })
  })
})

describe('expectationVerdict', () => {
  const options = { ...bootstrap, expect: { better: 'b', scorer: 'semantic' } } as never

  test('none without expect', () => {
    expect(expectationVerdict(rows, ['a', 'b'], [], ['rougeL'], bootstrap as never)).toBeNull()
  })

  test('fails when no case was scored by the scorer for every variant', () => {
    expect(expectationVerdict(rows, ['a', 'b'], [], ['rougeL'], options)).toEqual({
      better: 'b',
      scorer: 'semantic',
      minDelta: 0,
      ok: false,
      message: 'b is not shown to be better than a: no case was scored by "semantic" for every variant',
    })
  })
})

describe('differingRows', () => {
  test('rows whose verdict or score differs from the first variant beyond a tie', () => {
    expect(differingRows([...rows, row('4', 0.5, 0.5)], ['a', 'b']).map((r) => r.id)).toEqual(['1', '2', '3'])
  })
})
