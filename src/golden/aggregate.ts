/**
 * The pure steps of a golden suite's end: per-scorer aggregates (with the dataset-level retrieval
 * averages), the threshold checks, usage totals and latency, the budget checks, the baseline verdict and
 * the report's cases. `GoldenSuite.finish` calls them in order and keeps the I/O (ledger, baseline file,
 * report file, console) at its edge.
 *
 * @module
 */
import { costOf, type LedgerEntry } from '../ledger.js'
import { shardSummaryLine } from '../report/shard.js'
import type { BaselineCases, BaselineComparison } from './baseline.js'
import {
  clip,
  fmtMs,
  fmtScore,
  formatGoldenSummary,
  tokenAndCostChecks,
  type GoldenReport,
  type ReportCase,
  type ReportCheck,
  type ReportScorer,
  type UsageTotals,
} from './report.js'
import type { CaseResult, CaseRun } from './run.js'
import { inputText, type ScoreResult } from './scorers.js'
import { BootstrapAggregator, mean, percentile } from './stats.js'
import type { GoldenBudget, GoldenOptions, GoldenThresholds } from './types.js'

const CI = { confidence: 0.95, samples: 1000, seed: 42 }

/** An aggregate check and, when it failed, the paragraph of the aggregate test's message. */
export interface CheckOutcomeLine {
  check: ReportCheck
  failure?: string
}

function line(name: string, ok: boolean, message: string, failure?: string): CheckOutcomeLine {
  return ok ? { check: { name, ok, message } } : { check: { name, ok, message }, failure: failure ?? message }
}

/** The report's confidence interval of a check's mean score (rouge-score's BootstrapAggregator). */
export function confidenceInterval(values: readonly number[], ci: typeof CI = CI): ReportScorer['ci'] {
  const aggregator = new BootstrapAggregator({ confidence: ci.confidence, samples: ci.samples, seed: ci.seed })
  for (const value of values) aggregator.addScores({ score: value })
  const { low, mid, high } = aggregator.aggregate().score as { low: number; mid: number; high: number }
  return { low, mid, high, confidence: ci.confidence, samples: ci.samples, seed: ci.seed }
}

const f1 = (p: number, r: number) => (p + r === 0 ? 0 : (2 * p * r) / (p + r))

/**
 * Dataset-level precision, recall and F1 at k of a retrieval check: micro (summed over the cases: relevant
 * found / items considered, relevant found / relevant) and macro (the mean of the per-case values).
 */
export function retrievalAverages(counts: ReadonlyArray<{ found: number; k: number; relevant: number }>): NonNullable<ReportScorer['retrieval']> {
  // Stryker disable next-line ArithmeticOperator: negated sums leave each micro ratio and its zero check the same
  const sum = (key: 'found' | 'k' | 'relevant') => counts.reduce((s, c) => s + c[key], 0)
  const microP = sum('k') === 0 ? 0 : sum('found') / sum('k')
  const microR = sum('relevant') === 0 ? 0 : sum('found') / sum('relevant')
  const perCase = counts.map((c) => ({ p: c.k === 0 ? 0 : c.found / c.k, r: c.relevant === 0 ? 0 : c.found / c.relevant }))
  const macroP = mean(perCase.map((c) => c.p)) ?? 0
  const macroR = mean(perCase.map((c) => c.r)) ?? 0
  return {
    micro: { precision: microP, recall: microR, f1: f1(microP, microR) },
    macro: { precision: macroP, recall: macroR, f1: mean(perCase.map((c) => f1(c.p, c.r))) ?? 0 },
  }
}

/**
 * What the suite gates read of a case, the same from a live {@link CaseResult} ({@link gateCaseOfResult})
 * and from a report's case ({@link gateCaseOfReport}): a suite and the merge of its shard reports
 * (`expect-llm report --merge`) gate, list failing cases and keep baselines with one definition.
 */
export interface GateCase {
  id: string
  /** The case's input, as the failing-case lists show it (clipped). */
  input: unknown
  pass: boolean
  /** No run gave an output: nothing was scored. */
  errored: boolean
  /** A run's `assert` threw. */
  assertFailed: boolean
  runs: number
  passes: number
  scores: Readonly<Record<string, ScoreResult>>
}

