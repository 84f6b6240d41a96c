/**
 * The statistics of a `compareGolden` comparison over its rows, in one place: `compareGolden` computes
 * them over the cases it ran and `expect-llm report --merge` over the rows of every shard, so a live
 * comparison and a merged one give the same numbers and the same verdict.
 *
 * @module
 */
import type { CompareReport, CompareRow, ReportComparisonScorer } from './report.js'
import { mcnemar, pairedBootstrap } from './stats.js'

/** Score differences within this are ties. */
export const TIE = 1e-9

/**
 * One pair of variants on one scorer: the paired bootstrap of `b − a` over the cases, and wins, ties and
 * losses of `b`. Used by `compareGolden` and by the merge of its shards.
 */
export function comparePair(
  a: string,
  b: string,
  av: readonly number[],
  bv: readonly number[],
  bootstrap: { resamples: number; seed: number; confidence: number },
): ReportComparisonScorer['pairs'][number] {
  const ci = pairedBootstrap([...av], [...bv], bootstrap)
  let wins = 0
  let ties = 0
  let losses = 0
  av.forEach((x, i) => {
    const d = (bv[i] as number) - x
    if (d > TIE) wins++
    else if (d < -TIE) losses++
    else ties++
  })
  return {
    a,
    b,
    cases: av.length,
    meanDiff: ci.meanDiff,
    ci: { low: ci.low, high: ci.high, confidence: ci.confidence, resamples: ci.resamples, seed: ci.seed },
    wins,
    ties,
    losses,
  }
}

type Bootstrap = { resamples: number; seed: number; confidence: number }

/** Per scorer scored for every variant on some rows: each variant's mean, and each variant against the first. */
export function scorerComparisons(
  rows: readonly CompareRow[],
  variants: readonly string[],
  names: readonly string[],
  bootstrap: Bootstrap,
): CompareReport['scorers'] {
  const [first, ...others] = variants as [string, ...string[]]
  const scorers: CompareReport['scorers'] = []
  for (const name of names) {
    const complete = rows.filter((r) => variants.every((v) => r.scores[v]?.[name] !== undefined))
    if (complete.length === 0) continue
    const values = (v: string) => complete.map((r) => r.scores[v]![name]!)
    const means = Object.fromEntries(variants.map((v) => [v, values(v).reduce((s, x) => s + x, 0) / complete.length]))
    const pairs = others.map((b) => comparePair(first, b, values(first), values(b), bootstrap))
    scorers.push({ scorer: name as CompareReport['scorers'][number]['scorer'], means, pairs })
  }
  return scorers
}

/** Each variant's pass rate over the rows every variant answered, and McNemar's test of each against the first. */
export function passStatistics(rows: readonly CompareRow[], variants: readonly string[]): Pick<CompareReport, 'passRates' | 'mcnemar'> {
  const [first, ...others] = variants as [string, ...string[]]
  const scored = rows.filter((r) => variants.every((v) => r.outputs[v] !== null && r.outputs[v] !== undefined))
  const passRates = Object.fromEntries(variants.map((v) => [v, scored.length ? scored.filter((r) => r.pass[v]).length / scored.length : 0]))
  const mcnemarTests = others.map((b) => {
    let aOnly = 0
    let bOnly = 0
    for (const r of scored) {
      if (r.pass[first] && !r.pass[b]) aOnly++
      else if (r.pass[b] && !r.pass[first]) bOnly++
    }
    return { a: first, b, ...mcnemar(aOnly, bOnly) }
  })
  return { passRates, mcnemar: mcnemarTests }
}

/** The verdict of a comparison's `expect`: the better variant's paired-bootstrap interval lies above `minDelta` against each rival. */
export function expectationVerdict(
  rows: readonly CompareRow[],
  variants: readonly string[],
  scorers: CompareReport['scorers'],
  names: readonly string[],
  options: NonNullable<CompareReport['options']>,
): CompareReport['expectation'] {
  const e = options.expect
  if (!e) return null
  const bootstrap = { resamples: options.resamples, seed: options.seed, confidence: options.confidence }
  const scorer = e.scorer ?? names[0] ?? ''
  const minDelta = e.minDelta ?? 0
  const rivals = variants.filter((v) => v !== e.better)
  const lines: string[] = []
  let ok = true
  if (!scorers.some((s) => s.scorer === scorer)) {
    ok = false
    lines.push(`no case was scored by "${scorer}" for every variant`)
  } else {
    const complete = rows.filter((r) => variants.every((v) => r.scores[v]?.[scorer] !== undefined))
    const sign = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(3)}`
    for (const rival of rivals) {
      const diff = pairedBootstrap(
        complete.map((r) => r.scores[rival]![scorer]!),
        complete.map((r) => r.scores[e.better]![scorer]!),
        bootstrap,
      )
      const supported = diff.low > minDelta
      ok &&= supported
      const ci = `${Math.round(bootstrap.confidence * 100)}% CI [${sign(diff.low)}, ${sign(diff.high)}]`
      lines.push(
        `${e.better} vs ${rival} on ${scorer}: mean difference ${sign(diff.meanDiff)}, ${ci} ${supported ? 'is above' : 'does not lie above'} ${minDelta}`,
      )
    }
  }
  const message = ok
    ? `${e.better} is better: ${lines.join('; ')}`
    : `${e.better} is not shown to be better than ${rivals.join(', ')}${minDelta ? ` by more than ${minDelta}` : ''}: ${lines.join('; ')}`
  return { better: e.better, scorer: scorer as NonNullable<CompareReport['expectation']>['scorer'], minDelta, ok, message }
}

/** The rows where a variant's verdict or a score (beyond a tie) differs from the first variant's. */
export function differingRows(rows: readonly CompareRow[], variants: readonly string[]): CompareReport['differing'] {
  const first = variants[0] as string
  return rows
    .filter((r) =>
      variants.some((v) => {
        if (r.pass[v] !== r.pass[first]) return true
        const keys = new Set([...Object.keys(r.scores[v] ?? {}), ...Object.keys(r.scores[first] ?? {})])
        return [...keys].some((n) => Math.abs((r.scores[v]?.[n] ?? -1) - (r.scores[first]?.[n] ?? -1)) > TIE)
      }),
    )
    .map((r) => ({ id: r.id, input: r.input, outputs: r.outputs, pass: r.pass, scores: r.scores }))
}

/** The statistics of a comparison over its rows, as `compareGolden` computes them. */
export function compareStatistics(
  rows: readonly CompareRow[],
  variants: readonly string[],
  names: readonly string[],
  options: NonNullable<CompareReport['options']>,
) {
  const bootstrap = { resamples: options.resamples, seed: options.seed, confidence: options.confidence }
  const scorers = scorerComparisons(rows, variants, names, bootstrap)
  const { passRates, mcnemar: mc } = passStatistics(rows, variants)
  const expectation = expectationVerdict(rows, variants, scorers, names, options)
  return { scorers, passRates, mcnemar: mc, expectation, differing: differingRows(rows, variants) }
}
