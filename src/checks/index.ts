/**
 * The built-in checks, in the order reports list them. Adding a check: write `src/checks/<name>.ts`,
 * list it here, give its options a type in `src/golden/types.ts` (`GoldenScorers`), and have its matcher
 * call its `run` (see docs/architecture.md, "Adding a check").
 *
 * @module
 */
import { bleu } from './bleu.js'
import { chrF } from './chrF.js'
import { composite } from './composite.js'
import { contains } from './contains.js'
import { edit } from './edit.js'
import { exact } from './exact.js'
import { faithfulness, judge, relevance } from './judge.js'
import { goal } from './goal.js'
import { keywords } from './keywords.js'
import { length } from './length.js'
import { refusal } from './refusal.js'
import { retrieval } from './retrieval.js'
import { moderation, pii, secrets } from './safety.js'
import { rouge1, rouge2, rougeL } from './rouge.js'
import { schema } from './schema.js'
import { semantic } from './semantic.js'
import { ter } from './ter.js'
import { tokenF1 } from './tokenF1.js'
import { toolArguments, toolF1, toolOrder } from './tools.js'
import type { CheckDefinition } from './types.js'

/** Every built-in check, in report order. */
export const BUILTIN_CHECKS: readonly CheckDefinition[] = [
  exact,
  contains,
  tokenF1,
  rougeL,
  rouge1,
  rouge2,
  bleu,
  chrF,
  ter,
  edit,
  keywords,
  schema,
  length,
  semantic,
  judge,
  relevance,
  faithfulness,
  refusal,
  retrieval,
  secrets,
  pii,
  moderation,
  toolF1,
  toolOrder,
  toolArguments,
  goal,
  composite,
]

const BY_NAME = new Map(BUILTIN_CHECKS.map((c) => [c.name, c]))

/** The built-in check of a name, if any. */
export function builtinCheck(name: string): CheckDefinition | undefined {
  return BY_NAME.get(name)
}

export type { CheckDefinition, CheckEnv, CheckInput, CheckOutcome, CheckResult, ScorerPlan } from './types.js'
