/**
 * The built-in mutation operators, in the order they run. Adding one: write `src/mutation/operators/<name>.ts`
 * exporting a `MutationOperator`, list it here, test it in `test/mutation/operators.test.ts` (and the
 * properties in `test/mutation/properties.test.ts` cover it at once), and document it in
 * docs/mutation-operators.md.
 *
 * @module
 */
import type { MutationOperator } from '../types.js'
import { claimOperator } from './claim.js'
import { clauseOperator } from './clause.js'
import { comparativeOperator } from './comparative.js'
import { entityOperator } from './entity.js'
import { negationOperator } from './negation.js'
import { numberOperator, unitOperator } from './number.js'
import { confidentAnswerOperator, otherAnswerOperator, refusalOperator } from './question.js'

export const BUILTIN_OPERATORS: readonly MutationOperator[] = Object.freeze([
  numberOperator,
  unitOperator,
  negationOperator,
  comparativeOperator,
  entityOperator,
  clauseOperator,
  claimOperator,
  otherAnswerOperator,
  refusalOperator,
  confidentAnswerOperator,
])
