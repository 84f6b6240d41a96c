/**
 * BLEU as computed by sacrebleu 2.6.0 (`sentence_bleu` and `corpus_bleu` with their defaults): the
 * `13a` tokenizer (mteval-v13a), case-sensitive, `exp` smoothing, maximum order 4, effective order on
 * for sentences and off for corpora. Scores are sacrebleu's score divided by 100.
 *
 * This is a port of sacrebleu's `BLEU.compute_bleu`, `_extract_reference_info`,
 * `_compute_segment_statistics`, `_get_closest_ref_len` and `Tokenizer13a`: no JavaScript package
 * reproduces sacrebleu's numbers (they use other tokenizers and smoothing), and the reference vectors
 * in `fixtures/reference/` require them to 1e-9.
 *
 * @module
 */
import { assertString, assertStringOrStrings, describeValue, formatMessage } from '../errors.js'
import { isPyWhitespaceUnit, pyRstrip, pySplit } from './text.js'

const MAX_ORDER = 4

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
 * sacrebleu's `TokenizerRegexp` (the part of `13a` and `zh` after their pre-processing), as tokens.
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
  let digitDash = false // a `-` right after a digit in the current piece
  const n = line.length
  for (let i = 0; i <= n; i++) {
    const unit = i < n ? line.charCodeAt(i) : 0x20
    const kind = unit < 128 ? (MTEVAL_CLASS[unit] as number) : isPyWhitespaceUnit(unit) ? 1 : 0
    if (kind === 1 || kind === 2) {
      if (start >= 0) {
        if (periods === 0 && !digitDash) {
          out.push(line.slice(start, i)) // rules 2-4 do not apply
        } else if (periods === 1 && !digitDash && i - start > 1 && (line.charCodeAt(i - 1) === 0x2e || line.charCodeAt(i - 1) === 0x2c)) {
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
        digitDash = false
      }
      if (kind === 2) out.push(line[i] as string)
    } else {
      if (start < 0) start = i
      if (kind === 3) {
        if (unit === 0x2d) {
          const before = i > start ? line.charCodeAt(i - 1) : 0
          if (before >= 0x30 && before <= 0x39) digitDash = true
        } else {
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
  if (line.includes('<skipped>')) line = line.replaceAll('<skipped>', '')
  if (line.includes('\n')) line = line.replaceAll('-\n', '').replaceAll('\n', ' ')
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

/** BLEU with its sufficient statistics, for failure messages and debugging. */
export interface BleuDetails {
  /** BLEU in [0, 1] (sacrebleu's score / 100, clamped so a perfect match is exactly 1). */
  score: number
  /**
   * Modified n-gram precisions for n = 1..4, in [0, 1] (sacrebleu's `precisions` / 100). For an order
   * with no match, the `exp`-smoothed value 1 / (2^k · total) is shown, where this is the k-th such order.
   * Orders beyond the effective order are 0.
   */
  precisions: number[]
  /** Brevity penalty in [0, 1]. */
  bp: number
  /** Candidate length in 13a tokens (summed over the corpus for corpus BLEU). */
  sysLen: number
  /** Length of the reference closest in length to the candidate (summed over the corpus). */
  refLen: number
  /** Clipped n-gram matches for n = 1..4. */
  counts: number[]
  /** Candidate n-grams for n = 1..4. */
  totals: number[]
  /** The number of n-gram orders averaged: min(4, sysLen) for sentence BLEU, 4 for corpus BLEU. */
  effectiveOrder: number
}

/**
 * Counts of all n-grams, n = 1..4, in one map per order (index n - 1). The key of an n-gram is its
 * tokens joined by a space, which is unambiguous because tokens never contain Python whitespace.
 * Keys are built incrementally from each start position (t1, t1 t2, t1 t2 t3, ...).
 */
function ngramCounts(tokens: readonly string[]): Map<string, number>[] {
  const counts = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>(), new Map<string, number>()]
  for (let i = 0; i < tokens.length; i++) {
    let key = tokens[i] as string
    const last = Math.min(MAX_ORDER, tokens.length - i)
    for (let n = 1; n <= last; n++) {
      if (n > 1) key += ` ${tokens[i + n - 1] as string}`
      const map = counts[n - 1] as Map<string, number>
      map.set(key, (map.get(key) ?? 0) + 1)
    }
  }
  return counts
}

/** `_extract_reference_info`: per n-gram the maximum count over the references, and every length. */
function referenceInfo(references: readonly string[]): { ngrams: Map<string, number>[]; lengths: number[] } {
  let ngrams: Map<string, number>[] | undefined
  const lengths: number[] = []
  for (const reference of references) {
    const tokens = tokenize13a(reference)
    lengths.push(tokens.length)
    const counts = ngramCounts(tokens)
    if (ngrams === undefined) {
      ngrams = counts
    } else {
      for (let order = 0; order < MAX_ORDER; order++) {
        const merged = ngrams[order] as Map<string, number>
        for (const [ngram, count] of counts[order] as Map<string, number>) {
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
  let closestLength = -1
  for (const length of lengths) {
    const diff = Math.abs(candidateLength - length)
    if (closestDiff === -1 || diff < closestDiff) {
      closestDiff = diff
      closestLength = length
    } else if (diff === closestDiff && length < closestLength) {
      closestLength = length
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
function segmentStats(candidate: string, references: readonly string[]): SegmentStats {
  const { ngrams: referenceNgrams, lengths } = referenceInfo(references)
  const tokens = tokenize13a(candidate)
  const counts = [0, 0, 0, 0]
  const totals = [0, 0, 0, 0]
  const candidateNgrams = ngramCounts(tokens)
  for (let order = 0; order < MAX_ORDER; order++) {
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
 * `BLEU.compute_bleu` with `smooth_method='exp'` and max order 4, keeping sacrebleu's arithmetic on
 * the 0–100 scale so the doubles agree with it.
 */
function computeBleu(stats: SegmentStats, effectiveOrder: boolean): BleuDetails {
  const { sysLen, refLen, counts, totals } = stats
  const bp = sysLen < refLen ? (sysLen > 0 ? Math.exp(1 - refLen / sysLen) : 0) : 1
  const precisions100 = [0, 0, 0, 0]
  // The same precisions as fractions, computed directly rather than as precisions100 / 100 (which
  // would show 1/3 as 0.33333333333333337).
  const precisions = [0, 0, 0, 0]
  const result = (score: number, order: number): BleuDetails => ({
    score: Math.min(1, Math.max(0, score)),
    precisions,
    bp,
    sysLen,
    refLen,
    counts: [...counts],
    totals: [...totals],
    effectiveOrder: order,
  })
  if (counts.every((c) => c === 0)) return result(0, effectiveOrder ? Math.min(MAX_ORDER, sysLen) : MAX_ORDER)
  let smooth = 1
  let order = MAX_ORDER
  for (let n = 1; n <= MAX_ORDER; n++) {
    const total = totals[n - 1] as number
    const correct = counts[n - 1] as number
    if (total === 0) break
    if (effectiveOrder) order = n
    if (correct === 0) {
      smooth *= 2
      precisions100[n - 1] = 100 / (smooth * total)
      precisions[n - 1] = 1 / (smooth * total)
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
 * Sentence BLEU, identical to sacrebleu 2.6.0 `sentence_bleu(candidate, references).score / 100` with
 * the defaults (13a tokenizer, case-sensitive, `exp` smoothing, effective order, max order 4).
 *
 * With several references, each candidate n-gram is clipped by its highest count in any one reference,
 * and the brevity penalty uses the reference length closest to the candidate's (the shorter on ties).
 * Effective order means a one-token candidate identical to the reference scores 1. The result is in
 * [0, 1]; it is 0 when no unigram matches.
 *
 * @param candidate - the model output (the hypothesis).
 * @param reference - the target text, or a non-empty array of alternative targets.
 *
 * @example
 * ```ts
 * bleu('The cat sat on the mat.', 'The cat sat on the mat.') // 1
 * bleu('1,500 mg', '1500 mg')                                // ≈ 0.5 ('1,500' is one token)
 * bleu('nasa', 'NASA')                                       // 0 (case-sensitive)
 * bleu('the cat', ['a dog', 'the cat'])                      // 1
 * ```
 */
export function bleu(candidate: string, reference: string | readonly string[]): number {
  return bleuDetails(candidate, reference).score
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
export function bleuDetails(candidate: string, reference: string | readonly string[]): BleuDetails {
  assertString(candidate, 'candidate', 'compute BLEU')
  assertStringOrStrings(reference, 'reference', 'compute BLEU')
  return computeBleu(segmentStats(candidate, toReferenceList(reference)), true)
}

function assertCorpus(candidates: unknown, references: unknown): asserts candidates is readonly string[] {
  const action = 'compute corpus BLEU'
  if (!Array.isArray(candidates)) {
    throw new TypeError(
      formatMessage(
        `Failed to ${action}: the candidates must be an array of strings, got ${describeValue(candidates)}. Pass one model output per segment.`,
      ),
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
    throw new TypeError(
      formatMessage(`Failed to ${action}: the candidates array is empty, so there is nothing to score. Pass at least one candidate.`),
    )
  }
  if (candidates.length !== references.length) {
    throw new TypeError(
      formatMessage(
        `Failed to ${action}: got ${candidates.length} candidates but ${references.length} references. Pass exactly one reference (or one array of alternative references) per candidate, in the same order.`,
      ),
    )
  }
  candidates.forEach((candidate, i) => assertString(candidate, `candidate at index ${i}`, action))
  references.forEach((reference, i) => assertStringOrStrings(reference, `reference at index ${i}`, action))
}

/**
 * Corpus BLEU, identical to sacrebleu 2.6.0 `corpus_bleu(candidates, refs).score / 100` with the
 * defaults (13a, case-sensitive, `exp` smoothing, effective order **off**): the n-gram matches, totals
 * and lengths of all segments are summed first and one score is computed from the sums. This is not
 * the mean of sentence BLEU scores. If the corpus has no n-grams of some order up to 4 (every candidate
 * shorter than 4 tokens), the score is 0, as in sacrebleu.
 *
 * @param candidates - one model output per segment.
 * @param references - for each candidate, its reference or a non-empty array of alternative references.
 *   Note the layout differs from sacrebleu's (which takes reference *streams*): here
 *   `references[i]` belongs to `candidates[i]`.
 *
 * @example
 * ```ts
 * corpusBleu(
 *   ['The train leaves at 9.', 'Platform 4'],
 *   ['The train departs at 9.', ['Platform 4', 'Track 4']],
 * ) // one score from the summed statistics
 * ```
 */
export function corpusBleu(
  candidates: readonly string[],
  references: ReadonlyArray<string | readonly string[]>,
): number {
  return corpusBleuDetails(candidates, references).score
}

/**
 * {@link corpusBleu} with the summed statistics (sacrebleu's `BLEUScore` fields, score and precisions
 * divided by 100).
 *
 * @example
 * ```ts
 * const d = corpusBleuDetails(['Boil', 'Platform 4'], ['Boil', 'Platform 4'])
 * d.counts // [3, 1, 0, 0]
 * d.score  // 0 (no 3-grams in the corpus)
 * ```
 */
export function corpusBleuDetails(
  candidates: readonly string[],
  references: ReadonlyArray<string | readonly string[]>,
): BleuDetails {
  assertCorpus(candidates, references)
  const sum: SegmentStats = { sysLen: 0, refLen: 0, counts: [0, 0, 0, 0], totals: [0, 0, 0, 0] }
  candidates.forEach((candidate, i) => {
    const stats = segmentStats(candidate, toReferenceList(references[i] as string | readonly string[]))
    sum.sysLen += stats.sysLen
    sum.refLen += stats.refLen
    for (let n = 0; n < MAX_ORDER; n++) {
      sum.counts[n] = (sum.counts[n] as number) + (stats.counts[n] as number)
      sum.totals[n] = (sum.totals[n] as number) + (stats.totals[n] as number)
    }
  })
  return computeBleu(sum, false)
}
