/**
 * ROUGE-1, ROUGE-2, ROUGE-N, ROUGE-L and ROUGE-Lsum, reproducing Google's `rouge-score` (the Python
 * package behind Hugging Face `evaluate`'s `rouge`) exactly with `tokenizer: 'rouge-score'`.
 *
 * Pure functions: no I/O, no test-runner imports. Argument order is `(candidate, reference)`:
 * precision is measured against the candidate's length and recall against the reference's.
 *
 * Written here rather than taken from npm because no ROUGE package there reproduces rouge-score.
 * `js-rouge` 3.2 (the most used one) tokenizes with a Penn Treebank tokenizer that keeps
 * punctuation as tokens, is case-sensitive by default, has no stemmer, throws on empty or
 * whitespace-only text, and finds ROUGE-L sentences with its own segmenter instead of `\n`; each of
 * those changes scores on ordinary text.
 *
 * @module
 */

import { assertString, describeValue, formatMessage } from '../errors.js'
import { lcsLength, lcsPositions } from './lcs.js'
import { porterStem } from './porter.js'

/** Which ROUGE score to compute. `rougeLsum` is summary-level ROUGE-L over newline-separated sentences. */
export type RougeType = 'rouge1' | 'rouge2' | 'rougeL' | 'rougeLsum'

/**
 * How text is split into tokens.
 *
 * - `'rouge-score'`: exactly rouge-score's default tokenizer. Lower-case, turn every run of characters
 *   other than ASCII `a-z` and `0-9` into a space, split. Every non-ASCII character is a word break,
 *   so `crème` gives `cr me` and a Chinese sentence keeps only its ASCII digits.
 * - `'unicode'` (default): the same, but Unicode letters, combining marks and numbers are kept
 *   (`/[^\p{L}\p{M}\p{N}]+/gu` becomes a space), and Chinese/Japanese characters are tokens of their
 *   own (see {@link rougeTokenize}). On pure-ASCII text it gives exactly the `'rouge-score'` tokens.
 */
export type RougeTokenizer = 'unicode' | 'rouge-score'

/** Options of {@link rougeTokenize}. */
export interface RougeTokenizeOptions {
  /**
   * Porter-stem tokens like rouge-score's `use_stemmer=True` (NLTK's stemmer, tokens longer than 3
   * characters only; with `'unicode'`, only tokens that are pure ASCII `a-z0-9`). Default `false`.
   */
  stemmer?: boolean
  /** Default `'unicode'`. */
  tokenizer?: RougeTokenizer
}

/** Options of {@link rouge}. */
export interface RougeOptions extends RougeTokenizeOptions {
  /** Default `'rougeL'`. */
  type?: RougeType
}

/** Options of {@link rougeL}: `summary: true` computes ROUGE-Lsum. */
export type RougeLOptions = Omit<RougeOptions, 'type'> & {
  /** Summary-level LCS over sentences separated by `\n` (rouge-score's `rougeLsum`). Default `false`. */
  summary?: boolean
}

/** Options of {@link rougeN}. */
export type RougeNOptions = Omit<RougeOptions, 'type'>

/** A ROUGE score. Every value is in [0, 1]; `f` is the F1 measure (rouge-score's `fmeasure`). */
export interface RougeScore {
  precision: number
  recall: number
  f: number
}

const ACTION = 'compute ROUGE'
const ROUGE_TYPES: readonly RougeType[] = ['rouge1', 'rouge2', 'rougeL', 'rougeLsum']
const TOKENIZERS: readonly RougeTokenizer[] = ['unicode', 'rouge-score']

// ---------------------------------------------------------------------------------------------
// Tokenization
// ---------------------------------------------------------------------------------------------

