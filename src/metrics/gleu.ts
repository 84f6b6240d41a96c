/**
 * GLEU (Google-BLEU, Wu et al. 2016) as computed by NLTK 3.8 (`nltk.translate.gleu_score.sentence_gleu`
 * and `corpus_gleu`): the minimum of n-gram precision and recall over all n-grams of orders
 * `min_len..max_len`, which is symmetric and needs no smoothing. A port of NLTK's two functions; texts
 * are split on whitespace (Python's `str.split()`), as NLTK takes token lists.
 *
 * @module
 */
import { assertString, assertStringOrStrings, describeValue, isWholeNumber } from '../errors.js'
import { assertCorpus } from './bleu.js'
import { optionError, readOptionObject } from './options.js'
import { pySplit } from './text.js'

/** Options of the GLEU functions, named after NLTK's arguments (camel-cased). */
export interface GleuOptions {
  /** NLTK `min_len`: the smallest n-gram order. Default 1. */
  minLen?: number
  /** NLTK `max_len`: the largest n-gram order. Default 4. */
  maxLen?: number
}

function readOrders(options: unknown, action: string): { minLen: number; maxLen: number } {
  const example = 'Pass e.g. { minLen: 1, maxLen: 4 } (the defaults).'
  const o = readOptionObject(options, ['minLen', 'maxLen'], action, example)
  const read = (key: 'minLen' | 'maxLen', fallback: number) => {
    const v = o[key] ?? fallback
    if (!isWholeNumber(v) || v < 1) throw optionError(action, `options.${key} must be a whole number >= 1, got ${describeValue(v)}`, example)
    return v
  }
  return { minLen: read('minLen', 1), maxLen: read('maxLen', 4) }
}

/** `Counter(everygrams(tokens, min_len, max_len))`, keys joined by a space (tokens hold none). */
function everygrams(tokens: readonly string[], minLen: number, maxLen: number): Map<string, number> {
  const counts = new Map<string, number>()
  // Stryker disable next-line EqualityOperator: equivalent, at i = tokens.length no n-gram fits
  for (let i = 0; i < tokens.length; i++) {
    // Stryker disable next-line StringLiteral: equivalent, the key is set at n = 1 before it is read
    let key = ''
    for (let n = 1; n <= maxLen && i + n <= tokens.length; n++) {
      // Stryker disable next-line ConditionalExpression: equivalent when false, every key gets the same leading space in candidate and references
      key = n === 1 ? (tokens[i] as string) : `${key} ${tokens[i + n - 1] as string}`
      if (n >= minLen) counts.set(key, (counts.get(key) ?? 0) + 1)
    }
  }
  return counts
}

const total = (counts: Map<string, number>): number => {
  let s = 0
  for (const c of counts.values()) s += c
  return s
}

/** One segment: (matches, max(candidate n-grams, reference n-grams)) of the best reference, or undefined. */
function segment(candidate: string, references: readonly string[], minLen: number, maxLen: number): [number, number] | undefined {
  const hyp = everygrams(pySplit(candidate), minLen, maxLen)
  const tpfp = total(hyp)
  let best: [number, number] | undefined
  for (const reference of references) {
    const ref = everygrams(pySplit(reference), minLen, maxLen)
    let tp = 0
    for (const [gram, count] of ref) {
      const h = hyp.get(gram)
      if (h !== undefined) tp += Math.min(count, h)
    }
    const nAll = Math.max(tpfp, total(ref))
    // NLTK: max(hyp_counts, key=tp / n_all), the first on ties; references without n-grams are skipped.
    if (nAll > 0 && (best === undefined || tp / nAll > best[0] / best[1])) best = [tp, nAll]
  }
  return best
}

/**
 * Sentence GLEU, identical to NLTK 3.8 `sentence_gleu([r.split() for r in references],
 * candidate.split(), min_len, max_len)`: matching n-grams (orders 1 to 4 by default) over the larger of
 * the candidate's and the reference's n-gram counts, against the best reference. In [0, 1].
 *
 * @example
 * ```ts
 * gleu('the cat sat on the mat', 'the cat sat on the mat') // 1
 * gleu('the the the the the the the', 'the cat is on the mat') // ≈ 0.0909
 * ```
 */
export function gleu(candidate: string, reference: string | readonly string[], options?: GleuOptions): number {
  assertString(candidate, 'candidate', 'compute GLEU')
  assertStringOrStrings(reference, 'reference', 'compute GLEU')
  const { minLen, maxLen } = readOrders(options, 'compute GLEU')
  const s = segment(candidate, typeof reference === 'string' ? [reference] : reference, minLen, maxLen)
  return s === undefined ? 0 : s[0] / s[1]
}

/**
 * Corpus GLEU, identical to NLTK 3.8 `corpus_gleu`: the matches and n-gram counts of every segment are
 * summed first (longer segments weigh more). `references[i]` belongs to `candidates[i]`.
 *
 * @example
 * ```ts
 * corpusGleu(['the cat sat', 'a dog'], ['the cat sat', ['a dog', 'the dog']]) // 1
 * ```
 */
export function corpusGleu(candidates: readonly string[], references: ReadonlyArray<string | readonly string[]>, options?: GleuOptions): number {
  const action = 'compute corpus GLEU'
  assertCorpus(candidates, references, action)
  const { minLen, maxLen } = readOrders(options, action)
  let matches = 0
  let all = 0
  candidates.forEach((candidate, i) => {
    const ref = references[i] as string | readonly string[]
    const s = segment(candidate, typeof ref === 'string' ? [ref] : ref, minLen, maxLen)
    if (s !== undefined) {
      matches += s[0]
      all += s[1]
    }
  })
  return all === 0 ? 0 : matches / all
}
