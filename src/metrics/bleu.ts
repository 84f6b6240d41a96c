/**
 * BLEU as computed by sacrebleu 2.6.0 (`BLEU`, `sentence_bleu` and `corpus_bleu`), with every option
 * of sacrebleu's `BLEU` that needs no external model: tokenizers `none`, `13a` (default), `intl`, `char`
 * and `zh`, `lowercase`, smoothing `exp` (default), `floor`, `add-k` and `none` with `smooth_value`,
 * `max_ngram_order` and `effective_order` (on for sentences, off for corpora by default). Scores are
 * sacrebleu's score divided by 100.
 *
 * This is a port of sacrebleu's `BLEU.compute_bleu`, `_extract_reference_info`,
 * `_compute_segment_statistics`, `_get_closest_ref_len` and its tokenizers: no JavaScript package
 * reproduces sacrebleu's numbers (they use other tokenizers and smoothing), and the reference vectors
 * in `fixtures/reference/` require them to 1e-9.
 *
 * @module
 */
import { assertString, assertStringOrStrings, describeValue, formatMessage, isFiniteNumber, isWholeNumber } from '../errors.js'
import { optionError, readOptionObject } from './options.js'
import { isPyWhitespaceUnit, pyRstrip, pySplit } from './text.js'

// sacrebleu's `TokenizerRegexp` rules, applied in this order:
//  1. spaces around ``!"#$%&()*+/:;<=>?@[\]^_`{|}~`` (not `'`, `,`, `-`, `.`);
//  2. `([^0-9])([.,])` -> `$1 $2 ` (split `.` and `,` that follow a non-digit);
//  3. `([.,])([^0-9])` -> ` $1 $2` (split `.` and `,` that precede a non-digit);
//  4. `([0-9])(-)` -> `$1 $2 ` (split `-` after a digit);
// then split on whitespace. Rule 1 is done by the scanner in `splitMteval`; rules 2-4 run as regexes
// on the few pieces that hold `.`, `,` or `-`. The Python patterns use ASCII classes only, so they
// mean the same in JavaScript.

const SPLIT_PERIOD_COMMA_AFTER = /([^0-9])([.,])/g
const SPLIT_PERIOD_COMMA_BEFORE = /([.,])([^0-9])/g
const SPLIT_DASH_AFTER_DIGIT = /([0-9])(-)/g

/** Per ASCII code: 1 = Python whitespace, 2 = a symbol of rule 1 (a token of its own), 3 = `.` `,` `-`, 0 = other. */
const MTEVAL_CLASS = new Uint8Array(128)
for (let c = 0; c < 128; c++) {
  if (isPyWhitespaceUnit(c)) MTEVAL_CLASS[c] = 1
  else if (/[\x20-\x26\x28-\x2B\x2F\x3A-\x40\x5B-\x60\x7B-\x7E]/.test(String.fromCharCode(c))) MTEVAL_CLASS[c] = 2
  else if (c === 0x2c || c === 0x2d || c === 0x2e) MTEVAL_CLASS[c] = 3
}

/**
 * sacrebleu's `TokenizerRegexp` on a line padded with spaces (the part of `13a` after its
 * pre-processing, which adds the padding), as tokens.
 *
 * Written as one scan rather than sacrebleu's four regex passes over the whole line (about twice as
 * fast): rule 1 only puts spaces around single characters, so the scanner emits each symbol as a
 * token and cuts the text at whitespace. After rule 1 every piece is bounded by spaces, and rules 2-4
 * only look at two adjacent characters, so running them on ` piece ` alone gives the same tokens as on
 * the whole line; pieces without `.`, `,` or `-` skip them. The property tests compare this with the
 * regex chain on random text.
 */