/** ASCII letter/digit runs: rouge-score's tokens once the text is lower-cased. */
const ASCII_ALNUM_RUN = /[a-z0-9]+/g
/** Runs of Unicode letters, combining marks and numbers: the `'unicode'` tokens before CJK splitting. */
const WORD_RUN = /[\p{L}\p{M}\p{N}]+/gu
const NON_ASCII = /[^\x00-\x7f]/
/**
 * Scripts written without spaces between words whose characters are tokens of their own in
 * `'unicode'` mode. Script_Extensions (`scx`) rather than Script so that the shared Japanese marks
 * (prolonged sound mark `ー`, iteration marks, halfwidth sound marks) count too.
 */
const CJK = '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}'
const HAS_CJK = new RegExp(`[${CJK}]`, 'u')
/**
 * One CJK character with the marks after it (combining marks, and the halfwidth voiced/semi-voiced
 * sound marks U+FF9E/U+FF9F, which are spacing letters but belong to the kana before them), or a
 * run of anything else.
 */
const CJK_PIECE = new RegExp(`[${CJK}][\\p{M}\\uFF9E\\uFF9F]*|[^${CJK}]+`, 'gu')

function stemLong(token: string, stemmer: boolean): string {
  return stemmer && token.length > 3 ? porterStem(token) : token
}

function pushAll(tokens: readonly string[], stemmer: boolean, out: string[]): void {
  if (stemmer) for (const token of tokens) out.push(stemLong(token, true))
  else for (const token of tokens) out.push(token)
}

/**
 * rouge-score's `tokenize.tokenize(text, stemmer)`: lower-case, replace every run of characters other
 * than ASCII `a-z0-9` by a space, split, stem. Collecting the `[a-z0-9]+` runs in one regex pass gives
 * the same tokens (NLTK's stemmer only writes ASCII letters, so rouge-score's final `^[a-z0-9]+$`
 * filter drops nothing) at about twice the speed of replace-then-split.
 */
function tokenizeRougeScore(text: string, stemmer: boolean, out: string[]): void {
  const tokens = text.toLowerCase().match(ASCII_ALNUM_RUN)
  if (tokens !== null) pushAll(tokens, stemmer, out)
}

function tokenizeUnicode(text: string, stemmer: boolean, out: string[]): void {
  const lower = text.toLowerCase()
  // Pure-ASCII text (the usual case): the Unicode classes reduce to a-z0-9, a single regex pass.
  // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent when skipped, ASCII text in the loop below gives the same tokens
  if (!NON_ASCII.test(lower)) {
    const tokens = lower.match(ASCII_ALNUM_RUN)
    if (tokens !== null) pushAll(tokens, stemmer, out)
    return
  }
  for (const piece of lower.match(WORD_RUN) ?? []) {
    // A run of letters, marks and numbers with no non-ASCII character is a-z0-9 only (lower-cased).
    if (!NON_ASCII.test(piece)) {
      out.push(stemLong(piece, stemmer))
    } else if (
      // Stryker disable next-line ConditionalExpression: equivalent when true, a piece without CJK is one [^CJK]+ match, pushed whole (it is not ASCII)
      HAS_CJK.test(piece)
    ) {
      for (const match of piece.matchAll(CJK_PIECE)) {
        const sub = match[0]
        out.push(NON_ASCII.test(sub) ? sub : stemLong(sub, stemmer))
      }
    } else {
      out.push(piece)
    }
  }
}

interface Settings {
  stemmer: boolean
  tokenizer: RougeTokenizer
}

function tokenizeInto(text: string, settings: Settings, out: string[]): void {
  if (settings.tokenizer === 'unicode') tokenizeUnicode(text, settings.stemmer, out)
  else tokenizeRougeScore(text, settings.stemmer, out)
}

