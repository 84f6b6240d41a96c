/**
 * One check run outside a golden suite, as the matchers run it: the matcher's options are validated by
 * the check's definition (its option keys and `resolve`, failing with the matcher's usage error), the
 * matcher builds the check input from its arguments, runs the definition, and keeps only its message.
 *
 * @module
 */
import type { GoldenCase } from '../golden/types.js'
import type { RetrievedItem } from '../metrics/retrieval.js'
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
