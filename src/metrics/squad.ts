/**
 * SQuAD v1.1 answer normalisation, exact match and token F1, reproducing the official evaluation
 * script (`normalize_answer`, `exact_match_score`, `f1_score`, `metric_max_over_ground_truths`)
 * character for character, including its Python-specific behaviour:
 *
 * - lower-casing is Python `str.lower()` (JavaScript `toLowerCase()` is the same full Unicode mapping,
 *   never the locale-dependent `toLocaleLowerCase()`);
 * - only the 32 ASCII characters of Python's `string.punctuation` are deleted (no space inserted), so
 *   `’`, `–` and `€` stay;
 * - the articles `a`, `an`, `the` are removed with Python 3's Unicode-aware `\b`, so the final `a` of
 *   `Montaña` stays (JavaScript's `\b` is ASCII-only even with the `u` flag);
 * - tokens are split on Python whitespace (`str.split()`), not JavaScript's `\s`.
 *
 * No library reproduces these semantics (JavaScript SQuAD ports use ASCII `\b` and `\s`), hence the
 * hand-written code.
 *
 * @module
 */
import { assertString, assertStringOrStrings } from '../errors.js'
import { isPyWhitespaceUnit, pySplit } from './text.js'

/**
 * Python 3's `\b(a|an|the)\b` on a `str`: a word character is a Unicode letter, a Unicode number or
 * `_` (combining marks, U+200B and U+FEFF are not).
 */
const ARTICLES = /(?<![\p{L}\p{N}_])(a|an|the)(?![\p{L}\p{N}_])/gu