/**
 * Splits text into the tokens ROUGE compares. Useful to explain a score: the tokens of the reference
 * that the candidate lacks, or the extra ones it adds.
 *
 * With `tokenizer: 'rouge-score'` this is rouge-score's default tokenizer exactly: `str.lower()`,
 * every run of characters other than ASCII `a-z0-9` becomes a space, split, stem tokens longer than 3
 * characters when `stemmer` is on.
 *
 * The default `tokenizer: 'unicode'` keeps non-English words: after lower-casing, every run of
 * characters that are not Unicode letters, combining marks or numbers becomes a space. Only tokens
 * that are pure ASCII `a-z0-9` and longer than 3 characters go through the (English) Porter stemmer.
 * On pure-ASCII text the two tokenizers give identical tokens. No Unicode normalization is applied:
 * an NFC `é` and an NFD `e` + U+0301 are different tokens, as they are different strings.
 *
 * Chinese and Japanese (decision): in `'unicode'` mode every Han, Hiragana and Katakana character
 * (with any combining marks after it) is a token of its own, and runs of other letters and digits
 * next to them stay whole (`'4番線'` gives `['4', '番', '線']`, `'gpt4模型'` gives
 * `['gpt4', '模', '型']`). These scripts put no spaces between words, so without this a whole
 * sentence would be one token and any two different sentences would share nothing. Character
 * tokens are the usual choice for Chinese ROUGE, need no dictionary, and do not change between Node
 * or ICU versions (unlike `Intl.Segmenter`'s dictionary-based words). Korean Hangul is written with
 * spaces and keeps whole words. Thai, Lao, Khmer and Myanmar, also written without spaces, keep
 * their runs whole: split such text into words yourself (for example with `Intl.Segmenter`) and
 * join the words with spaces before scoring. rouge-score itself drops all of these characters.
 *
 * @example
 * ```ts
 * rougeTokenize('The cats are running!')                    // ['the', 'cats', 'are', 'running']
 * rougeTokenize('The cats are running!', { stemmer: true }) // ['the', 'cat', 'are', 'run']
 * rougeTokenize('Crème brûlée, 2 €')                        // ['crème', 'brûlée', '2']
 * rougeTokenize('Crème brûlée, 2 €', { tokenizer: 'rouge-score' }) // ['cr', 'me', 'br', 'l', 'e', '2']
 * rougeTokenize('火车晚点了')                                 // ['火', '车', '晚', '点', '了']
 * ```
 */
export function rougeTokenize(text: string, options?: RougeTokenizeOptions): string[] {
  assertString(text, 'text', 'tokenize text for ROUGE')
  const settings = readSettings(options, 'tokenize text for ROUGE')
  const out: string[] = []
  tokenizeInto(text, settings, out)
  return out
}

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

function optionError(action: string, message: string): TypeError {
  return new TypeError(formatMessage(`Failed to ${action}: ${message}`))
}

function readSettings(options: unknown, action: string): Settings {
  if (options === undefined || options === null) return { stemmer: false, tokenizer: 'unicode' }
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw optionError(action, `the options must be an object, got ${describeValue(options)}. Pass e.g. { stemmer: true }.`)
  }
  const { stemmer, tokenizer } = options as { stemmer?: unknown; tokenizer?: unknown }
  if (stemmer !== undefined && typeof stemmer !== 'boolean') {
    throw optionError(action, `options.stemmer must be a boolean, got ${describeValue(stemmer)}. Pass true or false.`)
  }
  if (tokenizer !== undefined && !TOKENIZERS.includes(tokenizer as RougeTokenizer)) {
    throw optionError(
      action,
      `options.tokenizer must be 'unicode' or 'rouge-score', got ${describeValue(tokenizer)}. Use 'rouge-score' to match Python's rouge-score exactly.`,
    )
  }
  return { stemmer: stemmer ?? false, tokenizer: (tokenizer as RougeTokenizer | undefined) ?? 'unicode' }
}

function readType(options: unknown): RougeType {
  const type = options !== null && typeof options === 'object' ? (options as { type?: unknown }).type : undefined
  if (type === undefined) return 'rougeL'
  if (!ROUGE_TYPES.includes(type as RougeType)) {
    throw optionError(
      ACTION,
      `options.type must be one of ${ROUGE_TYPES.map((t) => `'${t}'`).join(', ')}, got ` +
        `${describeValue(type)}. For other n-gram sizes call rougeN(candidate, reference, n).`,
    )
  }
  return type as RougeType
}

