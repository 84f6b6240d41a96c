/** The `keywords` check: the share of the case's keywords found in the output. @module */
import { findKeywords } from '../metrics/keywords.js'
import { quote, result } from './shared.js'
import type { CheckDefinition } from './types.js'

export const keywords: CheckDefinition = {
  name: 'keywords',
  defaultThreshold: 1,
  optionKeys: ['threshold'],
  appliesTo: (c) => c.keywords !== undefined && c.answerable !== false,
  calledFor: (c) => c.keywords !== undefined && c.answerable !== false,
  run({ output, c }, { threshold }) {
    const words = c.keywords ?? []
    const found = findKeywords(output, words)
    const detail = found.missing.length > 0 ? `missing ${found.missing.map((w) => quote(w, 30)).join(', ')}` : undefined
    return result(found.found.length / words.length, threshold, detail, undefined, found)
  },
}
