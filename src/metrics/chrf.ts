/**
 * chrF and chrF++ as computed by sacrebleu 2.6.0 (`CHRF`, `sentence_chrf`, `corpus_chrf`): character
 * n-gram F-score (Popović 2015), plus word n-grams for chrF++ (Popović 2017), with every option of
 * sacrebleu's `CHRF`: `char_order`, `word_order`, `beta`, `lowercase`, `whitespace` and
 * `eps_smoothing`. Scores are sacrebleu's score divided by 100.
 *
 * A port of sacrebleu's `CHRF` (`_remove_punctuation`, `_get_match_statistics`, `_compute_f_score`,
 * `_compute_segment_statistics`) and its n-gram helpers: the npm chrF packages differ from sacrebleu
 * (whitespace, punctuation splitting, effective order, multi-reference selection), and the reference
 * vectors in `fixtures/reference/extended/` require sacrebleu's values to 1e-9. Characters are Unicode
 * code points, as in Python.
 *
 * @module
 */
import { assertString, assertStringOrStrings, describeValue, isFiniteNumber, isWholeNumber } from '../errors.js'
import { assertCorpus } from './bleu.js'
import { optionError, readOptionObject } from './options.js'
import { isPyWhitespaceUnit, pySplit } from './text.js'

/** Options of the chrF functions, named after sacrebleu's `CHRF(...)` arguments (camel-cased). */
export interface ChrFOptions {
  /** sacrebleu `char_order`: character n-gram orders 1..charOrder. Default 6. */
  charOrder?: number
  /** sacrebleu `word_order`: word n-gram orders 1..wordOrder; 2 gives chrF++. Default 0 (chrF). */
  wordOrder?: number
  /** sacrebleu `beta`: recall is `beta` times as important as precision. Default 2. */
  beta?: number
  /** sacrebleu `lowercase`: Python `str.lower()` first. Default `false`. */
  lowercase?: boolean
  /** sacrebleu `whitespace`: keep whitespace inside character n-grams. Default `false` (removed). */
  whitespace?: boolean
  /**
   * sacrebleu `eps_smoothing`: average the per-order F-scores with epsilon smoothing, as chrF++.py,
   * NLTK and Moses do. Default `false`: sacrebleu's effective-order averaging of precision and recall.
   */
  epsSmoothing?: boolean
}

/** chrF with its statistics (sacrebleu's `CHRFScore` and segment statistics). */
export interface ChrFDetails {
  /** chrF in [0, 1] (sacrebleu's score / 100). */
  score: number
  /** `chrF2`, `chrF2++`, ... (sacrebleu's metric name). */
  name: string
  /**
   * Per n-gram order (character orders 1..charOrder, then word orders 1..wordOrder): candidate
   * n-grams, reference n-grams and matches, of the best reference (summed over a corpus).
   */
  statistics: Array<{ kind: 'char' | 'word'; n: number; candidate: number; reference: number; matches: number }>
  /** Index of the reference whose statistics were used (0 for one reference; -1 for a corpus). */
  bestReferenceIndex: number
}

interface Settings {
  charOrder: number
  wordOrder: number
  beta: number
  lowercase: boolean
  whitespace: boolean
  epsSmoothing: boolean
}

const OPTION_KEYS = ['charOrder', 'wordOrder', 'beta', 'lowercase', 'whitespace', 'epsSmoothing']

function readSettings(options: unknown, action: string): Settings {
  const o = readOptionObject(options, OPTION_KEYS, action, 'Pass e.g. { wordOrder: 2 } for chrF++.')
  const order = (key: 'charOrder' | 'wordOrder', fallback: number, min: number): number => {
    const v = o[key] ?? fallback
    if (!isWholeNumber(v) || v < min || v > 100) {
      throw optionError(action, `options.${key} must be a whole number from ${min} to 100, got ${describeValue(v)}`, `Pass e.g. ${fallback} (the default).`)
    }
    return v
  }
  const charOrder = order('charOrder', 6, 0)
  const wordOrder = order('wordOrder', 0, 0)
  if (charOrder + wordOrder === 0) {
    throw optionError(action, 'charOrder and wordOrder are both 0, so there is nothing to compare', 'Pass charOrder: 6 (the default).')
  }
  const beta = o.beta ?? 2
  if (!isFiniteNumber(beta) || beta < 0) {
    throw optionError(action, `options.beta must be a finite number >= 0, got ${describeValue(beta)}`, 'Pass e.g. 2 (the default).')
  }
  for (const key of ['lowercase', 'whitespace', 'epsSmoothing'] as const) {
    if (o[key] !== undefined && typeof o[key] !== 'boolean') {
      throw optionError(action, `options.${key} must be a boolean, got ${describeValue(o[key])}`, 'Pass true or false.')
    }
  }
  return {
    charOrder,
    wordOrder,
    beta,
    lowercase: (o.lowercase as boolean | undefined) ?? false,
    whitespace: (o.whitespace as boolean | undefined) ?? false,
    epsSmoothing: (o.epsSmoothing as boolean | undefined) ?? false,
  }
}

