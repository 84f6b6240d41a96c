/** The `rougeL`, `rouge1` and `rouge2` checks (rouge-score's `score_multi` over the references). @module */
import { rougeMulti, type RougeTokenizer, type RougeType } from '../metrics/rouge.js'
import { hasReference, result } from './shared.js'
import type { CheckDefinition } from './types.js'

function rougeCheck(type: RougeType & ('rougeL' | 'rouge1' | 'rouge2')): CheckDefinition {
  return {
    name: type,
    defaultThreshold: null,
    optionKeys: ['threshold', 'stemmer', 'tokenizer', 'measure'],
    appliesTo: hasReference,
    run({ output, references }, { threshold, options }) {
      // Several references (expected + acceptable): rouge-score's score_multi, so the reference with the
      // best F-measure gives every measure (precision and recall of one reference, not the best of each).
      const measure = (options.measure as 'f' | 'precision' | 'recall' | undefined) ?? 'f'
      const tokenizer = options.tokenizer ? { tokenizer: options.tokenizer as RougeTokenizer } : {}
      const best = rougeMulti(output, references, { types: [type], stemmer: options.stemmer === true, ...tokenizer })[type]
      return result(best?.[measure] ?? 0, threshold, undefined, undefined, best)
    },
  }
}

export const rougeL = rougeCheck('rougeL')
export const rouge1 = rougeCheck('rouge1')
export const rouge2 = rougeCheck('rouge2')