export function splitMteval(line: string): string[] {
  const out: string[] = []
  let start = -1
  let periods = 0 // `.` and `,` in the current piece
  // Stryker disable next-line BooleanLiteral: equivalent, a shortcut only: the regex rules give the same tokens (a first piece sent through them too)
  let digitDash = false // a `-` right after a digit in the current piece
  const n = line.length
  for (let i = 0; i <= n; i++) {
    const unit = i < n ? line.charCodeAt(i) : 0x20
    // Stryker disable next-line EqualityOperator: equivalent, unit <= 128 reads MTEVAL_CLASS[128] (undefined), an ordinary character, as U+0080 is
    const kind = unit < 128 ? (MTEVAL_CLASS[unit] as number) : isPyWhitespaceUnit(unit) ? 1 : 0
    if (kind === 1 || kind === 2) {
      if (start >= 0) {
        // Stryker disable next-line ConditionalExpression: equivalent when false, a shortcut only: the regex rules give the same tokens
        if (periods === 0 && !digitDash) {
          out.push(line.slice(start, i)) // rules 2-4 do not apply
        } else if (
          // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent when taken less often, a shortcut: the regex rules give the same tokens
          periods === 1 &&
          !digitDash &&
          i - start > 1 &&
          // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent when taken less often, a shortcut: the regex rules give the same tokens
          (line.charCodeAt(i - 1) === 0x2e || line.charCodeAt(i - 1) === 0x2c)
        ) {
          // `word.`: rule 3 always splits a final `.`/`,` (a space follows), rule 2 adds nothing.
          out.push(line.slice(start, i - 1), line[i - 1] as string)
        } else {
          const spaced = ` ${line.slice(start, i)} `
            .replace(SPLIT_PERIOD_COMMA_AFTER, '$1 $2 ')
            .replace(SPLIT_PERIOD_COMMA_BEFORE, ' $1 $2')
            .replace(SPLIT_DASH_AFTER_DIGIT, '$1 $2 ')
          for (const token of pySplit(spaced)) out.push(token)
        }
        start = -1
        periods = 0
        // Stryker disable next-line BooleanLiteral: equivalent, a shortcut only: the regex rules give the same tokens (later pieces sent through them too)
        digitDash = false
      }
      if (kind === 2) out.push(line[i] as string)
    } else {
      if (start < 0) start = i
      // Stryker disable next-line ConditionalExpression: equivalent when true, other characters counted as periods only turn off the shortcut
      if (kind === 3) {
        // Stryker disable next-line ConditionalExpression: equivalent when false, a '-' counted as a period only turns off the shortcut
        if (unit === 0x2d) {
          // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, the character before a piece is a space or symbol, never a digit
          const before = i > start ? line.charCodeAt(i - 1) : 0
          // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent when true, a shortcut only: the regex rules give the same tokens
          if (before >= 0x30 && before <= 0x39) digitDash = true
        } else {
          // Stryker disable next-line UpdateOperator: equivalent, a negative count is never 0 or 1, so the regex rules run
          periods++
        }
      }
    }
  }
  return out
}

/** sacrebleu's `Tokenizer13a` pre-processing (after the `rstrip()` of each segment). */
function preprocess13a(text: string): string {
  let line = text
  // The includes() guards only skip replacements that would find nothing, so a guard made always true
  // (or includes('')) is equivalent:
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, see above
  if (line.includes('<skipped>')) {
    line = line.replaceAll('<skipped>', '')
  }
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, see above
  if (line.includes('\n')) {
    line = line.replaceAll('-\n', '').replaceAll('\n', ' ')
  }
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, see above
  if (line.includes('&')) {
    line = line.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>')
  }
  return line
}

/**
 * The sacrebleu `13a` tokenizer (mteval-v13a), including sacrebleu's `rstrip()` of each segment:
 * strips trailing Python whitespace, removes `<skipped>`, joins `-\n` line breaks, unescapes
 * `&quot; &amp; &lt; &gt;`, puts spaces around ASCII symbols, splits `.` and `,` unless between digits
 * and `-` after a digit, then splits on Python whitespace. Case is kept.
 *
 * @example
 * ```ts
 * tokenize13a('Take 2-3 tablets ($7.80).') // ['Take', '2', '-', '3', 'tablets', '(', '$', '7.80', ')', '.']
 * tokenize13a("Don't sign-in at 23:40")  // ["Don't", 'sign-in', 'at', '23', ':', '40']
 * tokenize13a('')                         // []
 * ```
 */
export function tokenize13a(text: string): string[] {
  assertString(text, 'text', 'tokenize for BLEU')
  return splitMteval(preprocess13a(pyRstrip(text)))
}

/** sacrebleu's BLEU tokenizers that need no external model (`tokenize=`). */
export type BleuTokenizer = 'none' | '13a' | 'intl' | 'char' | 'zh'

/** sacrebleu's `smooth_method`. */
export type BleuSmoothMethod = 'exp' | 'floor' | 'add-k' | 'none'

/**
 * Options of the BLEU functions, named after sacrebleu's `BLEU(...)` arguments (camel-cased).
 */
