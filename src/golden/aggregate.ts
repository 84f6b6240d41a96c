/**
 * The pure steps of a golden suite's end: per-scorer aggregates (with the dataset-level retrieval
 * averages), the threshold checks, usage totals and latency, the budget checks, the baseline verdict and
 * the report's cases. `GoldenSuite.finish` calls them in order and keeps the I/O (ledger, baseline file,
 * report file, console) at its edge.
 *
 * @module
 */
import { costOf, type LedgerEntry } from '../ledger.js'
import type { BaselineCases, BaselineComparison } from './baseline.js'
import { clip, fmtMs, fmtScore, tokenAndCostChecks, type ReportCase, type ReportCheck, type ReportScorer, type UsageTotals } from './report.js'
import type { CaseResult, CaseRun } from './run.js'
import { inputText } from './scorers.js'
import { BootstrapAggregator, mean, percentile } from './stats.js'
import type { GoldenBudget, GoldenThresholds } from './types.js'

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
export function confidenceInterval(values: readonly number[]): ReportScorer['ci'] {
  const aggregator = new BootstrapAggregator(CI)
  for (const value of values) aggregator.addScores({ score: value })
  const { low, mid, high } = aggregator.aggregate().score as { low: number; mid: number; high: number }
  return { low, mid, high, ...CI }
}

const f1 = (p: number, r: number) => (p + r === 0 ? 0 : (2 * p * r) / (p + r))

/**
 * Dataset-level precision, recall and F1 at k of a retrieval check: micro (summed over the cases: relevant
 * found / items considered, relevant found / relevant) and macro (the mean of the per-case values).
 */
