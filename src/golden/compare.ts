/**
 * The runner-agnostic core of `compareGolden`: every variant runs on the same cases with the same
 * scorers; the comparison reports per scorer each variant's mean, the mean paired difference with a
 * seeded paired-bootstrap confidence interval, wins/ties/losses, and McNemar's test on pass/fail, and
 * checks `expect: { better, minDelta? }`.
 *
 * @module
 */
import { performance } from 'node:perf_hooks'
import { describeValue, formatMessage, isFiniteNumber, isWholeNumber } from '../errors.js'
import { getLedger } from '../ledger.js'
import { createLimiter, runOnce, type CaseRun } from './run.js'
import { clip, fmtScore, readGitInfo, type CompareReport, type CompareRow, type UsageTotals } from './report.js'
import { createScorerEnv, inputText, planScorers, SCORER_NAMES, sortKeys, type ScorerEnv, type ScorerPlan } from './scorers.js'
import { compareStatistics } from './compare-stats.js'
import { applyFilter, knownKey, ledgerTotals, userKeys } from './suite.js'
import type { CompareOptions, GoldenCase } from './types.js'
import { reportShard, shardSummaryLine, takeShardSlice, type SuiteShard } from '../report/shard.js'
import { checkRecordOptions } from '../report/record.js'
import { saveSuiteReport } from './save.js'

export { comparePair, TIE } from './compare-stats.js'

const OPTION_KEYS = ['dataset', 'variants', 'scorers', 'assert', 'filter', 'concurrency', 'timeout', 'report', 'expect', 'resamples', 'seed', 'confidence']

const fail = (reason: string, fix: string): never => {
  throw new TypeError(formatMessage(`Failed to set up compareGolden: ${reason}. ${fix}`))
}

/** One case: a run per variant. */
export interface CompareCaseResult {
  c: GoldenCase
  runs: Record<string, CaseRun>
}

/** What the comparison test gets. */
export interface CompareOutcome {
  report: CompareReport
  summary: string
  failure?: string
  reportFile?: string
}

const signed = (n: number, digits = 3) => `${n >= 0 ? '+' : ''}${n.toFixed(digits)}`

/** The runner-agnostic state of one `compareGolden` suite. */
export class CompareSuite {
  readonly name: string
  readonly options: CompareOptions<any, any, any>
  readonly variants: string[]
  readonly plans: ScorerPlan[]
  readonly concurrency: number
  readonly results = new Map<string, CompareCaseResult>()
  cases: GoldenCase[] = []
  /** This machine's shard of the suite (`EXPECT_LLM_SHARD`), if any. */
  shard: SuiteShard | undefined
  private env: ScorerEnv | undefined
  private readonly limit: <T>(fn: () => Promise<T>) => Promise<T>
  private started = 0
  private ledgerStart = 0
  private outcome: CompareOutcome | undefined

  constructor(name: string, options: CompareOptions<any, any, any>) {
    if (typeof name !== 'string' || name.trim() === '')
      fail(`the suite name must be a non-empty string, got ${describeValue(name)}`, "Call compareGolden('prompt v1 vs v2', { ... }).")
    if (options === null || typeof options !== 'object')
      fail(`the options must be an object, got ${describeValue(options)}`, 'Pass { dataset, variants, scorers, ... }.')
    const unknown = Object.keys(options).filter((k) => !OPTION_KEYS.includes(k))
    if (unknown.length > 0) fail(`unknown option ${unknown.map((k) => `"${k}"`).join(', ')}`, `Valid options are: ${OPTION_KEYS.join(', ')}.`)
    const variants = options.variants
    if (variants === null || typeof variants !== 'object' || Object.keys(variants).length < 2) {
      fail(
        `"variants" must be an object with at least two tasks, got ${describeValue(variants)}`,
        'Pass for example { variants: { v1: answerV1, v2: answerV2 } }.',
      )
    }
    for (const [k, v] of Object.entries(variants))
      if (typeof v !== 'function') fail(`variant "${k}" must be a task function, got ${describeValue(v)}`, 'Pass (input, case) => output for every variant.')
    this.name = name
    this.options = options
    this.variants = Object.keys(variants)
    this.plans = planScorers(options.scorers)
    const c = options.concurrency
    if (c !== undefined && (!isWholeNumber(c) || c < 1))
      fail(`"concurrency" must be a whole number >= 1, got ${describeValue(c)}`, 'Pass for example { concurrency: 4 }.')
    this.concurrency = c ?? 1
    const e = options.expect
    if (e !== undefined) {
      if (!this.variants.includes(e.better)) fail(`expect.better is "${String(e.better)}", which is not a variant`, `Name one of: ${this.variants.join(', ')}.`)
      if (e.minDelta !== undefined && !isFiniteNumber(e.minDelta))
        fail(`expect.minDelta must be a number, got ${describeValue(e.minDelta)}`, 'Pass for example { minDelta: 0.05 }.')
      if (e.scorer !== undefined && !knownKey(e.scorer, this.plans))
        fail(`expect.scorer "${String(e.scorer)}" is not a scorer`, `Valid scorers are: ${[...SCORER_NAMES, ...userKeys(this.plans)].join(', ')}.`)
      if (e.scorer === undefined && this.plans.length === 0)
        fail('expect needs a scorer to decide on, and "scorers" lists none', 'List the scorers, or pass expect.scorer.')
    }
    checkRecordOptions(options.report, 'compareGolden')
    this.limit = createLimiter(this.concurrency)
  }

