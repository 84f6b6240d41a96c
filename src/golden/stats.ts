/**
 * Statistics for golden reports: percentiles, a seeded paired bootstrap confidence interval, and
 * McNemar's test for paired pass/fail outcomes. Pure functions.
 *
 * @module
 */
import { formatMessage } from '../errors.js'

/**
 * The `p`-th percentile (0-100) of `values` by linear interpolation between closest ranks (the
 * default of NumPy's `percentile` and of Excel's `PERCENTILE.INC`). `undefined` for no values.
 *
 * @example
 * ```ts
 * percentile([1, 2, 3, 4], 50) // 2.5
 * percentile([10, 20, 30, 40, 50], 95) // 48
 * ```
 */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const rank = (p / 100) * (sorted.length - 1)
  const lo = Math.floor(rank)
  const hi = Math.ceil(rank)
  const a = sorted[lo] as number
  const b = sorted[hi] as number
  return a + (b - a) * (rank - lo)
}

/** The arithmetic mean, `undefined` for no values. */
export function mean(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined
  let s = 0
  for (const v of values) s += v
  return s / values.length
}

/**
 * A small, fast, seedable PRNG (mulberry32): the same seed gives the same sequence on every platform.
 *
 * @example
 * ```ts
 * const random = seededRandom(42)
 * random() // 0.6011037519201636, then the same sequence every time
 * ```
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Options of {@link pairedBootstrap}. */
export interface BootstrapOptions {
  /** Number of resamples. Default 10,000. */
  resamples?: number
  /** Seed of the PRNG, so that the interval is reproducible. Default 42. */
  seed?: number
  /** Confidence level. Default 0.95. */
  confidence?: number
}

/** The result of {@link pairedBootstrap}. */
export interface BootstrapResult {
  /** Mean of the paired differences `b[i] - a[i]`. */
  meanDiff: number
  /** Lower bound of the percentile interval. */
  low: number
  /** Upper bound of the percentile interval. */
  high: number
  confidence: number
  resamples: number
  seed: number
  /** Number of pairs. */
  n: number
}

/**
 * Percentile bootstrap confidence interval of the mean paired difference `b - a`: resample the pairs
 * (cases) with replacement `resamples` times, take the mean difference of each resample, and read the
 * `(1 - confidence) / 2` and `(1 + confidence) / 2` percentiles of those means. Pairs, not the two
 * samples separately, are resampled, so the interval reflects that both variants saw the same cases.
 * Seeded: the same inputs and seed give the same interval.
 *
 * @example
 * ```ts
 * pairedBootstrap([0.2, 0.4, 0.5], [0.6, 0.5, 0.9]) // { meanDiff: 0.3, low: 0.1, high: 0.4, ... }
 * ```
 */
export function pairedBootstrap(a: readonly number[], b: readonly number[], options: BootstrapOptions = {}): BootstrapResult {
  const resamples = options.resamples ?? 10_000
  const seed = options.seed ?? 42
  const confidence = options.confidence ?? 0.95
  if (a.length !== b.length)
    throw new RangeError(
      formatMessage(
        `Failed to bootstrap the paired difference: the samples have ${a.length} and ${b.length} values. ` +
          'Pass one score per case for each variant, in the same case order.',
      ),
    )
  if (a.length === 0) throw new RangeError(formatMessage('Failed to bootstrap the paired difference: there are no pairs. Pass at least one score per variant.'))
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new RangeError(
      formatMessage(`Failed to bootstrap the paired difference: resamples must be a whole number >= 1, got ${resamples}. Pass for example 10000.`),
    )
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(
      formatMessage(`Failed to bootstrap the paired difference: confidence must be between 0 and 1, got ${confidence}. Pass for example 0.95.`),
    )
  const n = a.length
  const diffs = new Float64Array(n)
  // Stryker disable next-line EqualityOperator: equivalent, i <= n adds one write past the end of a Float64Array, which is ignored
  for (let i = 0; i < n; i++) diffs[i] = (b[i] as number) - (a[i] as number)
  const meanDiff = diffs.reduce((s, d) => s + d, 0) / n
  const random = seededRandom(seed)
  // Stryker disable next-line ArrayDeclaration: equivalent, an empty array filled up to resamples holds the same values
  const means = new Array<number>(resamples)
  for (let r = 0; r < resamples; r++) {
    let s = 0
    for (let i = 0; i < n; i++) s += diffs[Math.floor(random() * n)] as number
    means[r] = s / n
  }
  const alpha = (1 - confidence) / 2
  return {
    meanDiff,
    low: percentile(means, alpha * 100) as number,
    high: percentile(means, (1 - alpha) * 100) as number,
    confidence,
    resamples,
    seed,
    n,
  }
}

