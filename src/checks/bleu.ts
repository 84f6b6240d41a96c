/** The `bleu` check: sacrebleu sentence BLEU / 100 against the references. @module */
import { bleu as sentenceBleu } from '../metrics/bleu.js'
import { hasReference, result } from './shared.js'
import type { CheckDefinition } from './types.js'

export const bleu: CheckDefinition = {
  name: 'bleu',
  defaultThreshold: null,
  optionKeys: ['threshold'],
  appliesTo: hasReference,
  run: ({ output, references }, { threshold }) => result(sentenceBleu(output, references), threshold),
}
