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
import { baselinePath, compareBaseline, readBaseline, type BaselineCases } from '../golden/baseline.js'
import type { CompareReport, CompareRow, GoldenReport, ReportCase, ReportCheck, ReportScorer, UsageTotals } from '../golden/report.js'
import { clip, fmtMs, fmtScore, tokenAndCostChecks } from '../golden/report.js'
import { comparePair, TIE } from '../golden/compare.js'
import type { LoadedReport } from './load.js'
import { BootstrapAggregator, mcnemar, mean, pairedBootstrap, percentile } from '../golden/stats.js'

export type { LoadedReport } from './load.js'

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
      `${label}: no report from shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')}, so ${missing.length === 1 ? 'its cases' : 'their cases'} never ran here. Check that every shard job uploaded its .expect-llm/reports (a shard whose job failed early writes none)`,
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

function worstFirst(cases: readonly ReportCase[]): ReportCase[] {
  const margin = (c: ReportCase) =>
    c.output === null ? -Infinity : Math.min(0, ...Object.values(c.scores).map((s) => (s!.threshold === null ? 0 : s!.score - s!.threshold)))
  const failed = (c: ReportCase) => Object.values(c.scores).filter((s) => !s!.pass).length
  return [...cases].sort((a, b) => margin(a) - margin(b) || failed(b) - failed(a) || a.passes - b.passes)
}

function caseList(cases: readonly ReportCase[], scorer?: string): string {
  return worstFirst(cases)
    .slice(0, 20)
    .map((c) => {
      const parts = scorer
        ? [`${scorer} ${fmtScore(c.scores[scorer as keyof typeof c.scores]!.score)}`]
        : Object.entries(c.scores)
            .filter(([, s]) => !s!.pass)
            .map(([n, s]) => `${n} ${fmtScore(s!.score)}${s!.threshold !== null ? `<${fmtScore(s!.threshold)}` : ''}`)
      if (c.output === null) parts.push('errored')
      else if (c.assertError) parts.push('assert failed')
      return `  - ${c.id}: ${parts.join(', ') || `${c.passes}/${c.runs} runs passed`}  ${clip(c.input, 60)}`
    })
    .concat(cases.length > 20 ? [`  … ${cases.length - 20} more`] : [])
    .join('\n')
}

