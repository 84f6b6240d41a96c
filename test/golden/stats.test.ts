import { describe, expect, test } from 'vitest'
import { BootstrapAggregator, mcnemar, mean, pairedBootstrap, percentile, seededRandom } from '../../src/golden/stats.js'

describe('percentile', () => {
  test('interpolates linearly between closest ranks (NumPy default)', () => {
    // numpy.percentile([1, 2, 3, 4], 50) == 2.5; numpy.percentile([10, 20, 30, 40, 50], 95) == 48.0
    expect(percentile([4, 1, 3, 2], 50)).toBe(2.5)
    expect(percentile([10, 20, 30, 40, 50], 95)).toBeCloseTo(48, 12)
    expect(percentile([7], 99)).toBe(7)
    expect(percentile([], 50)).toBeUndefined()
  })
})

describe('mean', () => {
  test('is undefined for no values, not NaN', () => {
    expect(mean([])).toBeUndefined()
    expect(mean([0.5, 1, 0])).toBe(0.5)
  })
})

describe('seededRandom', () => {
  test('is mulberry32: the reference sequence for seed 42', () => {
    // From an independent implementation of mulberry32 (32-bit unsigned arithmetic).
    const random = seededRandom(42)
    expect([random(), random(), random()]).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099])
  })
})

describe('McNemar', () => {
  test('exact binomial for few discordant pairs, computed by hand', () => {
    // 2 × (C(10,0) + C(10,1)) / 2^10 = 22 / 1024
    expect(mcnemar(1, 9)).toEqual({ aOnly: 1, bOnly: 9, pValue: 0.021484375, method: 'exact' })
    expect(mcnemar(9, 1).pValue).toBe(0.021484375)
    // 24 discordant pairs is still exact: 2 × Σ_{i<=7} C(24,i) / 2^24
    expect(mcnemar(7, 17).pValue).toBeCloseTo(0.06391465663909912, 12)
    expect(mcnemar(5, 5).pValue).toBe(1)
    expect(mcnemar(0, 0)).toEqual({ aOnly: 0, bOnly: 0, pValue: 1, method: 'exact' })
  })

  test('switches to chi-square at exactly 25 discordant pairs, or at exactBelow', () => {
    expect(mcnemar(10, 15).method).toBe('chi-square')
    expect(mcnemar(10, 15, { exactBelow: 26 }).method).toBe('exact')
    expect(mcnemar(3, 6, { exactBelow: 9 }).method).toBe('chi-square')
  })

  test("chi-square from 25 discordant pairs on: Wikipedia's example (b = 121, c = 59)", () => {
    // https://en.wikipedia.org/wiki/McNemar%27s_test#Example: χ² = (121 − 59)² / (121 + 59) = 21.35 (no correction),
    // p = P(χ²₁ > 21.3556) = erfc(√(21.3556 / 2)) = 3.8151e-6.
    const plain = mcnemar(121, 59, { correction: false })
    expect(plain.method).toBe('chi-square')
    expect(plain.statistic).toBeCloseTo(21.355555555555554, 12)
    expect(plain.pValue / 3.8151358651125945e-6).toBeCloseTo(1, 5)
    // With Edwards' continuity correction (the default): (|121 − 59| − 1)² / 180 = 20.672, p = 5.4501e-6.
    const corrected = mcnemar(121, 59)
    expect(corrected.statistic).toBeCloseTo(20.67222222222222, 12)
    expect(corrected.pValue / 5.450094825427123e-6).toBeCloseTo(1, 5)
  })

  test('rejects counts that are not whole numbers', () => {
    expect(() => mcnemar(-1, 2)).toThrow("[expect-llm] Failed to run McNemar's test: aOnly must be a whole number >= 0, got -1.")
    expect(() => mcnemar(1, 2.5)).toThrow('bOnly must be a whole number')
  })
})

