/**
 * Mutants of a dataset: the built-in operators (`mutationOperators`) and `generateMutants`, which applies
 * the chosen operators to every case with a random seeded per seed, case and operator, and keeps only
 * real mutants (never the source, never a whitespace, case or punctuation change of it, no duplicates).
 *
 * @module
 */
import { describeValue, failWith, isFiniteNumber } from '../errors.js'
import { seededRandom } from '../golden/stats.js'
import { didYouMean } from '../suggest.js'
import { BUILTIN_OPERATORS } from './operators/index.js'
import { surfaceKey } from './operators/shared.js'
import type { Mutant, MutationOperator, MutationSource } from './types.js'

/**
 * The built-in mutation operators, in the order they run: each makes plausible wrong answers from a
 * case's reference that keep most of its words (see docs/mutation-operators.md for each one, with
 * examples and limits). Pass their names, or your own {@link MutationOperator} objects, in `operators`.
 *
 * @example
 * ```ts
 * import { generateMutants, mutationOperators } from 'expect-llm'
 *
 * mutationOperators.map((o) => o.name) // ['number', 'unit', 'negation', ...]
 * const hedge = {
 *   name: 'hedge',
 *   description: 'Adds a hedge.',
 *   mutate: ({ source }) => [{ operator: 'hedge', text: `Maybe ${source.text}`, change: '+ Maybe' }],
 * }
 * generateMutants(sources, { operators: ['negation', 'number', hedge] })
 * ```
 */
export const mutationOperators: readonly MutationOperator[] = BUILTIN_OPERATORS

/** Options of {@link generateMutants}. */
export interface GenerateMutantsOptions {
  /** Seed of the operators' random choices. Default 1. */
  seed?: number
  /** Operators to run, by built-in name or as objects (your own). Default: every built-in operator. */
  operators?: ReadonlyArray<string | MutationOperator>
}

const fail = failWith('generate the mutants')

/**
 * The operators named or given in `operators` (every built-in one when omitted), checked: a name must be
 * a built-in operator's, an object needs a `name` and a `mutate` function, and names are unique.
 *
 * @example
 * ```ts
 * resolveOperators(['negation', 'number']).map((o) => o.name) // ['negation', 'number']
 * resolveOperators(['negaton']) // TypeError: ... unknown mutation operator "negaton" (did you mean "negation"?) ...
 * ```
 */
export function resolveOperators(operators: ReadonlyArray<string | MutationOperator> | undefined): MutationOperator[] {
  if (operators === undefined) return [...mutationOperators]
  if (!Array.isArray(operators))
    fail(
      `"operators" must be an array of operator names or objects, got ${describeValue(operators)}`,
      "Pass for example { operators: ['negation', 'number'] }.",
    )
  const names = mutationOperators.map((o) => o.name)
  const out: MutationOperator[] = []
  for (const item of operators as ReadonlyArray<unknown>) {
    let operator: MutationOperator
    if (typeof item === 'string') {
      const found = mutationOperators.find((o) => o.name === item)
      if (!found) fail(`unknown mutation operator "${item}"${didYouMean(item, names)}`, `The built-in operators are: ${names.join(', ')}.`)
      operator = found as MutationOperator
    } else if (item !== null && typeof item === 'object' && typeof (item as MutationOperator).mutate === 'function') {
      operator = item as MutationOperator
      if (typeof operator.name !== 'string' || operator.name.trim() === '')
        fail(
          `a mutation operator needs a non-empty "name", got ${describeValue(operator.name)}`,
          "Give it a unique kebab-case name, e.g. { name: 'hedge', ... }.",
        )
    } else {
      return fail(
        `each operator must be a built-in operator's name or an object with "name" and "mutate", got ${describeValue(item)}`,
        `Pass names (${names.slice(0, 3).join(', ')}, ...) or { name, description, mutate(context) } objects.`,
      )
    }
    if (out.some((o) => o.name === operator.name))
      fail(`the mutation operator "${operator.name}" is listed twice`, 'List each operator once; give your own operators names of their own.')
    out.push(operator)
  }
  return out
}

