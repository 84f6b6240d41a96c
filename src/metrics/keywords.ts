import { describeValue, formatMessage, assertString } from '../errors.js'

/** Which keywords of a list occur in a text. */
export interface KeywordsResult {
  /** The keywords that occur, in the order they were given. */
  found: string[]
  /** The keywords that do not occur, in the order they were given. */
  missing: string[]
}

// A "word character" for the boundaries: letters, combining marks, digits and "_" of every script. Marks are
// included (unlike Python's `\w`) so that a keyword never matches the first letters of a word that goes on
// with a combining mark ("हिन" is not found in "हिन्दी", "cafe" is not found in "cafe\u0301").
const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u

/**
 * Builds the pattern of one keyword: regex metacharacters escaped, any run of whitespace inside the keyword
 * matching any run of whitespace in the text, and a word boundary on each side whose keyword character is a
 * word character (so `"C++"` needs a boundary before the `C` only, and `"$7.80"` after the `0` only).
 */
function keywordPattern(keyword: string): RegExp {
  const trimmed = keyword.normalize('NFC').trim()
  // Only syntax characters and "/" may be escaped in a `u`-flag pattern (escaping "-" would be a SyntaxError).
  const body = trimmed
    .split(/\s+/u)
    .map((part) => part.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'))
    .join('\\s+')
  const chars = Array.from(trimmed)
  // Stryker disable next-line StringLiteral: equivalent, a blank keyword is refused before, so chars is never empty
  const before = WORD_CHAR.test(chars[0] ?? '') ? '(?<![\\p{L}\\p{M}\\p{N}_])' : ''
  // Stryker disable next-line StringLiteral: equivalent, a blank keyword is refused before, so chars is never empty
  const after = WORD_CHAR.test(chars[chars.length - 1] ?? '') ? '(?![\\p{L}\\p{M}\\p{N}_])' : ''
  return new RegExp(`${before}${body}${after}`, 'iu')
}

/**
 * Finds which `words` occur in `text` as whole words, ignoring case. A multi-word keyword matches across any
 * run of whitespace (`"New York"` is found in `"New\n  York"`), regex metacharacters are taken literally
 * (`"C++"`, `"$7.80"`, `"node.js"`), and both texts are compared in Unicode NFC. Word boundaries are
 * Unicode-aware: `"art"` is not found in `"party"`, and `"Zürich"` is found in `"(Zürich)"`.
 *
 * Exact duplicates in `words` are reported once.
 *
 * @throws TypeError if `text` is not a string or `words` is not an array of strings.
 * @throws RangeError if a keyword is empty or only whitespace (it would be "found" in any text).
 *
 * @example
 * ```ts
 * findKeywords('Written in C++ for $7.80 a month.', ['c++', '$7.80', 'Rust'])
 * // { found: ['c++', '$7.80'], missing: ['Rust'] }
 * ```
 */
export function findKeywords(text: string, words: readonly string[]): KeywordsResult {
  assertString(text, 'text', 'find keywords')
  if (!Array.isArray(words)) {
    throw new TypeError(
      formatMessage(
        `Failed to find keywords: the keywords must be an array of strings, got ${describeValue(words)}. ` +
          `Pass them as an array, e.g. ['Paris', 'Eiffel Tower'].`,
      ),
    )
  }
  const haystack = text.normalize('NFC')
  const found: string[] = []
  const missing: string[] = []
  const seen = new Set<string>()
  for (const word of words) {
    if (typeof word !== 'string') {
      throw new TypeError(formatMessage(`Failed to find keywords: every keyword must be a string, got ${describeValue(word)}. Pass the keywords as strings.`))
    }
    if (word.trim() === '') {
      throw new RangeError(
        formatMessage(
          `Failed to find keywords: the keyword ${JSON.stringify(word)} is empty, so it would be found in any text. Remove it, or give the word you mean.`,
        ),
      )
    }
    if (seen.has(word)) continue
    seen.add(word)
    ;(keywordPattern(word).test(haystack) ? found : missing).push(word)
  }
  return { found, missing }
}