/** sacrebleu's `CHRF._PUNCTS` (Python's `string.punctuation`). */
const PUNCTS = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')

/** `CHRF._remove_punctuation`: split one punctuation character off the end, else off the start, of each word. */
function words(sentence: string): string[] {
  const out: string[] = []
  for (const w of pySplit(sentence)) {
    const chars = Array.from(w)
    if (chars.length === 1) {
      out.push(w)
    } else if (PUNCTS.has(chars[chars.length - 1] as string)) {
      out.push(chars.slice(0, -1).join(''), chars[chars.length - 1] as string)
    } else if (PUNCTS.has(chars[0] as string)) {
      out.push(chars[0] as string, chars.slice(1).join(''))
    } else {
      out.push(w)
    }
  }
  return out
}

/** The code points of `line`, without Python whitespace unless `whitespace` is set (`''.join(line.split())`). */
function characters(line: string, whitespace: boolean): string[] {
  const out: string[] = []
  for (const char of line) {
    // An astral character's first unit is a surrogate, never whitespace.
    if (!whitespace && isPyWhitespaceUnit(char.charCodeAt(0))) continue
    out.push(char)
  }
  return out
}

/** Counts of the n-grams of `items` (joined by `sep`, unambiguous for the separators used). */
function countNgrams(items: readonly string[], n: number, sep: string): Map<string, number> {
  const counts = new Map<string, number>()
  for (let i = 0; i + n <= items.length; i++) {
    let key = items[i] as string
    for (let k = 1; k < n; k++) key += sep + (items[i + k] as string)
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return counts
}

/** `extract_all_char_ngrams` then word n-grams: one counter per order. */
function allNgrams(sentence: string, settings: Settings): Map<string, number>[] {
  const chars = characters(sentence, settings.whitespace)
  const out: Map<string, number>[] = []
  // Character n-grams are substrings; the key is the code points joined without a separator.
  // Stryker disable next-line StringLiteral: equivalent, the items are single code points, so any separator keeps the keys of n code points distinct
  for (let n = 1; n <= settings.charOrder; n++) out.push(countNgrams(chars, n, ''))
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent for true and >=, a shortcut: with wordOrder 0 the loop adds nothing
  if (settings.wordOrder > 0) {
    const ws = words(sentence)
    // Word n-grams are joined by a space (sacrebleu's `' '.join`), which no word contains.
    for (let n = 1; n <= settings.wordOrder; n++) out.push(countNgrams(ws, n, ' '))
  }
  return out
}

/** `CHRF._get_match_statistics`: [candidate n-grams (0 if the reference has none), reference n-grams, matches]. */
function matchStatistics(candidate: Map<string, number>, reference: Map<string, number>): [number, number, number] {
  let matches = 0
  let candidateCount = 0
  for (const [ngram, count] of candidate) {
    candidateCount += count
    const r = reference.get(ngram)
    if (r !== undefined) matches += Math.min(count, r)
  }
  let referenceCount = 0
  for (const count of reference.values()) referenceCount += count
  return [reference.size > 0 ? candidateCount : 0, referenceCount, matches]
}

/** `CHRF._compute_f_score` on a flat list of [hyp, ref, match] triples; 0-100 scale, as sacrebleu. */
function fScore(stats: readonly number[], settings: Settings): number {
  const eps = 1e-16
  const order = settings.charOrder + settings.wordOrder
  const factor = settings.beta ** 2
  let score = 0
  let effectiveOrder = 0
  let avgPrec = 0
  let avgRec = 0
  for (let i = 0; i < order; i++) {
    const nHyp = stats[3 * i] as number
    const nRef = stats[3 * i + 1] as number
    const nMatch = stats[3 * i + 2] as number
    const prec = nHyp > 0 ? nMatch / nHyp : eps
    const rec = nRef > 0 ? nMatch / nRef : eps
    const denom = factor * prec + rec
    score += denom > 0 ? ((1 + factor) * prec * rec) / denom : eps
    if (
      nHyp > 0 &&
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent for true and >=, nHyp > 0 implies nRef > 0 here
      nRef > 0
    ) {
      avgPrec += prec
      avgRec += rec
      effectiveOrder++
    }
  }
  if (settings.epsSmoothing) return (100 * score) / order
  // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent for false and {}, the sums are 0, 0 / 0 = NaN is falsy below: 0
  if (effectiveOrder === 0) {
    avgPrec = 0
    avgRec = 0
  } else {
    avgPrec /= effectiveOrder
    avgRec /= effectiveOrder
  }
  if (avgPrec + avgRec) {
    let s = (1 + factor) * avgPrec * avgRec
    s /= factor * avgPrec + avgRec
    return 100 * s
  }
  return 0
}

/** `CHRF._compute_segment_statistics`: the statistics of the reference with the best F-score (the first on ties). */
function segmentStatistics(candidate: string, references: readonly string[], settings: Settings): { stats: number[]; best: number } {
  const prep = (s: string) => (settings.lowercase ? s.toLowerCase() : s)
  const hyp = allNgrams(prep(candidate), settings)
  let best = {
    stats: [] as number[],
    // Stryker disable next-line UnaryOperator: equivalent, the first reference always replaces it (its F-score is >= 0 > -1)
    best: -1,
    f: -1,
  }
  references.forEach((reference, index) => {
    const ref = allNgrams(prep(reference), settings)
    const stats: number[] = []
    for (let k = 0; k < hyp.length; k++) stats.push(...matchStatistics(hyp[k] as Map<string, number>, ref[k] as Map<string, number>))
    const f = fScore(stats, settings)
    if (f > best.f) best = { stats, best: index, f }
  })
  return best
}

function details(stats: readonly number[], settings: Settings, bestReferenceIndex: number): ChrFDetails {
  const score = fScore(stats, settings) / 100
  const statistics: ChrFDetails['statistics'] = []
  for (let k = 0; k < settings.charOrder + settings.wordOrder; k++) {
    const word = k >= settings.charOrder
    statistics.push({
      kind: word ? 'word' : 'char',
      n: word ? k - settings.charOrder + 1 : k + 1,
      candidate: stats[3 * k] as number,
      reference: stats[3 * k + 1] as number,
      matches: stats[3 * k + 2] as number,
    })
  }
  const name = `chrF${settings.beta}${'+'.repeat(settings.wordOrder)}`
  return { score: Math.min(1, Math.max(0, score)), name, statistics, bestReferenceIndex }
}

/**
 * Sentence chrF, identical to sacrebleu 2.6.0 `CHRF(...).sentence_score(candidate, references).score /
 * 100` (= `sentence_chrf`) with the same options. With several references, the one with the highest
 * chrF is used. The result is in [0, 1]. `{ wordOrder: 2 }` gives chrF++.
 *
 * @param candidate - the model output (hypothesis).
 * @param reference - the target text, or a non-empty array of alternative targets.
 * @param options - sacrebleu's options (see {@link ChrFOptions}).
 *
 * @example
 * ```ts
 * chrF('The cat sat on the mat.', 'The cat sat on the mat.') // 1
 * chrF('Die Katze sitzt.', 'Die Katze saß.')                  // ≈ 0.62 (character overlap)
 * chrF('the cat', ['a dog', 'the cat'], { wordOrder: 2 })     // chrF++ against the best reference: 1
 * ```
 */
export function chrF(candidate: string, reference: string | readonly string[], options?: ChrFOptions): number {
  return chrFDetails(candidate, reference, options).score
}

/**
 * {@link chrF} with the per-order statistics of the best reference.
 *
 * @example
 * ```ts
 * const d = chrFDetails('aa', 'ab')
 * d.statistics[0] // { kind: 'char', n: 1, candidate: 2, reference: 2, matches: 1 }
 * ```
 */
export function chrFDetails(candidate: string, reference: string | readonly string[], options?: ChrFOptions): ChrFDetails {
  assertString(candidate, 'candidate', 'compute chrF')
  assertStringOrStrings(reference, 'reference', 'compute chrF')
  const settings = readSettings(options, 'compute chrF')
  const { stats, best } = segmentStatistics(candidate, typeof reference === 'string' ? [reference] : reference, settings)
  return details(stats, settings, best)
}

/**
 * Corpus chrF, identical to sacrebleu 2.6.0 `CHRF(...).corpus_score(candidates, refs).score / 100` (=
 * `corpus_chrf`): each segment's statistics (of its best reference) are summed, and one score is
 * computed from the sums. `references[i]` belongs to `candidates[i]` (a string or an array of
 * alternatives), unlike sacrebleu's reference streams.
 *
 * @example
 * ```ts
 * corpusChrF(['a', 'b'], ['a', 'c']) // 0.5 (sacrebleu: 50.0)
 * ```
 */
export function corpusChrF(candidates: readonly string[], references: ReadonlyArray<string | readonly string[]>, options?: ChrFOptions): number {
  return corpusChrFDetails(candidates, references, options).score
}

/**
 * {@link corpusChrF} with the summed per-order statistics.
 *
 * @example
 * ```ts
 * corpusChrFDetails(['a b c'], ['abc']).statistics.length // 6 (character orders 1..6)
 * ```
 */
export function corpusChrFDetails(candidates: readonly string[], references: ReadonlyArray<string | readonly string[]>, options?: ChrFOptions): ChrFDetails {
  const action = 'compute corpus chrF'
  assertCorpus(candidates, references, action)
  const settings = readSettings(options, action)
  const sum = new Array<number>(3 * (settings.charOrder + settings.wordOrder)).fill(0)
  candidates.forEach((candidate, i) => {
    const ref = references[i] as string | readonly string[]
    const { stats } = segmentStatistics(candidate, typeof ref === 'string' ? [ref] : ref, settings)
    stats.forEach((v, k) => (sum[k] = (sum[k] as number) + v))
  })
  return details(sum, settings, -1)
}