/** The gate case of a live case result. */
export function gateCaseOfResult(r: CaseResult): GateCase {
  const assertFailed = r.runs.some((run) => run.assertError)
  return { id: r.c.id, input: r.c.input, pass: r.pass, errored: r.errored, assertFailed, runs: r.runs.length, passes: r.passes, scores: r.scores }
}

/** The gate case of a report's case (a shard report's, for the merge). */
export function gateCaseOfReport(c: ReportCase): GateCase {
  const errored = c.output === null
  return { id: c.id, input: c.input, pass: c.pass, errored, assertFailed: !!c.assertError, runs: c.runs, passes: c.passes, scores: c.scores }
}

/** One scorer's aggregate over the cases it scored: count, mean, min, max, threshold, pass rate, interval. */
function scorerAggregate(scored: readonly GateCase[], name: string, ci: typeof CI): ReportScorer {
  const values = scored.map((c) => c.scores[name]!.score)
  const aggregate: ReportScorer = {
    count: values.length,
    mean: mean(values) as number,
    min: Math.min(...values),
    max: Math.max(...values),
    threshold: scored[0]!.scores[name]!.threshold,
    passRate: scored.filter((c) => c.scores[name]!.pass).length / scored.length,
    ci: confidenceInterval(values, ci),
  }
  const counts = scored.map((c) => c.scores[name]!.retrieval).filter((c) => c !== undefined)
  if (counts.length === scored.length) aggregate.retrieval = retrievalAverages(counts)
  return aggregate
}

/**
 * Per scorer key (in the given order, skipping keys no case has): count, mean, min, max, threshold, pass
 * rate, confidence interval and, for a retrieval check, the dataset-level averages.
 */
export function scorerAggregates(cases: readonly GateCase[], keys: readonly string[], ci: typeof CI = CI): Record<string, ReportScorer> {
  const scorers: Record<string, ReportScorer> = {}
  for (const name of keys) {
    const scored = cases.filter((c) => c.scores[name] !== undefined)
    if (scored.length > 0) scorers[name] = scorerAggregate(scored, name, ci)
  }
  return scorers
}

/** {@link scorerAggregates} of live case results. */
export function aggregateScorers(ran: readonly CaseResult[], keys: readonly string[]): Record<string, ReportScorer> {
  return scorerAggregates(ran.map(gateCaseOfResult), keys)
}

/** A case's largest shortfall below a threshold (0 when none; an errored case is the worst; a score in [0, 1] without one never falls short). */
function margin(c: GateCase): number {
  return c.errored ? -Infinity : Math.min(0, ...Object.values(c.scores).map((x) => x.score - (x.threshold ?? 0)))
}

/** Worst first: the largest shortfall below a threshold, then the most failed scorers, then the fewest passing runs. */
function byWorst(a: GateCase, b: GateCase): number {
  const failedCount = (c: GateCase) => Object.values(c.scores).filter((x) => !x.pass).length
  return margin(a) - margin(b) || failedCount(b) - failedCount(a) || a.passes - b.passes
}

/** Worst cases first (see {@link byWorst}). */
export function worstFirst(rs: readonly CaseResult[]): CaseResult[] {
  const gate = new Map(rs.map((r) => [r, gateCaseOfResult(r)]))
  return [...rs].sort((a, b) => byWorst(gate.get(a)!, gate.get(b)!))
}

/** One line of a failing-case list: the case, one scorer's score or its failed scores, and its input. */
function caseLine(c: GateCase, score?: string): string {
  const parts = score
    ? [`${score} ${fmtScore(c.scores[score]!.score)}`]
    : Object.entries(c.scores)
        .filter(([, x]) => !x.pass)
        .map(([n, x]) => `${n} ${fmtScore(x.score)}${x.threshold !== null ? `<${fmtScore(x.threshold)}` : ''}`)
  if (c.errored) parts.push('errored')
  else if (c.assertFailed) parts.push('assert failed')
  return `  - ${c.id}: ${parts.join(', ') || `${c.passes}/${c.runs} runs passed`}  ${clip(inputText(c.input), 60)}`
}