function readSummary(options: unknown): boolean {
  const summary = options !== null && typeof options === 'object' ? (options as { summary?: unknown }).summary : undefined
  if (summary !== undefined && typeof summary !== 'boolean') {
    throw optionError(ACTION, `options.summary must be a boolean, got ${describeValue(summary)}. Pass true for ROUGE-Lsum.`)
  }
  return summary ?? false
}

function checkInputs(candidate: unknown, reference: unknown): void {
  assertString(candidate, 'candidate', ACTION)
  assertString(reference, 'reference', ACTION)
}

// ---------------------------------------------------------------------------------------------
// Scoring
// ---------------------------------------------------------------------------------------------

const ZERO: Readonly<RougeScore> = Object.freeze({ precision: 0, recall: 0, f: 0 })

/** rouge-score's `scoring.fmeasure`, same operation order (so the same doubles). */
function score(precision: number, recall: number): RougeScore {
  const f = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0
  return { precision, recall, f }
}

/** Assigns every distinct token a small integer id shared by both texts. */
class Vocabulary {
  private readonly ids = new Map<string, number>()

  get size(): number {
    return this.ids.size
  }

  encode(tokens: readonly string[]): Int32Array {
    const out = new Int32Array(tokens.length)
    // Stryker disable next-line EqualityOperator: equivalent, i <= length only gives undefined an unused id (the write past the end is ignored)
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i] as string
      let id = this.ids.get(token)
      if (id === undefined) {
        id = this.ids.size
        this.ids.set(token, id)
      }
      out[i] = id
    }
    return out
  }
}

function tokenIds(candidate: string, reference: string, settings: Settings): [Int32Array, Int32Array, number] {
  const candidateTokens: string[] = []
  const referenceTokens: string[] = []
  tokenizeInto(candidate, settings, candidateTokens)
  tokenizeInto(reference, settings, referenceTokens)
  const vocabulary = new Vocabulary()
  return [vocabulary.encode(candidateTokens), vocabulary.encode(referenceTokens), vocabulary.size]
}

/** The key of the bigram at i, `a * size + b` for its ids a and b (below size): exact while size² < 2^53. */
function bigramKey(size: number): (ids: Int32Array, i: number) => number {
  // Stryker disable next-line ArithmeticOperator: equivalent, a * size - b and a / size + b are one-to-one too for ids a, b below size
  return (ids, i) => (ids[i] as number) * size + (ids[i + 1] as number)
}

/** rouge-score's `_score_ngrams(_create_ngrams(target, n), _create_ngrams(prediction, n))`. */
function ngramScore(candidate: Int32Array, reference: Int32Array, n: number, vocabularySize: number): RougeScore {
  // A text without n-grams (count 0) needs no special case: its loops below run zero times.
  const candidateCount = Math.max(0, candidate.length - n + 1)
  const referenceCount = Math.max(0, reference.length - n + 1)
  let overlap = 0
  // Stryker disable next-line ConditionalExpression: equivalent when false, the n-gram path below counts the same unigram overlap
  if (n === 1) {
    const remaining = new Int32Array(vocabularySize)
    for (const id of reference) remaining[id] = (remaining[id] as number) + 1
    for (const id of candidate) {
      if ((remaining[id] as number) > 0) {
        remaining[id] = (remaining[id] as number) - 1
        overlap++
      }
    }
  } else {
    // Σ over reference n-grams of min(count in reference, count in candidate), computed by letting
    // each candidate n-gram consume one remaining reference occurrence.
    const key: (ids: Int32Array, i: number) => number | string =
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent below 2^26 distinct tokens (GBs of text): both keys exact
      n === 2 && vocabularySize < 67_108_864 // vocabularySize² < 2^53: exact numeric keys
        ? bigramKey(vocabularySize)
        : (ids, i) => ids.subarray(i, i + n).join(',')
    const remaining = new Map<number | string, number>()
    // Stryker disable next-line EqualityOperator: equivalent, the extra key (NaN, or n - 1 ids) matches no key of the candidate
    for (let i = 0; i < referenceCount; i++) {
      const k = key(reference, i)
      remaining.set(k, (remaining.get(k) ?? 0) + 1)
    }
    // Stryker disable next-line EqualityOperator: equivalent, the extra key (NaN, or n - 1 ids) matches no key of the reference
    for (let i = 0; i < candidateCount; i++) {
      const k = key(candidate, i)
      const left = remaining.get(k) ?? 0
      if (left > 0) {
        remaining.set(k, left - 1)
        overlap++
      }
    }
  }
  return score(overlap / Math.max(candidateCount, 1), overlap / Math.max(referenceCount, 1))
}