  setCases(all: GoldenCase[]): void {
    const selected = applyFilter(all, this.options.filter)
    if (selected.length === 0) fail(`"filter" selects none of the ${all.length} cases`, 'Check the tags and ids in the filter.')
    ;({ cases: this.cases, shard: this.shard } = takeShardSlice(selected))
  }

  /** Runs every variant on one case (each run through the concurrency limit). */
  async runCase(c: GoldenCase): Promise<CompareCaseResult> {
    if (!this.started) {
      this.started = performance.now()
      this.ledgerStart = getLedger().entries.length
    }
    this.env ??= createScorerEnv(this.plans, () => this.cases)
    const env = this.env
    const runs: Record<string, CaseRun> = {}
    await Promise.all(
      this.variants.map(async (v) => {
        runs[v] = await this.limit(() => runOnce(c, this.options.variants[v] as never, this.plans, env, this.options.assert))
      }),
    )
    const result = { c, runs }
    this.results.set(c.id, result)
    return result
  }

  /** A case test fails only when a variant could not produce an output to compare (task or scorer error). */
  caseErrors(r: CompareCaseResult): string | undefined {
    // One error per line, unabridged, continuation lines indented under it (runOnce gives every error in `errors`).
    const errors = this.variants.flatMap((v) => (r.runs[v]!.errors ?? []).map((e) => `${v}: ${e}`))
    return errors.length > 0
      ? `${formatMessage(`Failed to compare golden case "${r.c.id}":`)}\n${errors.map((e) => `  - ${e.replace(/\n/g, '\n    ')}`).join('\n')}`
      : undefined
  }

  finish(ctx: { runner: 'vitest' | 'jest'; testPath: string | undefined }): CompareOutcome {
    if (this.outcome) return this.outcome
    const ran = this.cases.map((c) => this.results.get(c.id)).filter((r): r is CompareCaseResult => r !== undefined)
    const options = reportOptions(this.options)
    const rows = ran.map((r) => compareRow(r, this.variants))
    // The same statistics as a merge of shards computes.
    const names = scoredNames(rows, this.variants, this.plans)
    const { scorers, passRates, mcnemar: mc, expectation, differing } = compareStatistics(rows, this.variants, names, decidingOptions(options, this.plans))
    const { appUsage, appModels } = variantUsage(ran, this.variants)
    const evaluator = ledgerTotals(getLedger().entries.slice(this.ledgerStart))
    const report: CompareReport = {
      schemaVersion: 1,
      kind: 'compare',
      suite: this.name,
      file: ctx.testPath ? ctx.testPath.replace(`${process.cwd()}/`, '') : null,
      runner: ctx.runner,
      createdAt: new Date().toISOString(),
      durationMs: this.started ? Math.round(performance.now() - this.started) : 0,
      git: readGitInfo(),
      variants: this.variants,
      models: { app: appModels, judge: evaluator.models.judge, embedding: evaluator.models.embedding },
      scorers,
      mcnemar: mc,
      passRates,
      expectation,
      usage: { app: appUsage, evaluator: usageTotalsOf(evaluator) },
      differing,
      cases: ran.length,
      rows,
      options,
    }
    // A shard's slice cannot decide the expectation: `expect-llm report --merge` does, over all cases.
    if (this.shard) report.shard = reportShard(this.shard, this.options.expect ? ['expectation'] : [])
    const saved = saveSuiteReport(report, this.options.report, { suite: this.name, testPath: ctx.testPath, shard: this.shard })
    const failures = compareFailures(expectation, erroredCases(ran, this.variants), this.shard !== undefined, saved.failures)
    const summary = [
      formatCompareSummary(report, this.options.report ? this.options.report.maxConsoleCases : undefined, saved.reportFile),
      ...(report.shard ? [shardSummaryLine(report.shard)] : []),
      ...saved.historyLines,
    ].join('\n')
    const failure = comparisonFailure(this.name, failures, summary)
    this.outcome = { report, summary, ...(failure ? { failure } : {}), ...(saved.reportFile ? { reportFile: saved.reportFile } : {}) }
    return this.outcome
  }
}

