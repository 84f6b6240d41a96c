/**
 * TER (translation edit rate, Snover et al. 2006) as computed by sacrebleu 2.6.0 (`TER`,
 * `sentence_ter`, `corpus_ter`), with every option of sacrebleu's `TER`: `normalized`, `no_punct`,
 * `asian_support` and `case_sensitive`. Scores are sacrebleu's score divided by 100: the number of
 * edits (insertions, deletions, substitutions and block shifts) per reference word, 0 for a perfect
 * match and above 1 when the edits outnumber the reference words.
 *
 * A port of sacrebleu's `lib_ter` (the Tercom algorithm: greedy block shifts chosen by Tercom's ranking,
 * then a beam edit distance around the diagonal), its `TercomTokenizer` and `TER`'s multi-reference
 * rules. It keeps sacrebleu's bounds exactly (shifts of at most 10 words over at most 50 positions, a
 * beam of 25, at most 1,000 shift candidates per segment), so the results are sacrebleu's on every
 * input and the cost grows as sacrebleu's does. sacrebleu's prefix cache of edit-distance rows is
 * replaced by keeping the rows of the hypothesis each search round starts from: a shifted candidate
 * shares every row before the first moved word, so only the rows after it are recomputed. No npm package
 * implements Tercom's shifts with sacrebleu's bounds and tie-breaking.
 *
 * @module
 */
import { assertString, assertStringOrStrings, describeValue } from '../errors.js'
import { assertCorpus } from './bleu.js'
import { optionError, readOptionObject } from './options.js'
import { pyRstrip, pySplit } from './text.js'

/** Options of the TER functions, named after sacrebleu's `TER(...)` arguments (camel-cased). */
export interface TerOptions {
  /**
   * sacrebleu `normalized`: Tercom's normalisation (join `\n-` hyphenation and lines, unescape
   * `&quot; &amp; &lt; &gt;`, split punctuation, possessive `'s`, `.`/`,` unless between digits, `-`
   * after a digit). Default `false`.
   */
  normalized?: boolean
  /** sacrebleu `no_punct`: delete `. , ? : ; ! " ( )` (and CJK punctuation with `asianSupport`). Default `false`. */
  noPunct?: boolean
  /**
   * sacrebleu `asian_support`: with `normalized`, split CJK ideographs (and kana runs next to other
   * text) into characters; with `noPunct`, also delete CJK and full-width punctuation. Default `false`.
   */
  asianSupport?: boolean
  /** sacrebleu `case_sensitive`: keep case. Default `false` (TER lower-cases). */
  caseSensitive?: boolean
}

/** TER with its statistics (sacrebleu's `TERScore`). */
export interface TerDetails {
  /** Edits per reference word: sacrebleu's score / 100 (0 is a perfect match; may exceed 1). */
  score: number
  /** Edits, shifts included (summed over a corpus). */
  edits: number
  /** Average reference length in words (summed over a corpus). */
  referenceLength: number
  /** Index of the reference with the fewest edits (the first on ties; -1 for a corpus). */
  bestReferenceIndex: number
}

interface Settings {
  normalized: boolean
  noPunct: boolean
  asianSupport: boolean
  caseSensitive: boolean
}

const OPTION_KEYS = ['normalized', 'noPunct', 'asianSupport', 'caseSensitive'] as const

function readSettings(options: unknown, action: string): Settings {
  // Stryker disable next-line ObjectLiteral: the flags are only tested for truthiness, so an absent flag acts as false
  const settings: Settings = { normalized: false, noPunct: false, asianSupport: false, caseSensitive: false }
  const o = readOptionObject(options, OPTION_KEYS, action, 'Pass e.g. { normalized: true }.')
  for (const key of OPTION_KEYS) {
    const v = o[key]
    if (v === undefined) continue
    if (typeof v !== 'boolean') throw optionError(action, `options.${key} must be a boolean, got ${describeValue(v)}`, 'Pass true or false.')
    settings[key] = v
  }
  return settings
}

// ---------------------------------------------------------------------------------------------
// Tercom tokenizer (sacrebleu's tokenizer_ter.py). The Python patterns are BMP-only classes, so
// they mean the same without JavaScript's `u` flag.
// ---------------------------------------------------------------------------------------------