/** rouge-score's `_score_lcs(target, prediction)`. */
function lcsScore(candidate: Int32Array, reference: Int32Array): RougeScore {
  if (candidate.length === 0 || reference.length === 0) return { ...ZERO }
  const length = lcsLength(candidate, reference)
  return score(length / candidate.length, length / reference.length)
}

/**
 * rouge-score's `get_sents` without `split_summaries`: split on `\n` only. rouge-score also drops the
 * empty pieces; keeping them changes nothing, as a sentence without tokens matches nothing.
 */
function sentences(text: string): string[] {
  return text.split('\n')
}

/** rouge-score's `_summary_level_lcs(ref_sentences, candidate_sentences)`. */
function summaryLcsScore(candidate: string, reference: string, settings: Settings): RougeScore {
  const vocabulary = new Vocabulary()
  const encode = (sentence: string): Int32Array => {
    const tokens: string[] = []
    tokenizeInto(sentence, settings, tokens)
    return vocabulary.encode(tokens)
  }
  const candidateIds = sentences(candidate).map(encode)
  const referenceIds = sentences(reference).map(encode)

  let candidateTotal = 0
  let referenceTotal = 0
  for (const s of candidateIds) candidateTotal += s.length
  for (const s of referenceIds) referenceTotal += s.length
  if (candidateTotal === 0 || referenceTotal === 0) return { ...ZERO }

  // Token budget: a token counts as a hit only while the candidate still has an unused occurrence.
  // rouge-score caps by the reference's token counts too, but each reference position is read once
  // below, so the reference never runs out of the token it is at: that cap never applies.
  const candidateBudget = new Int32Array(vocabulary.size)
  for (const s of candidateIds) for (const id of s) candidateBudget[id] = (candidateBudget[id] as number) + 1

  let hits = 0
  for (const r of referenceIds) {
    // Union of the LCS positions in r against every candidate sentence, read in ascending order.
    const inUnion = new Uint8Array(r.length)
    for (const c of candidateIds) {
      for (const position of lcsPositions(r, c)) inUnion[position] = 1
    }
    // Stryker disable next-line EqualityOperator: equivalent, at i = r.length the id is undefined, whose budget is not > 0
    for (let i = 0; i < r.length; i++) {
      if (inUnion[i] === 0) continue
      const id = r[i] as number
      if ((candidateBudget[id] as number) > 0) {
        hits++
        candidateBudget[id] = (candidateBudget[id] as number) - 1
      }
    }
  }
  return score(hits / candidateTotal, hits / referenceTotal)
}

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/**
 * ROUGE-N: overlap of the n-grams of `candidate` and `reference` (counted as multisets, so a repeated
 * n-gram only matches as often as it occurs on both sides). Any `n >= 1`; `n = 1` and `n = 2` are
 * rouge-score's `rouge1` and `rouge2`. A text with fewer than `n` tokens has no n-grams and scores 0.
 *
 * @param candidate - the text being scored (model output).
 * @param reference - the ground truth.
 * @param n - the n-gram size, a positive integer.
 * @throws TypeError when a text is not a string or an option is invalid; RangeError when `n` is not a
 *   positive integer.
 *
 * @example
 * ```ts
 * rougeN('the cat sat on the mat', 'the cat lay on the mat', 2)
 * // { precision: 0.6, recall: 0.6, f: 0.6 }  (the cat, on the, the mat)
 * rougeN('Boil', 'Boil', 2) // { precision: 0, recall: 0, f: 0 }  (one token: no bigrams)
 * ```
 */
