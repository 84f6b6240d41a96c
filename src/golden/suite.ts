/**
 * The runner-agnostic core of `describeGolden`: option checks, case selection, running cases through
 * a concurrency limit, aggregation and checks (pass rate, per-scorer mean and min, baseline, budget),
 * the JSON report and the console summary. The Vitest and Jest bindings only register tests.
 *
 * @module
 */
import { performance } from 'node:perf_hooks'
import { describeValue, formatMessage } from '../errors.js'
import { isCi } from '../replay/mode.js'
import { costOf, getLedger, type LedgerEntry } from '../ledger.js'
import { baselinePath, compareBaseline, mergeBaseline, readBaseline, slugify, writeBaseline, type BaselineCases } from './baseline.js'
import { combineRuns, createLimiter, runOnce, type CaseResult, type CaseRun } from './run.js'
import { clip, fmtMs, fmtScore, fmtUsd, formatGoldenSummary, readGitInfo, reportPath, writeReport, type GoldenReport, type ReportCase, type ReportCheck, type ReportScorer, type UsageTotals } from './report.js'
import { createScorerEnv, inputText, planScorers, SCORER_NAMES, sortKeys, type ScorerEnv, type ScorerPlan } from './scorers.js'
import { BootstrapAggregator, mean, percentile } from './stats.js'

const CI = { confidence: 0.95, samples: 1000, seed: 42 }

/** The report's confidence interval of a check's mean score (rouge-score's BootstrapAggregator). */
function confidenceInterval(values: readonly number[]): ReportScorer['ci'] {
  const aggregator = new BootstrapAggregator(CI)
  for (const value of values) aggregator.addScores({ score: value })
  const { low, mid, high } = aggregator.aggregate().score as { low: number; mid: number; high: number }
  return { low, mid, high, ...CI }
}
import type { GoldenCase, GoldenFilter, GoldenOptions } from './types.js'

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
  runner: 'vitest' | 'jest'
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
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) fail(`"${name}" must be a whole number >= 1, got ${describeValue(value)}`, `Pass for example { ${name}: 2 }.`)
  return value as number
}

function fraction(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || value > 1) fail(`"${name}" must be a number from 0 to 1, got ${describeValue(value)}`, `Pass for example ${name}: 0.9.`)
  return value as number
}

const OPTION_KEYS = ['dataset', 'task', 'scorers', 'assert', 'filter', 'concurrency', 'timeout', 'report', 'annotate', 'thresholds', 'repeat', 'passAt', 'baseline', 'budget']

/** Applies a `filter` option. */
export function applyFilter<C extends GoldenCase>(cases: C[], filter: GoldenFilter<any, any, any> | undefined): C[] {
  if (filter === undefined) return cases
  if (typeof filter === 'function') return cases.filter((c) => filter(c))
  if (filter === null || typeof filter !== 'object') fail(`"filter" must be { tags?, ids? } or a function, got ${describeValue(filter)}`, "Pass for example { tags: ['refunds'] }.")
  const { tags, ids } = filter
  const unknownIds = ids?.filter((id) => !cases.some((c) => c.id === id)) ?? []
  if (unknownIds.length > 0) fail(`filter.ids lists ${unknownIds.map((i) => `"${i}"`).join(', ')}, which no case has`, 'Check the ids in the dataset (cases without an id get "case-<hash>").')
  return cases.filter((c) => (tags === undefined || (c.tags ?? []).some((t) => tags.includes(t))) && (ids === undefined || ids.includes(c.id)))
}

/** `<id>: <input preview>`, one line. */
export function caseTitle(c: GoldenCase): string {
  return `${c.id}: ${clip(inputText(c.input), 60)}`
}

function emptyTotals(): UsageTotals {
  return { calls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, unpricedModels: [] }
}