export interface BleuOptions {
  /**
   * sacrebleu `tokenize`. Default `'13a'` (mteval-v13a). `'intl'`: mteval-v14 international
   * (Unicode punctuation and symbols); `'char'`: every character is a token; `'zh'`: Chinese
   * characters are tokens, the rest as `13a`; `'none'`: split on whitespace only. `ja-mecab`,
   * `ko-mecab` and the SentencePiece tokenizers (`spm`, `flores101`, `flores200`) are not offered:
   * no maintained JavaScript tokenizer reproduces their segmentation.
   */
  tokenize?: BleuTokenizer
  /** sacrebleu `lowercase`: Python `str.lower()` before tokenizing. Default `false`. */
  lowercase?: boolean
  /** sacrebleu `smooth_method`. Default `'exp'`. */
  smoothMethod?: BleuSmoothMethod
  /** sacrebleu `smooth_value`: the floor for `'floor'` (default 0.1), k for `'add-k'` (default 1). */
  smoothValue?: number
  /** sacrebleu `max_ngram_order`. Default 4. */
  maxNgramOrder?: number
  /**
   * sacrebleu `effective_order`: stop at the first n-gram order the candidate has none of. Default
   * `true` for sentence BLEU (as `sentence_bleu`) and `false` for corpus BLEU (as `corpus_bleu`).
   */
  effectiveOrder?: boolean
}

/** BLEU with its sufficient statistics (sacrebleu's `BLEUScore`), for failure messages and debugging. */
export interface BleuDetails {
  /** BLEU in [0, 1] (sacrebleu's score / 100, clamped so a perfect match is exactly 1). */
  score: number
  /**
   * Modified n-gram precisions for n = 1..maxNgramOrder, in [0, 1] (sacrebleu's `precisions` / 100).
   * An order with no match shows its smoothed value (`exp`: 1 / (2^k · total) for the k-th such order;
   * `floor`: smoothValue / total; `add-k`: k / (total + k) from order 2); orders beyond the effective
   * order are 0.
   */
  precisions: number[]
  /** Brevity penalty in [0, 1]. */
  bp: number
  /** Candidate length in tokens (summed over the corpus for corpus BLEU). */
  sysLen: number
  /** Length of the reference closest in length to the candidate (summed over the corpus). */
  refLen: number
  /**
   * Clipped n-gram matches for n = 1..maxNgramOrder, before any smoothing (sacrebleu's `add-k` adds
   * k to its `counts` from order 2; these are the raw counts).
   */
  counts: number[]
  /** Candidate n-grams for n = 1..maxNgramOrder, before any smoothing. */
  totals: number[]
  /** The number of n-gram orders averaged: min(maxNgramOrder, orders present) with effective order, else maxNgramOrder. */
  effectiveOrder: number
}

/** The sufficient statistics of BLEU (sacrebleu's segment statistics), summed over a corpus. */
export interface BleuStatistics {
  /** Clipped n-gram matches, one per order. */
  counts: readonly number[]
  /** Candidate n-grams, one per order (same length as `counts`). */
  totals: readonly number[]
  sysLen: number
  refLen: number
}

interface Settings {
  tokenize: BleuTokenizer
  lowercase: boolean
  smoothMethod: BleuSmoothMethod
  smoothValue: number
  maxOrder: number
  effectiveOrder: boolean
}

const TOKENIZERS: readonly BleuTokenizer[] = ['none', '13a', 'intl', 'char', 'zh']
const SMOOTH_METHODS: readonly BleuSmoothMethod[] = ['exp', 'floor', 'add-k', 'none']
/** sacrebleu's `BLEU.SMOOTH_DEFAULTS`. */
const SMOOTH_DEFAULTS: Record<BleuSmoothMethod, number> = { exp: 0, floor: 0.1, 'add-k': 1, none: 0 }
const OPTION_KEYS = ['tokenize', 'lowercase', 'smoothMethod', 'smoothValue', 'maxNgramOrder', 'effectiveOrder']

