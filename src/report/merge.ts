/**
 * `expect-llm report --merge`: puts a suite run on several shards (`EXPECT_LLM_SHARD=i/n`) back
 * together. The cases return to dataset order, and everything is recomputed over all of them, as one
 * machine would have: each check's mean, minimum, pass rate and bootstrap interval (not an average of
 * the shards' averages), the P95 latency over every run, usage totals, a comparison's paired bootstrap,
 * wins/ties/losses and McNemar's test over the merged pairs; then the aggregate checks a shard leaves
 * to the merge (pass rate, means, minimums, budget) and the baseline over the merged suite. A missing
 * shard, a case missing from every shard or shards from different commits are failures, never a
 * smaller suite that passes.
 *
 * @module
 */
import { resolve } from 'node:path'
import { baselineComparisonCheck, baselineScores, gateCaseOfReport, scorerAggregates, suiteGates, type CheckOutcomeLine } from '../golden/aggregate.js'
import { baselinePath, compareBaseline, readBaseline } from '../golden/baseline.js'
import type { CompareReport, GoldenReport, ReportCheck, ReportScorer, UsageTotals } from '../golden/report.js'
import { fmtMs, tokenAndCostChecks } from '../golden/report.js'
import type { GoldenThresholds } from '../golden/types.js'
import { compareStatistics } from '../golden/compare-stats.js'
import type { LoadedReport } from './load.js'
import { percentile } from '../golden/stats.js'

export type { LoadedReport } from './load.js'
export { differingRows, expectationVerdict, passStatistics, scorerComparisons } from '../golden/compare-stats.js'

/** What a merge gives: the merged report, and what fails (gates, missing shards); empty when it passes. */
export interface MergeOutcome<R = GoldenReport | CompareReport> {
  report: R
  /** Each failure as a paragraph (a failed gate with the cases behind it, a missing shard). */
  failures: string[]
  /** Every shard is there and every case ran: the merged run may go into the history. */
  complete: boolean
}

/** Keys in the order the shards list them (each shard's order is a subsequence of the whole suite's). */
function mergedOrder(lists: ReadonlyArray<readonly string[]>): string[] {
  const out: string[] = []
  for (const list of lists) {
    let at = 0
    for (const key of list) {
      const found = out.indexOf(key)
      if (found >= 0) at = found + 1
      else out.splice(at++, 0, key)
    }
  }
  return out
}

function union(lists: ReadonlyArray<readonly string[]>): string[] {
  return [...new Set(lists.flat())]
}

function sumTotals(list: readonly UsageTotals[]): UsageTotals {
  const t: UsageTotals = { calls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, unpricedModels: [] }
  for (const u of list) {
    t.calls += u.calls
    t.inputTokens += u.inputTokens
    t.outputTokens += u.outputTokens
    t.totalTokens += u.totalTokens
    t.costUsd = t.costUsd === null || u.costUsd === null ? null : t.costUsd + u.costUsd
    for (const m of u.unpricedModels) if (!t.unpricedModels.includes(m)) t.unpricedModels.push(m)
  }
  return t
}

