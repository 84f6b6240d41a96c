/**
 * Python string semantics that the reference metric implementations rely on, where JavaScript differs.
 *
 * The reference implementations (SQuAD's evaluate script, sacrebleu, rouge-score) are Python, and
 * Python's idea of whitespace is not JavaScript's: `str.split()` splits on U+001C–U+001F and U+0085,
 * which `\s` does not match, while `\s` matches U+FEFF, which Python keeps as a character. These
 * helpers reproduce Python exactly so that scores agree with the Python tools to the last token.
 *
 * @module
 */

/**
 * The characters Python's `str.split()` / `str.strip()` treat as whitespace (`str.isspace()`), all in
 * the Basic Multilingual Plane: U+0009–U+000D, U+001C–U+001F, U+0020, U+0085, U+00A0, U+1680,
 * U+2000–U+200A, U+2028, U+2029, U+202F, U+205F and U+3000. U+200B (zero-width space) and U+FEFF
 * are not in the set.
 */
const PY_WHITESPACE_CLASS = '\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'

/** One or more Python whitespace characters. Splitting on a single character-class run is linear. */
const PY_WHITESPACE_RUN = new RegExp(`[${PY_WHITESPACE_CLASS}]+`, 'u')

/** Whether a UTF-16 code unit is Python whitespace. Every Python whitespace character is one unit. */
export function isPyWhitespaceUnit(unit: number): boolean {
  if (unit <= 0x20) return (unit >= 0x09 && unit <= 0x0d) || unit >= 0x1c
  // Stryker disable next-line ConditionalExpression: equivalent when false, units below 0x85 fail every later check too
  if (unit < 0x85) return false
  if (unit === 0x85 || unit === 0xa0 || unit === 0x1680) return true
  if (unit < 0x2000) return false
  return unit <= 0x200a || unit === 0x2028 || unit === 0x2029 || unit === 0x202f || unit === 0x205f || unit === 0x3000
}

/**
 * Whether `char` (one character) is whitespace for Python's `str.split()`.
 *
 * @example
 * ```ts
 * isPyWhitespace('\u0085') // true  (JavaScript's \s says false)
 * isPyWhitespace('\uFEFF') // false (JavaScript's \s says true)
 * ```
 */
export function isPyWhitespace(char: string): boolean {
  return char.length === 1 && isPyWhitespaceUnit(char.charCodeAt(0))
}

/**
 * Python's `str.split()` with no argument: splits on runs of Python whitespace and drops the empty
 * strings at the ends, so `pySplit('')` and `pySplit('  ')` are `[]`.
 *
 * @example
 * ```ts
 * pySplit('  a\u0085b\tc ') // ['a', 'b', 'c']
 * pySplit('a\uFEFFb')       // ['a\uFEFFb'] (U+FEFF is not whitespace in Python)
 * pySplit('')               // [] (JavaScript's ''.split(' ') is [''])
 * ```
 */
export function pySplit(s: string): string[] {
  const parts = s.split(PY_WHITESPACE_RUN)
  // Only the first and the last piece can be empty (a leading or trailing whitespace run).
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent for the length test, the last element of an empty array is undefined, not ''
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop()
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent for the length test, the first element of an empty array is undefined, not ''
  if (parts.length > 0 && parts[0] === '') parts.shift()
  return parts
}

/**
 * Python's `str.rstrip()` with no argument: removes trailing Python whitespace.
 *
 * Written as a backwards scan rather than `/\s+$/`, which backtracks quadratically on text with many
 * whitespace runs that are not at the end.
 *
 * @example
 * ```ts
 * pyRstrip('Done.\u0085 \n') // 'Done.'
 * pyRstrip('Done.\uFEFF')    // 'Done.\uFEFF'
 * ```
 */
export function pyRstrip(s: string): string {
  let end = s.length
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent for the end test, charCodeAt(-1) is NaN, not whitespace
  while (end > 0 && isPyWhitespaceUnit(s.charCodeAt(end - 1))) end--
  // Stryker disable next-line ConditionalExpression: equivalent when false, slice(0, length) is the same string
  return end === s.length ? s : s.slice(0, end)
}

/**
 * The Unicode code points of `s`, each as a string (what Python iterates over and counts with `len`).
 * A lone surrogate counts as one code point, as in Python.
 *
 * @example
 * ```ts
 * codePoints('a🚆')        // ['a', '🚆'] ('a🚆'.length is 3)
 * codePoints('👏🏽').length // 2 (hand + skin-tone modifier)
 * ```
 */
export function codePoints(s: string): string[] {
  return Array.from(s)
}

/**
 * The number of Unicode code points in `s` (Python's `len(s)`), without allocating an array.
 *
 * @example
 * ```ts
 * codePointLength('🚆 ok') // 4
 * ```
 */
export function codePointLength(s: string): number {
  let n = s.length
  // Stryker disable next-line EqualityOperator,ArithmeticOperator: equivalent, past the last unit charCodeAt is NaN, never a low surrogate
  for (let i = 0; i < s.length - 1; i++) {
    const unit = s.charCodeAt(i)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = s.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--
        i++
      }
    }
  }
  return n
}
