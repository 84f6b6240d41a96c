// TEMPORARY (issue-14-run): a stand-in for the issue-14-operators helper's generate.ts, replaced by theirs at merge.
import { seededRandom } from '../golden/stats.js'
import type { Mutant, MutationOperator, MutationSource } from './types.js'

export const mutationOperators: readonly MutationOperator[] = []

export function generateMutants(
  sources: readonly MutationSource[],
  options: { seed?: number; operators?: readonly MutationOperator[] } = {},
): Array<{ source: MutationSource; mutants: Mutant[] }> {
  const ops = options.operators ?? mutationOperators
  return sources.map((source, i) => ({
    source,
    mutants: ops.flatMap((op, j) =>
      op.mutate({ source, dataset: sources, random: seededRandom((options.seed ?? 1) * 7919 + i * 31 + j) }).filter((m) => m.text !== source.text),
    ),
  }))
}