/** Checks that the shards of one suite fit together; returns the problems, each a sentence. */
function shardProblems(group: readonly LoadedReport[]): string[] {
  const problems: string[] = []
  const first = group[0]!.report
  const label = `suite "${first.suite}"${first.file ? ` (${first.file})` : ''}`
  const sharded = group.filter((g) => g.report.shard)
  if (sharded.length !== group.length) {
    problems.push(
      `${label}: ${group.length - sharded.length} of its ${group.length} reports are not shard reports (${group
        .filter((g) => !g.report.shard)
        .map((g) => g.path)
        .join(', ')}); merge the reports of one sharded run only`,
    )
    return problems
  }
  const count = first.shard!.count
  if (group.some((g) => g.report.shard!.count !== count))
    problems.push(
      `${label}: the shards disagree on their count (${union([group.map((g) => String(g.report.shard!.count))]).join(', ')}); merge the reports of one run`,
    )
  const seen = new Map<number, string>()
  for (const g of group) {
    const i = g.report.shard!.index
    if (seen.has(i)) problems.push(`${label}: shard ${i}/${count} appears twice (${seen.get(i)} and ${g.path}); merge the reports of one run`)
    seen.set(i, g.path)
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i))
  if (missing.length > 0) {
    problems.push(
      `${label}: no report from shard${missing.length === 1 ? '' : 's'} ` +
        `${missing.map((i) => `${i}/${count}`).join(', ')}, so ` +
        `${missing.length === 1 ? 'its cases' : 'their cases'} never ran here. Check that every shard job ` +
        `uploaded its .expect-llm/reports (a shard whose job failed early writes none)`,
    )
  }
  const totals = union([group.map((g) => String(g.report.shard!.total))])
  if (totals.length > 1) problems.push(`${label}: the shards ran different datasets (${totals.join(', ')} cases); merge the reports of one run`)
  const commits = union([group.map((g) => g.report.git.commit ?? 'unknown')])
  if (commits.length > 1)
    problems.push(`${label}: the shards ran different commits (${commits.map((c) => c.slice(0, 12)).join(', ')}); merge the reports of one run`)
  if (problems.length === 0) {
    const positions = new Set(group.flatMap((g) => g.report.shard!.positions))
    const total = first.shard!.total
    if (positions.size !== total) problems.push(`${label}: ${total - positions.size} of its ${total} cases are in no shard report`)
  }
  return problems
}

/** Cases of all shards with their positions, in dataset order. */
function inOrder<T>(group: readonly LoadedReport[], items: (r: LoadedReport) => readonly T[]): T[] {
  const all: Array<{ at: number; item: T }> = []
  for (const g of group) {
    const list = items(g)
    const positions = g.report.shard?.positions ?? list.map((_, i) => i)
    list.forEach((item, i) => all.push({ at: positions[i] ?? i, item }))
  }
  return all.sort((a, b) => a.at - b.at).map((x) => x.item)
}

const shared = (group: readonly LoadedReport[]) => {
  const reports = group.map((g) => g.report)
  const latest = reports.reduce((a, b) => (Date.parse(b.createdAt) > Date.parse(a.createdAt) ? b : a))
  return {
    createdAt: latest.createdAt,
    durationMs: Math.max(...reports.map((r) => r.durationMs)),
    git: latest.git,
    merged: { shards: group.length, files: group.map((g) => g.path) },
  }
}

/** The options of a golden report that its gates read. */
interface GateOptions {
  thresholds?: GoldenThresholds
  budget?: { p95LatencyMs?: number; maxTokens?: number; maxCostUsd?: number }
  baseline?: { tolerance?: number; tolerances?: Record<string, number> }
}

/** The P95 latency gate over every run of the merged shards. */
function latencyGate(p95: number | null, budget: number, runs: number): CheckOutcomeLine {
  const ok = p95 !== null && p95 <= budget
  const message = `P95 latency ${fmtMs(p95)} ${ok ? '<=' : '>'} ${fmtMs(budget)}`
  return ok
    ? { check: { name: 'budget.p95LatencyMs', ok, message } }
    : {
        check: { name: 'budget.p95LatencyMs', ok, message },
        failure: `P95 latency ${fmtMs(p95)} (over ${runs} runs) is over the budget of ${fmtMs(budget)}.`,
      }
}

/** The baseline check of the merged suite, against the baseline committed in `root` (read, never written). */
function mergedBaseline(report: GoldenReport, root: string, options: GateOptions['baseline']): { info: GoldenReport['baseline']; line: CheckOutcomeLine } {
  if (!report.file) {
    const check = { name: 'baseline', ok: false, message: 'baseline: the test file is unknown' }
    return { info: null, line: { check, failure: 'the baseline needs the test file path, which the shard reports do not have.' } }
  }
  const path = baselinePath(resolve(root, report.file), report.suite)
  const previous = readBaseline(path)
  if (previous === undefined) {
    const check = { name: 'baseline', ok: false, message: `baseline ${path} is missing` }
    const failure =
      `the baseline ${path} is missing. Run the suite locally (it writes the baseline) and commit the ` + `file; the merge reads it from --root (the checkout).`
    return { info: { path, status: 'missing' }, line: { check, failure } }
  }
  const tolerance = (s: string) => options?.tolerances?.[s] ?? options?.tolerance ?? 0.05
  const comparison = compareBaseline(previous, baselineScores(report.cases.map(gateCaseOfReport)), tolerance)
  const line = baselineComparisonCheck(path, comparison, false, 'update the baseline with -u on your machine and commit it')
  return { info: { path, status: 'compared', comparison }, line }
}