describe('paired bootstrap', () => {
  test('constant differences give a zero-width interval', () => {
    const r = pairedBootstrap([0.1, 0.5, 0.3], [0.3, 0.7, 0.5])
    expect(r.meanDiff).toBeCloseTo(0.2, 12)
    expect(r.low).toBeCloseTo(0.2, 12)
    expect(r.high).toBeCloseTo(0.2, 12)
  })

  test('two pairs with differences 0 and 1: resample means are 0, 0.5, 1 with probabilities 1/4, 1/2, 1/4', () => {
    // P(mean = 0) = 1/4 > 2.5%, so the 2.5th percentile is 0; likewise the 97.5th is 1.
    const r = pairedBootstrap([0, 0], [0, 1], { resamples: 20_000 })
    expect(r).toMatchObject({ meanDiff: 0.5, low: 0, high: 1, n: 2, resamples: 20_000, seed: 42, confidence: 0.95 })
  })

  test('matches the normal approximation mean ± 1.96·sd/√n on 400 pairs', () => {
    const random = seededRandom(7)
    const a = Array.from({ length: 400 }, () => random())
    const b = a.map((x) => x + 0.05 + (random() - 0.5) * 0.4)
    const d = b.map((x, i) => x - (a[i] as number))
    const m = d.reduce((s, x) => s + x, 0) / d.length
    const sd = Math.sqrt(d.reduce((s, x) => s + (x - m) ** 2, 0) / d.length)
    const half = (1.96 * sd) / Math.sqrt(d.length)
    const r = pairedBootstrap(a, b)
    expect(r.meanDiff).toBeCloseTo(m, 12)
    expect(Math.abs(r.low - (m - half))).toBeLessThan(half * 0.1)
    expect(Math.abs(r.high - (m + half))).toBeLessThan(half * 0.1)
  })

  test('is reproducible with a seed, and the seed matters', () => {
    const a = [0.2, 0.9, 0.4, 0.5, 0.7, 0.1]
    const b = [0.6, 0.8, 0.9, 0.5, 0.75, 0.3]
    expect(pairedBootstrap(a, b, { seed: 1 })).toEqual(pairedBootstrap(a, b, { seed: 1 }))
    expect(pairedBootstrap(a, b, { seed: 1 }).low).not.toBe(pairedBootstrap(a, b, { seed: 2 }).low)
  })

  test('refuses unpaired or empty samples', () => {
    expect(() => pairedBootstrap([1], [1, 2])).toThrow(
      '[expect-llm] Failed to bootstrap the paired difference: the samples have 1 and 2 values. Pass one score per case for each variant, in the same case order.',
    )
    expect(() => pairedBootstrap([], [])).toThrow('there are no pairs')
  })

  test('draws exactly `resamples` resamples: one resample gives a zero-width interval at its mean', () => {
    // seededRandom(42) starts 0.601, 0.448, 0.852: indices 1, 1, 2 of the differences [0, 1, 0.5].
    expect(pairedBootstrap([0, 0, 0], [0, 1, 0.5], { resamples: 1 })).toMatchObject({ meanDiff: 0.5, low: 2.5 / 3, high: 2.5 / 3, resamples: 1 })
  })

  test('refuses a resample count that is not a whole number >= 1, and a confidence outside (0, 1)', () => {
    const bad = (options: { resamples?: number; confidence?: number }) => () => pairedBootstrap([0, 1], [1, 1], options)
    expect(bad({ resamples: 0 })).toThrow(
      '[expect-llm] Failed to bootstrap the paired difference: resamples must be a whole number >= 1, got 0. Pass for example 10000.',
    )
    expect(bad({ resamples: 2.5 })).toThrow('resamples must be a whole number >= 1, got 2.5')
    expect(bad({ confidence: 0 })).toThrow(
      '[expect-llm] Failed to bootstrap the paired difference: confidence must be between 0 and 1, got 0. Pass for example 0.95.',
    )
    expect(bad({ confidence: 1 })).toThrow('confidence must be between 0 and 1, got 1')
    expect(bad({ confidence: 0.5, resamples: 1 })).not.toThrow()
  })
})

describe('BootstrapAggregator', () => {
  test('refuses a confidence outside [0, 1], a sample count that is not a whole number > 0 and a seed that is not whole, with a RangeError', () => {
    const create = (options: { confidence?: number; samples?: number; seed?: number }) => () => new BootstrapAggregator(options)
    const prefix = '[expect-llm] Failed to create the bootstrap aggregator:'
    expect(create({ confidence: 1.5 })).toThrow(new RangeError(`${prefix} confidence must be in [0, 1], got 1.5. Pass for example 0.95.`))
    expect(create({ samples: 0 })).toThrow(new RangeError(`${prefix} samples must be a whole number > 0, got 0. Pass for example 1000.`))
    expect(create({ seed: 4.2 })).toThrow(new RangeError(`${prefix} seed must be a whole number, got 4.2. Pass for example 42.`))
  })
})
