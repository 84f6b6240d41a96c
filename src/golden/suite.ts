/**
 * The runner-agnostic core of `describeGolden`: option checks, case selection, running cases through
 * a concurrency limit, aggregation and checks (pass rate, per-scorer mean and min, baseline, budget),
 * the JSON report and the console summary. The Vitest and Jest bindings only register tests.
 *
 * @module
 */
import { performance } from 'node:perf_hooks'
import { describeValue, formatMessage, isWholeNumber } from '../errors.js'
import { isCi } from '../replay/mode.js'
import { getLedger } from '../ledger.js'
import { baselinePath, compareBaseline, mergeBaseline, readBaseline, writeBaseline } from './baseline.js'
import { combineRuns, createLimiter, runOnce, type CaseResult, type CaseRun } from './run.js'
import { clip, fmtScore, readGitInfo, type GoldenReport } from './report.js'
import { createScorerEnv, inputText, planScorers, SCORER_NAMES, sortKeys, type ScorerEnv, type ScorerPlan } from './scorers.js'
import type { GoldenBaselineOptions, GoldenCase, GoldenFilter, GoldenOptions } from './types.js'
import {
  aggregateScorers,
  baselineCases,
  baselineComparisonCheck,
  budgetChecks,
  consoleSummary,
  ledgerTotals,
  reportCases,
  reportOptions,
  reportSummary,
  runLatencies,
  suiteLedgerEntries,
  thresholdChecks,
  usageSummary,
  type CheckOutcomeLine,
} from './aggregate.js'
import { aggregateCheckNames, reportShard, takeShardSlice, type SuiteShard } from '../report/shard.js'
import { checkRecordOptions } from '../report/record.js'
import { saveSuiteReport } from './save.js'
import { mutationChecks, mutationSource, resolveMutation, runMutation, writeMutationOut, type MutationReport, type MutationSettings } from '../mutation/run.js'
import { generateMutants } from '../mutation/generate.js'

/** Whether thresholds and expectations may name a scorer key: a listed key, or a built-in check a case may call for. */
export function knownKey(key: string, plans: readonly ScorerPlan[]): boolean {
  return plans.some((p) => p.key === key) || (SCORER_NAMES as readonly string[]).includes(key)
}

/** The keys of the suite that are not built-in names (named instances, user checks). */
export function userKeys(plans: readonly ScorerPlan[]): string[] {
  return plans.map((p) => p.key).filter((k) => !(SCORER_NAMES as readonly string[]).includes(k))
}

/** How the runner treats snapshots in this run: `'all'` with `-u`, `'new'` by default, `'none'` in CI. */
export type UpdateMode = 'all' | 'new' | 'none'

/** What the binding knows about the run when the suite finishes. */
export interface FinishContext {
  runner: 'vitest' | 'jest' | 'evaluate'
  testPath: string | undefined
  updateMode: UpdateMode
  /** The environment (`CI`, `EXPECT_LLM_ALLOW_BASELINE_UPDATE_IN_CI`). Default `process.env`. */
  env?: Record<string, string | undefined>
}

/**
 * Whether a baseline update (`-u`) must be refused: `CI` is set and the update was not allowed on purpose
 * with `EXPECT_LLM_ALLOW_BASELINE_UPDATE_IN_CI=1` (as recording in CI needs `EXPECT_LLM_ALLOW_RECORD_IN_CI=1`).
 */
export function baselineUpdateRefused(env: Record<string, string | undefined> = process.env): boolean {
  return isCi(env) && env.EXPECT_LLM_ALLOW_BASELINE_UPDATE_IN_CI !== '1'
}

/** What the aggregate test gets. */
export interface SuiteOutcome {
  report: GoldenReport
  /** Failed checks, each a paragraph; empty when the suite passes. */
  failures: string[]
  /** The console summary. */
  summary: string
  reportFile?: string
}

const fail = (reason: string, fix: string): never => {
  throw new TypeError(formatMessage(`Failed to set up describeGolden: ${reason}. ${fix}`))
}

function positiveInt(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback
  if (!isWholeNumber(value) || value < 1) fail(`"${name}" must be a whole number >= 1, got ${describeValue(value)}`, `Pass for example { ${name}: 2 }.`)
  return value as number
}

function fraction(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || value > 1)
    fail(`"${name}" must be a number from 0 to 1, got ${describeValue(value)}`, `Pass for example ${name}: 0.9.`)
  return value as number
}

const OPTION_KEYS = [
  'dataset',
  'task',
  'scorers',
  'assert',
  'filter',
  'concurrency',
  'timeout',
  'report',
  'annotate',
  'thresholds',
  'repeat',
  'passAt',
  'baseline',
  'budget',
  'mutate',
]