function readSettings(options: unknown, action: string, effectiveDefault: boolean): Settings {
  const o = readOptionObject(options, OPTION_KEYS, action, "Pass e.g. { tokenize: 'intl' }.")
  const tokenize = o.tokenize ?? '13a'
  if (!TOKENIZERS.includes(tokenize as BleuTokenizer)) {
    const mecab = tokenize === 'ja-mecab' || tokenize === 'ko-mecab' || tokenize === 'spm' || tokenize === 'flores101' || tokenize === 'flores200'
    throw optionError(
      action,
      `options.tokenize must be one of ${TOKENIZERS.map((t) => `'${t}'`).join(', ')}, got ${describeValue(tokenize)}`,
      mecab
        ? `sacrebleu's '${String(tokenize)}' needs a native model (MeCab or SentencePiece) that no maintained ` +
            `JavaScript library reproduces; use 'char' or 'zh' for CJK text, or tokenize yourself and pass 'none'.`
        : "Use '13a' (sacrebleu's default) unless you need another tokenizer.",
    )
  }
  for (const key of ['lowercase', 'effectiveOrder'] as const) {
    if (o[key] !== undefined && typeof o[key] !== 'boolean') {
      throw optionError(action, `options.${key} must be a boolean, got ${describeValue(o[key])}`, 'Pass true or false.')
    }
  }
  const smoothMethod = o.smoothMethod ?? 'exp'
  if (!SMOOTH_METHODS.includes(smoothMethod as BleuSmoothMethod)) {
    throw optionError(
      action,
      `options.smoothMethod must be one of ${SMOOTH_METHODS.map((m) => `'${m}'`).join(', ')}, got ${describeValue(smoothMethod)}`,
      "Use 'exp' (sacrebleu's default).",
    )
  }
  const smoothValue = o.smoothValue ?? SMOOTH_DEFAULTS[smoothMethod as BleuSmoothMethod]
  if (!isFiniteNumber(smoothValue) || smoothValue < 0) {
    throw optionError(
      action,
      `options.smoothValue must be a finite number >= 0, got ${describeValue(smoothValue)}`,
      "Pass e.g. 0.1 for 'floor' or 1 for 'add-k'.",
    )
  }
  const maxOrder = o.maxNgramOrder ?? 4
  if (!isWholeNumber(maxOrder) || maxOrder < 1 || maxOrder > 100) {
    throw optionError(action, `options.maxNgramOrder must be a whole number from 1 to 100, got ${describeValue(maxOrder)}`, 'Pass e.g. 4 (the default).')
  }
  return {
    tokenize: tokenize as BleuTokenizer,
    lowercase: (o.lowercase as boolean | undefined) ?? false,
    smoothMethod: smoothMethod as BleuSmoothMethod,
    smoothValue,
    maxOrder,
    effectiveOrder: (o.effectiveOrder as boolean | undefined) ?? effectiveDefault,
  }
}

// mteval-v14 international tokenization (sacrebleu's `TokenizerV14International`, with the `regex`
// module's Unicode properties, which JavaScript's `u` flag has too).
const INTL_PUNCT_AFTER = /(\P{N})(\p{P})/gu
const INTL_PUNCT_BEFORE = /(\p{P})(\P{N})/gu
const INTL_SYMBOL = /(\p{S})/gu

function tokenizeIntl(line: string): string[] {
  return pySplit(line.replace(INTL_PUNCT_AFTER, '$1 $2 ').replace(INTL_PUNCT_BEFORE, ' $1 $2').replace(INTL_SYMBOL, ' $1 '))
}

/**
 * sacrebleu's `TokenizerZh._is_chinese_char`, code point ranges inclusive. Two of sacrebleu's ranges
 * are written `u'\u20000'`-`u'\u2a6d6'` and `u'\u2f800'`-`u'\u2fa1d'`, which Python reads as
 * two-character strings (`\u2000` + `0`, ...); compared with one character they select U+2001-U+2A6D
 * and U+2F81-U+2FA1 (general punctuation, arrows, symbols, ...), not the astral ideographs. Those
 * are kept, as they decide sacrebleu's scores.
 */
const ZH_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x3400, 0x4db5],
  [0x4e00, 0x9fa5],
  [0x9fa6, 0x9fbb],
  [0xf900, 0xfa2d],
  [0xfa30, 0xfa6a],
  [0xfa70, 0xfad9],
  [0x2001, 0x2a6d],
  [0x2f81, 0x2fa1],
  [0xff00, 0xffef],
  [0x2e80, 0x2eff],
  [0x3000, 0x303f],
  [0x31c0, 0x31ef],
  [0x2f00, 0x2fdf],
  [0x2ff0, 0x2fff],
  [0x3100, 0x312f],
  [0x31a0, 0x31bf],
  [0xfe10, 0xfe1f],
  [0xfe30, 0xfe4f],
  [0x2600, 0x26ff],
  [0x2700, 0x27bf],
  [0x3200, 0x32ff],
  [0x3300, 0x33ff],
]

function isZhChar(codePoint: number): boolean {
  for (const [start, end] of ZH_RANGES) if (codePoint >= start && codePoint <= end) return true
  return false
}

function pyStrip(s: string): string {
  let start = 0
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent for true and <=, charCodeAt past the end is NaN, not whitespace
  while (start < s.length && isPyWhitespaceUnit(s.charCodeAt(start))) start++
  return pyRstrip(s.slice(start))
}

const SPLIT_SYMBOLS = /([\x20-\x26\x28-\x2B\x2F\x3A-\x40\x5B-\x60\x7B-\x7E])/g