/** The list of failing cases in a check's message (20 at most, worst first), with one scorer's score or the failed ones. */
export function gateCaseList(cases: readonly GateCase[], score?: string): string {
  return [...cases]
    .sort(byWorst)
    .slice(0, 20)
    .map((c) => caseLine(c, score))
    .concat(cases.length > 20 ? [`  … ${cases.length - 20} more`] : [])
    .join('\n')
}

/** {@link gateCaseList} of live case results. */
export function failingList(rs: readonly CaseResult[], score?: string): string {
  return gateCaseList(rs.map(gateCaseOfResult), score)
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`

/** The pass-rate gate: the share of cases that passed against `thresholds.passRate`. */
function passRateGate(cases: readonly GateCase[], min: number): CheckOutcomeLine {
  const failing = cases.filter((c) => !c.pass)
  const passed = cases.length - failing.length
  const rate = passed / cases.length
  const ok = rate >= min
  const figure = `pass rate ${passed}/${cases.length} = ${pct(rate)}`
  return line(
    'passRate',
    ok,
    `${figure} ${ok ? '>=' : '<'} ${pct(min)}`,
    `${figure} is below ${pct(min)}. Failing cases, worst first:\n${gateCaseList(failing)}`,
  )
}

/** A `mean` or `min` gate on a scorer no case was scored by: it fails (a typo must not pass). */
function unscoredGate(kind: 'mean' | 'min', name: string): CheckOutcomeLine {
  const fix = kind === 'mean' ? ' List it in "scorers" (or give the cases what it needs).' : ''
  return line(
    `${kind}.${name}`,
    false,
    `${kind} ${name}: no case was scored by "${name}"`,
    `thresholds.${kind}.${name} is set but no case was scored by "${name}".${fix}`,
  )
}

const scoredBelow = (cases: readonly GateCase[], name: string, min: number) => cases.filter((c) => c.scores[name] !== undefined && c.scores[name]!.score < min)

/** The gate on a scorer's mean. */
function meanGate(cases: readonly GateCase[], name: string, sc: ReportScorer, min: number): CheckOutcomeLine {
  const ok = sc.mean >= min
  const list = gateCaseList(scoredBelow(cases, name, min), name)
  return line(
    `mean.${name}`,
    ok,
    `mean ${name} ${fmtScore(sc.mean)} ${ok ? '>=' : '<'} ${fmtScore(min)}`,
    `mean ${name} ${sc.mean.toFixed(3)} is below ${min}. Cases below ${min}, worst first:\n${list}`,
  )
}

/** The gate on every case's score of one scorer. */
function minGate(cases: readonly GateCase[], name: string, sc: ReportScorer, min: number): CheckOutcomeLine {
  const below = scoredBelow(cases, name, min)
  const ok = below.length === 0
  return line(
    `min.${name}`,
    ok,
    `min ${name} ${fmtScore(sc.min)} ${ok ? '>=' : '<'} ${fmtScore(min)}`,
    `${below.length} case${below.length === 1 ? '' : 's'} scored ${name} below ${min}, worst first:\n${gateCaseList(below, name)}`,
  )
}

/**
 * The `thresholds` gates of a suite over its cases: pass rate, then each `mean` and `min`. The one
 * definition for a suite's aggregate test and for the merge of its shard reports.
 */
export function suiteGates(
  cases: readonly GateCase[],
  scorers: Readonly<Record<string, ReportScorer | undefined>>,
  t: GoldenThresholds | undefined,
): CheckOutcomeLine[] {
  const out: CheckOutcomeLine[] = []
  if (t?.passRate !== undefined && cases.length > 0) out.push(passRateGate(cases, t.passRate))
  for (const [name, min] of Object.entries(t?.mean ?? {}) as Array<[string, number]>) {
    const sc = scorers[name]
    out.push(sc ? meanGate(cases, name, sc, min) : unscoredGate('mean', name))
  }
  for (const [name, min] of Object.entries(t?.min ?? {}) as Array<[string, number]>) {
    const sc = scorers[name]
    out.push(sc ? minGate(cases, name, sc, min) : unscoredGate('min', name))
  }
  return out
}

/** {@link suiteGates} over live case results. */
export function thresholdChecks(
  ran: readonly CaseResult[],
  scorers: Readonly<Record<string, ReportScorer>>,
  t: GoldenThresholds | undefined,
): CheckOutcomeLine[] {
  return suiteGates(ran.map(gateCaseOfResult), scorers, t)
}

export function emptyTotals(): UsageTotals {
  return { calls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, unpricedModels: [] }
}

export function addUsage(t: UsageTotals, calls: number, input: number, output: number, cost: number | undefined, models: string[]): void {
  t.calls += calls
  t.inputTokens += input
  t.outputTokens += output
  t.totalTokens += input + output
  if (cost === undefined) {
    for (const m of models.length > 0 ? models : ['(unknown model)']) if (!t.unpricedModels.includes(m)) t.unpricedModels.push(m)
    t.costUsd = null
  } else if (t.costUsd !== null) t.costUsd += cost
}

/** Totals of ledger entries (judge and embedding calls). */
export function ledgerTotals(
  entries: readonly LedgerEntry[],
): UsageTotals & { byKind: { judge: UsageTotals; embedding: UsageTotals }; models: { judge: string[]; embedding: string[] } } {
  const all = emptyTotals()
  const byKind = { judge: emptyTotals(), embedding: emptyTotals() }
  const models = { judge: [] as string[], embedding: [] as string[] }
  for (const e of entries) {
    // A call whose provider reported no usage has an unknown cost, even for a priced model.
    const cost = e.usageMissing ? undefined : costOf(e.model, e.inputTokens, e.outputTokens)
    const named = e.usageMissing ? `${e.model} (no token usage reported)` : e.model
    addUsage(all, 1, e.inputTokens, e.outputTokens, cost, [named])
    addUsage(byKind[e.kind], 1, e.inputTokens, e.outputTokens, cost, [named])
    if (!models[e.kind].includes(e.model)) models[e.kind].push(e.model)
  }
  return { ...all, byKind, models }
}

/** The usage of a suite run: the app's (from the case runs), the evaluator's (from the ledger), their total, and the latency percentiles. */
export function usageSummary(ran: readonly CaseResult[], ledger: readonly LedgerEntry[]) {
  const app = emptyTotals()
  const latencies: number[] = []
  const sources: Partial<Record<CaseRun['latencySource'], number>> = {}
  const appModels: string[] = []
  for (const r of ran) {
    for (const run of r.runs) {
      addUsage(app, run.usage.calls, run.usage.inputTokens, run.usage.outputTokens, run.usage.costUsd, run.usage.models)
      for (const m of run.usage.models) if (!appModels.includes(m)) appModels.push(m)
      if (run.output !== undefined) {
        latencies.push(run.latencyMs)
        sources[run.latencySource] = (sources[run.latencySource] ?? 0) + 1
      }
    }
  }
  const evaluator = ledgerTotals(ledger)
  const total = emptyTotals()
  addUsage(total, app.calls, app.inputTokens, app.outputTokens, app.costUsd ?? undefined, app.unpricedModels)
  addUsage(total, evaluator.calls, evaluator.inputTokens, evaluator.outputTokens, evaluator.costUsd ?? undefined, evaluator.unpricedModels)
  const latency = { p50: percentile(latencies, 50) ?? null, p95: percentile(latencies, 95) ?? null, p99: percentile(latencies, 99) ?? null, sources }
  return { app, appModels, evaluator, total, latency }
}

/** The `budget` checks: P95 latency, tokens and cost. */
export function budgetChecks(budget: GoldenBudget | undefined, ran: readonly CaseResult[], usage: ReturnType<typeof usageSummary>): CheckOutcomeLine[] {
  const out: CheckOutcomeLine[] = []
  const { app, evaluator, total, latency } = usage
  if (budget?.p95LatencyMs !== undefined) {
    const ok = latency.p95 !== null && latency.p95 <= budget.p95LatencyMs
    const slowest = ran
      .flatMap((r) => r.runs.map((run) => ({ id: r.c.id, ms: run.latencyMs })))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5)
      .map((x) => `  - ${x.id}: ${fmtMs(x.ms)}`)
      .join('\n')
    out.push(
      line(
        'budget.p95LatencyMs',
        ok,
        `P95 latency ${fmtMs(latency.p95)} ${ok ? '<=' : '>'} ${fmtMs(budget.p95LatencyMs)}`,
        `P95 latency ${fmtMs(latency.p95)} is over the budget of ${fmtMs(budget.p95LatencyMs)}. Slowest cases:\n${slowest}`,
      ),
    )
  }
  // Tokens and cost: the checks the shard merge makes too (one definition, in report.ts).
  tokenAndCostChecks(budget, { app, evaluator, total }, (name, ok, message, failure) => out.push(line(name, ok, message, failure)))
  return out
}

/** The scores a baseline keeps: each case that was scored, its pass and its scores (rounded to 6 decimals). */
export function baselineScores(cases: readonly GateCase[]): BaselineCases {
  const current: BaselineCases = {}
  for (const c of cases) {
    if (c.errored) continue
    current[c.id] = { pass: c.pass, scores: Object.fromEntries(Object.entries(c.scores).map(([n, x]) => [n, Math.round(x.score * 1e6) / 1e6])) }
  }
  return current
}

/** {@link baselineScores} of live case results. */
export function baselineCases(ran: readonly CaseResult[]): BaselineCases {
  return baselineScores(ran.map(gateCaseOfResult))
}

/**
 * The baseline check of a comparison with the committed baseline; `update` is the message's advice for an
 * intended change (the merge of shard reports tells to update on a machine and commit).
 */
export function baselineComparisonCheck(
  path: string,
  comparison: BaselineComparison,
  refused: boolean,
  update = 'update the baseline with -u',
): CheckOutcomeLine {
  const changes = (title: string, list: BaselineComparison['regressedCases']) =>
    list.length === 0
      ? ''
      : `\n${title}:\n${list
          .slice(0, 20)
          .map((ch) => `  - ${ch.id}: ${ch.scorer} ${fmtScore(ch.baseline)} → ${fmtScore(ch.current)}`)
          .join('\n')}${list.length > 20 ? `\n  … ${list.length - 20} more` : ''}`
  const ok = comparison.regressions.length === 0
  const label = `baseline${refused ? ' (-u ignored: CI is set)' : ''}`
  const deltas = comparison.scorers.map((d) => `${d.scorer} ${d.delta >= 0 ? '+' : ''}${d.delta.toFixed(3)}`).join(', ') || 'nothing to compare'
  const regressions = comparison.regressions.map(
    (d) =>
      `  ${d.scorer}: mean ${d.current.toFixed(3)} vs ${d.baseline.toFixed(3)} (${d.delta.toFixed(3)}, ` +
      `tolerance ${d.tolerance}) over ${d.cases} case${d.cases === 1 ? '' : 's'}`,
  )
  return line(
    'baseline',
    ok,
    ok
      ? `${label}: no scorer mean dropped by more than its tolerance (${deltas})`
      : `${label}: ${comparison.regressions.map((d) => `${d.scorer} mean ${fmtScore(d.current)} vs ${fmtScore(d.baseline)}`).join(', ')}`,
    `scores regressed against the baseline ` +
      `${path}:\n${regressions.join('\n')}${changes('Regressed cases', comparison.regressedCases)}${changes('Improved cases', comparison.improvedCases)}\nIf ` +
      `the change is intended, ${update}.`,
  )
}

/** The report's cases: one per case that ran, its first output, pass, runs, scores, latency and usage. */
export function reportCases(ran: readonly CaseResult[]): ReportCase[] {
  return ran.map((r) => {
    const first = r.runs.find((run) => run.output !== undefined) ?? r.runs[0]
    const rc: ReportCase = {
      id: r.c.id,
      input: r.c.input,
      output: first?.output ?? null,
      pass: r.pass,
      runs: r.runs.length,
      passes: r.passes,
      flaky: r.flaky,
      scores: r.scores,
      latencyMs: mean(r.runs.map((run) => run.latencyMs)) ?? 0,
      usage: {
        inputTokens: r.runs.reduce((s, run) => s + run.usage.inputTokens, 0),
        outputTokens: r.runs.reduce((s, run) => s + run.usage.outputTokens, 0),
        costUsd: r.runs.some((run) => run.usage.costUsd === undefined) ? null : r.runs.reduce((s, run) => s + (run.usage.costUsd as number), 0),
      },
    }
    if (r.c.source) rc.source = r.c.source
    if (r.c.tags) rc.tags = r.c.tags
    if (r.c.expected !== undefined) rc.expected = r.c.expected
    const errored = r.runs.find((run) => run.error)
    if (errored?.error) rc.error = errored.error
    if (errored?.errors) rc.errors = errored.errors
    const assertError = r.runs.find((run) => run.assertError)?.assertError
    if (assertError) rc.assertError = assertError
    const diagnosis = r.runs.find((run) => run.diagnosis)?.diagnosis
    if (diagnosis) rc.diagnosis = diagnosis
    return rc
  })
}

/**
 * The ledger entries of this suite: those from `start` on, without the calls of the mutation run
 * (`mutationCalls`, a `[from, to)` range of indexes), which are counted in the mutation report instead.
 *
 * @example
 * ```ts
 * suiteLedgerEntries(getLedger().entries, 3, [5, 7]) // entries 3, 4, and 7 on
 * ```
 */
export function suiteLedgerEntries<E>(entries: readonly E[], start: number, mutationCalls: readonly [number, number] | undefined): E[] {
  return entries.filter((_, i) => i >= start && !(mutationCalls && i >= mutationCalls[0] && i < mutationCalls[1]))
}

/**
 * The report's `summary`: cases of the suite, those that ran, passed, failed, errored and were flaky.
 * `selected` is the number of cases this run was given (the shard's slice, or every case after filters).
 *
 * @example
 * ```ts
 * reportSummary(ran, 10, 12, 10).filteredOut // 2
 * ```
 */
export function reportSummary(ran: readonly CaseResult[], cases: number, allCases: number, selected: number): GoldenReport['summary'] {
  const passed = ran.filter((r) => r.pass).length
  return {
    cases,
    ran: ran.length,
    filteredOut: allCases - selected,
    passed,
    failed: ran.length - passed,
    errored: ran.filter((r) => r.errored).length,
    passRate: ran.length > 0 ? passed / ran.length : null,
    flaky: ran.filter((r) => r.flaky).length,
  }
}

/**
 * The report's `options`: how the suite ran, each scorer's threshold, and the aggregate options it was
 * given (a `baseline: true` written out with its default tolerance).
 *
 * @example
 * ```ts
 * reportOptions({ baseline: true }, { repeat: 1, passAt: 1, concurrency: 4, thresholds: { rouge: 0.5 } }).baseline // { tolerance: 0.05 }
 * ```
 */
export function reportOptions(
  options: Pick<GoldenOptions, 'thresholds' | 'budget' | 'baseline'>,
  run: { repeat: number; passAt: number; concurrency: number; thresholds: Record<string, number | null> },
): GoldenReport['options'] {
  return {
    repeat: run.repeat,
    passAt: run.passAt,
    concurrency: run.concurrency,
    scorers: run.thresholds,
    ...(options.thresholds ? { thresholds: options.thresholds } : {}),
    ...(options.budget ? { budget: options.budget } : {}),
    // `baseline: true` has no properties to copy: the default tolerance.
    ...(options.baseline ? { baseline: Object.assign({ tolerance: 0.05 }, options.baseline) } : {}),
  }
}

/** The latencies of each case's runs that produced an output (a shard's report keeps them for the merge). */
export function runLatencies(ran: readonly CaseResult[]): number[][] {
  return ran.map((r) => r.runs.filter((run) => run.output !== undefined).map((run) => run.latencyMs))
}

/**
 * What the suite prints at its end: the summary of the report (at most `maxCases` cases, the report
 * file), the shard's line, and the lines of the run history.
 *
 * @example
 * ```ts
 * console.log(consoleSummary(report, 10, '.expect-llm/reports/qa.json', []))
 * ```
 */
export function consoleSummary(report: GoldenReport, maxCases: number | undefined, reportFile: string | undefined, historyLines: readonly string[]): string {
  return [
    formatGoldenSummary(report, { ...(maxCases !== undefined ? { maxCases } : {}), ...(reportFile ? { reportFile } : {}) }),
    ...(report.shard ? [shardSummaryLine(report.shard)] : []),
    ...historyLines,
  ].join('\n')
}