/** Applies a `filter` option. */
export function applyFilter<C extends GoldenCase>(cases: C[], filter: GoldenFilter<any, any, any> | undefined): C[] {
  if (filter === undefined) return cases
  if (typeof filter === 'function') return cases.filter((c) => filter(c))
  if (filter === null || typeof filter !== 'object')
    fail(`"filter" must be { tags?, ids? } or a function, got ${describeValue(filter)}`, "Pass for example { tags: ['refunds'] }.")
  const { tags, ids } = filter
  const unknownIds = ids?.filter((id) => !cases.some((c) => c.id === id)) ?? []
  if (unknownIds.length > 0)
    fail(
      `filter.ids lists ${unknownIds.map((i) => `"${i}"`).join(', ')}, which no case has`,
      'Check the ids in the dataset (cases without an id get "case-<hash>").',
    )
  return cases.filter((c) => (tags === undefined || (c.tags?.some((t) => tags.includes(t)) ?? false)) && (ids === undefined || ids.includes(c.id)))
}

/** `<id>: <input preview>`, one line. */
export function caseTitle(c: GoldenCase): string {
  return `${c.id}: ${clip(inputText(c.input), 60)}`
}

export { ledgerTotals }

/** The runner-agnostic state of one `describeGolden` suite. */
const WRITE_FIX = 'Check that the folder is writable, or pass report: { dir }.'

export class GoldenSuite {
  readonly name: string
  readonly options: GoldenOptions<any, any, any>
  readonly plans: ScorerPlan[]
  readonly repeat: number
  readonly passAt: number
  readonly concurrency: number
  readonly results = new Map<string, CaseResult>()
  cases: GoldenCase[] = []
  allCases = 0
  /** This machine's shard of the suite (`EXPECT_LLM_SHARD`), if any. */
  shard: SuiteShard | undefined
  private env: ScorerEnv | undefined
  private readonly limit: <T>(fn: () => Promise<T>) => Promise<T>
  private ledgerStart = 0
  private started = 0
  private outcome: SuiteOutcome | undefined
  /** The mutation run's settings (`mutate` option, or `expect-llm mutate`); `undefined` when off. */
  readonly mutation: MutationSettings | undefined
  private mutationRun: Promise<MutationReport> | undefined
  private mutationReport: MutationReport | undefined
  /** Ledger positions [from, to) of the mutation run's model calls. */
  private mutationCalls: [number, number] | undefined

  constructor(name: string, options: GoldenOptions<any, any, any>) {
    if (typeof name !== 'string' || name.trim() === '')
      fail(`the suite name must be a non-empty string, got ${describeValue(name)}`, "Call describeGolden('support bot', { ... }).")
    if (options === null || typeof options !== 'object')
      fail(`the options must be an object, got ${describeValue(options)}`, 'Pass { dataset, task, scorers, ... }.')
    const unknown = Object.keys(options).filter((k) => !OPTION_KEYS.includes(k))
    if (unknown.length > 0) fail(`unknown option ${unknown.map((k) => `"${k}"`).join(', ')}`, `Valid options are: ${OPTION_KEYS.join(', ')}.`)
    if (typeof options.task !== 'function')
      fail(`"task" must be a function (input, case) => output, got ${describeValue(options.task)}`, 'Pass the function that runs your app on one input.')
    if (options.assert !== undefined && typeof options.assert !== 'function')
      fail(`"assert" must be a function (output, case) => void, got ${describeValue(options.assert)}`, 'Pass a function with your expect() calls.')
    this.name = name
    this.options = options
    this.plans = planScorers(options.scorers)
    this.repeat = positiveInt('repeat', options.repeat, 1)
    this.passAt = positiveInt('passAt', options.passAt, this.repeat)
    if (this.passAt > this.repeat)
      fail(`"passAt" (${this.passAt}) is more than "repeat" (${this.repeat})`, 'A case cannot pass more runs than it has: lower passAt or raise repeat.')
    this.concurrency = positiveInt('concurrency', options.concurrency, 1)
    const t = options.thresholds
    if (t !== undefined) {
      if (t === null || typeof t !== 'object')
        fail(`"thresholds" must be an object, got ${describeValue(t)}`, 'Pass for example { passRate: 0.9, mean: { rougeL: 0.4 } }.')
      fraction('thresholds.passRate', t.passRate)
      for (const kind of ['mean', 'min'] as const) {
        for (const [k, v] of Object.entries(t[kind] ?? {})) {
          if (!knownKey(k, this.plans))
            fail(`thresholds.${kind} names an unknown scorer "${k}"`, `Valid scorers are: ${[...SCORER_NAMES, ...userKeys(this.plans)].join(', ')}.`)
          fraction(`thresholds.${kind}.${k}`, v)
        }
      }
    }
    const base = options.baseline
    if (base !== undefined && typeof base !== 'boolean') {
      if (base === null || typeof base !== 'object')
        fail(`"baseline" must be true, false or an object, got ${describeValue(base)}`, 'Pass for example { tolerance: 0.05 }.')
      fraction('baseline.tolerance', base.tolerance)
      for (const [k, v] of Object.entries(base.tolerances ?? {})) fraction(`baseline.tolerances.${k}`, v)
    }
    const b = options.budget
    if (b !== undefined) {
      for (const key of Object.keys(b))
        if (!['p95LatencyMs', 'maxTokens', 'maxCostUsd'].includes(key))
          fail(`unknown budget option "${key}"`, 'Valid options are: p95LatencyMs, maxTokens, maxCostUsd.')
      for (const [k, v] of Object.entries(b))
        if (typeof v !== 'number' || !(v >= 0)) fail(`budget.${k} must be a number >= 0, got ${describeValue(v)}`, `Pass for example { ${k}: 1000 }.`)
    }
    checkRecordOptions(options.report, 'describeGolden')
    this.limit = createLimiter(this.concurrency)
    this.mutation = resolveMutation(options.mutate)
  }