function tokenizeZh(line: string): string[] {
  let spaced = ''
  for (const char of pyStrip(line)) spaced += isZhChar(char.codePointAt(0) as number) ? ` ${char} ` : char
  // sacrebleu's `TokenizerRegexp` on the line as it is: unlike 13a, zh does not pad the line with
  // spaces, so a final `.` after a digit stays attached (`2.`), and `splitMteval`'s per-piece padding
  // does not apply.
  return pySplit(
    spaced
      .replace(SPLIT_SYMBOLS, ' $1 ')
      .replace(SPLIT_PERIOD_COMMA_AFTER, '$1 $2 ')
      .replace(SPLIT_PERIOD_COMMA_BEFORE, ' $1 $2')
      .replace(SPLIT_DASH_AFTER_DIGIT, '$1 $2 '),
  )
}

/** Every code point that is not Python whitespace (sacrebleu's `char` tokenizer, then `split()`). */
function tokenizeChar(line: string): string[] {
  const out: string[] = []
  // Stryker disable next-line ConditionalExpression: equivalent, the first unit of a surrogate pair is never whitespace
  for (const char of line) if (!(char.length === 1 && isPyWhitespaceUnit(char.charCodeAt(0)))) out.push(char)
  return out
}

/** sacrebleu's `BLEU._preprocess_segment` followed by `split()`: lowercase, rstrip, tokenize. */
function segmentTokens(text: string, settings: Pick<Settings, 'tokenize' | 'lowercase'>): string[] {
  const line = pyRstrip(settings.lowercase ? text.toLowerCase() : text)
  switch (settings.tokenize) {
    case '13a':
      return splitMteval(preprocess13a(line))
    case 'none':
      return pySplit(line)
    case 'intl':
      return tokenizeIntl(line)
    case 'char':
      return tokenizeChar(line)
    case 'zh':
      return tokenizeZh(line)
  }
}

/**
 * The tokens BLEU compares, with any of sacrebleu's tokenizers: `lowercase`, then `rstrip()`, then the
 * tokenizer, then split on whitespace. With no options this is {@link tokenize13a}.
 *
 * @example
 * ```ts
 * bleuTokenize('Über 2,5 €!', { tokenize: 'intl' }) // ['Über', '2,5', '€', '!']
 * bleuTokenize('火车晚点了', { tokenize: 'zh' })       // ['火', '车', '晚', '点', '了']
 * bleuTokenize('Ab c', { tokenize: 'char', lowercase: true }) // ['a', 'b', 'c']
 * ```
 */
export function bleuTokenize(text: string, options?: Pick<BleuOptions, 'tokenize' | 'lowercase'>): string[] {
  assertString(text, 'text', 'tokenize for BLEU')
  // Stryker disable next-line BooleanLiteral: equivalent, the effective-order default plays no part in tokenizing
  return segmentTokens(text, readSettings(options, 'tokenize for BLEU', true))
}

/**
 * Counts of all n-grams, n = 1..maxOrder, in one map per order (index n - 1). The key of an n-gram is
 * its tokens joined by a space, which is unambiguous because tokens never contain Python whitespace.
 * Keys are built incrementally from each start position (t1, t1 t2, t1 t2 t3, ...).
 */
function ngramCounts(tokens: readonly string[], maxOrder: number): Map<string, number>[] {
  const counts = Array.from({ length: maxOrder }, () => new Map<string, number>())
  // Stryker disable next-line EqualityOperator: equivalent, at i = tokens.length no n-gram fits (last = 0)
  for (let i = 0; i < tokens.length; i++) {
    let key = tokens[i] as string
    const last = Math.min(maxOrder, tokens.length - i)
    for (let n = 1; n <= last; n++) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, unigram keys become "t t" in candidate and references alike
      if (n > 1) key += ` ${tokens[i + n - 1] as string}`
      const map = counts[n - 1] as Map<string, number>
      map.set(key, (map.get(key) ?? 0) + 1)
    }
  }
  return counts
}

/** `_extract_reference_info`: per n-gram the maximum count over the references, and every length. */
function referenceInfo(references: readonly string[], settings: Settings): { ngrams: Map<string, number>[]; lengths: number[] } {
  let ngrams: Map<string, number>[] | undefined
  const lengths: number[] = []
  for (const reference of references) {
    const tokens = segmentTokens(reference, settings)
    lengths.push(tokens.length)
    const counts = ngramCounts(tokens, settings.maxOrder)
    if (ngrams === undefined) {
      ngrams = counts
    } else {
      for (let order = 0; order < settings.maxOrder; order++) {
        const merged = ngrams[order] as Map<string, number>
        for (const [ngram, count] of counts[order] as Map<string, number>) {
          // Stryker disable next-line EqualityOperator: equivalent, >= sets the same count again
          if (count > (merged.get(ngram) ?? 0)) merged.set(ngram, count)
        }
      }
    }
  }
  // assertStringOrStrings guarantees at least one reference, so `ngrams` is set.
  return { ngrams: ngrams as Map<string, number>[], lengths }
}