const WESTERN: ReadonlyArray<readonly [RegExp, string]> = [
  [/([\x7B-\x7E\x5B-\x60\x20-\x26\x28-\x2B\x3A-\x40\x2F])/g, ' $1 '],
  [/'s /g, " 's "],
  [/'s$/g, " 's"],
  [/([^0-9])([.,])/g, '$1 $2 '],
  [/([.,])([^0-9])/g, ' $1 $2'],
  [/([0-9])(-)/g, '$1 $2 '],
]
const ASIAN_PUNCT = /([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])/g
const FULL_WIDTH_PUNCT = /([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])/g
const ASIAN: ReadonlyArray<readonly [RegExp, string]> = [
  [/([\u4e00-\u9fff\u3400-\u4dbf])/g, ' $1 '],
  [/([\u31c0-\u31ef\u2e80-\u2eff])/g, ' $1 '],
  [/([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])/g, ' $1 '],
  [/([\u3200-\u3f22])/g, ' $1 '],
  [/(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])/g, '$1 $2 '],
  [/(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])/g, '$1 $2 '],
  [/(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])/g, '$1 $2 '],
  [ASIAN_PUNCT, ' $1 '],
  [FULL_WIDTH_PUNCT, ' $1 '],
]
const PUNCT = /[.,?:;!"()]/g

function applyAll(text: string, rules: ReadonlyArray<readonly [RegExp, string]>): string {
  let out = text
  for (const [pattern, replacement] of rules) out = out.replace(pattern, replacement)
  return out
}

/** sacrebleu's `TER._preprocess_segment` + `TercomTokenizer` + `split()`. */
function terTokens(text: string, s: Settings): string[] {
  let sent = pyRstrip(text)
  if (!s.caseSensitive) sent = sent.toLowerCase()
  if (s.normalized) {
    sent = sent.replace(/\n-/g, '').replace(/\n/g, ' ')
    sent = sent.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>')
    sent = applyAll(` ${sent} `, WESTERN)
    if (s.asianSupport) sent = applyAll(sent, ASIAN)
  }
  if (s.noPunct) {
    sent = sent.replace(PUNCT, '')
    if (s.asianSupport) sent = sent.replace(ASIAN_PUNCT, '').replace(FULL_WIDTH_PUNCT, '')
  }
  return pySplit(sent)
}

/**
 * The words TER compares: sacrebleu's `rstrip()`, then the Tercom tokenizer with the same options,
 * then split on whitespace.
 *
 * @example
 * ```ts
 * terTokenize("Jim's car.", { normalized: true }) // ['jim', "'s", 'car', '.']
 * terTokenize('A ; B ) C : D.', { noPunct: true })  // ['a', 'b', 'c', 'd']
 * ```
 */
export function terTokenize(text: string, options?: TerOptions): string[] {
  assertString(text, 'text', 'tokenize for TER')
  return terTokens(text, readSettings(options, 'tokenize for TER'))
}

// ---------------------------------------------------------------------------------------------
// Tercom's edit distance with shifts (sacrebleu's lib_ter.py)
// ---------------------------------------------------------------------------------------------

const MAX_SHIFT_SIZE = 10
const MAX_SHIFT_DIST = 50
const BEAM_WIDTH = 25
const MAX_SHIFT_CANDIDATES = 1000
/** sacrebleu's `_INT_INFINITY` role: larger than any real cost, and INF + n stays exact in 32 bits. */
const INF = 1 << 29

const OP_NOP = 0
const OP_SUB = 1
const OP_DEL = 2 // consumes a hypothesis word (`d` in sacrebleu's trace)
const OP_INS = 3 // consumes a reference word (`i`)
const OP_UNDEF = 4

/**
 * sacrebleu's `BeamEditDistance` for one reference and hypotheses of one length (shifts keep the
 * length). Each row i of the table is only computed over the band sacrebleu computes (`min_j..max_j`
 * around the pseudo-diagonal); cells outside it read as infinite, exactly as sacrebleu's pre-filled
 * rows. The band depends only on i, so the rows are stored packed by band.
 */
class BeamEditDistance {
  private readonly lo: Int32Array
  private readonly hi: Int32Array
  private readonly offset: Int32Array
  /** Costs of the last full computation (the round's hypothesis), and its operations. */
  private readonly base: Int32Array
  private readonly ops: Uint8Array
  /** Rows of candidates, recomputed from the first row that differs from the base. */
  private readonly scratch: Int32Array
  /** The base's backward costs (see `fillBackward`). */
  private readonly backward: Int32Array

  constructor(
    private readonly ref: Int32Array,
    private readonly n: number,
  ) {
    const m = ref.length
    const ratio = m / n // Infinity for an empty hypothesis (n = 0), NaN when both are empty: no row to band either way
    const beam = BEAM_WIDTH < ratio / 2 ? Math.ceil(ratio / 2 + BEAM_WIDTH) : BEAM_WIDTH
    // Row n + 1 does not exist: its band is empty (lo = hi = 0), so the backward pass takes no step into it.
    this.lo = new Int32Array(n + 2)
    this.hi = new Int32Array(n + 2)
    this.offset = new Int32Array(n + 2)
    this.hi[0] = m + 1
    this.offset[1] = m + 1
    for (let i = 1; i <= n; i++) {
      const diagonal = Math.floor(i * ratio)
      const lo = Math.max(0, diagonal - beam)
      // The last row ends at m + 1, as sacrebleu's `max_j` there: its diagonal is m (or m - 1 by rounding).
      const hi = Math.min(m + 1, diagonal + beam)
      this.lo[i] = lo
      this.hi[i] = hi
      // Stryker disable next-line ArithmeticOperator: a wider stride (hi + lo) only leaves unused gaps between the packed rows
      const width = hi - lo // at least 1: lo <= m and lo < diagonal + beam
      this.offset[i + 1] = (this.offset[i] as number) + width
    }
    const size = this.offset[n + 1] as number
    this.base = new Int32Array(size)
    this.ops = new Uint8Array(size).fill(OP_UNDEF)
    this.scratch = new Int32Array(size)
    this.backward = new Int32Array(size)
    // Row 0: inserting the first j reference words.
    for (let j = 0; j <= m; j++) {
      this.base[j] = j
      this.scratch[j] = j
      this.ops[j] = OP_INS
    }
  }

  /** Computes rows `from..n` of `hyp` into `out` (reading row `from - 1` from `previous`); returns the final cost. */
  private fill(hyp: Int32Array, from: number, to: number, previous: Int32Array, out: Int32Array, ops: Uint8Array | undefined): void {
    const ref = this.ref
    const lo = this.lo
    const hi = this.hi
    const offset = this.offset
    for (let i = from; i <= to; i++) {
      const prev = i === from ? previous : out
      // Row i - 1's band: cells outside it are infinite.
      const pLo = lo[i - 1] as number
      const pHi = hi[i - 1] as number
      const pBase = (offset[i - 1] as number) - pLo
      const rLo = lo[i] as number
      const rHi = hi[i] as number
      const base = (offset[i] as number) - rLo
      const word = hyp[i - 1] as number
      let left = INF // cell (i, j - 1); infinite left of the band
      // `!==`, not `<` (the band is never empty): `j <= rHi` would fill one cell past the row, which the next row overwrites.
      for (let j = rLo; j !== rHi; j++) {
        // Tercom prefers no-op/substitution, then (flipped) deletion, then insertion. The diagonal starts the minimum even
        // outside row i - 1's band (INF; at j = 0 outside the table, and ref[-1] is undefined): every cell of the band has a
        // finite candidate, which replaces it. That is the cell to its left, or for the band's first cell the one above (the
        // band stayed) or the diagonal (the band moved right, by at most ceil(ratio) <= 2 * beam columns).
        const same = word === ref[j - 1]
        let best = (j - 1 >= pLo && j - 1 < pHi ? (prev[pBase + j - 1] as number) : INF) + (same ? 0 : 1)
        let op = same ? OP_NOP : OP_SUB
        // No `j >= pLo` check: the band never moves left (lo[i] >= lo[i - 1]).
        const up = (j < pHi ? (prev[pBase + j] as number) : INF) + 1
        if (best > up) {
          best = up
          op = OP_DEL
        }
        if (best > left + 1) {
          best = left + 1
          op = OP_INS
        }
        out[base + j] = best
        if (ops !== undefined) ops[base + j] = op
        left = best
      }
    }
  }

  /**
   * The costs from every cell of rows 1..n to the end, over the same band (the table read backwards): B(i, j) =
   * the cheapest way from (i, j) to (n, m) through cells of the band. For any row r, the forward cost
   * at (n, m) is min over j of F(r, j) + B(r, j), since every path crosses row r.
   */
  private fillBackward(hyp: Int32Array): void {
    const { ref, lo, hi, offset, n, backward } = this
    const m = ref.length
    // Not row 0, which is never read: distanceFrom reads row min(end, n), and a shift's changed positions end at 1 or later.
    for (let i = n; i >= 1; i--) {
      const rLo = lo[i] as number
      const rHi = hi[i] as number
      const base = (offset[i] as number) - rLo
      // Row i + 1's band (empty for i = n).
      const nLo = lo[i + 1] as number
      const nHi = hi[i + 1] as number
      const nBase = (offset[i + 1] as number) - nLo
      let right = INF // B(i, j + 1)
      for (let j = rHi - 1; j >= rLo; j--) {
        // The move right starts the minimum. Past the band's end it is INF + 1, which the move down replaces (row i + 1's
        // band ends no sooner), and in row n that cell is the end (n, m) itself.
        let best = i === n && j === m ? 0 : right + 1
        if (j >= nLo) {
          // Row i + 1's band ends no sooner than row i's (hi never decreases), so only row n, below which the band is empty,
          // fails this; a read past the table there would be NaN, never < best.
          // Stryker disable next-line ConditionalExpression,EqualityOperator: j < nHi fails only in row n, where a read past the table is NaN
          if (j < nHi) {
            const down = (backward[nBase + j] as number) + 1
            // Stryker disable next-line EqualityOperator: down <= best only also replaces an equal cost by itself
            if (down < best) best = down
          }
        }
        // No `j + 1 <= m` check: j + 1 < nHi <= m + 1.
        if (j + 1 >= nLo && j + 1 < nHi) {
          const diagonal = (backward[nBase + j + 1] as number) + (hyp[i] === ref[j] ? 0 : 1)
          // Stryker disable next-line EqualityOperator: diagonal <= best only also replaces an equal cost by itself
          if (diagonal < best) best = diagonal
        }
        backward[base + j] = best
        right = best
      }
    }
  }

  /** Edit distance of `hyp` and the trace (ops from start to end), kept as the base of later candidates. */
  distanceWithTrace(hyp: Int32Array): { cost: number; trace: number[] } {
    this.fill(hyp, 1, this.n, this.base, this.base, this.ops)
    this.fillBackward(hyp)
    // Cell (n, m), always in the last row's band.
    const cost = this.base[(this.offset[this.n] as number) + this.ref.length - (this.lo[this.n] as number)] as number
    const trace: number[] = []
    let i = this.n
    let j = this.ref.length
    while (i > 0 || j > 0) {
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: each op points to an in-band cell, so this holds
      const inBand = j >= (this.lo[i] as number) && j < (this.hi[i] as number)
      const op = inBand ? (this.ops[(this.offset[i] as number) + j - (this.lo[i] as number)] as number) : OP_UNDEF
      trace.push(op)
      if (op === OP_NOP || op === OP_SUB) {
        i--
        j--
      } else if (op === OP_INS) {
        j--
      } else if (op === OP_DEL) {
        i--
      } else {
        // Each op was chosen from a finite neighbour, so the path stays in the band, where every cell has an op:
        // a cell without one is a bug, which must fail loudly rather than give a wrong trace.
        throw new Error(`[expect-llm] TER: no edit operation at cell (${i}, ${j}); please report this input.`)
      }
    }
    trace.reverse()
    return { cost, trace }
  }

  /**
   * Edit distance of `hyp`, which equals the last `distanceWithTrace` hypothesis except at positions
   * `start..end - 1`: rows up to `start` are the base's, rows `start + 1..end` are computed, and the
   * rest comes from the base's backward costs at row `end`. Same value as the full table.
   */
  distanceFrom(hyp: Int32Array, start: number, end: number): number {
    const i = Math.min(end, this.n)
    // No `i > start` check: start < n (a shift starts before the last word) and end > start, so row start + 1 is changed.
    this.fill(hyp, start + 1, i, this.base, this.scratch, undefined)
    const table = this.scratch
    const lo = this.lo[i] as number
    const hi = this.hi[i] as number
    const base = (this.offset[i] as number) - lo
    let best = INF
    for (let j = lo; j < hi; j++) {
      const cost = (table[base + j] as number) + (this.backward[base + j] as number)
      // Stryker disable next-line EqualityOperator: cost <= best only also replaces an equal cost by itself
      if (cost < best) best = cost
    }
    return best
  }
}

/** `_perform_shift`: move `length` words at `start` to before position `target`. */
function performShift(words: Int32Array, start: number, length: number, target: number): Int32Array {
  const out = new Int32Array(words.length)
  let k = 0
  // Python's slices stop at the end of the list: `length + target` may lie past it.
  const copy = (from: number, to: number) => {
    for (let x = from; x < Math.min(to, words.length); x++) out[k++] = words[x] as number
  }
  // Stryker disable next-line EqualityOperator: at target = start both branches leave the words unchanged
  if (target < start) {
    copy(0, target)
    copy(start, start + length)
    copy(target, start)
    copy(start + length, words.length)
  } else if (target > start + length) {
    copy(0, start)
    copy(start + length, target)
    copy(start, start + length)
    copy(target, words.length)
  } else {
    copy(0, start)
    copy(start + length, length + target)
    copy(start, start + length)
    copy(length + target, words.length)
  }
  return out
}

/**
 * Where the positions {@link performShift} changes end: min(start, target) up to the block's new end for a move within
 * reach of itself, its old end for a move left, the target for a move past it. Without the second `if` the end is
 * target + length, past the last changed position: distanceFrom then recomputes unchanged rows too, for the same cost.
 */
function changedEnd(start: number, length: number, target: number): number {
  let end = target + length
  // Stryker disable next-line EqualityOperator: at target = start both give start + length
  if (target < start) end = start + length
  // Stryker disable next-line ConditionalExpression: a later end only recomputes unchanged rows (same cost, more work)
  if (target > start + length) end = target
  return end
}

/**
 * The alignment a trace gives (`_shift`'s first step): for each reference word, the hypothesis position it
 * aligns to, and which words of each side are in error. The trace rewrites the reference into the
 * hypothesis, so insertions and deletions swap roles.
 */
export function traceErrors(trace: Iterable<number>, hypLength: number, refLength: number): { align: Int32Array; refErr: Uint8Array; hypErr: Uint8Array } {
  const align = new Int32Array(refLength)
  const refErr = new Uint8Array(refLength)
  const hypErr = new Uint8Array(hypLength)
  let posHyp = -1
  let posRef = -1
  for (const op of trace) {
    if (op === OP_NOP || op === OP_SUB) {
      posHyp++
      posRef++
      align[posRef] = posHyp
      if (op === OP_SUB) {
        hypErr[posHyp] = 1
        refErr[posRef] = 1
      }
    } else if (op === OP_DEL) {
      posHyp++ // flipped: an insertion into the hypothesis
      hypErr[posHyp] = 1
    } else {
      posRef++ // flipped: a deletion from the reference
      align[posRef] = posHyp
      refErr[posRef] = 1
    }
  }
  return { align, refErr, hypErr }
}

/** A shift considered by {@link bestShift}: edits it saves, words moved, where from and to, the result. */
export interface ShiftCandidate {
  delta: number
  length: number
  start: number
  idx: number
  words: Int32Array
}

/** Tercom's ranking of shifts: most edits saved, then longest, then earliest start, then earliest target. */
export function ranksAbove(a: Omit<ShiftCandidate, 'words'>, b: Omit<ShiftCandidate, 'words'>): boolean {
  // Stryker disable next-line EqualityOperator: reached only when the deltas differ, where >= is >
  if (a.delta !== b.delta) return a.delta > b.delta
  // Stryker disable next-line EqualityOperator: reached only when the lengths differ, where >= is >
  if (a.length !== b.length) return a.length > b.length
  // Stryker disable next-line EqualityOperator: reached only when the starts differ, where <= is <
  if (a.start !== b.start) return a.start < b.start
  return a.idx < b.idx
}

/** `_shift`: the best shift of this round by Tercom's ranking, and the candidates checked so far. */
function bestShift(hyp: Int32Array, ref: Int32Array, ed: BeamEditDistance, checked: number): { delta: number; words: Int32Array; checked: number } {
  const { cost: preScore, trace } = ed.distanceWithTrace(hyp)
  const { align, refErr, hypErr } = traceErrors(trace, hyp.length, ref.length)
  let best: ShiftCandidate | undefined
  const n = hyp.length
  const m = ref.length
  // Stryker disable next-line EqualityOperator: at startH = n, hyp[n] is undefined and equals no reference word, so the length loop stops at once
  outer: for (let startH = 0; startH < n; startH++) {
    for (let startR = Math.max(0, startH - MAX_SHIFT_DIST); startR < Math.min(m, startH + MAX_SHIFT_DIST + 1); startR++) {
      // `_find_shifted_pairs`: every common run of 1..10 words starting at (startH, startR).
      for (let length = 1; length <= MAX_SHIFT_SIZE; length++) {
        if (hyp[startH + length - 1] !== ref[startR + length - 1]) break
        let hypWrong = false
        for (let x = startH; x < startH + length; x++) if (hypErr[x]) hypWrong = true
        let refWrong = false
        for (let x = startR; x < startR + length; x++) if (refErr[x]) refWrong = true
        const aligned = align[startR] as number
        // sacrebleu's "don't try to shift within the subsequence": the block's first reference word aligns inside it.
        // `startH < aligned` would differ only at aligned = startH with an error on both sides, which no search met: not in
        // 400,000 rounds on random pairs, and the same TER on all 40 million pairs up to 7 words of 3 or 6 words of 4.
        // Stryker disable next-line EqualityOperator: at aligned = startH no block has an error on both sides (searched, not proven)
        const alignsFromStart = startH <= aligned
        if (hypWrong && refWrong && !(alignsFromStart && aligned < startH + length)) {
          let previousIdx = -1
          for (let offset = -1; offset < length; offset++) {
            // Insert before the reference word's partner, or at 0 before the first. sacrebleu's `else: break` (a reference
            // position without an alignment) cannot happen: every reference word has one, and startR + offset <
            // startR + length <= m, as the block matched that far.
            const idx = startR + offset === -1 ? 0 : (align[startR + offset] as number) + 1
            if (idx === previousIdx) continue
            previousIdx = idx
            const words = performShift(hyp, startH, length, idx)
            const delta = preScore - ed.distanceFrom(words, Math.min(startH, idx), changedEnd(startH, length, idx))
            checked++
            // Tercom's ranking (ranksAbove).
            const candidate = { delta, length, start: startH, idx, words }
            if (best === undefined || ranksAbove(candidate, best)) best = candidate
          }
        }
        // Stryker disable next-line EqualityOperator: at the budget editsAgainst drops this round's shift anyway; going on only costs time
        if (checked >= MAX_SHIFT_CANDIDATES) break outer
        // At the end of the reference the next comparison could read undefined on both sides, which would match: stop. (At
        // the end of the hypothesis alone it reads undefined against a word, which stops the loop above.)
        // A block ending both is a common suffix, which the trace matches word for word (the diagonal wins ties), so it has no
        // hypothesis error and going on finds no candidate. Not proven at the band's edges: none in 150,000 random pairs.
        // Stryker disable next-line ConditionalExpression,ArithmeticOperator: a block ending both has no error to shift (searched)
        if (startR + length === m) break
      }
    }
  }
  return best === undefined ? { delta: 0, words: hyp, checked } : { delta: best.delta, words: best.words, checked }
}

/** `translation_edit_rate`: edits (shifts included) of `hyp` against `ref`. */
function editsAgainst(hyp: Int32Array, ref: Int32Array): number {
  // No special case for an empty reference (sacrebleu has one, with the same result): the table is a column of deletions,
  // and no block can match a reference word.
  const ed = new BeamEditDistance(ref, hyp.length)
  let shifts = 0
  let words = hyp
  let checked = 0
  for (;;) {
    const round = bestShift(words, ref, ed, checked)
    checked = round.checked
    if (checked >= MAX_SHIFT_CANDIDATES || round.delta <= 0) break
    shifts++
    words = round.words
  }
  return shifts + ed.distanceWithTrace(words).cost
}

/** `TER._compute_segment_statistics`: fewest edits over the references and the average reference length. */
function segmentStatistics(candidate: string, references: readonly string[], settings: Settings): { edits: number; referenceLength: number; best: number } {
  const ids = new Map<string, number>()
  const encode = (tokens: string[]) =>
    Int32Array.from(tokens, (t) => {
      let id = ids.get(t)
      if (id === undefined) ids.set(t, (id = ids.size))
      return id
    })
  const hyp = encode(terTokens(candidate, settings))
  let total = 0
  let edits = Number.POSITIVE_INFINITY
  let best = 0
  references.forEach((reference, index) => {
    const ref = encode(terTokens(reference, settings))
    total += ref.length
    const e = editsAgainst(hyp, ref)
    if (e < edits) {
      edits = e
      best = index
    }
  })
  return { edits, referenceLength: total / references.length, best }
}

/** `TER._compute_score_from_stats`, as a fraction. */
function score(edits: number, referenceLength: number): number {
  if (referenceLength > 0) return edits / referenceLength
  return edits > 0 ? 1 : 0
}

/**
 * Sentence TER, identical to sacrebleu 2.6.0 `TER(...).sentence_score(candidate, references).score /
 * 100` (= `sentence_ter`) with the same options: the fewest edits over the references (shifts of word
 * blocks count as one edit) divided by the average reference length. Lower is better: 0 for a match,
 * above 1 when the candidate needs more edits than the reference has words. An empty reference gives 1
 * against a non-empty candidate and 0 against an empty one.
 *
 * @param candidate - the model output (hypothesis).
 * @param reference - the target text, or a non-empty array of alternative targets.
 * @param options - sacrebleu's options (see {@link TerOptions}).
 *
 * @example
 * ```ts
 * ter('d e f g h a b c', 'a b c d e f g h') // 0.125 (one shift)
 * ter('The cat sat.', 'the cat sat.')        // 0 (case-insensitive by default)
 * ter('The cat sat.', 'the cat sat.', { caseSensitive: true }) // 1/3
 * ```
 */
export function ter(candidate: string, reference: string | readonly string[], options?: TerOptions): number {
  return terDetails(candidate, reference, options).score
}

/**
 * {@link ter} with the number of edits, the average reference length and the best reference.
 *
 * @example
 * ```ts
 * terDetails('a b', 'a c d') // { score: 0.666..., edits: 2, referenceLength: 3, bestReferenceIndex: 0 }
 * ```
 */
export function terDetails(candidate: string, reference: string | readonly string[], options?: TerOptions): TerDetails {
  assertString(candidate, 'candidate', 'compute TER')
  assertStringOrStrings(reference, 'reference', 'compute TER')
  const settings = readSettings(options, 'compute TER')
  const s = segmentStatistics(candidate, typeof reference === 'string' ? [reference] : reference, settings)
  return { score: score(s.edits, s.referenceLength), edits: s.edits, referenceLength: s.referenceLength, bestReferenceIndex: s.best }
}

/**
 * Corpus TER, identical to sacrebleu 2.6.0 `TER(...).corpus_score(candidates, refs).score / 100` (=
 * `corpus_ter`): total edits over the total of the segments' average reference lengths.
 * `references[i]` belongs to `candidates[i]` (a string or an array of alternatives).
 *
 * @example
 * ```ts
 * corpusTer(['a b c', 'x y'], ['a b c', 'x z']) // 0.2 (1 edit over 5 reference words)
 * ```
 */
export function corpusTer(candidates: readonly string[], references: ReadonlyArray<string | readonly string[]>, options?: TerOptions): number {
  return corpusTerDetails(candidates, references, options).score
}

/**
 * {@link corpusTer} with the summed edits and reference lengths.
 *
 * @example
 * ```ts
 * corpusTerDetails(['a b c', 'x y'], ['a b c', 'x z']).edits // 1
 * ```
 */
export function corpusTerDetails(candidates: readonly string[], references: ReadonlyArray<string | readonly string[]>, options?: TerOptions): TerDetails {
  const action = 'compute corpus TER'
  assertCorpus(candidates, references, action)
  const settings = readSettings(options, action)
  let edits = 0
  let referenceLength = 0
  candidates.forEach((candidate, i) => {
    const ref = references[i] as string | readonly string[]
    const s = segmentStatistics(candidate, typeof ref === 'string' ? [ref] : ref, settings)
    edits += s.edits
    referenceLength += s.referenceLength
  })
  return { score: score(edits, referenceLength), edits, referenceLength, bestReferenceIndex: -1 }
}

/**
 * Internals for this package's own tests: the banded edit-distance table, so a test can check that a
 * trace through a cell without an operation fails loudly. Not part of the public API; do not re-export.
 *
 * @internal
 */
export const __testing = { BeamEditDistance }
