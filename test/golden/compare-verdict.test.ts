// compareGolden's statistics and verdict on hand-made rows (src/golden/compare-stats.ts): ties within TIE,
// the rows each statistic uses (and rows a damaged report leaves a variant out of), McNemar's counts, and `expect: { better, minDelta }` at its boundary, with
// the exact messages.
import { describe, expect, test } from 'vitest'
import { comparePair, compareStatistics, differingRows, expectationVerdict, passStatistics, scorerComparisons, TIE } from '../../src/golden/compare-stats.js'
import type { CompareRow } from '../../src/golden/report.js'

const bootstrap = { resamples: 200, seed: 42, confidence: 0.95 }
const options = (expect?: { better: string; scorer?: string; minDelta?: number }) => ({ ...bootstrap, ...(expect ? { expect } : {}) })

/** A row: per variant its score on `x` (undefined: not scored), its pass, and its output (null: errored). */
function row(id: string, per: Record<string, { x?: number; pass?: boolean; output?: string | null }>): CompareRow {
  const variants = Object.keys(per)
  return {
    id,
    input: `q ${id}`,
    outputs: Object.fromEntries(variants.map((v) => [v, per[v]!.output === undefined ? `out ${v}` : per[v]!.output!])),
    pass: Object.fromEntries(variants.map((v) => [v, per[v]!.pass ?? true])),
    scores: Object.fromEntries(variants.map((v) => [v, (per[v]!.x === undefined ? {} : { x: per[v]!.x! }) as Record<string, number>])),
  }
}

describe('comparePair', () => {
  test('a difference of exactly TIE is a tie; beyond it, a win or a loss for b', () => {
    expect(TIE).toBe(1e-9)
    const pair = comparePair('a', 'b', [0, 0, 0, 0, 0], [TIE, -TIE, 3e-9, -3e-9, 0.5], bootstrap)
    expect(pair).toMatchObject({ a: 'a', b: 'b', cases: 5, wins: 2, ties: 2, losses: 1 })
    expect(pair.meanDiff).toBeCloseTo(0.1, 9)
    expect(pair.ci).toMatchObject({ confidence: 0.95, resamples: 200, seed: 42 })
    expect(pair.ci.low).toBeLessThanOrEqual(pair.meanDiff)
    expect(pair.ci.high).toBeGreaterThanOrEqual(pair.meanDiff)
  })
})

describe('scorerComparisons', () => {
  test('only rows every variant was scored on; each later variant against the first; a scorer with no such row is left out', () => {
    const rows = [
      row('1', { a: { x: 0 }, b: { x: 1 }, c: { x: 0.5 } }),
      row('2', { a: { x: 1 }, b: { x: 1 }, c: { x: 0.5 } }),
      row('3', { a: { x: 1 }, b: {}, c: { x: 0 } }),
    ]
    const [x, ...rest] = scorerComparisons(rows, ['a', 'b', 'c'], ['x', 'never'], bootstrap)
    expect(rest).toEqual([])
    expect(x!.scorer).toBe('x')
    expect(x!.means).toEqual({ a: 0.5, b: 1, c: 0.5 })
    expect(x!.pairs.map((p) => [p.a, p.b, p.cases, p.wins, p.ties, p.losses])).toEqual([
      ['a', 'b', 2, 1, 1, 0],
      ['a', 'c', 2, 1, 0, 1],
    ])
  })

  test('a row with no scores at all for a variant (a damaged report row) is left out, not a crash', () => {
    const rows = [row('1', { a: { x: 0 }, b: { x: 1 } }), { ...row('2', { a: { x: 1 }, b: { x: 0 } }), scores: { a: { x: 1 } } }]
    const [x] = scorerComparisons(rows, ['a', 'b'], ['x'], bootstrap)
    expect(x!.means).toEqual({ a: 0, b: 1 })
    expect(x!.pairs.map((p) => [p.cases, p.wins, p.ties, p.losses])).toEqual([[1, 1, 0, 0]])
  })
})

