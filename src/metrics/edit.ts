/**
 * Levenshtein distance and similarity over Unicode code points.
 *
 * The distance itself comes from `fastest-levenshtein` (Myers' bit-parallel algorithm). That library
 * compares UTF-16 code units (`charCodeAt`), so an emoji such as 🚆 would count as two characters and
 * 👏🏽 vs 👏 would be distance 2 instead of 1. To get code-point semantics we re-encode both strings so
 * that every code point is exactly one UTF-16 unit before calling it; see {@link mappedDistance}.
 *
 * @module
 */
import { distance as unitDistance } from 'fastest-levenshtein'
import { assertString } from '../errors.js'
import { codePointLength } from './text.js'

/** Any surrogate code unit: the only case where code units and code points differ. */
const SURROGATE = /[\uD800-\uDFFF]/

/**
 * fastest-levenshtein indexes a `Uint32Array(0x10000)` by `charCodeAt`, so it can tell apart at most
 * 65,536 distinct unit values.
 */
const UNIT_ALPHABET = 0x10000

/** Code points of `s` as numbers (a lone surrogate is its own code point, as in Python). */
function codePointArray(s: string): number[] {
  const out: number[] = []
  for (const char of s) out.push(char.codePointAt(0) as number)
  return out
}

function unitsToString(units: readonly number[]): string {
  // String.fromCharCode(...units) would overflow the call stack on long texts; chunk it.
  const CHUNK = 8192
  // Stryker disable next-line StringLiteral: equivalent, both texts get the same start, which leaves their edit distance as it is
  let out = ''
  // Stryker disable next-line EqualityOperator: equivalent, a pass at i = length slices nothing
  for (let i = 0; i < units.length; i += CHUNK) out += String.fromCharCode(...units.slice(i, i + CHUNK))
  return out
}

/**
 * Plain two-row dynamic program over code points (unit costs). Used only when the two strings share
 * more distinct code points than fastest-levenshtein's alphabet can hold (see {@link mappedDistance}).
 */
function dpDistance(a: readonly number[], b: readonly number[]): number {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, the distance is symmetric (the swap keeps the rows short)
  if (a.length < b.length) [a, b] = [b, a]
  // Stryker disable next-line ConditionalExpression: equivalent when false, the table gives a.length for an empty b too
  if (b.length === 0) return a.length
  let previous = new Uint32Array(b.length + 1)
  let current = new Uint32Array(b.length + 1)
  // Stryker disable next-line EqualityOperator: equivalent, T[0][m] = 0 opens only paths of cost n >= m (a is the longer), never below the distance
  for (let j = 0; j <= b.length; j++) previous[j] = j
  for (let i = 1; i <= a.length; i++) {
    current[0] = i
    const ai = a[i - 1]
    for (let j = 1; j <= b.length; j++) {
      const substitute = (previous[j - 1] as number) + (ai === b[j - 1] ? 0 : 1)
      const remove = (previous[j] as number) + 1
      const insert = (current[j - 1] as number) + 1
      current[j] = Math.min(substitute, remove, insert)
    }
    ;[previous, current] = [current, previous]
  }
  return previous[b.length] as number
}

/**
 * Levenshtein distance over code points via fastest-levenshtein, after re-encoding each code point
 * as a single UTF-16 unit.
 *
 * The algorithm only ever compares a character of one string with a character of the *other* string.
 * So code points that occur in both strings need distinct units, while all code points that occur only
 * in `a` can share one unit (0), and all that occur only in `b` another (1): they never equal anything
 * on the other side, exactly as before. This needs `2 + shared` units, which fits fastest-levenshtein's
 * 65,536-value alphabet unless the two texts share more than 65,534 distinct code points (each text
 * would then be longer than 65,534 characters). Only in that case do we fall back to the quadratic
 * code-point DP, which gives the same distance without the alphabet limit.
 */
function mappedDistance(a: string, b: string, alphabetLimit: number): number {
  const pointsA = codePointArray(a)
  const pointsB = codePointArray(b)
  const inA = new Set(pointsA)
  const shared = new Map<number, number>()
  for (const point of pointsB) {
    if (inA.has(point) && !shared.has(point)) shared.set(point, 2 + shared.size)
  }
  // Both paths give the same distance below the real limit; at it (texts sharing 65,535 code points) the
  // DP is 4e9 cells, too slow for a test, so a mutant that skips it there cannot be caught in the suite:
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: same distance on both paths (see above)
  if (2 + shared.size > alphabetLimit) return dpDistance(pointsA, pointsB)
  const unitsA = pointsA.map((point) => shared.get(point) ?? 0)
  const unitsB = pointsB.map((point) => shared.get(point) ?? 1)
  return unitDistance(unitsToString(unitsA), unitsToString(unitsB))
}

function distanceWithAlphabetLimit(a: string, b: string, alphabetLimit: number): number {
  // Without surrogates every code unit is a code point: call fastest-levenshtein directly.
  // Stryker disable next-line ConditionalExpression: equivalent when false, the re-encoded texts give the same distance
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return unitDistance(a, b)
  return mappedDistance(a, b, alphabetLimit)
}

/**
 * The Levenshtein distance between two strings: the minimum number of single-code-point insertions,
 * deletions and substitutions (each costing 1). It works on the raw strings (no case folding,
 * trimming or Unicode normalisation), and counts Unicode code points, not UTF-16 units.
 *
 * @example
 * ```ts
 * levenshteinDistance('kitten', 'sitting') // 3
 * levenshteinDistance('👏🏽', '👏')          // 1 (a skin-tone modifier is one code point)
 * levenshteinDistance('NASA', 'nasa')       // 4
 * ```
 */
export function levenshteinDistance(a: string, b: string): number {
  assertString(a, 'first string', 'compute the Levenshtein distance')
  assertString(b, 'second string', 'compute the Levenshtein distance')
  return distanceWithAlphabetLimit(a, b, UNIT_ALPHABET)
}

/**
 * Edit similarity: `1 - levenshteinDistance / max(length)`, lengths in code points; 1 when both
 * strings are empty. In [0, 1], symmetric, 1 only for identical strings. (This is not
 * python-Levenshtein's `ratio()`, which uses another formula.)
 *
 * @param candidate - the model output.
 * @param reference - the expected text.
 *
 * @example
 * ```ts
 * editSimilarity('colour', 'color')  // 0.8333333333333334
 * editSimilarity('', '')             // 1
 * editSimilarity('NASA', 'nasa')     // 0
 * ```
 */
export function editSimilarity(candidate: string, reference: string): number {
  assertString(candidate, 'candidate', 'compute edit similarity')
  assertString(reference, 'reference', 'compute edit similarity')
  const longest = Math.max(codePointLength(candidate), codePointLength(reference))
  if (longest === 0) return 1
  const similarity = 1 - distanceWithAlphabetLimit(candidate, reference, UNIT_ALPHABET) / longest
  return Math.min(1, Math.max(0, similarity))
}

/**
 * Internals exposed for this package's own tests (to force the DP fallback with a tiny alphabet).
 * Not part of the public API; do not re-export.
 *
 * @internal
 */
export const __testing = { distanceWithAlphabetLimit, dpDistance, codePointArray }
