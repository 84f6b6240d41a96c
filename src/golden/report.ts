/**
 * Golden reports: the JSON report schema (versioned), git information, writing reports under
 * `.expect-llm/reports/`, and the console summary.
 *
 * @module
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import type { BaselineComparison } from './baseline.js'
import { clip, fmtMs, fmtScore, messageLines } from './format.js'
import type { LatencySource } from './run.js'
import type { CheckResult } from '../checks/types.js'
import { formatMutationSummary, type MutationReport } from '../mutation/run.js'

export { clip, fmtMs, fmtScore, messageLines } from './format.js'

/** Version of the JSON report format. Bumped on any incompatible change. */
export const REPORT_SCHEMA_VERSION = 1

/** Git state of the working tree, or `null` fields when unknown. */
export interface GitInfo {
  commit: string | null
  branch: string | null
}

/** Token usage and cost totals. `costUsd` is `null` when some model has no price (see `unpricedModels`). */
export interface UsageTotals {
  calls: number
  inputTokens: number
  outputTokens: number
  totalTokens: number
  costUsd: number | null
  unpricedModels: string[]
}

/** Latency percentiles of the app per case run, in ms. */
export interface LatencySummary {
  p50: number | null
  p95: number | null
  p99: number | null
  /** Where the numbers come from: recorded latency of replayed calls, the task's own figure, or measured wall time (mixed when several). */
  sources: Partial<Record<LatencySource, number>>
}

/** One scorer's figure on one case: the check's result (with a panel's votes and a retrieval check's counts at k). */
export type ReportScore = CheckResult

/** One case in a report. */
export interface ReportCase {
  id: string
  source?: string
  tags?: string[]
  input: unknown
  expected?: unknown
  /** The first run's output. */
  output: string | null
  pass: boolean
  runs: number
  passes: number
  flaky: boolean
  /** The task's or scorers' errors of the first run that had any, one per line. */
  error?: string
  /** The same errors, one entry each, unabridged. */
  errors?: string[]
  assertError?: string
  diagnosis?: 'retrieval' | 'generation'
  scores: Record<string, ReportScore>
  /** Mean over runs. */
  latencyMs: number
  usage: { inputTokens: number; outputTokens: number; costUsd: number | null }
}

/** A scorer over all cases. */
export interface ReportScorer {
  count: number
  mean: number
  min: number
  max: number
  threshold: number | null
  /** Cases passing this scorer / cases scored. */
  passRate: number
  /**
   * 95% bootstrap confidence interval of the mean score over the cases, as rouge-score's
   * `BootstrapAggregator` (1,000 resamples of the cases, seeded): `low`/`high` are the 2.5th/97.5th
   * percentiles of the resampled means, `mid` their median.
   */
  ci: { low: number; mid: number; high: number; confidence: number; samples: number; seed: number }
  /**
   * A retrieval check: dataset-level precision, recall and F1 at k, micro-averaged (summed over the cases)
   * and macro-averaged (the mean of the per-case values).
   */
  retrieval?: { micro: { precision: number; recall: number; f1: number }; macro: { precision: number; recall: number; f1: number } }
}

/** An aggregate check: pass rate, a mean or min threshold, the baseline, a budget line. */
export interface ReportCheck {
  name: string
  ok: boolean
  message: string
}

/**
 * A shard's part of a suite (run with `EXPECT_LLM_SHARD=i/n`): what `expect-llm report --merge` needs to
 * put the suite back together, and the aggregate checks that a slice cannot decide.
 */
export interface ReportShard {
  index: number
  count: number
  source: 'env'
  /** Cases of the whole suite (after `filter`), over every shard. */
  total: number
  /** Position of each of this shard's cases in the whole suite (dataset order), parallel to `cases`. */
  positions: number[]
  /** Per case (parallel to `cases`), the latency in ms of each run that produced an output (for the merged P95). */
  runLatenciesMs?: number[][]
  /** The aggregate checks left to the merge (pass rate, means, minimums, baseline, budget). */
  deferred: string[]
}

/** Where a report merged by `expect-llm report --merge` came from. */
export interface ReportMerged {
  /** Shards merged. */
  shards: number
  /** The shard report files, as given to the merge. */
  files: string[]
}

