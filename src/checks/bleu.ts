/** The `bleu` check: sacrebleu sentence BLEU / 100 against the references. @module */
import { bleuDetails } from '../metrics/bleu.js'
import { hasReference, result } from './shared.js'
import type { CheckDefinition } from './types.js'

export const bleu: CheckDefinition = {
  name: 'bleu',
  defaultThreshold: null,
  optionKeys: ['threshold'],
  appliesTo: hasReference,
  run({ output, references }, { threshold }) {
    // The details (n-gram precisions, brevity penalty) are the matcher's message.
    const d = bleuDetails(output, references)
    return result(d.score, threshold, undefined, undefined, d)
  },
}