  /** The checks the mutation run scores (one test each) and those it skips, for the cases of this run. */
  mutationChecks(): ReturnType<typeof mutationChecks> {
    return mutationChecks(this.cases, this.plans)
  }

  /**
   * The timeout of a mutation test: the first one scores every mutant, so it gets the per-case `timeout`
   * (default 30 s) for each mutant, divided among the concurrency slots.
   */
  mutationTimeout(): number {
    const settings = this.mutation
    if (!settings) return 0
    const sources = this.cases.map(mutationSource).filter((s): s is NonNullable<typeof s> => s !== undefined)
    const mutants = [...generateMutants(sources, { seed: settings.seed, operators: settings.operators }).values()].reduce((n, m) => n + m.length, 0)
    return (this.options.timeout ?? 30_000) * Math.max(1, Math.ceil(mutants / this.concurrency))
  }

  /** Runs the mutation testing of the suite's checks once (the first mutation test starts it) and keeps its report section. */
  runMutation(testPath?: string): Promise<MutationReport> {
    const settings = this.mutation
    if (!settings) return Promise.reject(new Error('the suite runs without mutate'))
    this.start()
    this.env ??= createScorerEnv(this.plans, () => this.cases)
    const ledgerBefore = getLedger().entries.length
    this.mutationRun ??= runMutation({ cases: this.cases, plans: this.plans, env: this.env, settings, limit: this.limit }).then((report) => {
      // The judge and embedding calls on mutants are the mutation run's: reported in its section, not in
      // the suite's usage and budget (the mutation tests run alone, after the cases).
      const calls = getLedger().entries.slice(ledgerBefore)
      this.mutationCalls = [ledgerBefore, ledgerBefore + calls.length]
      const totals = ledgerTotals(calls)
      report.usage = { calls: totals.calls, inputTokens: totals.inputTokens, outputTokens: totals.outputTokens, costUsd: totals.costUsd }
      this.mutationReport = report
      writeMutationOut(this.name, testPath ? relativeToCwd(testPath) : null, report)
      return report
    })
    return this.mutationRun
  }

  /** With `thresholds.passRate`, a case below its thresholds does not fail its own test. */
  get soft(): boolean {
    return this.options.thresholds?.passRate !== undefined
  }

  /** Sets the loaded cases (after validation), applies `filter`, then takes this shard's slice. */
  setCases(all: GoldenCase[]): void {
    this.allCases = all.length
    const selected = applyFilter(all, this.options.filter)
    if (selected.length === 0) fail(`"filter" selects none of the ${all.length} cases`, 'Check the tags and ids in the filter.')
    ;({ cases: this.cases, shard: this.shard } = takeShardSlice(selected))
  }

  /** Called before the first case: remembers where the ledger stands. */
  start(): void {
    if (this.started) return
    this.started = performance.now()
    this.ledgerStart = getLedger().entries.length
  }