/** `_get_closest_ref_len`: the reference length closest to the candidate length, ties to the shorter. */
function closestReferenceLength(candidateLength: number, lengths: readonly number[]): number {
  let closestDiff = -1
  // Stryker disable next-line UnaryOperator: equivalent, the first length always replaces it (closestDiff is -1)
  let closestLength = -1
  for (const length of lengths) {
    const diff = Math.abs(candidateLength - length)
    if (closestDiff === -1 || diff < closestDiff) {
      closestDiff = diff
      closestLength = length
    } else if (diff === closestDiff) {
      closestLength = Math.min(closestLength, length)
    }
  }
  return closestLength
}

interface SegmentStats {
  sysLen: number
  refLen: number
  counts: number[]
  totals: number[]
}

/** `_compute_segment_statistics` for one candidate against its references. */
function segmentStats(candidate: string, references: readonly string[], settings: Settings): SegmentStats {
  const { ngrams: referenceNgrams, lengths } = referenceInfo(references, settings)
  const tokens = segmentTokens(candidate, settings)
  // Every order is assigned below, so arrays made without their length end up the same:
  // Stryker disable next-line ArrayDeclaration: equivalent, see above
  const counts = new Array<number>(settings.maxOrder).fill(0)
  // Stryker disable next-line ArrayDeclaration: equivalent, see above
  const totals = new Array<number>(settings.maxOrder).fill(0)
  const candidateNgrams = ngramCounts(tokens, settings.maxOrder)
  for (let order = 0; order < settings.maxOrder; order++) {
    const referenceCounts = referenceNgrams[order] as Map<string, number>
    let total = 0
    let correct = 0
    for (const [ngram, count] of candidateNgrams[order] as Map<string, number>) {
      total += count
      const referenceCount = referenceCounts.get(ngram)
      if (referenceCount !== undefined) correct += Math.min(count, referenceCount)
    }
    totals[order] = total
    counts[order] = correct
  }
  return { sysLen: tokens.length, refLen: closestReferenceLength(tokens.length, lengths), counts, totals }
}

/** sacrebleu's `my_log`: log with log(0) floored to -9999999999. */
function myLog(x: number): number {
  return x === 0 ? -9999999999 : Math.log(x)
}

/**
 * `BLEU.compute_bleu`, keeping sacrebleu's arithmetic on the 0-100 scale so the doubles agree with it.
 */
function computeBleu(stats: SegmentStats, settings: Settings): BleuDetails {
  const { sysLen, refLen } = stats
  const { maxOrder, smoothMethod, smoothValue, effectiveOrder } = settings
  // sacrebleu guards sysLen 0 (a ZeroDivisionError in Python) with bp 0; here refLen / 0 is Infinity and exp(-Infinity) is 0.
  const bp = sysLen < refLen ? Math.exp(1 - refLen / sysLen) : 1
  const precisions100 = new Array<number>(maxOrder).fill(0)
  // The same precisions as fractions, computed directly rather than as precisions100 / 100 (which
  // would show 1/3 as 0.33333333333333337).
  const precisions = new Array<number>(maxOrder).fill(0)
  const result = (score: number, order: number): BleuDetails => ({
    score: Math.min(1, Math.max(0, score)),
    precisions,
    bp,
    sysLen,
    refLen,
    counts: [...stats.counts],
    totals: [...stats.totals],
    effectiveOrder: order,
  })
  if (stats.counts.every((c) => c === 0)) {
    // The orders present are those before the first without candidate n-grams.
    const firstEmpty = stats.totals.indexOf(0)
    const present = firstEmpty === -1 ? maxOrder : firstEmpty
    return result(0, effectiveOrder ? present : maxOrder)
  }
  let smooth = 1
  let order = maxOrder
  for (let n = 1; n <= maxOrder; n++) {
    let correct = stats.counts[n - 1] as number
    let total = stats.totals[n - 1] as number
    if (smoothMethod === 'add-k' && n > 1) {
      correct += smoothValue
      total += smoothValue
    }
    if (total === 0) break
    if (effectiveOrder) order = n
    if (correct === 0) {
      if (smoothMethod === 'exp') {
        smooth *= 2
        precisions100[n - 1] = 100 / (smooth * total)
        precisions[n - 1] = 1 / (smooth * total)
      } else if (smoothMethod === 'floor') {
        precisions100[n - 1] = (100 * smoothValue) / total
        precisions[n - 1] = smoothValue / total
      }
    } else {
      precisions100[n - 1] = (100 * correct) / total
      precisions[n - 1] = correct / total
    }
  }
  let logSum = 0
  for (let n = 0; n < order; n++) logSum += myLog(precisions100[n] as number)
  return result((bp * Math.exp(logSum / order)) / 100, order)
}