/** Per ASCII code: 1 = `string.punctuation` (deleted), 2 = Python whitespace, 3 = `a-z0-9`, 0 = other. */
const ASCII_CLASS = new Uint8Array(128)
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c)
  if (/[!-\/:-@\[-`{-~]/.test(ch)) ASCII_CLASS[c] = 1
  else if (isPyWhitespaceUnit(c)) ASCII_CLASS[c] = 2
  else if (/[a-z0-9]/.test(ch)) ASCII_CLASS[c] = 3
}

/** Adds one whitespace-separated piece (punctuation already deleted) to `out`, without its articles. */
function pushPiece(piece: string, simple: boolean, out: string[]): void {
  // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent when skipped, the article pattern below gives an a-z0-9 piece the same tokens
  if (simple) {
    // Only a-z0-9: an article can only be the whole piece.
    if (piece !== 'a' && piece !== 'an' && piece !== 'the') out.push(piece)
    return
  }
  // Whitespace is never a word character, so the article pattern gives the same result on each
  // piece as on the whole text.
  for (const token of pySplit(piece.replace(ARTICLES, ' '))) out.push(token)
}

/**
 * `normalize_answer(text).split()`: lower-case, delete the 32 ASCII punctuation characters, remove the
 * articles, split on Python whitespace. One scan over the lower-cased text instead of three regex
 * passes over all of it (the article pattern, with its Unicode lookarounds, is the slow one): the
 * pieces between whitespace are cut out directly, and only pieces with characters other than
 * `a-z0-9` go through the article pattern. Same tokens as the regex chain (see the property tests).
 */
function squadTokenize(text: string): string[] {
  const lower = text.toLowerCase()
  const out: string[] = []
  let joined = '' // the piece so far, when punctuation cut it
  let start = -1 // start of the current run of kept characters, -1 outside one
  // Stryker disable next-line BooleanLiteral: equivalent, a piece not marked simple takes the article pattern, which gives the same tokens
  let simple = true
  const n = lower.length
  for (let i = 0; i <= n; i++) {
    const unit = i < n ? lower.charCodeAt(i) : 0x20
    const kind = unit < 128 ? (ASCII_CLASS[unit] as number) : isPyWhitespaceUnit(unit) ? 2 : 0
    if (kind === 1) {
      // Stryker disable next-line ConditionalExpression: equivalent when true, slice(-1, i) is '' for every i before the last unit
      if (start >= 0) joined += lower.slice(start, i)
      start = -1
    } else if (kind === 2) {
      const piece = start >= 0 ? joined + lower.slice(start, i) : joined
      if (piece.length > 0) pushPiece(piece, simple, out)
      joined = ''
      start = -1
      // Stryker disable next-line BooleanLiteral: equivalent, a piece not marked simple takes the article pattern, which gives the same tokens
      simple = true
    } else {
      if (start < 0) start = i
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, simple only picks a path (kept by !== 0: no ASCII letter, no article)
      if (kind === 0) simple = false
    }
  }
  return out
}

/**
 * SQuAD v1.1 `normalize_answer`: lower-case, delete ASCII punctuation, replace the whole words `a`,
 * `an`, `the` with a space, and collapse Python whitespace to single spaces (trimmed).
 *
 * @example
 * ```ts
 * normalizeAnswer('The Eiffel Tower!')  // 'eiffel tower'
 * normalizeAnswer("Don't sign-in")      // 'dont signin'
 * normalizeAnswer('Montaña')            // 'montaña' (Unicode word boundary: the final a is kept)
 * ```
 */
export function normalizeAnswer(text: string): string {
  assertString(text, 'text', 'normalize the answer')
  return squadTokenize(text).join(' ')
}

/**
 * The SQuAD tokens of `text`: `normalizeAnswer(text).split()`. Useful to show which tokens of an answer
 * are missing or extra.
 *
 * @example
 * ```ts
 * squadTokens('The red, red Planet') // ['red', 'red', 'planet']
 * squadTokens('the')                 // []
 * ```
 */
export function squadTokens(text: string): string[] {
  assertString(text, 'text', 'tokenize the answer')
  return squadTokenize(text)
}

/**
 * SQuAD v1.1 exact match: 1 when the normalised candidate equals the normalised reference, else 0.
 * With several acceptable references, 1 when any of them matches.
 *
 * Two texts that both normalise to nothing (`''`, `'?!'`, `'The'`) match, as in the official script.
 *
 * @param candidate - the model output.
 * @param reference - the gold answer, or a non-empty array of acceptable answers.
 *
 * @example
 * ```ts
 * exactMatch('the Eiffel tower.', 'Eiffel Tower') // 1
 * exactMatch('Paris, France', ['Paris', 'Paris, France']) // 1
 * exactMatch('Don’t', "Don't") // 0 (the typographic apostrophe is not ASCII punctuation)
 * ```
 */
export function exactMatch(candidate: string, reference: string | readonly string[]): 0 | 1 {
  assertString(candidate, 'candidate', 'compute exact match')
  assertStringOrStrings(reference, 'reference', 'compute exact match')
  const normalized = normalizeAnswer(candidate)
  const references = typeof reference === 'string' ? [reference] : reference
  for (const ref of references) {
    if (normalizeAnswer(ref) === normalized) return 1
  }
  return 0
}

/** The result of {@link tokenF1Details}: the SQuAD F1 against the best-scoring reference, and why. */
export interface TokenF1Details {
  /** Token F1 in [0, 1], the maximum over the references. */
  f1: number
  /** Common tokens / candidate tokens against the best reference (0 when nothing is common). */
  precision: number
  /** Common tokens / reference tokens against the best reference (0 when nothing is common). */
  recall: number
  /** The reference that gave the highest F1 (the first one on ties). */
  bestReference: string
  /** Index of `bestReference` in the references (0 for a single reference string). */
  bestReferenceIndex: number
  /** SQuAD tokens of the candidate. */
  candidateTokens: string[]
  /** SQuAD tokens of the best reference. */
  referenceTokens: string[]
  /** The multiset intersection of the two token lists, in candidate order. */
  common: string[]
  /** Reference tokens that the candidate lacks (multiset difference, in reference order). */
  missing: string[]
  /** Candidate tokens that the reference lacks (multiset difference, in candidate order). */
  extra: string[]
}

interface F1Parts {
  f1: number
  precision: number
  recall: number
  numSame: number
}

function countTokens(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1)
  return counts
}

/** SQuAD `f1_score` on token lists, with the script's exact arithmetic (so the doubles agree). */
function f1Parts(candidateTokens: readonly string[], referenceTokens: readonly string[]): F1Parts {
  const referenceCounts = countTokens(referenceTokens)
  let numSame = 0
  for (const token of candidateTokens) {
    const left = referenceCounts.get(token) ?? 0
    if (left > 0) {
      numSame++
      referenceCounts.set(token, left - 1)
    }
  }
  if (numSame === 0) return { f1: 0, precision: 0, recall: 0, numSame }
  const precision = numSame / candidateTokens.length
  const recall = numSame / referenceTokens.length
  return { f1: (2 * precision * recall) / (precision + recall), precision, recall, numSame }
}

/** Multiset difference `a - b`, keeping `a`'s order. */
function multisetMinus(a: readonly string[], b: readonly string[]): string[] {
  const budget = countTokens(b)
  const out: string[] = []
  for (const token of a) {
    const left = budget.get(token) ?? 0
    if (left > 0) budget.set(token, left - 1)
    else out.push(token)
  }
  return out
}

/**
 * SQuAD v1.1 token F1: the F1 of the bags of normalised tokens. 0 when no token is common, which
 * includes two texts that both normalise to nothing. With several acceptable references, the maximum.
 *
 * The result is in [0, 1] and symmetric for a single reference.
 *
 * @param candidate - the model output.
 * @param reference - the gold answer, or a non-empty array of acceptable answers.
 *
 * @example
 * ```ts
 * tokenF1('the capital is Paris', 'Paris')        // 0.5 (precision 1/3, recall 1)
 * tokenF1('sign-in', 'sign in')                   // 0 ('signin' vs 'sign', 'in')
 * tokenF1('Paris', ['London', 'Paris, France'])   // 0.6666666666666666
 * ```
 */
export function tokenF1(candidate: string, reference: string | readonly string[]): number {
  assertString(candidate, 'candidate', 'compute token F1')
  assertStringOrStrings(reference, 'reference', 'compute token F1')
  const candidateTokens = squadTokens(candidate)
  if (typeof reference === 'string') return f1Parts(candidateTokens, squadTokens(reference)).f1
  let best = 0
  for (const ref of reference) {
    best = Math.max(best, f1Parts(candidateTokens, squadTokens(ref)).f1)
  }
  return best
}

/**
 * {@link tokenF1} with the explanation a failure message needs: precision, recall, the best reference,
 * both token lists and the common, missing and extra tokens.
 *
 * @example
 * ```ts
 * const d = tokenF1Details('It was built in 1889 by Eiffel', ['1889', 'in 1889'])
 * d.f1            // 0.4444444444444445
 * d.bestReference // 'in 1889'
 * d.extra         // ['it', 'was', 'built', 'by', 'eiffel']
 * ```
 */
export function tokenF1Details(candidate: string, reference: string | readonly string[]): TokenF1Details {
  assertString(candidate, 'candidate', 'compute token F1')
  assertStringOrStrings(reference, 'reference', 'compute token F1')
  const references = typeof reference === 'string' ? [reference] : reference
  const candidateTokens = squadTokens(candidate)
  let bestIndex = 0
  // Stryker disable next-line ArrayDeclaration: equivalent, the first reference always replaces it (references is non-empty)
  let bestTokens: string[] = []
  let best: F1Parts | undefined
  references.forEach((ref, index) => {
    const tokens = squadTokens(ref)
    const parts = f1Parts(candidateTokens, tokens)
    if (best === undefined || parts.f1 > best.f1) {
      best = parts
      bestIndex = index
      bestTokens = tokens
    }
  })
  // `references` is non-empty (asserted above), so `best` is set.
  const { f1, precision, recall } = best as F1Parts
  const extra = multisetMinus(candidateTokens, bestTokens)
  return {
    f1,
    precision,
    recall,
    bestReference: references[bestIndex] as string,
    bestReferenceIndex: bestIndex,
    candidateTokens,
    referenceTokens: bestTokens,
    common: multisetMinus(candidateTokens, extra),
    missing: multisetMinus(bestTokens, candidateTokens),
    extra,
  }
}