export function rougeN(candidate: string, reference: string, n: number, options?: RougeNOptions): RougeScore {
  checkInputs(candidate, reference)
  if (typeof n !== 'number') {
    throw new TypeError(formatMessage(`Failed to ${ACTION}: n must be a number, got ${describeValue(n)}. Pass the n-gram size, e.g. 2.`))
  }
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(formatMessage(`Failed to ${ACTION}: n must be a positive integer, got ${String(n)}. Pass the n-gram size, e.g. 1 or 2.`))
  }
  return computeN(candidate, reference, n, readSettings(options, ACTION))
}

function computeN(candidate: string, reference: string, n: number, settings: Settings): RougeScore {
  const [c, r, size] = tokenIds(candidate, reference, settings)
  return ngramScore(c, r, n, size)
}

function computeL(candidate: string, reference: string, summary: boolean, settings: Settings): RougeScore {
  if (summary) return summaryLcsScore(candidate, reference, settings)
  const [c, r] = tokenIds(candidate, reference, settings)
  return lcsScore(c, r)
}

/**
 * ROUGE-L: the longest common subsequence of the two token lists, as a fraction of the candidate's
 * length (precision) and of the reference's (recall). With `summary: true` it is ROUGE-Lsum: both texts
 * are split into sentences on `\n` (only; `\r` and `.` do not split), each reference sentence is
 * matched against every candidate sentence, and matched tokens are capped by their counts in both
 * texts, exactly as rouge-score's `rougeLsum`. Use `summary: true` for multi-sentence summaries whose
 * sentences may come in another order.
 *
 * @example
 * ```ts
 * rougeL('the cat sat on the mat', 'the cat was on the mat')
 * // { precision: 0.833..., recall: 0.833..., f: 0.833... }  (LCS: the cat on the mat)
 * rougeL('Mix well.\nAdd salt.', 'Add salt.\nMix well.', { summary: true }) // f: 1
 * rougeL('Mix well.\nAdd salt.', 'Add salt.\nMix well.')                    // f: 0.5
 * ```
 */
export function rougeL(candidate: string, reference: string, options?: RougeLOptions): RougeScore {
  checkInputs(candidate, reference)
  const settings = readSettings(options, ACTION)
  return computeL(candidate, reference, readSummary(options), settings)
}

/**
 * Computes one ROUGE score, `type` `'rougeL'` by default. With `{ tokenizer: 'rouge-score' }` the
 * result equals Python's `RougeScorer([type], use_stemmer=stemmer).score(target=reference,
 * prediction=candidate)` (to within 1e-9; the doubles agree up to operation order); `f` is its
 * `fmeasure`.
 *
 * Never throws on string inputs, never returns NaN, and every value is in [0, 1]. If either text has
 * no tokens, all three values are 0 (also when both are empty).
 *
 * With an array of references, the score is rouge-score's `score_multi`: the reference with the
 * highest F-measure gives precision, recall and F (see {@link rougeMulti}).
 *
 * @example
 * ```ts
 * rouge('The comet is visible after sunset.', 'The comet will be visible after sunset.')
 * // rougeL: { precision: 0.833... (5/6), recall: 0.714... (5/7), f: 0.769... }
 * rouge('tying laces', 'ties the lace', { type: 'rouge1', stemmer: true })
 * // { precision: 1, recall: 0.666..., f: 0.8 }  (tie, lace)
 * ```
 */