/** A 32-bit FNV-1a hash: one seed per (seed, case, operator), so an operator's mutants do not depend on the others. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

function checkSources(sources: readonly MutationSource[]): void {
  if (!Array.isArray(sources))
    fail(`"sources" must be an array of { id, text, input, unanswerable }, got ${describeValue(sources)}`, 'Pass the cases of the dataset.')
  const ids = new Set<string>()
  for (const [i, s] of sources.entries()) {
    if (s === null || typeof s !== 'object' || typeof s.id !== 'string' || typeof s.text !== 'string' || typeof s.input !== 'string') {
      fail(`source ${i} must be { id: string, text: string, input: string, unanswerable: boolean }, got ${describeValue(s)}`, 'Pass one source per case.')
    }
    if (ids.has(s.id)) fail(`two sources have the id "${s.id}"`, 'Give every case a unique id.')
    ids.add(s.id)
  }
}

function checkMutant(operator: MutationOperator, mutant: unknown): Mutant {
  const m = mutant as Partial<Mutant> | null
  if (m === null || typeof m !== 'object' || typeof m.text !== 'string' || typeof m.change !== 'string') {
    return fail(
      `the mutation operator "${operator.name}" returned ${describeValue(mutant)}, not a mutant`,
      'Return an array of { operator, text, change } objects (an empty array when the operator does not apply).',
    )
  }
  return { operator: operator.name, text: m.text, change: m.change }
}

/**
 * The mutants of every source: each operator runs on each case with a random seeded by `seed`, the case
 * id and the operator name (the same three give the same mutants, whatever the other operators), and
 * the mutants that are no real change are dropped: equal to the source, only a whitespace, case or
 * punctuation change of it, or a duplicate of an earlier mutant of the same case. Returns a map from
 * case id to its mutants, in the order of `sources` and then of `operators`.
 *
 * @example
 * ```ts
 * const sources = [
 *   { id: 'refund', input: 'How long do I have?', text: 'You can ask for a refund within 30 days.', unanswerable: false },
 *   { id: 'shipping', input: 'How much is shipping?', text: 'Shipping is free on orders over $50.', unanswerable: false },
 * ]
 * const mutants = generateMutants(sources, { seed: 1, operators: ['negation', 'number'] })
 * mutants.get('refund')
 * // [{ operator: 'negation', text: 'You cannot ask for a refund within 30 days.', change: 'can → cannot' },
 * //  { operator: 'number', text: 'You can ask for a refund within 60 days.', change: '30 → 60' }]
 * ```
 */
export function generateMutants(sources: readonly MutationSource[], options: GenerateMutantsOptions = {}): Map<string, Mutant[]> {
  const seed = options.seed ?? 1
  if (!isFiniteNumber(seed)) fail(`"seed" must be a finite number, got ${describeValue(seed)}`, 'Pass for example { seed: 1 }.')
  const operators = resolveOperators(options.operators)
  checkSources(sources)
  // One frozen copy per call: the operators' dataset-wide tables (names, word frequencies) are cached per
  // dataset array, so a caller that changes its array between two calls never sees stale tables.
  const dataset: readonly MutationSource[] = Object.freeze(sources.map((s) => Object.freeze({ ...s })))
  const out = new Map<string, Mutant[]>()
  for (const source of dataset) {
    const seen = new Set<string>([surfaceKey(source.text)])
    const mutants: Mutant[] = []
    for (const operator of operators) {
      const random = seededRandom(hash(`${seed}\u0000${source.id}\u0000${operator.name}`))
      const made = operator.mutate({ source, dataset, random })
      if (!Array.isArray(made))
        fail(`the mutation operator "${operator.name}" returned ${describeValue(made)}`, 'Return an array of mutants (empty when it does not apply).')
      for (const raw of made) {
        const mutant = checkMutant(operator, raw)
        const key = surfaceKey(mutant.text)
        if (mutant.text.trim() === '' || seen.has(key)) continue
        seen.add(key)
        mutants.push(mutant)
      }
    }
    out.set(source.id, mutants)
  }
  return out
}
