/**
 * The `keywords` check: the share of the case's keywords found in the output (whole words, any case);
 * with `mode: 'any'`, 1 when at least one is found, else 0.
 *
 * @module
 */
import { findKeywords, type KeywordsResult } from '../metrics/keywords.js'
import { checkChoice, quote, result } from './shared.js'
import type { CheckDefinition } from './types.js'

export const keywords: CheckDefinition = {
  name: 'keywords',
  defaultThreshold: 1,
  optionKeys: ['threshold', 'mode'],
  resolve({ threshold, options }, _raw, how) {
    checkChoice(how, 'mode', options.mode, ['all', 'any'])
    return threshold
  },
  appliesTo: (c) => c.keywords !== undefined && c.answerable !== false,
  calledFor: (c) => c.keywords !== undefined && c.answerable !== false,
  run({ output, c }, { threshold, options }) {
    const words = c.keywords ?? []
    const found: KeywordsResult = findKeywords(output, words)
    if (options.mode === 'any') {
      const detail = found.found.length === 0 ? `none of ${found.missing.map((w) => quote(w, 30)).join(', ')}` : undefined
      return result(found.found.length > 0 ? 1 : 0, threshold, detail, undefined, found)
    }
    const detail = found.missing.length > 0 ? `missing ${found.missing.map((w) => quote(w, 30)).join(', ')}` : undefined
    // Over the distinct keywords (findKeywords reports a repeated keyword once).
    return result(found.found.length / (found.found.length + found.missing.length), threshold, detail, undefined, found)
  },
}