/** The aggregate checks of a golden suite over its (merged) cases, as its aggregate test makes them. */
function goldenChecks(
  report: GoldenReport,
  root: string,
  latencies: readonly number[],
): { checks: ReportCheck[]; failures: string[]; baseline: GoldenReport['baseline'] } {
  const checks: ReportCheck[] = []
  const failures: string[] = []
  const check = (name: string, ok: boolean, message: string, failure?: string) => {
    checks.push({ name, ok, message })
    if (!ok) failures.push(failure ?? message)
  }
  const cases = report.cases
  const { passed, ran, passRate } = report.summary
  const options = report.options as {
    thresholds?: { passRate?: number; mean?: Record<string, number>; min?: Record<string, number> }
    budget?: { p95LatencyMs?: number; maxTokens?: number; maxCostUsd?: number }
    baseline?: { tolerance?: number; tolerances?: Record<string, number> }
  }
  const t = options.thresholds
  const scorers = report.scorers as Record<string, ReportScorer | undefined>
  const scoreOf = (c: ReportCase, name: string) => c.scores[name as keyof typeof c.scores]
  if (t?.passRate !== undefined && passRate !== null) {
    const ok = passRate >= t.passRate
    check(
      'passRate',
      ok,
      `pass rate ${passed}/${ran} = ${(passRate * 100).toFixed(1)}% ${ok ? '>=' : '<'} ${(t.passRate * 100).toFixed(1)}%`,
      `pass rate ${passed}/${ran} = ${(passRate * 100).toFixed(1)}% is below ${(t.passRate * 100).toFixed(1)}%. Failing cases, worst first:\n${caseList(cases.filter((c) => !c.pass))}`,
    )
  }
  for (const [name, min] of Object.entries(t?.mean ?? {})) {
    const sc = scorers[name]
    if (!sc) {
      check(
        `mean.${name}`,
        false,
        `mean ${name}: no case was scored by "${name}"`,
        `thresholds.mean.${name} is set but no case was scored by "${name}". List it in "scorers" (or give the cases what it needs).`,
      )
      continue
    }
    const ok = sc.mean >= min
    check(
      `mean.${name}`,
      ok,
      `mean ${name} ${fmtScore(sc.mean)} ${ok ? '>=' : '<'} ${fmtScore(min)}`,
      `mean ${name} ${sc.mean.toFixed(3)} is below ${min}. Cases below ${min}, worst first:\n${caseList(
        cases.filter((c) => scoreOf(c, name) !== undefined && scoreOf(c, name)!.score < min),
        name,
      )}`,
    )
  }
  for (const [name, min] of Object.entries(t?.min ?? {})) {
    const sc = scorers[name]
    if (!sc) {
      check(`min.${name}`, false, `min ${name}: no case was scored by "${name}"`, `thresholds.min.${name} is set but no case was scored by "${name}".`)
      continue
    }
    const below = cases.filter((c) => scoreOf(c, name) !== undefined && scoreOf(c, name)!.score < min)
    check(
      `min.${name}`,
      below.length === 0,
      `min ${name} ${fmtScore(sc.min)} ${below.length === 0 ? '>=' : '<'} ${fmtScore(min)}`,
      `${below.length} case${below.length === 1 ? '' : 's'} scored ${name} below ${min}, worst first:\n${caseList(below, name)}`,
    )
  }
  const budget = options.budget
  const { app, evaluator, total, latencyMs } = report.usage
  if (budget?.p95LatencyMs !== undefined) {
    const ok = latencyMs.p95 !== null && latencyMs.p95 <= budget.p95LatencyMs
    check(
      'budget.p95LatencyMs',
      ok,
      `P95 latency ${fmtMs(latencyMs.p95)} ${ok ? '<=' : '>'} ${fmtMs(budget.p95LatencyMs)}`,
      `P95 latency ${fmtMs(latencyMs.p95)} (over ${latencies.length} runs) is over the budget of ${fmtMs(budget.p95LatencyMs)}.`,
    )
  }
  tokenAndCostChecks(budget, { app, evaluator, total }, check)
  let baseline: GoldenReport['baseline'] = null
  if (options.baseline !== undefined) {
    if (!report.file) {
      check('baseline', false, 'baseline: the test file is unknown', 'the baseline needs the test file path, which the shard reports do not have.')
    } else {
      const path = baselinePath(resolve(root, report.file), report.suite)
      const previous = readBaseline(path)
      if (previous === undefined) {
        baseline = { path, status: 'missing' }
        check(
          'baseline',
          false,
          `baseline ${path} is missing`,
          `the baseline ${path} is missing. Run the suite locally (it writes the baseline) and commit the file; the merge reads it from --root (the checkout).`,
        )
      } else {
        const current: BaselineCases = {}
        for (const c of cases) {
          if (c.output === null) continue
          current[c.id] = { pass: c.pass, scores: Object.fromEntries(Object.entries(c.scores).map(([n, s]) => [n, Math.round(s!.score * 1e6) / 1e6])) }
        }
        const tolerance = (s: string) => options.baseline?.tolerances?.[s] ?? options.baseline?.tolerance ?? 0.05
        const comparison = compareBaseline(previous, current, tolerance)
        baseline = { path, status: 'compared', comparison }
        const ok = comparison.regressions.length === 0
        const deltas = comparison.scorers.map((d) => `${d.scorer} ${d.delta >= 0 ? '+' : ''}${d.delta.toFixed(3)}`).join(', ') || 'nothing to compare'
        const changes = comparison.regressedCases
          .slice(0, 20)
          .map((ch) => `  - ${ch.id}: ${ch.scorer} ${fmtScore(ch.baseline)} → ${fmtScore(ch.current)}`)
          .join('\n')
        check(
          'baseline',
          ok,
          ok
            ? `baseline: no scorer mean dropped by more than its tolerance (${deltas})`
            : `baseline: ${comparison.regressions.map((d) => `${d.scorer} mean ${fmtScore(d.current)} vs ${fmtScore(d.baseline)}`).join(', ')}`,
          `scores regressed against the baseline ${path}:\n${comparison.regressions.map((d) => `  ${d.scorer}: mean ${d.current.toFixed(3)} vs ${d.baseline.toFixed(3)} (${d.delta.toFixed(3)}, tolerance ${d.tolerance}) over ${d.cases} case${d.cases === 1 ? '' : 's'}`).join('\n')}${changes ? `\nRegressed cases:\n${changes}` : ''}\nIf the change is intended, update the baseline with -u on your machine and commit it.`,
        )
      }
    }
  }
  return { checks, failures, baseline }
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
  const scorers: Record<string, ReportScorer> = {}
  for (const name of names) {
    const scored = cases.filter((c) => c.scores[name as keyof typeof c.scores] !== undefined)
    if (scored.length === 0) continue
    const values = scored.map((c) => c.scores[name as keyof typeof c.scores]!.score)
    const ciOptions = group.map((g) => g.report.scorers[name as keyof typeof g.report.scorers]?.ci).find((ci) => ci !== undefined)!
    const aggregator = new BootstrapAggregator({ confidence: ciOptions.confidence, samples: ciOptions.samples, seed: ciOptions.seed })
    for (const v of values) aggregator.addScores({ score: v })
    const { low, mid, high } = aggregator.aggregate().score as { low: number; mid: number; high: number }
    scorers[name] = {
      count: values.length,
      mean: mean(values) as number,
      min: Math.min(...values),
      max: Math.max(...values),
      threshold: scored[0]!.scores[name as keyof (typeof scored)[0]['scores']]!.threshold,
      passRate: scored.filter((c) => c.scores[name as keyof typeof c.scores]!.pass).length / scored.length,
      ci: { low, mid, high, confidence: ciOptions.confidence, samples: ciOptions.samples, seed: ciOptions.seed },
    }
  }
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

/** The statistics of a comparison over its rows, as `compareGolden` computes them. */
function compareStatistics(rows: readonly CompareRow[], variants: readonly string[], names: readonly string[], options: NonNullable<CompareReport['options']>) {
  const [first, ...others] = variants as [string, ...string[]]
  const bootstrap = { resamples: options.resamples, seed: options.seed, confidence: options.confidence }
  const scorers: CompareReport['scorers'] = []
  for (const name of names) {
    const complete = rows.filter((r) => variants.every((v) => r.scores[v]?.[name] !== undefined))
    if (complete.length === 0) continue
    const values = (v: string) => complete.map((r) => r.scores[v]![name]!)
    const means = Object.fromEntries(variants.map((v) => [v, values(v).reduce((s, x) => s + x, 0) / complete.length]))
    const pairs = others.map((b) => comparePair(first, b, values(first), values(b), bootstrap))
    scorers.push({ scorer: name as CompareReport['scorers'][number]['scorer'], means, pairs })
  }
  const scored = rows.filter((r) => variants.every((v) => r.outputs[v] !== null && r.outputs[v] !== undefined))
  const passRates = Object.fromEntries(variants.map((v) => [v, scored.length ? scored.filter((r) => r.pass[v]).length / scored.length : 0]))
  const mc = others.map((b) => {
    let aOnly = 0
    let bOnly = 0
    for (const r of scored) {
      if (r.pass[first] && !r.pass[b]) aOnly++
      else if (r.pass[b] && !r.pass[first]) bOnly++
    }
    return { a: first, b, ...mcnemar(aOnly, bOnly) }
  })
  let expectation: CompareReport['expectation'] = null
  const e = options.expect
  if (e) {
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
      for (const rival of rivals) {
        const diff = pairedBootstrap(
          complete.map((r) => r.scores[rival]![scorer]!),
          complete.map((r) => r.scores[e.better]![scorer]!),
          bootstrap,
        )
        const supported = diff.low > minDelta
        ok &&= supported
        const sign = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(3)}`
        lines.push(
          `${e.better} vs ${rival} on ${scorer}: mean difference ${sign(diff.meanDiff)}, ${Math.round(bootstrap.confidence * 100)}% CI [${sign(diff.low)}, ${sign(diff.high)}] ${supported ? 'is above' : 'does not lie above'} ${minDelta}`,
        )
      }
    }
    const message = ok
      ? `${e.better} is better: ${lines.join('; ')}`
      : `${e.better} is not shown to be better than ${rivals.join(', ')}${minDelta ? ` by more than ${minDelta}` : ''}: ${lines.join('; ')}`
    expectation = { better: e.better, scorer: scorer as NonNullable<CompareReport['expectation']>['scorer'], minDelta, ok, message }
  }
  const differing = rows
    .filter((r) =>
      variants.some((v) => {
        if (r.pass[v] !== r.pass[first]) return true
        const keys = new Set([...Object.keys(r.scores[v] ?? {}), ...Object.keys(r.scores[first] ?? {})])
        return [...keys].some((n) => Math.abs((r.scores[v]?.[n] ?? -1) - (r.scores[first]?.[n] ?? -1)) > TIE)
      }),
    )
    .map((r) => ({ id: r.id, input: r.input, outputs: r.outputs, pass: r.pass, scores: r.scores }))
  return { scorers, passRates, mcnemar: mc, expectation, differing }
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
      `suite "${first.suite}": ${missingRows.map((g) => g.path).join(', ')} ${missingRows.length === 1 ? 'has' : 'have'} no case rows (written by an older expect-llm); run the shards again`,
    )
    return { report: first, failures: problems, complete: false }
  }
  const rows = inOrder(group, (g) => (g.report as CompareReport).rows!)
  const names = mergedOrder(reports.map((r) => r.scorers.map((s) => s.scorer)))
  const stats = compareStatistics(rows, first.variants, names, first.options!)
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
