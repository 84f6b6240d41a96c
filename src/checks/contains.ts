/** The `contains` check: the expected answer appears in the output (normalized tokens, 0 or 1). @module */
import { containsAnswer } from '../metrics/contains.js'
import { hasReference, quote, result } from './shared.js'
import type { CheckDefinition } from './types.js'

export const contains: CheckDefinition = {
  name: 'contains',
  defaultThreshold: 1,
  optionKeys: ['threshold'],
  appliesTo: hasReference,
  run({ output, references }, { threshold }) {
    const r = containsAnswer(output, references)
    return result(r.contained ? 1 : 0, threshold, r.contained ? undefined : `the output does not contain ${quote(references[0] as string)}`, undefined, r)
  },
}