/** The JSON report of one `describeGolden` suite (schema version 1). */
export interface GoldenReport {
  schemaVersion: 1
  kind: 'golden'
  suite: string
  /** Test file, relative to the working directory. */
  file: string | null
  runner: 'vitest' | 'jest' | 'evaluate'
  createdAt: string
  durationMs: number
  git: GitInfo
  models: { app: string[]; judge: string[]; embedding: string[] }
  options: {
    repeat: number
    passAt: number
    concurrency: number
    scorers: Record<string, number | null>
    thresholds?: unknown
    budget?: unknown
    baseline?: unknown
  }
  summary: { cases: number; ran: number; filteredOut: number; passed: number; failed: number; errored: number; passRate: number | null; flaky: number }
  scorers: Record<string, ReportScorer>
  checks: ReportCheck[]
  baseline: null | { path: string; status: 'created' | 'updated' | 'compared' | 'missing'; comparison?: BaselineComparison }
  usage: {
    app: UsageTotals
    evaluator: UsageTotals & { byKind: { judge: UsageTotals; embedding: UsageTotals } }
    total: UsageTotals
    latencyMs: LatencySummary
  }
  cases: ReportCase[]
  /** Set on a shard's report (`EXPECT_LLM_SHARD`). */
  shard?: ReportShard
  /** Set on a report merged from shards. */
  merged?: ReportMerged
  /** Mutation testing of the checks (`describeGolden(..., { mutate })`, `expect-llm mutate`): see {@link MutationReport}. */
  mutation?: MutationReport
}

/** One scorer's comparison in a `compareGolden` report. */
export interface ReportComparisonScorer {
  scorer: string
  /** Mean per variant. */
  means: Record<string, number>
  /** Each variant after the first, against the first. */
  pairs: Array<{
    a: string
    b: string
    cases: number
    meanDiff: number
    ci: { low: number; high: number; confidence: number; resamples: number; seed: number }
    wins: number
    ties: number
    losses: number
  }>
}

/** One case of a comparison: every variant's output, verdict and scores (`null` output: the variant errored). */
export interface CompareRow {
  id: string
  input: unknown
  expected?: unknown
  tags?: string[]
  outputs: Record<string, string | null>
  pass: Record<string, boolean>
  scores: Record<string, Record<string, number>>
  /** Per variant, the score details (judge reasoning, missing keywords), when a scorer gave one. */
  details?: Record<string, Record<string, string>>
}

/** The JSON report of one `compareGolden` suite (schema version 1). */
export interface CompareReport {
  schemaVersion: 1
  kind: 'compare'
  suite: string
  file: string | null
  runner: 'vitest' | 'jest'
  createdAt: string
  durationMs: number
  git: GitInfo
  variants: string[]
  models: { app: Record<string, string[]>; judge: string[]; embedding: string[] }
  scorers: ReportComparisonScorer[]
  /** McNemar's test on case pass/fail, each variant against the first. */
  mcnemar: Array<{ a: string; b: string; aOnly: number; bOnly: number; pValue: number; method: 'exact' | 'chi-square'; statistic?: number }>
  passRates: Record<string, number>
  expectation: null | { better: string; scorer: string; minDelta: number; ok: boolean; message: string }
  usage: { app: Record<string, UsageTotals>; evaluator: UsageTotals }
  /** Only the cases where the variants differ (pass/fail, or any score). */
  differing: Array<{
    id: string
    input: unknown
    outputs: Record<string, string | null>
    pass: Record<string, boolean>
    scores: Record<string, Record<string, number>>
  }>
  cases: number
  /** Every case, in dataset order (the HTML report's side-by-side table; the merge recomputes the statistics from them). */
  rows?: CompareRow[]
  /** The statistics' settings and the expectation, as given. */
  options?: { resamples: number; seed: number; confidence: number; expect?: { better: string; scorer?: string; minDelta?: number } }
  /** Set on a shard's report (`EXPECT_LLM_SHARD`). */
  shard?: ReportShard
  /** Set on a report merged from shards. */
  merged?: ReportMerged
}

function findGitDir(start: string): string | undefined {
  let dir = resolve(start)
  for (;;) {
    const candidate = join(dir, '.git')
    if (existsSync(candidate)) {
      try {
        if (statSync(candidate).isDirectory()) return candidate
        const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(candidate, 'utf8'))
        if (m) return resolve(dir, (m[1] as string).trim())
      } catch {
        return undefined
      }
    }
    const parent = dirname(dir)
    if (parent === dir) return undefined
    dir = parent
  }
}