describe('passStatistics', () => {
  test('pass rates over the rows every variant answered; McNemar counts the discordant pairs of each variant against the first', () => {
    const rows = [
      row('1', { a: { pass: true }, b: { pass: false } }),
      row('2', { a: { pass: false }, b: { pass: true } }),
      row('3', { a: { pass: false }, b: { pass: true } }),
      row('4', { a: { pass: true }, b: { pass: true } }),
      row('5', { a: { pass: true, output: null }, b: { pass: true } }),
    ]
    const stats = passStatistics(rows, ['a', 'b'])
    expect(stats.passRates).toEqual({ a: 0.5, b: 0.75 })
    expect(stats.mcnemar).toEqual([{ a: 'a', b: 'b', aOnly: 1, bOnly: 2, pValue: 1, method: 'exact' }])
  })

  test('no row answered by every variant: pass rates of 0', () => {
    expect(passStatistics([row('1', { a: { output: null }, b: {} })], ['a', 'b']).passRates).toEqual({ a: 0, b: 0 })
  })

  test('a row with no output entry for a variant is not answered by it: left out', () => {
    const rows = [row('1', { a: { pass: true }, b: { pass: false } }), { ...row('2', { a: { pass: false }, b: { pass: false } }), outputs: { b: 'out b' } }]
    // Row 2 counted would give a 1/2 and b 0/2.
    expect(passStatistics(rows, ['a', 'b'])).toEqual({
      passRates: { a: 1, b: 0 },
      mcnemar: [{ a: 'a', b: 'b', aOnly: 1, bOnly: 0, pValue: 1, method: 'exact' }],
    })
  })
})

describe('expectationVerdict', () => {
  // Differences of exactly 0.5 (binary fractions), so the interval's low end is exactly 0.5.
  const better = [row('1', { a: { x: 0 }, b: { x: 0.5 } }), row('2', { a: { x: 0.25 }, b: { x: 0.75 } }), row('3', { a: { x: 0.5 }, b: { x: 1 } })]
  const verdict = (rows: CompareRow[], e: { better: string; scorer?: string; minDelta?: number }, variants = ['a', 'b']) =>
    expectationVerdict(rows, variants, scorerComparisons(rows, variants, ['x'], bootstrap), ['x'], options(e))

  test('none without expect', () => {
    expect(expectationVerdict(better, ['a', 'b'], [], ['x'], options())).toBeNull()
  })

  test('supported: the interval lies above minDelta (default 0)', () => {
    expect(verdict(better, { better: 'b' })).toEqual({
      better: 'b',
      scorer: 'x',
      minDelta: 0,
      ok: true,
      message: 'b is better: b vs a on x: mean difference +0.500, 95% CI [+0.500, +0.500] is above 0',
    })
  })

  test('an interval whose low end equals minDelta does not lie above it', () => {
    expect(verdict(better, { better: 'b', minDelta: 0.5 })).toMatchObject({
      ok: false,
      minDelta: 0.5,
      message: 'b is not shown to be better than a by more than 0.5: b vs a on x: mean difference +0.500, 95% CI [+0.500, +0.500] does not lie above 0.5',
    })
    expect(verdict(better, { better: 'b', minDelta: 0.499 })!.ok).toBe(true)
  })

  test('supported against every rival: one line per rival, joined by "; "', () => {
    const rows = [row('1', { a: { x: 0 }, b: { x: 0.5 }, c: { x: 0 } }), row('2', { a: { x: 0.25 }, b: { x: 0.75 }, c: { x: 0.25 } })]
    expect(verdict(rows, { better: 'b' }, ['a', 'b', 'c'])!.message).toBe(
      'b is better: b vs a on x: mean difference +0.500, 95% CI [+0.500, +0.500] is above 0; ' +
        'b vs c on x: mean difference +0.500, 95% CI [+0.500, +0.500] is above 0',
    )
  })

  test('decides on the rows every variant was scored on: a row a variant has no score or no scores at all for is left out', () => {
    // Either row counted would put a difference other than +0.5 (or no number) into the interval.
    const rows = [...better, row('4', { a: { x: 1 }, b: {} }), { ...row('5', { a: { x: 1 }, b: { x: 0 } }), scores: { a: { x: 1 } } }]
    expect(verdict(rows, { better: 'b' })).toEqual({
      better: 'b',
      scorer: 'x',
      minDelta: 0,
      ok: true,
      message: 'b is better: b vs a on x: mean difference +0.500, 95% CI [+0.500, +0.500] is above 0',
    })
  })

  test('the worse variant is not better; a negative difference is shown with its sign', () => {
    expect(verdict(better, { better: 'a' })!.message).toBe(
      'a is not shown to be better than b: a vs b on x: mean difference -0.500, 95% CI [-0.500, -0.500] does not lie above 0',
    )
  })

  test('against several rivals, every one must be beaten', () => {
    const rows = [row('1', { a: { x: 0 }, b: { x: 0.5 }, c: { x: 0.5 } }), row('2', { a: { x: 0 }, b: { x: 0.5 }, c: { x: 0.5 } })]
    const v = verdict(rows, { better: 'b' }, ['a', 'b', 'c'])
    expect(v!.ok).toBe(false)
    expect(v!.message).toBe(
      'b is not shown to be better than a, c: b vs a on x: mean difference +0.500, 95% CI [+0.500, +0.500] is above 0; ' +
        'b vs c on x: mean difference +0.000, 95% CI [+0.000, +0.000] does not lie above 0',
    )
  })

  test('a scorer that scored no row for every variant fails the expectation and says so', () => {
    const rows = [row('1', { a: { x: 0 }, b: {} })]
    expect(verdict(rows, { better: 'b' })).toEqual({
      better: 'b',
      scorer: 'x',
      minDelta: 0,
      ok: false,
      message: 'b is not shown to be better than a: no case was scored by "x" for every variant',
    })
    expect(expectationVerdict(rows, ['a', 'b'], [], [], options({ better: 'b' }))!.message).toBe(
      'b is not shown to be better than a: no case was scored by "" for every variant',
    )
  })

  test('the CI percentage follows the confidence', () => {
    const rows = better
    const v = expectationVerdict(rows, ['a', 'b'], scorerComparisons(rows, ['a', 'b'], ['x'], bootstrap), ['x'], {
      ...options({ better: 'b' }),
      confidence: 0.9,
    })
    expect(v!.message).toContain(', 90% CI [')
  })
})