function addUsage(t: UsageTotals, calls: number, input: number, output: number, cost: number | undefined, models: string[]): void {
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
export function ledgerTotals(entries: readonly LedgerEntry[]): UsageTotals & { byKind: { judge: UsageTotals; embedding: UsageTotals }; models: { judge: string[]; embedding: string[] } } {
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

/** The runner-agnostic state of one `describeGolden` suite. */
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
  private env: ScorerEnv | undefined
  private readonly limit: <T>(fn: () => Promise<T>) => Promise<T>
  private ledgerStart = 0
  private started = 0
  private outcome: SuiteOutcome | undefined

  constructor(name: string, options: GoldenOptions<any, any, any>) {
    if (typeof name !== 'string' || name.trim() === '') fail(`the suite name must be a non-empty string, got ${describeValue(name)}`, "Call describeGolden('support bot', { ... }).")
    if (options === null || typeof options !== 'object') fail(`the options must be an object, got ${describeValue(options)}`, 'Pass { dataset, task, scorers, ... }.')
    const unknown = Object.keys(options).filter((k) => !OPTION_KEYS.includes(k))
    if (unknown.length > 0) fail(`unknown option ${unknown.map((k) => `"${k}"`).join(', ')}`, `Valid options are: ${OPTION_KEYS.join(', ')}.`)
    if (typeof options.task !== 'function') fail(`"task" must be a function (input, case) => output, got ${describeValue(options.task)}`, 'Pass the function that runs your app on one input.')
    if (options.assert !== undefined && typeof options.assert !== 'function') fail(`"assert" must be a function (output, case) => void, got ${describeValue(options.assert)}`, 'Pass a function with your expect() calls.')
    this.name = name
    this.options = options
    this.plans = planScorers(options.scorers)
    this.repeat = positiveInt('repeat', options.repeat, 1)
    this.passAt = positiveInt('passAt', options.passAt, this.repeat)
    if (this.passAt > this.repeat) fail(`"passAt" (${this.passAt}) is more than "repeat" (${this.repeat})`, 'A case cannot pass more runs than it has: lower passAt or raise repeat.')
    this.concurrency = positiveInt('concurrency', options.concurrency, 1)
    const t = options.thresholds
    if (t !== undefined) {
      if (t === null || typeof t !== 'object') fail(`"thresholds" must be an object, got ${describeValue(t)}`, 'Pass for example { passRate: 0.9, mean: { rougeL: 0.4 } }.')
      fraction('thresholds.passRate', t.passRate)
      for (const kind of ['mean', 'min'] as const) {
        for (const [k, v] of Object.entries(t[kind] ?? {})) {
          if (!knownKey(k, this.plans)) fail(`thresholds.${kind} names an unknown scorer "${k}"`, `Valid scorers are: ${[...SCORER_NAMES, ...userKeys(this.plans)].join(', ')}.`)
          fraction(`thresholds.${kind}.${k}`, v)
        }
      }
    }
    if (options.baseline !== undefined && typeof options.baseline === 'object' && options.baseline !== null) {
      fraction('baseline.tolerance', options.baseline.tolerance)
      for (const [k, v] of Object.entries(options.baseline.tolerances ?? {})) fraction(`baseline.tolerances.${k}`, v)
    }
    const b = options.budget
    if (b !== undefined) {
      for (const key of Object.keys(b)) if (!['p95LatencyMs', 'maxTokens', 'maxCostUsd'].includes(key)) fail(`unknown budget option "${key}"`, 'Valid options are: p95LatencyMs, maxTokens, maxCostUsd.')
      for (const [k, v] of Object.entries(b)) if (typeof v !== 'number' || !(v >= 0)) fail(`budget.${k} must be a number >= 0, got ${describeValue(v)}`, `Pass for example { ${k}: 1000 }.`)
    }
    this.limit = createLimiter(this.concurrency)
  }

  /** With `thresholds.passRate`, a case below its thresholds does not fail its own test. */
  get soft(): boolean {
    return this.options.thresholds?.passRate !== undefined
  }

  /** Sets the loaded cases (after validation) and applies `filter`. */
  setCases(all: GoldenCase[]): void {
    this.allCases = all.length
    this.cases = applyFilter(all, this.options.filter)
    if (this.cases.length === 0) fail(`"filter" selects none of the ${all.length} cases`, 'Check the tags and ids in the filter.')
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
    const runs: CaseRun[] = await Promise.all(Array.from({ length: this.repeat }, () => this.limit(() => runOnce(c, this.options.task, this.plans, env, this.options.assert))))
    const result = combineRuns(c, runs, this.passAt)
    this.results.set(c.id, result)
    return result
  }

  /** Whether the case's own test fails, and the message. */
  caseFailure(r: CaseResult): string | undefined {
    const errors = [...new Set(r.runs.flatMap((run) => run.errors ?? (run.error !== undefined ? [run.error] : [])))]
    // One error per item, unabridged, its continuation lines indented under it.
    const item = (e: string) => e.replace(/\n/g, '\n    ')
    if (r.errored) {
      return errors.length === 1
        ? formatMessage(`Failed to run golden case "${r.c.id}": ${errors[0]}`)
        : `${formatMessage(`Failed to run golden case "${r.c.id}":`)}\n${errors.map((e) => `  - ${item(e)}`).join('\n')}`
    }
    if (r.pass) return undefined
    if (this.soft && errors.length === 0) return undefined
    const lines = [formatMessage(`Golden case "${r.c.id}" failed${this.repeat > 1 ? `: ${r.passes} of ${r.runs.length} runs passed, ${this.passAt} needed` : ''}.`)]
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
    const failures: string[] = []
    const checks: ReportCheck[] = []
    const check = (name: string, ok: boolean, message: string, failure?: string) => {
      checks.push({ name, ok, message })
      if (!ok) failures.push(failure ?? message)
    }

    // Scorers
    const scorers: Record<string, ReportScorer> = {}
    for (const name of sortKeys(ran.flatMap((r) => Object.keys(r.scores)), this.plans)) {
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
    }
    const passed = ran.filter((r) => r.pass).length
    const passRate = ran.length > 0 ? passed / ran.length : null
    const worstFirst = (rs: CaseResult[]) =>
      [...rs].sort((a, b) => {
        const margin = (r: CaseResult) => (r.errored ? -Infinity : Math.min(0, ...Object.values(r.scores).map((s) => (s.threshold === null ? 0 : s.score - s.threshold))))
        const failedCount = (r: CaseResult) => Object.values(r.scores).filter((s) => !s.pass).length
        return margin(a) - margin(b) || failedCount(b) - failedCount(a) || a.passes - b.passes
      })
    const failingList = (rs: CaseResult[], score?: string) =>
      worstFirst(rs)
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

    const t = this.options.thresholds
    if (t?.passRate !== undefined && passRate !== null) {
      const ok = passRate >= t.passRate
      const failing = ran.filter((r) => !r.pass)
      check('passRate', ok, `pass rate ${passed}/${ran.length} = ${(passRate * 100).toFixed(1)}% ${ok ? '>=' : '<'} ${(t.passRate * 100).toFixed(1)}%`, `pass rate ${passed}/${ran.length} = ${(passRate * 100).toFixed(1)}% is below ${(t.passRate * 100).toFixed(1)}%. Failing cases, worst first:\n${failingList(failing)}`)
    }
    for (const [name, min] of Object.entries(t?.mean ?? {}) as Array<[string, number]>) {
      const sc = scorers[name]
      if (!sc) {
        check(`mean.${name}`, false, `mean ${name}: no case was scored by "${name}"`, `thresholds.mean.${name} is set but no case was scored by "${name}". List it in "scorers" (or give the cases what it needs).`)
        continue
      }
      const ok = sc.mean >= min
      const below = ran.filter((r) => r.scores[name] !== undefined && r.scores[name]!.score < min)
      check(`mean.${name}`, ok, `mean ${name} ${fmtScore(sc.mean)} ${ok ? '>=' : '<'} ${fmtScore(min)}`, `mean ${name} ${sc.mean.toFixed(3)} is below ${min}. Cases below ${min}, worst first:\n${failingList(below, name)}`)
    }
    for (const [name, min] of Object.entries(t?.min ?? {}) as Array<[string, number]>) {
      const sc = scorers[name]
      if (!sc) {
        check(`min.${name}`, false, `min ${name}: no case was scored by "${name}"`, `thresholds.min.${name} is set but no case was scored by "${name}".`)
        continue
      }
      const below = ran.filter((r) => r.scores[name] !== undefined && r.scores[name]!.score < min)
      check(`min.${name}`, below.length === 0, `min ${name} ${fmtScore(sc.min)} ${below.length === 0 ? '>=' : '<'} ${fmtScore(min)}`, `${below.length} case${below.length === 1 ? '' : 's'} scored ${name} below ${min}, worst first:\n${failingList(below, name)}`)
    }

    // Usage
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
    const evaluator = ledgerTotals(getLedger().entries.slice(this.ledgerStart))
    const total = emptyTotals()
    addUsage(total, app.calls, app.inputTokens, app.outputTokens, app.costUsd ?? undefined, app.unpricedModels)
    addUsage(total, evaluator.calls, evaluator.inputTokens, evaluator.outputTokens, evaluator.costUsd ?? undefined, evaluator.unpricedModels)
    const latency = { p50: percentile(latencies, 50) ?? null, p95: percentile(latencies, 95) ?? null, p99: percentile(latencies, 99) ?? null, sources }

    // Budget
    const budget = this.options.budget
    if (budget?.p95LatencyMs !== undefined) {
      const ok = latency.p95 !== null && latency.p95 <= budget.p95LatencyMs
      check('budget.p95LatencyMs', ok, `P95 latency ${fmtMs(latency.p95)} ${ok ? '<=' : '>'} ${fmtMs(budget.p95LatencyMs)}`, `P95 latency ${fmtMs(latency.p95)} is over the budget of ${fmtMs(budget.p95LatencyMs)}. Slowest cases:\n${ran
        .flatMap((r) => r.runs.map((run) => ({ id: r.c.id, ms: run.latencyMs })))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 5)
        .map((x) => `  - ${x.id}: ${fmtMs(x.ms)}`)
        .join('\n')}`)
    }
    if (budget?.maxTokens !== undefined) {
      const ok = total.totalTokens <= budget.maxTokens
      check('budget.maxTokens', ok, `tokens ${total.totalTokens.toLocaleString('en-US')} ${ok ? '<=' : '>'} ${budget.maxTokens.toLocaleString('en-US')} (app ${app.totalTokens.toLocaleString('en-US')}, evaluator ${evaluator.totalTokens.toLocaleString('en-US')})`)
    }
    if (budget?.maxCostUsd !== undefined) {
      if (total.costUsd === null) {
        check('budget.maxCostUsd', false, `cost unknown: no price for ${total.unpricedModels.join(', ')}`, `the cost cannot be checked against the budget of ${fmtUsd(budget.maxCostUsd)}: no price for ${total.unpricedModels.join(', ')}. Add them with configure({ pricing: { '<model>': { inputPerMTok, outputPerMTok } } }).`)
      } else {
        const ok = total.costUsd <= budget.maxCostUsd
        check('budget.maxCostUsd', ok, `cost ${fmtUsd(total.costUsd)} ${ok ? '<=' : '>'} ${fmtUsd(budget.maxCostUsd)} (app ${fmtUsd(app.costUsd)}, evaluator ${fmtUsd(evaluator.costUsd)})`)
      }
    }

    // Baseline
    let baselineInfo: GoldenReport['baseline'] = null
    const baselineOption = this.options.baseline
    if (baselineOption !== undefined && baselineOption !== false) {
      const opts = baselineOption === true ? {} : baselineOption
      if (!ctx.testPath) {
        check('baseline', false, 'baseline: the test file is unknown', 'the baseline needs the test file path, which the runner did not give. Run the suite from a test file.')
      } else {
        const path = baselinePath(ctx.testPath, this.name)
        const current: BaselineCases = {}
        for (const r of ran) {
          if (r.errored) continue
          current[r.c.id] = { pass: r.pass, scores: Object.fromEntries(Object.entries(r.scores).map(([n, s]) => [n, Math.round(s.score * 1e6) / 1e6])) }
        }
        const previous = readBaseline(path)
        // -u in CI would rewrite the committed baseline and hide a regression: refused unless allowed.
        const refused = ctx.updateMode === 'all' && baselineUpdateRefused(ctx.env)
        const updateMode: UpdateMode = refused ? 'none' : ctx.updateMode
        if (refused) {
          console.warn(
            formatMessage(
              `Failed to update the golden baseline ${path}: CI is set, so baselines are not rewritten in CI (-u is ignored; the run is compared with the committed baseline). Update it on your machine and commit it, or set EXPECT_LLM_ALLOW_BASELINE_UPDATE_IN_CI=1 to update it in CI on purpose.`,
            ),
          )
        }
        if (previous === undefined && updateMode === 'none') {
          baselineInfo = { path, status: 'missing' }
          check('baseline', false, `baseline ${path} is missing`, `the baseline ${path} is missing, and snapshots are not written in CI. Run the suite locally (it writes the baseline) and commit the file.`)
        } else if (previous === undefined || updateMode === 'all') {
          writeBaseline(path, mergeBaseline(previous, this.name, current))
          baselineInfo = { path, status: previous === undefined ? 'created' : 'updated' }
          checks.push({ name: 'baseline', ok: true, message: `baseline ${previous === undefined ? 'written' : 'updated'}: ${path}` })
        } else {
          const tolerance = (s: string) => opts.tolerances?.[s] ?? opts.tolerance ?? 0.05
          const comparison = compareBaseline(previous, current, tolerance)
          baselineInfo = { path, status: 'compared', comparison }
          const changes = (title: string, list: typeof comparison.regressedCases) =>
            list.length === 0 ? '' : `\n${title}:\n${list.slice(0, 20).map((ch) => `  - ${ch.id}: ${ch.scorer} ${fmtScore(ch.baseline)} → ${fmtScore(ch.current)}`).join('\n')}${list.length > 20 ? `\n  … ${list.length - 20} more` : ''}`
          const ok = comparison.regressions.length === 0
          const label = `baseline${refused ? ' (-u ignored: CI is set)' : ''}`
          const deltas = comparison.scorers.map((d) => `${d.scorer} ${d.delta >= 0 ? '+' : ''}${d.delta.toFixed(3)}`).join(', ') || 'nothing to compare'
          check(
            'baseline',
            ok,
            ok
              ? `${label}: no scorer mean dropped by more than its tolerance (${deltas})`
              : `${label}: ${comparison.regressions.map((d) => `${d.scorer} mean ${fmtScore(d.current)} vs ${fmtScore(d.baseline)}`).join(', ')}`,
            `scores regressed against the baseline ${path}:\n${comparison.regressions.map((d) => `  ${d.scorer}: mean ${d.current.toFixed(3)} vs ${d.baseline.toFixed(3)} (${d.delta.toFixed(3)}, tolerance ${d.tolerance}) over ${d.cases} case${d.cases === 1 ? "" : "s"}`).join('\n')}${changes('Regressed cases', comparison.regressedCases)}${changes('Improved cases', comparison.improvedCases)}\nIf the change is intended, update the baseline with -u.`,
          )
        }
      }
    }

    const reportCases: ReportCase[] = ran.map((r) => {
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
      options: {
        repeat: this.repeat,
        passAt: this.passAt,
        concurrency: this.concurrency,
        scorers: Object.fromEntries(this.plans.map((p) => [p.key, p.threshold])),
        ...(this.options.thresholds ? { thresholds: this.options.thresholds } : {}),
        ...(this.options.budget ? { budget: this.options.budget } : {}),
        ...(this.options.baseline ? { baseline: this.options.baseline === true ? { tolerance: 0.05 } : { tolerance: 0.05, ...this.options.baseline } } : {}),
      },
      summary: { cases: this.cases.length, ran: ran.length, filteredOut: this.allCases - this.cases.length, passed, failed: ran.length - passed, errored: ran.filter((r) => r.errored).length, passRate, flaky: ran.filter((r) => r.flaky).length },
      scorers,
      checks,
      baseline: baselineInfo,
      usage: { app, evaluator: { ...stripModels(evaluator) }, total, latencyMs: latency },
      cases: reportCases,
    }
    const reportOption = this.options.report
    let reportFile: string | undefined
    if (reportOption !== false) {
      reportFile = reportPath(reportOption?.dir ?? '.expect-llm/reports', ctx.testPath, slugify(this.name))
      try {
        writeReport(reportFile, report)
      } catch (error) {
        failures.push(`the JSON report could not be written to ${reportFile}: ${(error as Error).message}. Check that the folder is writable, or pass report: { dir }.`)
        reportFile = undefined
      }
    }
    const summary = formatGoldenSummary(report, { ...(reportOption && reportOption.maxConsoleCases !== undefined ? { maxCases: reportOption.maxConsoleCases } : {}), ...(reportFile ? { reportFile } : {}) })
    this.outcome = { report, failures, summary, ...(reportFile ? { reportFile } : {}) }
    return this.outcome
  }

  /** The aggregate test's error message, or `undefined` when every check passed. */
  static failureMessage(name: string, outcome: SuiteOutcome): string | undefined {
    if (outcome.failures.length === 0) return undefined
    return `${formatMessage(`Golden suite "${name}" failed ${outcome.failures.length} check${outcome.failures.length === 1 ? '' : 's'}:`)}\n\n${outcome.failures.map((f, i) => `${i + 1}. ${f}`).join('\n\n')}${outcome.reportFile ? `\n\nReport: ${relativeToCwd(outcome.reportFile)}` : ''}`
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