export function retrievalAverages(counts: ReadonlyArray<{ found: number; k: number; relevant: number }>): NonNullable<ReportScorer['retrieval']> {
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

/** Per scorer key (in the given order): count, mean, min, max, threshold, pass rate, confidence interval. */
export function aggregateScorers(ran: readonly CaseResult[], keys: readonly string[]): Record<string, ReportScorer> {
  const scorers: Record<string, ReportScorer> = {}
  for (const name of keys) {
    const scored = ran.filter((r) => r.scores[name] !== undefined)
    if (scored.length === 0) continue
    const values = scored.map((r) => r.scores[name]!.score)
    scorers[name] = {
      count: values.length,
      mean: mean(values) as number,
      min: Math.min(...values),
      max: Math.max(...values),
      threshold: scored[0]!.scores[name]!.threshold,
      passRate: scored.filter((r) => r.scores[name]!.pass).length / scored.length,
      ci: confidenceInterval(values),
    }
    const counts = scored.map((r) => r.scores[name]!.retrieval).filter((c) => c !== undefined)
    if (counts.length === scored.length) scorers[name].retrieval = retrievalAverages(counts)
  }
  return scorers
}

/** Worst cases first: the largest shortfall below a threshold, then the most failed scorers, then the fewest passing runs. */
export function worstFirst(rs: readonly CaseResult[]): CaseResult[] {
  const margin = (r: CaseResult) =>
    r.errored ? -Infinity : Math.min(0, ...Object.values(r.scores).map((s) => (s.threshold === null ? 0 : s.score - s.threshold)))
  const failedCount = (r: CaseResult) => Object.values(r.scores).filter((s) => !s.pass).length
  return [...rs].sort((a, b) => margin(a) - margin(b) || failedCount(b) - failedCount(a) || a.passes - b.passes)
}

/** The list of failing cases in a check's message (20 at most), with one scorer's score or the failed ones. */
export function failingList(rs: readonly CaseResult[], score?: string): string {
  return worstFirst(rs)
    .slice(0, 20)
    .map((r) => {
      const parts = score
        ? [`${score} ${fmtScore(r.scores[score]!.score)}`]
        : Object.entries(r.scores)
            .filter(([, s]) => !s.pass)
            .map(([n, s]) => `${n} ${fmtScore(s.score)}${s.threshold !== null ? `<${fmtScore(s.threshold)}` : ''}`)
      if (r.errored) parts.push('errored')
      else if (r.runs.some((run) => run.assertError)) parts.push('assert failed')
      return `  - ${r.c.id}: ${parts.join(', ') || `${r.passes}/${r.runs.length} runs passed`}  ${clip(inputText(r.c.input), 60)}`
    })
    .concat(rs.length > 20 ? [`  … ${rs.length - 20} more`] : [])
    .join('\n')
}

/** The `thresholds` checks: pass rate, then each `mean` and `min` gate. */
export function thresholdChecks(
  ran: readonly CaseResult[],
  scorers: Readonly<Record<string, ReportScorer>>,
  t: GoldenThresholds | undefined,
): CheckOutcomeLine[] {
  const out: CheckOutcomeLine[] = []
  const passed = ran.filter((r) => r.pass).length
  const passRate = ran.length > 0 ? passed / ran.length : null
  if (t?.passRate !== undefined && passRate !== null) {
    const ok = passRate >= t.passRate
    const failing = ran.filter((r) => !r.pass)
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`
    out.push(
      line(
        'passRate',
        ok,
        `pass rate ${passed}/${ran.length} = ${pct(passRate)} ${ok ? '>=' : '<'} ${pct(t.passRate)}`,
        `pass rate ${passed}/${ran.length} = ${pct(passRate)} is below ${pct(t.passRate)}. Failing cases, worst first:\n${failingList(failing)}`,
      ),
    )
  }
  for (const [name, min] of Object.entries(t?.mean ?? {}) as Array<[string, number]>) {
    const sc = scorers[name]
    if (!sc) {
      out.push(
        line(
          `mean.${name}`,
          false,
          `mean ${name}: no case was scored by "${name}"`,
          `thresholds.mean.${name} is set but no case was scored by "${name}". List it in "scorers" (or give the cases what it needs).`,
        ),
      )
      continue
    }
    const ok = sc.mean >= min
    const below = ran.filter((r) => r.scores[name] !== undefined && r.scores[name]!.score < min)
    out.push(
      line(
        `mean.${name}`,
        ok,
        `mean ${name} ${fmtScore(sc.mean)} ${ok ? '>=' : '<'} ${fmtScore(min)}`,
        `mean ${name} ${sc.mean.toFixed(3)} is below ${min}. Cases below ${min}, worst first:\n${failingList(below, name)}`,
      ),
    )
  }
  for (const [name, min] of Object.entries(t?.min ?? {}) as Array<[string, number]>) {
    const sc = scorers[name]
    if (!sc) {
      out.push(line(`min.${name}`, false, `min ${name}: no case was scored by "${name}"`, `thresholds.min.${name} is set but no case was scored by "${name}".`))
      continue
    }
    const below = ran.filter((r) => r.scores[name] !== undefined && r.scores[name]!.score < min)
    const ok = below.length === 0
    out.push(
      line(
        `min.${name}`,
        ok,
        `min ${name} ${fmtScore(sc.min)} ${ok ? '>=' : '<'} ${fmtScore(min)}`,
        `${below.length} case${below.length === 1 ? '' : 's'} scored ${name} below ${min}, worst first:\n${failingList(below, name)}`,
      ),
    )
  }
  return out
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

/** The scores a baseline keeps: each case that ran, its pass and its scores (rounded to 6 decimals). */
export function baselineCases(ran: readonly CaseResult[]): BaselineCases {
  const current: BaselineCases = {}
  for (const r of ran) {
    if (r.errored) continue
    current[r.c.id] = { pass: r.pass, scores: Object.fromEntries(Object.entries(r.scores).map(([n, s]) => [n, Math.round(s.score * 1e6) / 1e6])) }
  }
  return current
}

/** The baseline check of a comparison with the committed baseline. */
export function baselineComparisonCheck(path: string, comparison: BaselineComparison, refused: boolean): CheckOutcomeLine {
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
      `  ${d.scorer}: mean ${d.current.toFixed(3)} vs ${d.baseline.toFixed(3)} (${d.delta.toFixed(3)}, tolerance ${d.tolerance}) over ${d.cases} case${d.cases === 1 ? '' : 's'}`,
  )
  return line(
    'baseline',
    ok,
    ok
      ? `${label}: no scorer mean dropped by more than its tolerance (${deltas})`
      : `${label}: ${comparison.regressions.map((d) => `${d.scorer} mean ${fmtScore(d.current)} vs ${fmtScore(d.baseline)}`).join(', ')}`,
    `scores regressed against the baseline ${path}:\n${regressions.join('\n')}${changes('Regressed cases', comparison.regressedCases)}${changes('Improved cases', comparison.improvedCases)}\nIf the change is intended, update the baseline with -u.`,
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