function readRef(gitDir: string, ref: string): string | null {
  const dirs = [gitDir]
  try {
    dirs.push(resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim()))
  } catch {
    // not a worktree: the refs are in gitDir
  }
  for (const dir of dirs) {
    try {
      return readFileSync(join(dir, ref), 'utf8').trim()
    } catch {
      // try packed-refs
    }
    try {
      for (const line of readFileSync(join(dir, 'packed-refs'), 'utf8').split('\n')) if (line.endsWith(` ${ref}`)) return line.split(' ')[0] as string
    } catch {
      // none
    }
  }
  return null
}

/**
 * The commit and branch of the working tree: read from `.git` (worktrees and packed refs included),
 * else from `git rev-parse`, else from CI variables (`GITHUB_SHA`, `GITHUB_REF_NAME`, `CI_COMMIT_SHA`,
 * `CI_COMMIT_REF_NAME`). Never throws: unknown parts are `null`.
 *
 * @example
 * ```ts
 * readGitInfo() // { commit: '9a9d47f…', branch: 'main' }
 * ```
 */
export function readGitInfo(cwd = process.cwd()): GitInfo {
  const info: GitInfo = { commit: null, branch: null }
  try {
    const gitDir = findGitDir(cwd)
    if (gitDir) {
      const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim()
      const m = /^ref:\s*(.+)$/.exec(head)
      if (m) {
        info.branch = (m[1] as string).replace(/^refs\/heads\//, '')
        info.commit = readRef(gitDir, m[1] as string)
      } else if (/^[0-9a-f]{40}$/.test(head)) info.commit = head
    }
  } catch {
    // fall through
  }
  if (info.commit === null) {
    try {
      info.commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd, stdio: 'pipe', timeout: 2000 }).toString().trim() || null
    } catch {
      // no git
    }
  }
  info.commit ??= process.env.GITHUB_SHA ?? process.env.CI_COMMIT_SHA ?? null
  info.branch ??= process.env.GITHUB_HEAD_REF || process.env.GITHUB_REF_NAME || process.env.CI_COMMIT_REF_NAME || null
  return info
}

/** Where a suite's JSON report goes: `<dir>/<test file relative to cwd>/<suite slug>.json`. */
export function reportPath(dir: string, testPath: string | undefined, slug: string): string {
  const rel = testPath ? relative(process.cwd(), testPath) : 'unknown-file'
  const safe = rel.startsWith('..') ? rel.replace(/^(\.\.[/\\])+/, '') : rel
  return resolve(dir, safe, `${slug}.json`)
}

/** Writes a report atomically. */
export function writeReport(path: string, report: GoldenReport | CompareReport): void {
  mkdirSync(dirname(path), { recursive: true })
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, `${JSON.stringify(report, null, 2)}\n`)
  renameSync(tmp, path)
}

