/** The `edit` check: 1 - Levenshtein distance / max length, the best over the references. @module */
import { editSimilarity } from '../metrics/edit.js'
import { bestOf, hasReference, result } from './shared.js'
import type { CheckDefinition } from './types.js'

export const edit: CheckDefinition = {
  name: 'edit',
  defaultThreshold: null,
  optionKeys: ['threshold'],
  appliesTo: hasReference,
  run({ output, references }, { threshold }) {
    const best = bestOf(references, (ref) => editSimilarity(output, ref))
    return result(best.score, threshold, undefined, undefined, { reference: best.ref })
  },
}