function toReferenceList(reference: string | readonly string[]): readonly string[] {
  return typeof reference === 'string' ? [reference] : reference
}

/**
 * Sentence BLEU, identical to sacrebleu 2.6.0 `BLEU(effective_order=True, ...).sentence_score(candidate,
 * references).score / 100` (= `sentence_bleu`) with the same options; by default the 13a tokenizer,
 * case-sensitive, `exp` smoothing, effective order, max order 4.
 *
 * With several references, each candidate n-gram is clipped by its highest count in any one reference,
 * and the brevity penalty uses the reference length closest to the candidate's (the shorter on ties).
 * Effective order means a one-token candidate identical to the reference scores 1. The result is in
 * [0, 1]; it is 0 when no unigram matches.
 *
 * @param candidate - the model output (the hypothesis).
 * @param reference - the target text, or a non-empty array of alternative targets.
 * @param options - sacrebleu's options (see {@link BleuOptions}).
 *
 * @example
 * ```ts
 * bleu('The cat sat on the mat.', 'The cat sat on the mat.') // 1
 * bleu('1,500 mg', '1500 mg')                                // ≈ 0.5 ('1,500' is one token)
 * bleu('nasa', 'NASA')                                       // 0 (case-sensitive)
 * bleu('nasa', 'NASA', { lowercase: true })                  // 1
 * bleu('the cat', ['a dog', 'the cat'])                      // 1
 * bleu('猫在垫子上', '猫坐在垫子上', { tokenize: 'zh' })
 * ```
 */
export function bleu(candidate: string, reference: string | readonly string[], options?: BleuOptions): number {
  return bleuDetails(candidate, reference, options).score
}

/**
 * {@link bleu} with its statistics: n-gram precisions, brevity penalty, lengths, matches and totals
 * (sacrebleu's `BLEUScore` fields, with score and precisions divided by 100).
 *
 * @example
 * ```ts
 * const d = bleuDetails('stir stir stir', 'stir')
 * d.counts // [1, 0, 0, 0]
 * d.totals // [3, 2, 1, 0]
 * d.bp     // 1
 * ```
 */
export function bleuDetails(candidate: string, reference: string | readonly string[], options?: BleuOptions): BleuDetails {
  assertString(candidate, 'candidate', 'compute BLEU')
  assertStringOrStrings(reference, 'reference', 'compute BLEU')
  const settings = readSettings(options, 'compute BLEU', true)
  return computeBleu(segmentStats(candidate, toReferenceList(reference), settings), settings)
}

/**
 * BLEU from its sufficient statistics, as sacrebleu's `BLEU.compute_bleu(correct, total, sys_len,
 * ref_len, smooth_method, smooth_value, effective_order, max_ngram_order)`: useful when the counts come
 * from elsewhere (a cache, a merge of shards). The number of orders is the length of `counts`; the
 * options default as for a corpus (`exp` smoothing, effective order off).
 *
 * @example
 * ```ts
 * bleuFromStatistics({ counts: [9, 7, 5, 3], totals: [10, 8, 6, 4], sysLen: 11, refLen: 11 }).score // ≈ 0.8376
 * ```
 */
export function bleuFromStatistics(statistics: BleuStatistics, options?: Omit<BleuOptions, 'tokenize' | 'lowercase' | 'maxNgramOrder'>): BleuDetails {
  const action = 'compute BLEU from statistics'
  const s = statistics as Partial<BleuStatistics> | null
  const isCounts = (v: unknown): v is number[] => Array.isArray(v) && v.length > 0 && v.every((x) => Number.isFinite(x) && x >= 0)
  if (s === null || typeof s !== 'object' || !isCounts(s.counts) || !isCounts(s.totals) || s.counts.length !== s.totals.length) {
    throw optionError(
      action,
      `the statistics must be { counts, totals, sysLen, refLen } with counts and totals non-empty arrays ` +
        `of numbers >= 0 of one length, got ${describeValue(statistics)}`,
      'Pass the fields of a BleuDetails.',
    )
  }
  for (const key of ['sysLen', 'refLen'] as const) {
    const v = s[key]
    if (!isFiniteNumber(v) || v < 0) {
      throw optionError(action, `statistics.${key} must be a number >= 0, got ${describeValue(v)}`, 'Pass the fields of a BleuDetails.')
    }
  }
  const settings = readSettings({ ...(options ?? {}), maxNgramOrder: s.counts.length }, action, false)
  return computeBleu({ counts: [...s.counts], totals: [...s.totals], sysLen: s.sysLen as number, refLen: s.refLen as number }, settings)
}

