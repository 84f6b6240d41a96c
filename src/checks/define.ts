/**
 * User-defined checks: `defineCheck({ name, run, threshold?, options? })` makes a check that golden
 * suites run as a value of `scorers` (named by its key there) and matchers run through
 * `toPassCheck(check, threshold?)`. The same definition serves both, as for the built-in checks.
 *
 * @module
 */
import { describeValue, formatMessage } from '../errors.js'
import type { GoldenCase } from '../golden/types.js'
import type { RetrievedItem } from '../metrics/retrieval.js'
import type { CheckDefinition, CheckOutcome } from './types.js'
import { sharedMark } from '../process-state.js'

// Shared by every build (the expect-llm/expect bundle carries its own copy of this module).
const BRAND = sharedMark('check')

/** What a check's `run` returns: a score in [0, 1], or a score with the reason shown in reports and messages. */
export type CheckReturn = number | { score: number; reason?: string }

/** What `run` gets besides the output and the case. */
export interface CheckContext<O = Record<string, unknown>> {
  /** The key of the check in `scorers` (its `name` under `toPassCheck`). */
  key: string
  /** The case's input as text (objects as compact JSON). */
  inputText: string
  /** The case's string references: `expected` (when a non-empty string), then `acceptable`. */
  references: string[]
  /** Context documents: the task's, else the case's. */
  context?: string[]
  /** What the task retrieved. */
  retrieved?: RetrievedItem[]
  /** The check's options (`defineCheck`'s, overridden by `check.with({ options })`). */
  options: O
}

/** What `defineCheck` takes. */
export interface CheckSpec<O = Record<string, unknown>, I = any, E = any> {
  /** Names the check in messages and errors (`scorers` keys name it in reports). */
  name: string
  /** Scores one output, sync or async: a number in [0, 1] or `{ score, reason? }`. */
  run: (output: string, c: GoldenCase<I, E>, context: CheckContext<O>) => CheckReturn | Promise<CheckReturn>
  /** Minimum score to pass (inclusive), or `null` to record the score only. Default `null`. */
  threshold?: number | null
  /** Options given to `run` as `context.options`. */
  options?: O
}

/** A check made by {@link defineCheck}. */
export interface Check<O = Record<string, unknown>, I = any, E = any> {
  readonly name: string
  readonly threshold: number | null
  readonly options: O
  readonly run: CheckSpec<O, I, E>['run']
  /**
   * The same check with another threshold or options, for a second instance in one suite.
   * @example
   * ```ts
   * scorers: { short: short, 'short:strict': short.with({ threshold: 1, options: { factor: 1.5 } }) }
   * ```
   */
  with(overrides: { threshold?: number | null; options?: Partial<O> }): Check<O, I, E>
}

function setupError(reason: string, fix: string): never {
  throw new TypeError(formatMessage(`Failed to define the check: ${reason}. ${fix}`))
}

function checkedThreshold(name: string, value: unknown): number | null {
  if (value === undefined || value === null) return null
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || value > 1) {
    setupError(
      `the threshold of check "${name}" must be a number from 0 to 1 or null, got ${typeof value === 'number' ? value : describeValue(value)}`,
      'Pass for example { threshold: 0.8 }, or null to record the score only.',
    )
  }
  return value
}

/**
 * Defines a check of your own: a function of the output, the case and a context that returns a score in
 * [0, 1] (or `{ score, reason }`), sync or async. Use it in `describeGolden`/`compareGolden` as a value of
 * `scorers` (the key names it: means, thresholds, baselines, comparisons and reports treat it like a
 * built-in), and in a test through `expect(output).toPassCheck(check, threshold?)`.
 *
 * @example
 * ```ts
 * import { defineCheck } from 'expect-llm'
 *
 * // LangSmith-style code evaluator: shorter than twice the reference, in characters.
 * export const concise = defineCheck({
 *   name: 'concise',
 *   threshold: 1,
 *   run: (output, c) => (output.length < 2 * String(c.expected ?? '').length ? 1 : { score: 0, reason: `${output.length} characters` }),
 * })
 *
 * describeGolden('support bot', { dataset, task, scorers: { concise }, thresholds: { mean: { concise: 0.9 } } })
 * await expect(answer).toPassCheck(concise)
 * ```
 */
