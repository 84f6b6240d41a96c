/** The `tokenF1` check: SQuAD token F1 against the best reference. @module */
import { tokenF1Details } from '../metrics/squad.js'
import { hasReference, result } from './shared.js'
import type { CheckDefinition } from './types.js'

export const tokenF1: CheckDefinition = {
  name: 'tokenF1',
  defaultThreshold: null,
  optionKeys: ['threshold'],
  appliesTo: hasReference,
  run({ output, references }, { threshold }) {
    // The details (best reference, missing and extra tokens) are the matcher's message.
    const d = tokenF1Details(output, references)
    return result(d.f1, threshold, undefined, undefined, d)
  },
}
