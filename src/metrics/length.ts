import { assertString } from '../errors.js'
import { codePointLength, pySplit } from './text.js'

/** The length of a text in words and characters. */
export interface TextLength {
  /** Whitespace-separated words, as Python's `len(text.split())` counts them. */
  words: number
  /** Unicode code points, as Python's `len(text)` counts them (an emoji is 1, not 2 UTF-16 units). */
  chars: number
}

/**
 * Measures a text: words as Python's `str.split()` separates them (runs of Unicode whitespace; punctuation
 * stays attached, so `"Yes, sir."` is 2 words), characters as Unicode code points.
 *
 * @example
 * ```ts
 * measureLength('Yes, sir.')   // { words: 2, chars: 9 }
 * measureLength('  ')          // { words: 0, chars: 2 }
 * measureLength('Ship it 🚢')  // { words: 3, chars: 9 }
 * ```
 */
export function measureLength(text: string): TextLength {
  assertString(text, 'text', 'measure the length')
  return { words: pySplit(text).length, chars: codePointLength(text) }
}