  /** Runs one case `repeat` times (each run through the concurrency limit). */
  async runCase(c: GoldenCase): Promise<CaseResult> {
    this.start()
    this.env ??= createScorerEnv(this.plans, () => this.cases)
    const env = this.env
    const runs: CaseRun[] = await Promise.all(
      Array.from({ length: this.repeat }, () => this.limit(() => runOnce(c, this.options.task, this.plans, env, this.options.assert))),
    )
    const result = combineRuns(c, runs, this.passAt)
    this.results.set(c.id, result)
    return result
  }

  /** Whether the case's own test fails, and the message. */
  caseFailure(r: CaseResult): string | undefined {
    const errors = [...new Set(r.runs.flatMap((run) => run.errors ?? []))]
    // One error per item, unabridged, its continuation lines indented under it (runOnce gives every error in `errors`).
    const item = (e: string) => e.replace(/\n/g, '\n    ')
    if (r.errored) {
      return errors.length === 1
        ? formatMessage(`Failed to run golden case "${r.c.id}": ${errors[0]}`)
        : `${formatMessage(`Failed to run golden case "${r.c.id}":`)}\n${errors.map((e) => `  - ${item(e)}`).join('\n')}`
    }
    if (r.pass) return undefined
    if (this.soft && errors.length === 0) return undefined
    const lines = [
      formatMessage(`Golden case "${r.c.id}" failed${this.repeat > 1 ? `: ${r.passes} of ${r.runs.length} runs passed, ${this.passAt} needed` : ''}.`),
    ]
    for (const [name, s] of Object.entries(r.scores)) {
      if (!s.pass) lines.push(`  ${name}: ${fmtScore(s.score)}${s.threshold !== null ? ` < ${fmtScore(s.threshold)}` : ''}${s.detail ? ` (${s.detail})` : ''}`)
    }
    for (const e of errors) lines.push(`  error: ${e.replace(/\n/g, '\n         ')}`)
    const assertErrors = [...new Set(r.runs.map((run) => run.assertError).filter((e): e is string => e !== undefined))]
    for (const e of assertErrors) lines.push(`  assert: ${e}`)
    lines.push(`  input:    ${clip(r.c.input, 200)}`)
    if (r.c.expected !== undefined) lines.push(`  expected: ${clip(r.c.expected, 200)}`)
    const output = r.runs.find((run) => run.output !== undefined)?.output
    lines.push(`  actual:   ${output === undefined ? '(no output)' : clip(output, 300)}`)
    return lines.join('\n')
  }

  /** Builds the report, checks thresholds, baseline and budget, writes the report, once. */
  finish(ctx: FinishContext): SuiteOutcome {
    if (this.outcome) return this.outcome
    const ran = this.cases.map((c) => this.results.get(c.id)).filter((r): r is CaseResult => r !== undefined)
    const scorers = aggregateScorers(
      ran,
      sortKeys(
        ran.flatMap((r) => Object.keys(r.scores)),
        this.plans,
      ),
    )
    const usage = usageSummary(ran, suiteLedgerEntries(getLedger().entries, this.ledgerStart, this.mutationCalls))
    const { lines, baseline } = this.aggregateChecks(ctx, ran, scorers, usage)
    const { app, appModels, evaluator, total, latency } = usage
    const report: GoldenReport = {
      schemaVersion: 1,
      kind: 'golden',
      suite: this.name,
      file: ctx.testPath ? relativeToCwd(ctx.testPath) : null,
      runner: ctx.runner,
      createdAt: new Date().toISOString(),
      durationMs: this.started ? Math.round(performance.now() - this.started) : 0,
      git: readGitInfo(),
      models: { app: appModels, judge: evaluator.models.judge, embedding: evaluator.models.embedding },
      options: reportOptions(this.options, {
        repeat: this.repeat,
        passAt: this.passAt,
        concurrency: this.concurrency,
        thresholds: Object.fromEntries(this.plans.map((p) => [p.key, p.threshold])),
      }),
      summary: reportSummary(ran, this.cases.length, this.allCases, this.shard?.total ?? this.cases.length),
      scorers,
      checks: lines.map((l) => l.check),
      baseline,
      usage: { app, evaluator: { ...stripModels(evaluator) }, total, latencyMs: latency },
      cases: reportCases(ran),
      ...(this.mutationReport ? { mutation: this.mutationReport } : {}),
    }
    if (this.shard) {
      report.shard = reportShard(this.shard, aggregateCheckNames(this.options), runLatencies(ran))
    }
    const reportOption = this.options.report
    const saved = saveSuiteReport(report, reportOption, { suite: this.name, testPath: ctx.testPath, shard: this.shard }, WRITE_FIX)
    const failures = [...lines.flatMap((l) => (l.failure !== undefined ? [l.failure] : [])), ...saved.failures]
    const { reportFile } = saved
    const summary = consoleSummary(report, reportOption ? reportOption.maxConsoleCases : undefined, reportFile, saved.historyLines)
    this.outcome = { report, failures, summary, ...(reportFile ? { reportFile } : {}) }
    return this.outcome
  }

