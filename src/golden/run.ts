/**
 * Running one golden case: the task (with its model calls captured), every scorer, the user's
 * `assert`, repeats with `passAt`, and the usage and latency of each run.
 *
 * @module
 */
import { performance } from 'node:perf_hooks'
import { costOf } from '../ledger.js'
import type { RetrievedItem } from '../metrics/retrieval.js'
import { type CapturedCall, withCapture } from './capture.js'
import { runTask, TaskReturnError } from './conversation.js'
import { inputText, runScorers, scorersFor, type ScoreInput, type ScoreResult, type ScorerEnv, type ScorerPlan } from './scorers.js'
import type { Trajectory } from '../agents/types.js'
import type { GoldenCase, GoldenTask, TaskResult } from './types.js'

/** Where a run's latency comes from. */
export type LatencySource = 'task' | 'recorded' | 'measured'

/** Token usage and cost of the app in one run. */
export interface RunUsage {
  /** Model calls seen (0 when the task reported usage itself). */
  calls: number
  inputTokens: number
  outputTokens: number
  /** `undefined` when a model has no price. */
  costUsd: number | undefined
  models: string[]
}

/** One run of a case. */
export interface CaseRun {
  output?: string
  /** The task or a scorer threw: every message, one per line (see `errors`). */
  error?: string
  /** The task's or each scorer's error, one entry each, unabridged (`scorer judge failed: ...`). */
  errors?: string[]
  /** The user's `assert` threw (the message). */
  assertError?: string
  /** By scorer key. */
  scores: Record<string, ScoreResult>
  pass: boolean
  latencyMs: number
  latencySource: LatencySource
  usage: RunUsage
  /** When the answer failed: did retrieval miss (`'retrieval'`) or did the model misuse what was retrieved (`'generation'`)? */
  diagnosis?: 'retrieval' | 'generation'
}

/** A case over all its runs. */
export interface CaseResult {
  c: GoldenCase
  runs: CaseRun[]
  /** Runs that passed. */
  passes: number
  /** At least `passAt` runs passed. */
  pass: boolean
  /** Some runs passed and some failed. */
  flaky: boolean
  /** Per scorer: the mean score over the runs that produced one, the threshold, and whether that mean passes. */
  scores: Record<string, ScoreResult>
  /** Every run errored: there is nothing to score. */
  errored: boolean
}

function message(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}

function usageFrom(result: TaskResult, calls: readonly CapturedCall[]): RunUsage {
  if (result.usage) {
    const u = result.usage
    const out = u.outputTokens ?? 0
    const cost = u.costUsd ?? (u.model ? costOf(u.model, u.inputTokens, out) : undefined)
    return { calls: 0, inputTokens: u.inputTokens, outputTokens: out, costUsd: cost, models: u.model ? [u.model] : [] }
  }
  return callsUsage(calls)
}

/** The usage of the model calls captured during a run: unknown cost as soon as one call has no price. */
function callsUsage(calls: readonly CapturedCall[]): RunUsage {
  let costUsd: number | undefined = 0
  const usage: RunUsage = { calls: calls.length, inputTokens: 0, outputTokens: 0, costUsd: 0, models: [] }
  for (const call of calls) {
    const i = call.inputTokens ?? 0
    const o = call.outputTokens ?? 0
    usage.inputTokens += i
    usage.outputTokens += o
    if (call.model && !usage.models.includes(call.model)) usage.models.push(call.model)
    const cost = call.model ? costOf(call.model, i, o) : i + o === 0 ? 0 : undefined
    costUsd = costUsd === undefined || cost === undefined ? undefined : costUsd + cost
  }
  usage.costUsd = costUsd
  return usage
}

/**
 * The run of a task that threw: its message (a `TaskReturnError`'s as is, any other as "the task threw"),
 * the wall time, and the usage of the calls it made before (none counted for a return error).
 */