describe('differingRows', () => {
  test('a row differs when a verdict differs, a score differs beyond TIE, or a score is missing on one side', () => {
    const rows = [
      row('same', { a: { x: 0.5 }, b: { x: 0.5 + TIE / 2 } }),
      row('verdict', { a: { x: 0.5, pass: true }, b: { x: 0.5, pass: false } }),
      row('score', { a: { x: 0.5 }, b: { x: 0.6 } }),
      row('missing', { a: { x: 0.5 }, b: {} }),
    ]
    const differing = differingRows(rows, ['a', 'b'])
    expect(differing.map((d) => d.id)).toEqual(['verdict', 'score', 'missing'])
    expect(differing[0]).toEqual({ id: 'verdict', input: 'q verdict', outputs: rows[1]!.outputs, pass: rows[1]!.pass, scores: rows[1]!.scores })
  })

  test('a score difference of exactly TIE is a tie', () => {
    // |1e-9 - 0| = 1e-9 exactly, which is not beyond TIE.
    expect(differingRows([row('tie', { a: { x: 0 }, b: { x: TIE } })], ['a', 'b'])).toEqual([])
  })

  test('a score missing on one side differs from any score on the other, even 1 (a missing score counts as -1)', () => {
    const rows = [row('first missing', { a: {}, b: { x: 1 } }), row('other missing', { a: { x: 1 }, b: {} })]
    expect(differingRows(rows, ['a', 'b']).map((d) => d.id)).toEqual(['first missing', 'other missing'])
  })

  test('a variant with no scores at all (a damaged report row) differs from one that has a score, not a crash', () => {
    const base = row('r', { a: { x: 0.5 }, b: { x: 0.5 } })
    const rows: CompareRow[] = [
      { ...base, id: 'no first', scores: { b: { x: 0.5 } } },
      { ...base, id: 'no other', scores: { a: { x: 0.5 } } },
    ]
    expect(differingRows(rows, ['a', 'b']).map((d) => d.id)).toEqual(['no first', 'no other'])
  })

  test('one score differing is enough, the others tied', () => {
    const r = { ...row('one of two', { a: {}, b: {} }), scores: { a: { x: 0.5, y: 0.5 }, b: { x: 0.5, y: 0.7 } } }
    expect(differingRows([r], ['a', 'b']).map((d) => d.id)).toEqual(['one of two'])
  })
})

test('compareStatistics puts the parts together', () => {
  const rows = [row('1', { a: { x: 0, pass: false }, b: { x: 1 } })]
  const stats = compareStatistics(rows, ['a', 'b'], ['x'], options({ better: 'b' }))
  expect(stats.scorers.map((s) => s.scorer)).toEqual(['x'])
  expect(stats.passRates).toEqual({ a: 0, b: 1 })
  expect(stats.mcnemar[0]).toMatchObject({ aOnly: 0, bOnly: 1 })
  expect(stats.expectation).toMatchObject({ better: 'b', ok: true })
  expect(stats.differing.map((d) => d.id)).toEqual(['1'])
})

test('compareStatistics runs the bootstrap with the options given', () => {
  const rows = [row('1', { a: { x: 0 }, b: { x: 1 } }), row('2', { a: { x: 0 }, b: { x: 1 } })]
  const stats = compareStatistics(rows, ['a', 'b'], ['x'], { resamples: 50, seed: 7, confidence: 0.9 })
  // Every paired difference is 1, so every resample's mean is 1.
  expect(stats.scorers[0]!.pairs[0]!.ci).toEqual({ low: 1, high: 1, confidence: 0.9, resamples: 50, seed: 7 })
})