export function rouge(candidate: string, reference: string | readonly string[], options?: RougeOptions): RougeScore {
  if (Array.isArray(reference)) {
    const type = readType(options)
    const best = rougeMulti(candidate, reference, { ...readSettings(options, ACTION), types: [type] })[type] as RougeMultiScore
    return { precision: best.precision, recall: best.recall, f: best.f }
  }
  checkInputs(candidate, reference)
  const text = reference as string
  const settings = readSettings(options, ACTION)
  switch (readType(options)) {
    case 'rouge1':
      return computeN(candidate, text, 1, settings)
    case 'rouge2':
      return computeN(candidate, text, 2, settings)
    case 'rougeL':
      return computeL(candidate, text, false, settings)
    case 'rougeLsum':
      return computeL(candidate, text, true, settings)
  }
}

/** Options of {@link rougeMulti}. */
export interface RougeMultiOptions extends RougeTokenizeOptions {
  /** The ROUGE types to compute. Default `['rouge1', 'rouge2', 'rougeL', 'rougeLsum']`. */
  types?: readonly RougeType[]
}

/** A {@link rougeMulti} score: the best reference's {@link RougeScore} and its index. */
export interface RougeMultiScore extends RougeScore {
  /** Index in `references` of the reference with the highest F-measure for this type (the first on ties). */
  referenceIndex: number
}

/**
 * Multi-reference ROUGE, identical to rouge-score 0.1.2's `RougeScorer(types).score_multi(references,
 * candidate)` with `tokenizer: 'rouge-score'`: every reference is scored, and for each ROUGE type
 * separately the reference with the highest F-measure (the first on ties, as NumPy's `argmax`) gives
 * that type's precision, recall and F-measure. So precision and recall always come from one reference,
 * not from the best of each.
 *
 * @example
 * ```ts
 * rougeMulti('text first', ['first text', 'first something'], { types: ['rouge1', 'rouge2', 'rougeL'] })
 * // rouge1 f 1 (reference 0), rouge2 f 0, rougeL f 0.5
 * ```
 */
export function rougeMulti(candidate: string, references: readonly string[], options?: RougeMultiOptions): Partial<Record<RougeType, RougeMultiScore>> {
  const action = 'compute multi-reference ROUGE'
  assertString(candidate, 'candidate', action)
  if (!Array.isArray(references) || references.length === 0) {
    throw optionError(action, `the references must be a non-empty array of strings, got ${describeValue(references)}. Pass every acceptable reference.`)
  }
  references.forEach((reference, i) => assertString(reference, `reference at index ${i}`, action))
  const types = (options as { types?: unknown } | undefined)?.types ?? ROUGE_TYPES
  if (!Array.isArray(types) || types.length === 0 || types.some((t) => !ROUGE_TYPES.includes(t as RougeType))) {
    throw optionError(action, `options.types must be a non-empty array of ${ROUGE_TYPES.map((t) => `'${t}'`).join(', ')}, got ${describeValue(types)}.`)
  }
  const settings = readSettings(options === undefined ? undefined : { stemmer: options.stemmer, tokenizer: options.tokenizer }, action)
  const out: Partial<Record<RougeType, RougeMultiScore>> = {}
  for (const type of types as RougeType[]) {
    let best: RougeMultiScore | undefined
    references.forEach((reference, referenceIndex) => {
      const s =
        type === 'rouge1'
          ? computeN(candidate, reference, 1, settings)
          : type === 'rouge2'
            ? computeN(candidate, reference, 2, settings)
            : computeL(candidate, reference, type === 'rougeLsum', settings)
      if (best === undefined || s.f > best.f) best = { ...s, referenceIndex }
    })
    out[type] = best as RougeMultiScore
  }
  return out
}