export function failedTaskRun(thrown: unknown, wallMs: number, calls: readonly CapturedCall[]): CaseRun {
  const empty: RunUsage = { calls: calls.length, inputTokens: 0, outputTokens: 0, costUsd: 0, models: [] }
  if (thrown instanceof TaskReturnError)
    return { error: thrown.message, errors: [thrown.message], scores: {}, pass: false, latencyMs: wallMs, latencySource: 'measured', usage: empty }
  const error = `the task threw: ${message(thrown)}`
  return { error, errors: [error], scores: {}, pass: false, latencyMs: wallMs, latencySource: 'measured', usage: callsUsage(calls) }
}

/**
 * The latency of a run: the task's own figure; on replay (every call recorded) the recorded latencies,
 * summed (calls within a task are assumed to be sequential), since the wall time is the time of reading
 * fixtures; else the wall time.
 */
export function runLatency(result: TaskResult, calls: readonly CapturedCall[], wallMs: number): { latencyMs: number; latencySource: LatencySource } {
  // Stryker disable next-line ConditionalExpression: Number.isFinite is false for a non-number too; typeof narrows the type
  if (typeof result.latencyMs === 'number' && Number.isFinite(result.latencyMs)) return { latencyMs: result.latencyMs, latencySource: 'task' }
  const recorded = calls.filter((call) => call.recordedMs !== undefined)
  if (recorded.length > 0 && recorded.length === calls.length)
    return { latencyMs: recorded.reduce((s, call) => s + (call.recordedMs as number), 0), latencySource: 'recorded' }
  return { latencyMs: wallMs, latencySource: 'measured' }
}

/** What the scorers of a run see: the output, the case, the context (the task's, else the case's), retrieved items, trajectory, tools. */
export function scorerInput(c: GoldenCase, result: TaskResult & { output: string }, trajectory: Trajectory | undefined): ScoreInput {
  const context = result.context !== undefined ? (typeof result.context === 'string' ? [result.context] : result.context) : c.context
  return {
    output: result.output,
    c,
    inputText: inputText(c.input),
    ...(context ? { context } : {}),
    ...(result.retrieved ? { retrieved: result.retrieved as RetrievedItem[] } : {}),
    ...(trajectory ? { trajectory } : {}),
    ...(result.tools !== undefined ? { tools: result.tools } : {}),
  }
}

/** The scores of the scorers that gave one, by key, and a message per scorer that threw. */
export function settledScores(settled: ReadonlyArray<{ key: string; result?: ScoreResult; error?: unknown }>): {
  scores: Record<string, ScoreResult>
  errors: string[]
} {
  const scores: Record<string, ScoreResult> = {}
  const errors: string[] = []
  for (const s of settled) {
    if (s.result) scores[s.key] = s.result
    else if (s.error !== undefined) errors.push(`scorer ${s.key} failed: ${message(s.error)}`)
  }
  return { scores, errors }
}

/**
 * The verdict of a scored run: it passes when no score failed, no scorer threw and `assert` held. With a
 * retrieval check, a failure is diagnosed: retrieval missed (`'retrieval'`), or the documents were
 * retrieved and another check failed (`'generation'`).
 */
export function runVerdict(
  run: Pick<CaseRun, 'scores' | 'error' | 'assertError'>,
  plans: readonly ScorerPlan[],
): { pass: boolean; diagnosis?: 'retrieval' | 'generation' } {
  const failed = Object.values(run.scores).some((s) => !s.pass)
  const pass = !failed && run.error === undefined && run.assertError === undefined
  const retrieval = plans.filter((p) => p.name === 'retrieval' && run.scores[p.key] !== undefined).map((p) => p.key)
  if (retrieval.length === 0 || !failed) return { pass }
  // A check failed: a retrieval check (retrieval missed), or only others (generation).
  return { pass, diagnosis: retrieval.every((k) => run.scores[k]!.pass) ? 'generation' : 'retrieval' }
}