/** The result of {@link mcnemar}. */
export interface McNemarResult {
  /** Pairs where A passed and B failed. */
  aOnly: number
  /** Pairs where B passed and A failed. */
  bOnly: number
  /** Two-sided p-value. */
  pValue: number
  /** `'exact'`: exact binomial test (used when aOnly + bOnly < 25); `'chi-square'`: chi-square with 1 degree of freedom. */
  method: 'exact' | 'chi-square'
  /** The chi-square statistic (with continuity correction unless disabled), for the chi-square method. */
  statistic?: number
}

/**
 * Complementary error function for `z >= 0` (the only values McNemar's test passes: a square root): the
 * Chebyshev-fitted approximation `erfcc` of Numerical Recipes (fractional error < 1.2e-7 everywhere).
 */
function erfcNonNegative(z: number): number {
  const t = 1 / (1 + 0.5 * z)
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    )
  return r
}

/**
 * McNemar's test on paired pass/fail outcomes: did A and B fail on different cases more often in one
 * direction than chance allows? Only the discordant pairs count. With fewer than 25 of them the exact
 * two-sided binomial test (p = 0.5) is used; otherwise the chi-square statistic with Edwards'
 * continuity correction, `(|b - c| - 1)² / (b + c)`, on 1 degree of freedom (`correction: false` drops
 * the correction). The result says which method was used.
 *
 * @example
 * ```ts
 * mcnemar(1, 9)    // { method: 'exact', pValue: 0.021484375, ... }: 2 × (C(10,0) + C(10,1)) / 2^10
 * mcnemar(121, 59, { correction: false }) // chi-square 21.36, p ≈ 3.8e-6 (Wikipedia's example)
 * ```
 */
export function mcnemar(aOnly: number, bOnly: number, options: { correction?: boolean; exactBelow?: number } = {}): McNemarResult {
  for (const [name, v] of [
    ['aOnly', aOnly],
    ['bOnly', bOnly],
  ] as const) {
    if (!Number.isInteger(v) || v < 0)
      throw new RangeError(formatMessage(`Failed to run McNemar's test: ${name} must be a whole number >= 0, got ${v}. Pass the counts of discordant pairs.`))
  }
  const n = aOnly + bOnly
  // No discordant pair (n = 0) takes the exact branch too: 2 · C(0, 0) / 2^0, capped at 1.
  if (n < (options.exactBelow ?? 25)) {
    const k = Math.min(aOnly, bOnly)
    // Binomial coefficients by the multiplicative formula: exact integers for the small n used here.
    let coefficient = 1
    let tail = 0
    for (let i = 0; i <= k; i++) {
      tail += coefficient
      coefficient = (coefficient * (n - i)) / (i + 1)
    }
    return { aOnly, bOnly, pValue: Math.min(1, (2 * tail) / 2 ** n), method: 'exact' }
  }
  const diff = Math.abs(aOnly - bOnly) - (options.correction === false ? 0 : 1)
  const statistic = Math.max(0, diff) ** 2 / n
  // Chi-square with 1 df: P(X > x) = erfc(sqrt(x / 2)).
  return { aOnly, bOnly, pValue: Math.min(1, erfcNonNegative(Math.sqrt(statistic / 2))), method: 'chi-square', statistic }
}

/**
 * NumPy's `percentile(values, q)` (method `'linear'`) on sorted values, with NumPy's interpolation
 * arithmetic (`_lerp`: from the lower value below the midpoint, from the upper one above it), so the
 * doubles agree with rouge-score's aggregator.
 */
function numpyPercentile(sorted: Float64Array, q: number): number {
  const index = (q / 100) * (sorted.length - 1)
  const below = Math.floor(index)
  const above = Math.min(below + 1, sorted.length - 1)
  const t = index - below
  const a = sorted[below] as number
  const b = sorted[above] as number
  const diff = b - a
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t
}

/** Options of {@link BootstrapAggregator}. */
export interface BootstrapAggregatorOptions {
  /** rouge-score's `confidence_interval`. Default 0.95 (the 2.5th and 97.5th percentiles). */
  confidence?: number
  /** rouge-score's `n_samples`: bootstrap resamples. Default 1,000. */
  samples?: number
  /** Seed of the library's PRNG ({@link seededRandom}), so the interval is reproducible. Default 42. */
  seed?: number
}

/** low, mid and high of one score type: each a number, or an object of numbers (e.g. precision/recall/f). */
export interface AggregateScore<T> {
  low: T
  mid: T
  high: T
}