export function fmtUsd(n: number | null): string {
  if (n === null) return 'unknown'
  return n === 0 ? '$0' : n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`
}

/**
 * The token and cost budget checks over a run's usage: the same for a suite's aggregate test and for the
 * merge of its shards (`expect-llm report --merge`).
 */
export function tokenAndCostChecks(
  budget: { maxTokens?: number; maxCostUsd?: number } | undefined,
  { app, evaluator, total }: { app: UsageTotals; evaluator: UsageTotals; total: UsageTotals },
  check: (name: string, ok: boolean, message: string, failure?: string) => void,
): void {
  if (budget?.maxTokens !== undefined) {
    const ok = total.totalTokens <= budget.maxTokens
    check(
      'budget.maxTokens',
      ok,
      `tokens ${total.totalTokens.toLocaleString('en-US')} ${ok ? '<=' : '>'} ${budget.maxTokens.toLocaleString('en-US')} ` +
        `(app ${app.totalTokens.toLocaleString('en-US')}, evaluator ${evaluator.totalTokens.toLocaleString('en-US')})`,
    )
  }
  if (budget?.maxCostUsd !== undefined) {
    if (total.costUsd === null) {
      check(
        'budget.maxCostUsd',
        false,
        `cost unknown: no price for ${total.unpricedModels.join(', ')}`,
        `the cost cannot be checked against the budget of ${fmtUsd(budget.maxCostUsd)}: no price for ${total.unpricedModels.join(', ')}. ` +
          "Add them with configure({ pricing: { '<model>': { inputPerMTok, outputPerMTok } } }).",
      )
    } else {
      const ok = total.costUsd <= budget.maxCostUsd
      check(
        'budget.maxCostUsd',
        ok,
        `cost ${fmtUsd(total.costUsd)} ${ok ? '<=' : '>'} ${fmtUsd(budget.maxCostUsd)} (app ${fmtUsd(app.costUsd)}, evaluator ${fmtUsd(evaluator.costUsd)})`,
      )
    }
  }
}

function fmtTokens(u: UsageTotals): string {
  return (
    `${u.totalTokens.toLocaleString('en-US')} tokens (in ${u.inputTokens.toLocaleString('en-US')} / out ${u.outputTokens.toLocaleString('en-US')}), ` +
    `${fmtUsd(u.costUsd)}${u.unpricedModels.length > 0 ? ` (no price for ${u.unpricedModels.join(', ')})` : ''}`
  )
}

/** The first line of a golden summary: the suite, its cases, what was filtered out, repeats. */
export function summaryTitle(report: GoldenReport): string {
  const s = report.summary
  const header = [`${s.ran} case${s.ran === 1 ? '' : 's'}`]
  if (s.filteredOut > 0) header.push(`${s.filteredOut} filtered out`)
  if (report.options.repeat > 1) header.push(`repeat ${report.options.repeat}, passAt ${report.options.passAt}`)
  return `golden › ${report.suite} (${header.join(', ')})`
}

/** One case of the summary: mark, id, runs and scores; then input, expected, output, failed details, diagnosis, errors. */
export function caseSummaryLines(c: ReportCase): string[] {
  const mark = c.error && c.output === null ? '!' : c.pass ? '✓' : '✗'
  const scores = Object.entries(c.scores)
    .map(([name, sc]) => `${name} ${fmtScore(sc.score)}${sc.pass ? '' : sc.threshold !== null ? `<${fmtScore(sc.threshold)}` : ''}`)
    .join('  ')
  const out = [`  ${mark} ${c.id}${c.flaky ? ` (flaky ${c.passes}/${c.runs})` : c.runs > 1 ? ` (${c.passes}/${c.runs})` : ''}  ${scores}`]
  out.push(`      input:    ${clip(c.input, 100)}`)
  if (c.expected !== undefined) out.push(`      expected: ${clip(c.expected, 100)}`)
  out.push(`      actual:   ${c.output === null ? '(no output)' : clip(c.output, 100)}`)
  const failed = Object.entries(c.scores).filter(([, sc]) => !sc.pass && sc.detail)
  for (const [name, sc] of failed) out.push(`      ${name}: ${clip(sc.detail, 140)}`)
  if (c.diagnosis) {
    const diagnosis = c.diagnosis === 'retrieval' ? 'retrieval missed the relevant documents' : 'the relevant documents were retrieved; the answer misused them'
    out.push(`      diagnosis: ${diagnosis}`)
  }
  for (const error of c.errors ?? (c.error ? [c.error] : [])) out.push(...messageLines('error', error))
  if (c.assertError) out.push(...messageLines('assert', c.assertError))
  return out
}

/** The line for the cases past `maxCases` (none when all are shown): how many, and how many of them fail. */
export function hiddenCasesLine(order: readonly ReportCase[], maxCases: number): string[] {
  if (order.length <= maxCases) return []
  const hidden = order.length - maxCases
  const hiddenFailing = order.slice(maxCases).filter((c) => !c.pass).length
  return [`  … ${hidden} more case${hidden === 1 ? '' : 's'}${hiddenFailing > 0 ? ` (${hiddenFailing} failing)` : ' (all passing)'}: see the JSON report`]
}

/** The table of scorers (mean, min, max, threshold, passing), after a blank line; none without scorers. */
export function scorerTableLines(scorers: GoldenReport['scorers']): string[] {
  const names = Object.keys(scorers)
  if (names.length === 0) return []
  const w = Math.max(7, ...names.map((n) => n.length))
  const out = ['', `  ${'scorer'.padEnd(w)}  mean  min   max   threshold  passing`]
  for (const name of names) {
    const sc = scorers[name] as ReportScorer
    out.push(
      `  ${name.padEnd(w)}  ${fmtScore(sc.mean).padEnd(4)}  ${fmtScore(sc.min).padEnd(4)}  ${fmtScore(sc.max).padEnd(4)}  ` +
        `${(sc.threshold === null ? 'record' : fmtScore(sc.threshold)).padEnd(9)}  ${Math.round(sc.passRate * sc.count)}/${sc.count}`,
    )
  }
  return out
}

/** The pass rate (after a blank line) and the flaky cases (the first 20). */
export function passRateLines(report: GoldenReport): string[] {
  const s = report.summary
  const out = [
    '',
    `  pass rate: ${s.passed}/${s.ran}${s.passRate === null ? '' : ` (${(s.passRate * 100).toFixed(1)}%)`}${s.errored > 0 ? `, ${s.errored} errored` : ''}`,
  ]
  const flaky = report.cases.filter((c) => c.flaky)
  if (flaky.length > 0) {
    const listed = flaky
      .slice(0, 20)
      .map((c) => `${c.id} (${c.passes}/${c.runs})`)
      .join(', ')
    out.push(`  flaky: ${listed}${flaky.length > 20 ? `, … ${flaky.length - 20} more` : ''}`)
  }
  return out
}

/** Latency percentiles (with where the latencies come from) and the app, evaluator and total usage. */
export function usageLines(usage: GoldenReport['usage']): string[] {
  const lat = usage.latencyMs
  const sources = Object.entries(lat.sources)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')
  return [
    `  latency: P50 ${fmtMs(lat.p50)} · P95 ${fmtMs(lat.p95)} · P99 ${fmtMs(lat.p99)}${sources ? ` (${sources})` : ''}`,
    `  app:       ${fmtTokens(usage.app)}`,
    `  evaluator: ${fmtTokens(usage.evaluator)}`,
    `  total:     ${fmtTokens(usage.total)}`,
  ]
}

/** The baseline: each scorer against it and the cases that regressed or improved (15 each), or its status and path (relative to `cwd`). */
export function baselineLines(baseline: GoldenReport['baseline'], cwd: string): string[] {
  if (!baseline) return []
  if (!baseline.comparison) return [`  baseline: ${baseline.status} ${relative(cwd, baseline.path)}`]
  const comparison = baseline.comparison
  const deltas = comparison.scorers
    .map((d) => `${d.scorer} ${fmtScore(d.current)} vs ${fmtScore(d.baseline)} (${d.delta >= 0 ? '+' : ''}${d.delta.toFixed(3)})`)
    .join(', ')
  const list = (title: string, changes: BaselineComparison['regressedCases']) => {
    if (changes.length === 0) return []
    const listed = changes
      .slice(0, 15)
      .map((ch) => `${ch.id} ${ch.scorer} ${fmtScore(ch.baseline)}→${fmtScore(ch.current)}`)
      .join(', ')
    return [`    ${title}: ${listed}${changes.length > 15 ? `, … ${changes.length - 15} more` : ''}`]
  }
  return [`  baseline: ${deltas || 'no common scores'}`, ...list('regressed', comparison.regressedCases), ...list('improved', comparison.improvedCases)]
}

/** The console summary of a golden report: readable in a CI log, failing cases first, truncated. */
export function formatGoldenSummary(report: GoldenReport, options: { maxCases?: number; reportFile?: string } = {}): string {
  const maxCases = options.maxCases ?? 30
  const order = [...report.cases].sort((a, b) => Number(a.pass) - Number(b.pass))
  const out = [
    summaryTitle(report),
    ...order.slice(0, maxCases).flatMap(caseSummaryLines),
    ...hiddenCasesLine(order, maxCases),
    ...scorerTableLines(report.scorers),
    ...passRateLines(report),
    ...usageLines(report.usage),
    ...baselineLines(report.baseline, process.cwd()),
  ]
  if (report.mutation) out.push(...formatMutationSummary(report.mutation), '')
  for (const check of report.checks) out.push(`  ${check.ok ? '✓' : '✗'} ${check.message}`)
  if (options.reportFile) out.push(`  report: ${relative(process.cwd(), options.reportFile)}`)
  return out.join('\n')
}
