/**
 * The `rougeL`, `rouge1` and `rouge2` checks (rouge-score's `score_multi` over the references), and the
 * ROUGE-N check of any n that `toHaveRougeNAbove` runs.
 *
 * @module
 */
import { rougeMulti, rougeN, type RougeScore, type RougeTokenizer, type RougeType } from '../metrics/rouge.js'
import { checkBoolean, checkChoice, hasReference, result } from './shared.js'
import type { CheckDefinition } from './types.js'

/** What a ROUGE check keeps as `data`: the scores of the reference with the best F-measure, and its index. */
export interface RougeData extends RougeScore {
  referenceIndex: number
}

const MEASURES = ['f', 'precision', 'recall'] as const
const TOKENIZERS = ['unicode', 'rouge-score'] as const

function rougeCheck(name: string, n: number | 'L'): CheckDefinition {
  return {
    name,
    defaultThreshold: null,
    optionKeys: ['threshold', ...(n === 'L' ? ['variant'] : []), 'measure', 'stemmer', 'tokenizer'],
    resolve({ threshold, options }, _raw, how) {
      if (n === 'L') checkChoice(how, 'variant', options.variant, ['rougeL', 'rougeLsum'])
      checkChoice(how, 'measure', options.measure, MEASURES)
      checkChoice(how, 'tokenizer', options.tokenizer, TOKENIZERS)
      checkBoolean(how, 'stemmer', options.stemmer)
      return threshold
    },
    appliesTo: hasReference,
    run({ output, references }, { threshold, options }) {
      const measure = (options.measure as (typeof MEASURES)[number] | undefined) ?? 'f'
      const settings = { stemmer: options.stemmer === true, tokenizer: (options.tokenizer as RougeTokenizer | undefined) ?? 'unicode' }
      let best: RougeData
      if (n === 1 || n === 2 || n === 'L') {
        // Several references (expected + acceptable): rouge-score's score_multi, so the reference with the
        // best F-measure gives every measure (precision and recall of one reference, not the best of each).
        const type: RougeType = n === 'L' ? ((options.variant as RougeType | undefined) ?? 'rougeL') : n === 1 ? 'rouge1' : 'rouge2'
        best = rougeMulti(output, references, { types: [type], ...settings })[type] as RougeData
      } else {
        // rouge-score has no ROUGE-N past 2: the same rule (the best F-measure, the first on ties) by hand.
        best = { precision: 0, recall: 0, f: -1, referenceIndex: 0 }
        references.forEach((ref, i) => {
          const s = rougeN(output, ref, n, settings)
          if (s.f > best.f) best = { ...s, referenceIndex: i }
        })
      }
      return result(best[measure], threshold, undefined, undefined, best)
    },
  }
}

export const rougeL = rougeCheck('rougeL', 'L')
export const rouge1 = rougeCheck('rouge1', 1)
export const rouge2 = rougeCheck('rouge2', 2)

/** The ROUGE-N check of `n` (`rouge1` and `rouge2` for 1 and 2). */
export function rougeNCheck(n: number): CheckDefinition {
  return n === 1 ? rouge1 : n === 2 ? rouge2 : rougeCheck(`rouge${n}`, n)
}