  /**
   * The aggregate checks (thresholds, budget, baseline), in that order, and the baseline's report entry. A
   * shard's slice cannot decide them: `expect-llm report --merge` makes them over all cases.
   */
  private aggregateChecks(
    ctx: FinishContext,
    ran: readonly CaseResult[],
    scorers: GoldenReport['scorers'],
    usage: ReturnType<typeof usageSummary>,
  ): { lines: CheckOutcomeLine[]; baseline: GoldenReport['baseline'] } {
    const whole = !this.shard
    const lines = [
      ...thresholdChecks(ran, scorers, whole ? this.options.thresholds : undefined),
      ...budgetChecks(whole ? this.options.budget : undefined, ran, usage),
    ]
    const option = whole ? this.options.baseline : undefined
    if (option === undefined || option === false) return { lines, baseline: null }
    // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent, baselineStep reads true's tolerance(s) as undefined, like {}'s
    const baseline = this.baselineStep(ctx, ran, option === true ? {} : option)
    lines.push(baseline.line)
    return { lines, baseline: baseline.info }
  }

  /** The baseline: read it, write it (first run, or -u outside CI), or compare with it. The file I/O of the baseline is here. */
  private baselineStep(
    ctx: FinishContext,
    ran: readonly CaseResult[],
    opts: GoldenBaselineOptions,
  ): { info: GoldenReport['baseline']; line: CheckOutcomeLine } {
    if (!ctx.testPath) {
      return {
        info: null,
        line: {
          check: { name: 'baseline', ok: false, message: 'baseline: the test file is unknown' },
          failure: 'the baseline needs the test file path, which the runner did not give. Run the suite from a test file.',
        },
      }
    }
    const path = baselinePath(ctx.testPath, this.name)
    const current = baselineCases(ran)
    const previous = readBaseline(path)
    // -u in CI would rewrite the committed baseline and hide a regression: refused unless allowed.
    const refused = ctx.updateMode === 'all' && baselineUpdateRefused(ctx.env)
    const updateMode: UpdateMode = refused ? 'none' : ctx.updateMode
    if (refused) {
      console.warn(
        formatMessage(
          `Failed to update the golden baseline ${path}: CI is set, so baselines are not rewritten in CI ` +
            '(-u is ignored; the run is compared with the committed baseline). Update it on your machine and commit it, ' +
            'or set EXPECT_LLM_ALLOW_BASELINE_UPDATE_IN_CI=1 to update it in CI on purpose.',
        ),
      )
    }
    if (previous === undefined && updateMode === 'none') {
      const message = `baseline ${path} is missing`
      return {
        info: { path, status: 'missing' },
        line: {
          check: { name: 'baseline', ok: false, message },
          failure: `the baseline ${path} is missing, and snapshots are not written in CI. Run the suite locally (it writes the baseline) and commit the file.`,
        },
      }
    }
    if (previous === undefined || updateMode === 'all') {
      writeBaseline(path, mergeBaseline(previous, this.name, current))
      return {
        info: { path, status: previous === undefined ? 'created' : 'updated' },
        line: { check: { name: 'baseline', ok: true, message: `baseline ${previous === undefined ? 'written' : 'updated'}: ${path}` } },
      }
    }
    const comparison = compareBaseline(previous, current, (s) => opts.tolerances?.[s] ?? opts.tolerance ?? 0.05)
    return { info: { path, status: 'compared', comparison }, line: baselineComparisonCheck(path, comparison, refused) }
  }

  /** The aggregate test's error message, or `undefined` when every check passed. */
  static failureMessage(name: string, outcome: SuiteOutcome): string | undefined {
    if (outcome.failures.length === 0) return undefined
    const count = outcome.failures.length
    const head = formatMessage(`Golden suite "${name}" failed ${count} check${count === 1 ? '' : 's'}:`)
    const list = outcome.failures.map((f, i) => `${i + 1}. ${f}`).join('\n\n')
    return `${head}\n\n${list}${outcome.reportFile ? `\n\nReport: ${relativeToCwd(outcome.reportFile)}` : ''}`
  }
}

function stripModels<T extends { models?: unknown }>(t: T): Omit<T, 'models'> {
  const { models: _models, ...rest } = t
  return rest
}

function relativeToCwd(path: string): string {
  const cwd = process.cwd()
  return path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path
}