function assertCorpus(candidates: unknown, references: unknown, action: string): asserts candidates is readonly string[] {
  if (!Array.isArray(candidates)) {
    throw new TypeError(
      formatMessage(`Failed to ${action}: the candidates must be an array of strings, got ${describeValue(candidates)}. Pass one model output per segment.`),
    )
  }
  if (!Array.isArray(references)) {
    throw new TypeError(
      formatMessage(
        `Failed to ${action}: the references must be an array, got ${describeValue(references)}. Pass one reference (or an array of references) per candidate.`,
      ),
    )
  }
  if (candidates.length === 0) {
    throw new TypeError(formatMessage(`Failed to ${action}: the candidates array is empty, so there is nothing to score. Pass at least one candidate.`))
  }
  if (candidates.length !== references.length) {
    throw new TypeError(
      formatMessage(
        `Failed to ${action}: got ${candidates.length} candidates but ${references.length} references. Pass ` +
          `exactly one reference (or one array of alternative references) per candidate, in the same order.`,
      ),
    )
  }
  candidates.forEach((candidate, i) => assertString(candidate, `candidate at index ${i}`, action))
  references.forEach((reference, i) => assertStringOrStrings(reference, `reference at index ${i}`, action))
}

/**
 * Corpus BLEU, identical to sacrebleu 2.6.0 `BLEU(...).corpus_score(candidates, refs).score / 100`
 * (= `corpus_bleu`) with the same options; by default 13a, case-sensitive, `exp` smoothing, effective
 * order **off**: the n-gram matches, totals and lengths of all segments are summed first and one score
 * is computed from the sums. This is not the mean of sentence BLEU scores. Without effective order, if
 * the corpus has no n-grams of some order (every candidate shorter than 4 tokens), the score is 0, as
 * in sacrebleu.
 *
 * @param candidates - one model output per segment.
 * @param references - for each candidate, its reference or a non-empty array of alternative references.
 *   Note the layout differs from sacrebleu's (which takes reference *streams*): here
 *   `references[i]` belongs to `candidates[i]`.
 * @param options - sacrebleu's options (see {@link BleuOptions}).
 *
 * @example
 * ```ts
 * corpusBleu(
 *   ['The train leaves at 9.', 'Platform 4'],
 *   ['The train departs at 9.', ['Platform 4', 'Track 4']],
 * ) // one score from the summed statistics
 * ```
 */
export function corpusBleu(candidates: readonly string[], references: ReadonlyArray<string | readonly string[]>, options?: BleuOptions): number {
  return corpusBleuDetails(candidates, references, options).score
}

/**
 * {@link corpusBleu} with the summed statistics (sacrebleu's `BLEUScore` fields: counts, totals,
 * precisions, brevity penalty, lengths; score and precisions divided by 100).
 *
 * @example
 * ```ts
 * const d = corpusBleuDetails(['Boil', 'Platform 4'], ['Boil', 'Platform 4'])
 * d.counts // [3, 1, 0, 0]
 * d.score  // 0 (no 3-grams in the corpus)
 * ```
 */
export function corpusBleuDetails(candidates: readonly string[], references: ReadonlyArray<string | readonly string[]>, options?: BleuOptions): BleuDetails {
  const action = 'compute corpus BLEU'
  assertCorpus(candidates, references, action)
  const settings = readSettings(options, action, false)
  const sum: SegmentStats = { sysLen: 0, refLen: 0, counts: new Array<number>(settings.maxOrder).fill(0), totals: new Array<number>(settings.maxOrder).fill(0) }
  candidates.forEach((candidate, i) => {
    const stats = segmentStats(candidate, toReferenceList(references[i] as string | readonly string[]), settings)
    sum.sysLen += stats.sysLen
    sum.refLen += stats.refLen
    for (let n = 0; n < settings.maxOrder; n++) {
      sum.counts[n] = (sum.counts[n] as number) + (stats.counts[n] as number)
      sum.totals[n] = (sum.totals[n] as number) + (stats.totals[n] as number)
    }
  })
  return computeBleu(sum, settings)
}

export { assertCorpus }
