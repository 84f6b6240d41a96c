/**
 * The golden suite's view of the checks: each built-in check is defined once in `src/checks/<name>.ts`
 * (the same definition its matcher runs), so a golden case and a hand-written `expect()` agree on every
 * score. This module plans them from the `scorers` option and runs them on a case.
 *
 * @module
 */
import { BUILTIN_NAMES, createScorerEnv, planScorers, referencesOf, runCheck, scorersFor, sortKeys } from '../checks/plan.js'
import type { CheckEnv, CheckResult, ScorerPlan } from '../checks/types.js'
import type { RetrievedItem } from '../metrics/retrieval.js'
import type { GoldenCase, ScorerName, Threshold } from './types.js'

export { SemanticEmbeddings } from '../checks/semantic.js'
export { createScorerEnv, planScorers, referencesOf, scorersFor, sortKeys }

/** Every built-in scorer name, in the order reports list them. */
export const SCORER_NAMES = BUILTIN_NAMES as readonly ScorerName[]

/** One scorer's verdict on one output. */
export type ScoreResult = CheckResult

/** A scorer with its options resolved. */
export type { ScorerPlan }

/** Per-suite state shared by the scorers (embedding order, see {@link SemanticEmbeddings}). */
export type ScorerEnv = CheckEnv

/** What a scorer sees. */
export interface ScoreInput {
  output: string
  c: GoldenCase
  /** Context documents: the task's, else the case's. */
  context?: string[]
  retrieved?: RetrievedItem[]
  /** The input as text (for judges). */
  inputText: string
  /** The scores of the case's other checks (what a composite combines). */
  scores?: Readonly<Record<string, CheckResult>>
}

/** Text of an input for judges and previews: strings as is, a conversation as `role: content` lines, other objects as compact JSON. */
export function inputText(input: unknown): string {
  if (typeof input === 'string') return input
  if (isConversation(input)) return input.map((m) => `${m.role}: ${m.content}`).join('\n')
  return JSON.stringify(input) ?? String(input)
}

function isConversation(input: unknown): input is Array<{ role: string; content: string }> {
  return (
    Array.isArray(input) &&
    input.length > 0 &&
    input.every((m) => m !== null && typeof m === 'object' && typeof m.role === 'string' && typeof m.content === 'string' && Object.keys(m).length === 2)
  )
}

/** Runs one scorer on one output; `undefined` when it does not score this case (a composite missing a part). */
export async function runScorer(plan: ScorerPlan, input: ScoreInput, env: ScorerEnv): Promise<ScoreResult> {
  const r = await runCheck(plan, { ...input, references: referencesOf(input.c) }, env)
  if (r === undefined) throw new Error(`the ${plan.key} scorer has no score for case "${input.c.id}"`)
  return r
}

/** Runs the scorers of one case: the others first, then those that combine their scores (composite). */
export async function runScorers(
  plans: readonly ScorerPlan[],
  input: ScoreInput,
  env: ScorerEnv,
): Promise<Array<{ key: string; result?: ScoreResult; error?: unknown }>> {
  const full = { ...input, references: referencesOf(input.c) }
  const settle = async (plan: ScorerPlan, scores?: Record<string, ScoreResult>) => {
    try {
      const result = await runCheck(plan, scores ? { ...full, scores } : full, env)
      return result ? { key: plan.key, result } : { key: plan.key }
    } catch (error) {
      return { key: plan.key, error }
    }
  }
  const first = await Promise.all(plans.filter((p) => !p.check.after).map((p) => settle(p)))
  // Stryker disable next-line MethodExpression: composite (the one `after` check) reads scores[key] === undefined, as for a missing key
  const scores = Object.fromEntries(first.filter((r) => r.result).map((r) => [r.key, r.result as ScoreResult]))
  const after = await Promise.all(plans.filter((p) => p.check.after).map((p) => settle(p, scores)))
  return [...first, ...after]
}

export type { Threshold }