/** The scorers that scored some variant of some row, in the order of the plans (built-in order, then the user's). */
export function scoredNames(rows: readonly CompareRow[], variants: readonly string[], plans: readonly ScorerPlan[]): string[] {
  return sortKeys(
    rows.flatMap((r) => variants.flatMap((v) => Object.keys(r.scores[v] ?? {}))),
    plans,
  )
}

/**
 * The options the expectation is decided with: `expect` without a scorer decides on the first scorer
 * listed, even when it scored no case (the merge reads it back from `expectation.scorer`).
 */
export function decidingOptions(options: NonNullable<CompareReport['options']>, plans: readonly ScorerPlan[]): NonNullable<CompareReport['options']> {
  return options.expect ? { ...options, expect: { ...options.expect, scorer: options.expect.scorer ?? plans[0]!.key } } : options
}

/** Token and cost totals without the per-kind and per-model breakdown the ledger gives. */
export function usageTotalsOf(t: UsageTotals): UsageTotals {
  return {
    calls: t.calls,
    inputTokens: t.inputTokens,
    outputTokens: t.outputTokens,
    totalTokens: t.totalTokens,
    costUsd: t.costUsd,
    unpricedModels: t.unpricedModels,
  }
}

/** Cases where some variant produced no output (task or scorer error). */
export function erroredCases(ran: readonly CompareCaseResult[], variants: readonly string[]): number {
  return ran.filter((r) => variants.some((v) => r.runs[v]!.output === undefined)).length
}

/**
 * Why a comparison fails: the expectation not met first, then the report's and the history's failures,
 * then the errored cases (when there is an expectation). A shard's slice decides no expectation.
 */
export function compareFailures(expectation: CompareReport['expectation'], errored: number, sharded: boolean, saveFailures: readonly string[]): string[] {
  const decided = expectation !== null && !sharded
  return [
    ...(decided && !expectation.ok ? [expectation.message] : []),
    ...saveFailures,
    ...(decided && errored > 0 ? [`${errored} case${errored === 1 ? '' : 's'} errored for some variant and are left out of the comparison`] : []),
  ]
}

/** The message of a failed comparison: its failures listed, then its console summary (none without failures). */
export function comparisonFailure(name: string, failures: readonly string[], summary: string): string | undefined {
  if (failures.length === 0) return undefined
  return `${formatMessage(`Golden comparison "${name}" failed:`)}\n${failures.map((f) => `  - ${f}`).join('\n')}\n\n${summary}`
}

/** The settings of a comparison its report keeps (and a merge of its shards recomputes with). */
function reportOptions(options: CompareOptions<any, any, any>): NonNullable<CompareReport['options']> {
  const e = options.expect
  return {
    resamples: options.resamples ?? 10_000,
    seed: options.seed ?? 42,
    confidence: options.confidence ?? 0.95,
    ...(e
      ? {
          expect: {
            better: e.better,
            ...(e.scorer !== undefined ? { scorer: e.scorer } : {}),
            ...(e.minDelta !== undefined ? { minDelta: e.minDelta } : {}),
          },
        }
      : {}),
  }
}

/** Each variant's token and cost totals over the cases it ran, and the models it called. */
export function variantUsage(ran: readonly CompareCaseResult[], variants: readonly string[]) {
  const appUsage: Record<string, UsageTotals> = {}
  const appModels: Record<string, string[]> = {}
  for (const v of variants) {
    const t: UsageTotals = { calls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, unpricedModels: [] }
    appModels[v] = []
    for (const r of ran) {
      const run = r.runs[v]!
      t.calls += run.usage.calls
      t.inputTokens += run.usage.inputTokens
      t.outputTokens += run.usage.outputTokens
      t.totalTokens += run.usage.inputTokens + run.usage.outputTokens
      if (run.usage.costUsd === undefined) {
        t.costUsd = null
        for (const m of run.usage.models) if (!t.unpricedModels.includes(m)) t.unpricedModels.push(m)
      } else if (t.costUsd !== null) t.costUsd += run.usage.costUsd
      for (const m of run.usage.models) if (!appModels[v]!.includes(m)) appModels[v]!.push(m)
    }
    appUsage[v] = t
  }
  return { appUsage, appModels }
}