/** Runs the task once, scores it, and runs `assert`. Never throws: errors are part of the run. */
export async function runOnce(
  c: GoldenCase,
  task: GoldenTask,
  plans: readonly ScorerPlan[],
  env: ScorerEnv,
  assert: ((output: string, c: GoldenCase) => void | Promise<void>) | undefined,
): Promise<CaseRun> {
  const started = performance.now()
  const captured = await withCapture(async () => {
    try {
      return { ok: true as const, value: await runTask(task, c) }
    } catch (error) {
      return { ok: false as const, error }
    }
  })
  const wall = performance.now() - started
  if (!captured.value.ok) return failedTaskRun(captured.value.error, wall, captured.calls)
  const { result, trajectory } = captured.value.value
  // Stryker disable next-line BooleanLiteral: a placeholder, runVerdict sets run.pass below before the run is returned
  const run: CaseRun = { output: result.output, scores: {}, pass: true, ...runLatency(result, captured.calls, wall), usage: usageFrom(result, captured.calls) }
  const plansForCase = scorersFor(c, plans)
  const { scores, errors } = settledScores(await runScorers(plansForCase, scorerInput(c, result, trajectory), env))
  run.scores = scores
  if (errors.length > 0) {
    run.errors = errors
    run.error = errors.join('\n')
  }
  if (assert) {
    try {
      await assert(result.output, c)
    } catch (error) {
      run.assertError = message(error)
    }
  }
  const { pass, diagnosis } = runVerdict(run, plansForCase)
  run.pass = pass
  if (diagnosis) run.diagnosis = diagnosis
  return run
}

/** Combines the runs of a case. */
export function combineRuns(c: GoldenCase, runs: CaseRun[], passAt: number): CaseResult {
  const passes = runs.filter((r) => r.pass).length
  const scores: CaseResult['scores'] = {}
  const names = new Set(runs.flatMap((r) => Object.keys(r.scores)))
  for (const name of names) {
    const values = runs.map((r) => r.scores[name]).filter((s): s is ScoreResult => s !== undefined)
    const score = values.reduce((s, v) => s + v.score, 0) / values.length
    // values holds at least the run the name came from.
    const threshold = values[0]!.threshold ?? null
    const entry: ScoreResult = {
      score,
      threshold,
      // A scorer passes for the case when it passed in at least passAt runs (one run: that run).
      pass: values.filter((v) => v.pass).length >= Math.min(passAt, values.length),
    }
    const detail = values.find((v) => !v.pass)?.detail ?? values[0]!.detail
    if (detail) entry.detail = detail
    const counts = values.map((v) => v.retrieval).filter((x) => x !== undefined)
    if (counts.length > 0)
      entry.retrieval = {
        found: counts.reduce((s, x) => s + x.found, 0),
        k: counts.reduce((s, x) => s + x.k, 0),
        relevant: counts.reduce((s, x) => s + x.relevant, 0),
      }
    const panel = values.find((v) => v.judges !== undefined)
    if (panel?.judges) entry.judges = panel.judges
    if (panel?.agreement !== undefined) entry.agreement = panel.agreement
    scores[name] = entry
  }
  return {
    c,
    runs,
    passes,
    pass: passes >= passAt,
    flaky: passes > 0 && passes < runs.length,
    scores,
    // Stryker disable next-line ConditionalExpression: a run without output is a task that threw, which always has an error
    errored: runs.every((r) => r.error !== undefined && r.output === undefined),
  }
}

/** A FIFO limit on concurrent work. */
export function createLimiter(concurrency: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let active = 0
  const waiting: Array<() => void> = []
  return async (fn) => {
    if (active < concurrency) active++
    else await new Promise<void>((r) => waiting.push(r))
    try {
      return await fn()
    } finally {
      const next = waiting.shift()
      if (next) next()
      else active--
    }
  }
}