/** A per-case score: a number, or an object of named numbers such as a ROUGE score. */
export type AggregatableScore = number | { readonly [measure: string]: number }

/**
 * Confidence intervals for corpus scores by bootstrap resampling, as rouge-score's
 * `scoring.BootstrapAggregator`: add one score per case and type, then `aggregate()` resamples the cases
 * with replacement `samples` times, takes the mean of each resample (per measure), and returns the
 * `(1 - confidence) / 2`, 50th and `(1 + confidence) / 2` percentiles of those means as `low`, `mid` and
 * `high`. Note that `mid` is the median of the resampled means (rouge-score's "mid"), very close to but
 * not exactly the mean. Resampling draws indices from the library's seeded PRNG (rouge-score uses
 * NumPy's global one), so the same scores and seed give the same interval on every machine; with the
 * same indices the results equal rouge-score's (the reference tests check this to 1e-9).
 *
 * @example
 * ```ts
 * const aggregator = new BootstrapAggregator({ seed: 42 })
 * for (const [candidate, reference] of pairs) aggregator.addScores({ rougeL: rougeL(candidate, reference) })
 * aggregator.aggregate().rougeL // { low: { precision, recall, f }, mid: {...}, high: {...} }
 * ```
 */
export class BootstrapAggregator {
  private readonly confidence: number
  private readonly samples: number
  private readonly seed: number
  private readonly scores = new Map<string, AggregatableScore[]>()

  constructor(options: BootstrapAggregatorOptions = {}) {
    const confidence = options.confidence ?? 0.95
    const samples = options.samples ?? 1000
    const seed = options.seed ?? 42
    const fail = (reason: string, fix: string): never => {
      throw new RangeError(formatMessage(`Failed to create the bootstrap aggregator: ${reason}. ${fix}`))
    }
    if (typeof confidence !== 'number' || !(confidence >= 0 && confidence <= 1))
      fail(`confidence must be in [0, 1], got ${String(confidence)}`, 'Pass for example 0.95.')
    if (!Number.isInteger(samples) || samples <= 0) fail(`samples must be a whole number > 0, got ${String(samples)}`, 'Pass for example 1000.')
    if (!Number.isInteger(seed)) fail(`seed must be a whole number, got ${String(seed)}`, 'Pass for example 42.')
    this.confidence = confidence
    this.samples = samples
    this.seed = seed
  }

  /** Adds one case's scores, by type (rouge-score's `add_scores`). */
  addScores(scores: { readonly [type: string]: number | object }): void {
    for (const [type, score] of Object.entries(scores)) {
      const list = this.scores.get(type)
      const value = score as AggregatableScore
      if (list) list.push(value)
      else this.scores.set(type, [value])
    }
  }

  /** low/mid/high per type, in the shape of the added scores (rouge-score's `aggregate`). */
  aggregate(): Record<string, AggregateScore<AggregatableScore>> {
    const out: Record<string, AggregateScore<AggregatableScore>> = {}
    // One PRNG for all types, drawn in the order the types were first added, as rouge-score draws
    // from NumPy's global generator type after type.
    const random = seededRandom(this.seed)
    for (const [type, list] of this.scores) {
      const first = list[0] as AggregatableScore
      const keys = typeof first === 'number' ? null : Object.keys(first)
      const columns = keys ?? ['']
      const matrix = columns.map((key) => Float64Array.from(list, (s) => (typeof s === 'number' ? s : (s[key] as number))))
      const bounds = this.resample(matrix, random)
      const shape = (row: number[]): AggregatableScore => (keys === null ? (row[0] as number) : Object.fromEntries(keys.map((k, i) => [k, row[i] as number])))
      out[type] = { low: shape(bounds[0] as number[]), mid: shape(bounds[1] as number[]), high: shape(bounds[2] as number[]) }
    }
    return out
  }

  /** `_bootstrap_resample`: (low, mid, high) × measure. */
  private resample(columns: Float64Array[], random: () => number): number[][] {
    const n = (columns[0] as Float64Array).length
    const means = columns.map(() => new Float64Array(this.samples))
    const index = new Int32Array(n)
    for (let s = 0; s < this.samples; s++) {
      for (let i = 0; i < n; i++) index[i] = Math.floor(random() * n)
      columns.forEach((column, c) => {
        let sum = 0
        for (let i = 0; i < n; i++) sum += column[index[i] as number] as number
        ;(means[c] as Float64Array)[s] = sum / n
      })
    }
    const delta = (1 - this.confidence) / 2
    const qs = [100 * delta, 100 * 0.5, 100 * (1 - delta)]
    return qs.map((q) => means.map((m) => numpyPercentile(m.slice().sort(), q)))
  }
}