export function defineCheck<O = Record<string, unknown>, I = any, E = any>(spec: CheckSpec<O, I, E>): Check<O, I, E> {
  if (spec === null || typeof spec !== 'object')
    setupError(
      `defineCheck takes { name, run, threshold?, options? }, got ${describeValue(spec)}`,
      "Pass for example defineCheck({ name: 'short', run: (output) => (output.length < 200 ? 1 : 0) }).",
    )
  const { name, run, threshold, options } = spec
  if (typeof name !== 'string' || name.trim() === '')
    setupError(`the check has no name (got ${describeValue(name)})`, "Pass { name: 'short', run }: the name appears in messages and errors.")
  if (typeof run !== 'function')
    setupError(
      `check "${name}" has no run function (got ${describeValue(run)})`,
      'Pass { run: (output, case, context) => score } returning a number in [0, 1] or { score, reason }.',
    )
  const unknown = Object.keys(spec).filter((k) => !['name', 'run', 'threshold', 'options'].includes(k))
  if (unknown.length > 0)
    setupError(`unknown option ${unknown.map((k) => `"${k}"`).join(', ')} of check "${name}"`, 'Valid options are: name, run, threshold, options.')
  if (options !== undefined && (options === null || typeof options !== 'object'))
    setupError(
      `the options of check "${name}" must be an object, got ${describeValue(options)}`,
      'Pass { options: { ... } }; run gets them as context.options.',
    )
  const check: Check<O, I, E> = {
    name,
    threshold: checkedThreshold(name, threshold),
    options: Object.freeze({ ...(options ?? {}) }) as O,
    run,
    with(overrides) {
      if (overrides === null || typeof overrides !== 'object')
        setupError(`with() takes { threshold?, options? }, got ${describeValue(overrides)}`, 'Pass for example check.with({ threshold: 0.9 }).')
      return defineCheck({
        name,
        run,
        threshold: 'threshold' in overrides ? overrides.threshold : check.threshold,
        options: { ...check.options, ...overrides.options } as O,
      })
    },
  }
  Object.defineProperty(check, BRAND, { value: true })
  return Object.freeze(check)
}

/** Whether a value was made by {@link defineCheck} (in any copy of the package). */
export function isCheck(value: unknown): value is Check<any, any, any> {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true
}

function scoreError(key: string, reason: string): never {
  throw new TypeError(formatMessage(`Failed to run check "${key}": ${reason}. Return a number from 0 to 1, or { score, reason? }.`))
}

/** Reads what a user check's `run` returned: a score in [0, 1] and a reason. */
export function readCheckReturn(key: string, value: unknown): { score: number; reason?: string } {
  const score = typeof value === 'object' && value !== null ? (value as { score?: unknown }).score : value
  if (typeof score !== 'number') scoreError(key, `it returned ${describeValue(value)}, which has no score`)
  if (Number.isNaN(score)) scoreError(key, 'it returned NaN')
  if (score < 0 || score > 1) scoreError(key, `it returned ${score}, outside [0, 1]`)
  const reason = typeof value === 'object' && value !== null ? (value as { reason?: unknown }).reason : undefined
  if (reason !== undefined && typeof reason !== 'string') scoreError(key, `its reason is ${describeValue(reason)}, not a string`)
  return reason === undefined ? { score } : { score, reason }
}

/** Runs a user check on one output, with its errors named after the check. */
export async function runUserCheck(
  check: Check<any, any, any>,
  key: string,
  output: string,
  c: GoldenCase,
  context: Omit<CheckContext, 'key' | 'options'>,
  options: object,
  threshold: number | null,
): Promise<CheckOutcome> {
  let value: unknown
  try {
    value = await check.run(output, c, { ...context, key, options })
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(formatMessage(`Failed to run check "${key}": its run function threw: ${reason.replace(/^\[expect-llm\] /, '')}`), { cause: error })
  }
  const { score, reason } = readCheckReturn(key, value)
  const out: CheckOutcome = { score, threshold, pass: threshold === null || score >= threshold }
  if (reason) out.detail = reason
  return out
}

/** The definition of a user check, as the golden suites plan and run the built-in ones. */
export function userCheckDefinition(check: Check<any, any, any>): CheckDefinition {
  return {
    name: check.name,
    defaultThreshold: check.threshold,
    optionKeys: [],
    run: (input, plan) => {
      const context = {
        inputText: input.inputText,
        references: input.references,
        ...(input.context ? { context: input.context } : {}),
        ...(input.retrieved ? { retrieved: input.retrieved } : {}),
      }
      return runUserCheck(check, plan.key, input.output, input.c, context, check.options, plan.threshold)
    },
  }
}