/**
 * The aggregate checks of a golden suite over its merged cases, with the suite's own gate functions
 * (src/golden/aggregate.ts) over the report's cases: thresholds, budget, then the baseline.
 */
function goldenChecks(
  report: GoldenReport,
  root: string,
  latencies: readonly number[],
): { checks: ReportCheck[]; failures: string[]; baseline: GoldenReport['baseline'] } {
  const options = report.options as GateOptions
  const lines = suiteGates(report.cases.map(gateCaseOfReport), report.scorers as Record<string, ReportScorer | undefined>, options.thresholds)
  const { app, evaluator, total, latencyMs } = report.usage
  if (options.budget?.p95LatencyMs !== undefined) lines.push(latencyGate(latencyMs.p95, options.budget.p95LatencyMs, latencies.length))
  tokenAndCostChecks(options.budget, { app, evaluator, total }, (name, ok, message, failure) =>
    lines.push(ok ? { check: { name, ok, message } } : { check: { name, ok, message }, failure: failure ?? message }),
  )
  let baseline: GoldenReport['baseline'] = null
  if (options.baseline !== undefined) {
    const merged = mergedBaseline(report, root, options.baseline)
    baseline = merged.info
    lines.push(merged.line)
  }
  return { checks: lines.map((l) => l.check), failures: lines.flatMap((l) => (l.failure !== undefined ? [l.failure] : [])), baseline }
}

/**
 * Merges the shard reports of one `describeGolden` suite.
 *
 * @example
 * ```ts
 * const { report, failures } = mergeGoldenShards([{ path: 'a.json', report: shard1 }, { path: 'b.json', report: shard2 }], { root: process.cwd() })
 * ```
 */
export function mergeGoldenShards(group: ReadonlyArray<LoadedReport<GoldenReport>>, options: { root: string }): MergeOutcome<GoldenReport> {
  const problems = shardProblems(group)
  const first = group[0]!.report
  const cases = inOrder(group, (g) => (g.report as GoldenReport).cases)
  const latencies = inOrder(group, (g) => (g.report as GoldenReport).shard?.runLatenciesMs ?? (g.report as GoldenReport).cases.map((c) => [c.latencyMs])).flat()
  const names = mergedOrder(group.map((g) => Object.keys(g.report.scorers)))
  const ci = group.map((g) => Object.values(g.report.scorers).find((sc) => sc !== undefined)?.ci).find((c) => c !== undefined)
  const scorers = scorerAggregates(cases.map(gateCaseOfReport), names, ci)
  const passed = cases.filter((c) => c.pass).length
  const total = first.shard?.total ?? cases.length
  const reports = group.map((g) => g.report as GoldenReport)
  const sources: Record<string, number> = {}
  for (const r of reports) for (const [k, v] of Object.entries(r.usage.latencyMs.sources)) sources[k] = (sources[k] ?? 0) + (v ?? 0)
  const evaluatorKinds = (kind: 'judge' | 'embedding') => sumTotals(reports.map((r) => r.usage.evaluator.byKind[kind]))
  const report: GoldenReport = {
    ...first,
    ...shared(group),
    models: {
      app: union(reports.map((r) => r.models.app)),
      judge: union(reports.map((r) => r.models.judge)),
      embedding: union(reports.map((r) => r.models.embedding)),
    },
    summary: {
      cases: total,
      ran: cases.length,
      filteredOut: first.summary.filteredOut,
      passed,
      failed: cases.length - passed,
      errored: cases.filter((c) => c.output === null).length,
      passRate: cases.length > 0 ? passed / cases.length : null,
      flaky: cases.filter((c) => c.flaky).length,
    },
    scorers: scorers as GoldenReport['scorers'],
    checks: [],
    baseline: null,
    usage: {
      app: sumTotals(reports.map((r) => r.usage.app)),
      evaluator: { ...sumTotals(reports.map((r) => r.usage.evaluator)), byKind: { judge: evaluatorKinds('judge'), embedding: evaluatorKinds('embedding') } },
      total: sumTotals(reports.map((r) => r.usage.total)),
      latencyMs: { p50: percentile(latencies, 50) ?? null, p95: percentile(latencies, 95) ?? null, p99: percentile(latencies, 99) ?? null, sources },
    },
    cases,
  }
  delete report.shard
  // Gates over an incomplete suite would judge the wrong cases: the problems alone fail the merge.
  if (problems.length > 0) return { report, failures: problems, complete: false }
  const gates = goldenChecks(report, options.root, latencies)
  report.checks = gates.checks
  report.baseline = gates.baseline
  return { report, failures: gates.failures, complete: true }
}

