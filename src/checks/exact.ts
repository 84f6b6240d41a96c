/** The `exact` check: SQuAD exact match against `expected`/`acceptable` (0 or 1). @module */
import { exactMatch } from '../metrics/squad.js'
import { hasReference, quote, result } from './shared.js'
import type { CheckDefinition } from './types.js'

export const exact: CheckDefinition = {
  name: 'exact',
  defaultThreshold: 1,
  optionKeys: ['threshold'],
  appliesTo: hasReference,
  run({ output, references }, { threshold }) {
    const s = exactMatch(output, references)
    return result(s, threshold, s === 1 ? undefined : `no acceptable answer matches after normalization (expected ${quote(references[0] as string)})`)
  },
}
