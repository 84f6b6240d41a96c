/**
 * One check run outside a golden suite, as the matchers run it: the matcher's options are validated by
 * the check's definition (its option keys and `resolve`, failing with the matcher's usage error), the
 * matcher builds the check input from its arguments, runs the definition, and keeps only its message.
 *
 * @module
 */
import type { GoldenCase } from '../golden/types.js'
import type { RetrievedItem } from '../metrics/retrieval.js'
import { type Check, type CheckContext, readCheckReturn } from './define.js'
import { referencesOf } from './plan.js'
import type { CheckDefinition, CheckEnv, CheckInput, CheckOutcome, ScorerPlan } from './types.js'

type Fail = (reason: string, fix: string, kind?: ErrorConstructor) => never

/**
 * The option keys a matcher takes: the definition's, without those the matcher takes as arguments
 * (`threshold` by default), in the definition's order.
 */
export function matcherOptionKeys(check: CheckDefinition, positional: readonly string[] = ['threshold']): string[] {
  return check.optionKeys.filter((k) => !positional.includes(k))
}

/**
 * The plan of one check run by a matcher: `options` (already checked for unknown keys) validated by the
 * definition's `resolve`, which fails through `fail` and names options bare (`measure`, not `rougeL.measure`).
 */
export function planCheck(check: CheckDefinition, options: unknown, threshold: number | null, fail: Fail): ScorerPlan {
  const isObject = typeof options === 'object' && options !== null && !Array.isArray(options)
  const opts: Record<string, unknown> = isObject ? { ...options } : {}
  // Options that are not an object reach `resolve` as they are, for a definition that says why (moderation).
  const given = (options === undefined || isObject ? opts : options) as Record<string, unknown>
  const resolved = check.resolve ? check.resolve({ key: check.name, threshold, options: given }, options, { fail, prefix: '' }) : threshold
  return { key: check.name, name: check.name, threshold: resolved, options: opts, explicit: true, check, errors: { fail, prefix: '' } }
}

/** What a matcher knows of the case: its references, context, retrieved items, input, and case fields. */
export interface DirectCase {
  references?: readonly string[]
  context?: unknown
  retrieved?: readonly RetrievedItem[]
  inputText?: string
  /** Other case fields the check reads (`keywords`, `relevant`, `answerable`, `criteria`...). */
  fields?: Partial<GoldenCase>
}

/** The check input of one output under a matcher. */
export function directInput(output: string, d: DirectCase = {}): CheckInput {
  const references = [...(d.references ?? [])]
  // No input given: the case has none either (a judge is then shown no input, as the matcher promised).
  const c = { id: 'expect', ...(d.inputText !== undefined ? { input: d.inputText } : {}), ...d.fields } as GoldenCase
  if (references.length > 0 && c.expected === undefined) c.expected = references[0]
  return {
    output,
    c,
    references,
    inputText: d.inputText ?? '',
    // As given: the judge call checks it (text or a list of texts), with the matcher's usage error.
    ...(d.context !== undefined ? { context: d.context as string[] } : {}),
    ...(d.retrieved ? { retrieved: [...d.retrieved] } : {}),
  }
}

/** Runs a synchronous check (lexical metrics, schema, length, safety scanners) with its `data`. */
export function runDirect<D = unknown>(plan: ScorerPlan, input: CheckInput, env: CheckEnv = {}): CheckOutcome<D> & { data: D } {
  const out = plan.check.run(input, plan, env)
  if (out === undefined || out instanceof Promise) throw new Error(`the ${plan.name} check did not return a synchronous outcome`)
  return out as CheckOutcome<D> & { data: D }
}

/** Runs an asynchronous check (judges, embedders, moderation) with its `data`. */
export async function runDirectAsync<D = unknown>(plan: ScorerPlan, input: CheckInput, env: CheckEnv = {}): Promise<CheckOutcome<D> & { data: D }> {
  const out = await plan.check.run(input, plan, env)
  if (out === undefined) throw new Error(`the ${plan.name} check returned no outcome`)
  return out as CheckOutcome<D> & { data: D }
}

/** The case fields a user check may be given under a matcher (`toPassCheck`'s third argument). */
export const USER_CHECK_CASE_KEYS = ['id', 'input', 'expected', 'acceptable', 'context', 'relevant', 'keywords', 'criteria', 'metadata', 'retrieved']

/**
 * The case and the context a user check sees under a matcher, from the case fields given (checked
 * against {@link USER_CHECK_CASE_KEYS} by the matcher): a golden case with id `expect` and input `''`
 * unless given, context documents as a list, and what was retrieved in the context only.
 */
export function userCheckCase(check: Check<any, any, any>, fields: Record<string, unknown>): { c: GoldenCase; context: CheckContext } {
  const { retrieved, ...rest } = fields as { retrieved?: RetrievedItem[]; context?: string | string[] }
  const docs = typeof rest.context === 'string' ? [rest.context] : rest.context
  const c = { id: 'expect', input: '', ...rest, ...(docs ? { context: docs } : {}) } as GoldenCase
  const context: CheckContext = {
    key: check.name,
    inputText: typeof c.input === 'string' ? c.input : (JSON.stringify(c.input) ?? String(c.input)),
    references: referencesOf(c),
    ...(docs ? { context: docs } : {}),
    ...(retrieved ? { retrieved } : {}),
    options: check.options,
  }
  return { c, context }
}

/** What {@link scoreUserCheck} found: the verdict, or why there is none (a matcher's usage error). */
export type UserCheckScore = { verdict: { score: number; reason?: string } } | { problem: string; fix: string; kind: ErrorConstructor }

/**
 * Runs a user check once on one output under a matcher: its score and reason, or the problem when its
 * `run` threw (an `Error`) or returned no score in [0, 1] (a `TypeError`), worded for the matcher's
 * usage error.
 */
export async function scoreUserCheck(check: Check<any, any, any>, output: string, c: GoldenCase, context: CheckContext): Promise<UserCheckScore> {
  let value: unknown
  try {
    value = await check.run(output, c, context)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return {
      problem: `check "${check.name}" threw: ${reason.replace(/^\[expect-llm\] /, '')}`,
      fix: 'Fix the check, or catch the error in its run function and return a score.',
      kind: Error as ErrorConstructor,
    }
  }
  try {
    return { verdict: readCheckReturn(check.name, value) }
  } catch (error) {
    return {
      problem: (error as Error).message
        .replace(/^\[expect-llm\] Failed to run check "[^"]*": (it )?/, `check "${check.name}" `)
        .replace(/\. Return a number.*$/, ''),
      fix: 'Return a number from 0 to 1, or { score, reason? }.',
      kind: TypeError,
    }
  }
}