/**
 * Merges the shard reports of one `compareGolden` suite: the rows in dataset order, and the paired
 * statistics and the expectation recomputed over all of them.
 */
export function mergeCompareShards(group: ReadonlyArray<LoadedReport<CompareReport>>): MergeOutcome<CompareReport> {
  const problems = shardProblems(group)
  const first = group[0]!.report
  const reports = group.map((g) => g.report as CompareReport)
  const missingRows = group.filter((g) => !(g.report as CompareReport).rows || !(g.report as CompareReport).options)
  if (missingRows.length > 0) {
    problems.push(
      `suite "${first.suite}": ${missingRows.map((g) => g.path).join(', ')} ` +
        `${missingRows.length === 1 ? 'has' : 'have'} no case rows (written by an older expect-llm); run the ` +
        `shards again`,
    )
    return { report: first, failures: problems, complete: false }
  }
  const rows = inOrder(group, (g) => (g.report as CompareReport).rows!)
  const names = mergedOrder(reports.map((r) => r.scorers.map((s) => s.scorer)))
  // An `expect` without a scorer decides on the first scorer the suite lists, which each shard resolved
  // (the rows alone do not tell: the scorers are kept in their built-in order).
  const options = first.options!
  const listed = first.expectation?.scorer
  const decideOn = options.expect && options.expect.scorer === undefined && listed ? { ...options, expect: { ...options.expect, scorer: listed } } : options
  const stats = compareStatistics(rows, first.variants, names, decideOn)
  const app: Record<string, UsageTotals> = Object.fromEntries(first.variants.map((v) => [v, sumTotals(reports.map((r) => r.usage.app[v]!).filter(Boolean))]))
  const report: CompareReport = {
    ...first,
    ...shared(group),
    models: {
      app: Object.fromEntries(first.variants.map((v) => [v, union(reports.map((r) => r.models.app[v] ?? []))])),
      judge: union(reports.map((r) => r.models.judge)),
      embedding: union(reports.map((r) => r.models.embedding)),
    },
    ...stats,
    usage: { app, evaluator: sumTotals(reports.map((r) => r.usage.evaluator)) },
    cases: rows.length,
    rows,
  }
  delete report.shard
  if (problems.length > 0) return { report: { ...report, expectation: null }, failures: problems, complete: false }
  const failures: string[] = []
  if (stats.expectation && !stats.expectation.ok) failures.push(stats.expectation.message)
  const errored = rows.filter((r) => first.variants.some((v) => r.outputs[v] === null)).length
  if (errored > 0 && stats.expectation) failures.push(`${errored} case${errored === 1 ? '' : 's'} errored for some variant and are left out of the comparison`)
  return { report, failures, complete: true }
}

/** A report that was not sharded, passed through a merge: its own failed checks still fail the merge. */
export function unshardedOutcome(report: GoldenReport | CompareReport): MergeOutcome {
  const failures =
    report.kind === 'golden'
      ? report.checks.filter((c) => !c.ok).map((c) => c.message)
      : report.expectation && !report.expectation.ok
        ? [report.expectation.message]
        : []
  return { report, failures, complete: true }
}