/** A case of a comparison as the report keeps it: every variant's output, verdict, scores and details. */
function compareRow(r: CompareCaseResult, variants: readonly string[]): CompareRow {
  const row: CompareRow = {
    id: r.c.id,
    input: r.c.input,
    outputs: Object.fromEntries(variants.map((v) => [v, r.runs[v]!.output ?? null])),
    pass: Object.fromEntries(variants.map((v) => [v, r.runs[v]!.pass])),
    scores: Object.fromEntries(variants.map((v) => [v, Object.fromEntries(Object.entries(r.runs[v]!.scores).map(([n, s]) => [n, s!.score]))])),
  }
  if (r.c.expected !== undefined) row.expected = r.c.expected
  if (r.c.tags) row.tags = r.c.tags
  const details = Object.fromEntries(
    variants
      .map((v) => [v, Object.fromEntries(Object.entries(r.runs[v]!.scores).flatMap(([n, s]) => (s?.detail ? [[n, s.detail]] : [])))] as const)
      .filter(([, d]) => Object.keys(d).length > 0),
  )
  if (Object.keys(details).length > 0) row.details = details
  return row
}

/** The console summary of a comparison. */
export function formatCompareSummary(report: CompareReport, maxCases = 30, reportFile?: string): string {
  const out: string[] = []
  const [first, ...others] = report.variants as [string, ...string[]]
  out.push(`compare › ${report.suite} (${report.cases} cases; variants ${report.variants.join(', ')})`)
  if (report.scorers.length > 0) {
    const w = Math.max(7, ...report.scorers.map((s) => s.scorer.length))
    const vw = Math.max(5, ...report.variants.map((v) => v.length))
    for (const b of others) {
      out.push(
        `  ${'scorer'.padEnd(w)}  ${report.variants.map((v) => v.padEnd(vw)).join('  ')}  ${`Δ ${b}−${first}`.padEnd(10)}  ` +
          `${Math.round(report.scorers[0]!.pairs[0]!.ci.confidence * 100)}% CI              W/T/L`,
      )
      for (const s of report.scorers) {
        const p = s.pairs.find((x) => x.b === b)!
        out.push(
          `  ${s.scorer.padEnd(w)}  ${report.variants.map((v) => fmtScore(s.means[v] as number).padEnd(vw)).join('  ')}  ` +
            `${signed(p.meanDiff).padEnd(10)}  [${signed(p.ci.low)}, ${signed(p.ci.high)}]  ${p.wins}/${p.ties}/${p.losses}`,
        )
      }
    }
  }
  out.push(`  pass rate: ${report.variants.map((v) => `${v} ${((report.passRates[v] ?? 0) * 100).toFixed(1)}%`).join(', ')}`)
  for (const m of report.mcnemar) {
    out.push(
      `  McNemar ${m.b} vs ${m.a}: ${m.aOnly + m.bOnly} discordant (${m.a} only ${m.aOnly}, ${m.b} only ${m.bOnly}), ` +
        `p = ${m.pValue < 0.0001 ? m.pValue.toExponential(2) : m.pValue.toFixed(4)} ` +
        `(${m.method === 'exact' ? 'exact binomial' : `chi-square with continuity correction, χ² = ${m.statistic!.toFixed(2)}`})`,
    )
  }
  if (report.expectation) out.push(`  ${report.expectation.ok ? '✓' : '✗'} ${report.expectation.message}`)
  out.push(`  differing cases: ${report.differing.length} of ${report.cases}`)
  for (const d of report.differing.slice(0, maxCases)) {
    out.push(`    ${d.id}  ${clip(inputText(d.input), 60)}`)
    for (const v of report.variants) {
      const scores = Object.entries(d.scores[v] ?? {})
        .map(([n, s]) => `${n} ${fmtScore(s as number)}`)
        .join(' ')
      out.push(`      ${d.pass[v] ? '✓' : '✗'} ${v.padEnd(8)} ${scores.padEnd(28)} ${d.outputs[v] === null ? '(no output)' : clip(d.outputs[v], 70)}`)
    }
  }
  if (report.differing.length > maxCases) out.push(`    … ${report.differing.length - maxCases} more: see the JSON report`)
  if (reportFile) out.push(`  report: ${reportFile.replace(`${process.cwd()}/`, '')}`)
  return out.join('\n')
}
