/**
 * Mutation testing of golden evals (issue 14): the shared vocabulary of the operators, which make plausible
 * wrong answers from a case's reference, and of the run, which scores every check of a suite on them.
 *
 * Operators live in `src/mutation/operators/`, the generator in `src/mutation/generate.ts`, the run and its
 * report section in `src/mutation/run.ts`.
 *
 * @module
 */

/** What an operator mutates: one case of the dataset, its correct answer and its question. */
export interface MutationSource {
  /** The case id. */
  id: string
  /** The correct answer that is mutated: the case's reference (or a correct recorded output). */
  text: string
  /** The case's input, as text. */
  input: string
  /** The right output is a refusal (an unanswerable case). */
  unanswerable: boolean
}

/** What an operator sees: the case, the whole dataset (for entity swaps and other questions' answers), a seeded random. */
export interface MutationContext {
  source: MutationSource
  /** Every case of the dataset, the source included. */
  dataset: readonly MutationSource[]
  /** Seeded, in [0, 1): the same seed, case and operator give the same mutants. */
  random: () => number
}

/** One plausible wrong answer. */
export interface Mutant {
  /** The operator that made it (`'negation'`, `'number'`, ...). */
  operator: string
  /** The wrong answer. Never equal to the source, never only a whitespace or punctuation change of it. */
  text: string
  /** What changed, in a few words, for reports: `30 → 60`, `can → cannot`. */
  change: string
}

/** A mutation operator: built in (`mutationOperators`) or the user's own. */
export interface MutationOperator {
  /** Unique, kebab-case (`'negation'`, `'swap-entity'`). */
  name: string
  /** One line for the docs and reports. */
  description: string
  /** The mutants of one source; an empty list when the operator does not apply to it. */
  mutate: (context: MutationContext) => Mutant[]
}

/** `describeGolden(..., { mutate })`: `true` for the defaults. */
export interface MutateOptions {
  /** Seed of the operators' random choices. Default 1. */
  seed?: number
  /** Operators to run, by name or as objects (your own). Default: every built-in operator. */
  operators?: ReadonlyArray<string | MutationOperator>
  /** Fail the suite when a check's mutation score (share of mutants it rejects) is below this. */
  minScore?: number
}
