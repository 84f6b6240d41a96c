/**
 * Longest common subsequence over token ids, for ROUGE-L and ROUGE-Lsum.
 *
 * Written here rather than taken from npm. The packages found are either the O(n*m) table over
 * characters of strings (`metric-lcs`) or Myers' O((n+m)D) diff (`diff-sequences`,
 * `@algorithm.ts/lcs`), which is fast for near-identical texts but degrades towards O(n*m) as they
 * differ, the usual case when scoring model output. None returns the positions rouge-score's table walk
 * reads back, which decide rougeLsum scores. This module has the bit-parallel length (Allison-Dix /
 * Hyyrö, O(n*m/32) time whatever the texts) and a position walk that reproduces rouge-score's
 * `_backtrack_norec` on a bit-packed table (32 cells per 32-bit word).
 *
 * @module
 */

/** A sequence of token ids (any integers; equal ids mean equal tokens). */
export type TokenIds = Int32Array | readonly number[]

/**
 * Below this many cells (`n * m`) a one-row dynamic program beats the bit-parallel setup (building the
 * match masks). Measured on Node 22: they break even around 10 tokens per side.
 */
const TINY_CELLS = 100

/** One-row O(n*m) dynamic program over `Int32Array` for tiny inputs. `short` is the shorter side. */
function lcsLengthSmall(short: TokenIds, long: TokenIds): number {
  const m = short.length
  const row = new Int32Array(m + 1)
  // Stryker disable next-line EqualityOperator: equivalent, a pass with a token that matches nothing leaves the row (non-decreasing) as it is
  for (let i = 0; i < long.length; i++) {
    const x = long[i]
    let diagonal = 0 // T[i-1][j-1]
    for (let j = 1; j <= m; j++) {
      const above = row[j] as number // T[i-1][j]
      if (short[j - 1] === x) row[j] = diagonal + 1
      else if (
        // Stryker disable next-line EqualityOperator: equivalent, >= sets the same value again
        (row[j - 1] as number) > above
      )
        row[j] = row[j - 1] as number
      diagonal = above
    }
  }
  return row[m] as number
}

/**
 * The small-input path: LCS length when the shorter side has at most 32 tokens and the ids are small
 * non-negative integers (as a vocabulary assigns them), or -1 otherwise. One 32-bit word holds the
 * whole row, and the match masks sit in a table indexed by id, so there is no setup beyond one
 * small typed array: on 20-token pairs this is several times faster than both the general
 * bit-parallel setup and a one-row dynamic program.
 */
// Stryker disable next-line BlockStatement: equivalent, without this path lcsLength takes the general ones, which give the same length
function lcsLengthWord(short: TokenIds, long: TokenIds): number {
  const m = short.length
  // Stryker disable next-line UnaryOperator: equivalent, a maxId of at least 1 only makes the mask table longer
  let maxId = -1
  // Stryker disable next-line EqualityOperator,UpdateOperator: equivalent, short[m] or short[-1] is undefined: the general paths, same length
  for (let j = 0; j < m; j++) {
    const id = short[j] as number
    // Stryker disable next-line ConditionalExpression,BooleanLiteral,EqualityOperator: equivalent, -1 sends the input to the general paths (same length)
    if (!Number.isInteger(id) || id < 0) return -1
    // Stryker disable next-line EqualityOperator: equivalent, >= sets the same maximum again
    if (id > maxId) maxId = id
  }
  // Made true, or the bound moved, it sends more inputs to the general paths (same length); made false, a huge id
  // allocates a table of that size, which the test of an id of 2^40 on the short side catches:
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: equivalent, see above
  if (maxId > 4 * (m + long.length) + 1024) return -1
  const masks = new Int32Array(maxId + 1)
  // Stryker disable next-line EqualityOperator: equivalent, short[m] is undefined, and masks[undefined] is no slot of the table
  for (let j = 0; j < m; j++) {
    const id = short[j] as number
    masks[id] = (masks[id] as number) | (1 << j)
  }
  let v = -1
  // Stryker disable next-line EqualityOperator: equivalent, long[length] is undefined: mask 0, which leaves v as it is
  for (let i = 0; i < long.length; i++) {
    const id = long[i] as number
    // Ids that are not in `short` (out of the table's range, or not integers) match nothing.
    // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, the table gives undefined (so 0) for any id outside it too
    const mask = id >= 0 && id <= maxId ? ((masks[id] as number | undefined) ?? 0) : 0
    v = (v + (v & mask)) | (v & ~mask)
  }
  return 32 - popcount32(v)
}

/**
 * Builds the match masks of `bits` (the sequence laid along the bit positions): for every distinct id
 * `x`, a vector of `words` 32-bit words with bit `j` set where `bits[j] === x`. Returns a lookup from
 * any id to the mask's offset in `masks`, or -1 when the id does not occur in `bits`.
 *
 * A dense lookup table when the ids are small non-negative integers (the usual case: ids assigned 0, 1, 2, ...
 * by a vocabulary), a Map otherwise. The Map and the dense table give the same masks: a mutant that only picks
 * the Map more often is equivalent (the tests of negative, fractional and huge ids catch the ones that pick the
 * table wrongly).
 */
function buildMasks(bits: TokenIds, other: TokenIds): { masks: Int32Array; offsetOf: (id: number) => number; words: number } {
  const m = bits.length
  const words = (m + 31) >>> 5
  // Stryker disable next-line UnaryOperator: equivalent, a maxId of at least 1 only makes the table longer
  let maxId = -1
  // Stryker disable next-line BooleanLiteral: equivalent, always the Map (see the function's comment)
  let dense = true
  // Stryker disable next-line EqualityOperator,UpdateOperator: equivalent, bits[m] or bits[-1] is undefined, not an integer: the Map (see above)
  for (let j = 0; j < m; j++) {
    const id = bits[j] as number
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent when true or id <= 0, the Map (see the function's comment)
    if (!Number.isInteger(id) || id < 0) {
      dense = false
      break
    }
    // Stryker disable next-line EqualityOperator: equivalent, >= sets the same maximum again
    if (id > maxId) maxId = id
  }
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,ArithmeticOperator: equivalent, the Map more often (see above)
  if (dense && maxId > 4 * (m + other.length) + 1024) dense = false

  let alphabet = 0
  // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent, without the table the Map path below gives the same masks
  if (dense) {
    const slot = new Int32Array(maxId + 1).fill(-1)
    // Stryker disable next-line EqualityOperator: equivalent, bits[m] is undefined and slot[undefined] is not -1
    for (let j = 0; j < m; j++) {
      const id = bits[j] as number
      // Stryker disable next-line ConditionalExpression: equivalent, a new slot per occurrence leaves each id on its last one, which the masks use
      if (slot[id] === -1) slot[id] = alphabet++ * words
    }
    const masks = new Int32Array(alphabet * words)
    // Stryker disable next-line EqualityOperator: equivalent, bits[m] is undefined: masks[NaN] is no slot of the table
    for (let j = 0; j < m; j++) {
      const base = slot[bits[j] as number] as number
      masks[base + (j >>> 5)] = (masks[base + (j >>> 5)] as number) | (1 << (j & 31))
    }
    return {
      masks,
      words,
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, slot[id] is undefined outside the table: a missing id to every caller
      offsetOf: (id) => (id >= 0 && id <= maxId && Number.isInteger(id) ? (slot[id] as number) : -1),
    }
  }
  const slot = new Map<number, number>()
  // Stryker disable next-line EqualityOperator: equivalent, a slot for bits[m] (undefined) is one no id looks up
  for (let j = 0; j < m; j++) {
    const id = bits[j] as number
    // Stryker disable next-line ConditionalExpression: equivalent, a new slot per occurrence leaves each id on its last one, which the masks use
    if (!slot.has(id)) slot.set(id, alphabet++ * words)
  }
  const masks = new Int32Array(alphabet * words)
  // Stryker disable next-line EqualityOperator: equivalent, bits[m] is undefined: masks[NaN] is no slot of the table
  for (let j = 0; j < m; j++) {
    const base = slot.get(bits[j] as number) as number
    masks[base + (j >>> 5)] = (masks[base + (j >>> 5)] as number) | (1 << (j & 31))
  }
  return { masks, words, offsetOf: (id) => slot.get(id) ?? -1 }
}

/**
 * One step of the bit-parallel recurrence on a multi-word vector: `V' = (V + (V & M)) | (V & ~M)`,
 * with the addition carried across words. `V` has bit `j` cleared where the LCS table row grows at
 * column `j + 1`. Reads `from`, writes `to` (they may be the same array).
 */
function advance(from: Int32Array, fromOffset: number, to: Int32Array, toOffset: number, masks: Int32Array, maskOffset: number, words: number): void {
  let carry = 0
  // Stryker disable next-line EqualityOperator: equivalent, the extra word written is the next row's first, which that row overwrites (or past the end)
  for (let w = 0; w < words; w++) {
    const v = (from[fromOffset + w] as number) >>> 0
    const mask = masks[maskOffset + w] as number
    const u = (v & mask) >>> 0
    const sum = v + u + carry // < 2^34, exact
    carry = sum > 0xffffffff ? 1 : 0
    to[toOffset + w] = (sum >>> 0) | (v & ~mask)
  }
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  x = (x + (x >>> 4)) & 0x0f0f0f0f
  return Math.imul(x, 0x01010101) >>> 24
}

/**
 * Length of the longest common subsequence of two token-id sequences.
 *
 * Bit-parallel (Allison-Dix 1986, Hyyrö 2004): the shorter sequence is laid along the bits of
 * `ceil(min(n, m) / 32)` 32-bit words and each token of the longer one updates the whole row with a
 * few word operations, so the time is O(n * m / 32) and the memory O(n + m + alphabet * words).
 * When the shorter side fits in one word (at most 32 tokens) and the ids are small non-negative
 * integers, the masks live in a table indexed by id (the small-input path); tiny inputs with other
 * ids use a one-row dynamic program.
 *
 * @example
 * ```ts
 * lcsLength([1, 2, 3, 4], [1, 3, 4, 2]) // 3  (1, 3, 4)
 * lcsLength(new Int32Array([5, 5]), [5]) // 1
 * lcsLength([], [1, 2]) // 0
 * ```
 */
export function lcsLength(a: TokenIds, b: TokenIds): number {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, the LCS is symmetric and every path takes either side as the short one
  const short = a.length <= b.length ? a : b
  const long = short === a ? b : a
  const m = short.length
  // Stryker disable next-line ConditionalExpression: equivalent when false, every path gives 0 for an empty side
  if (m === 0) return 0
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: equivalent when skipped, the other paths give the same length
  if (m <= 32) {
    const length = lcsLengthWord(short, long)
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent when false or > 0, the other paths give the same length
    if (length >= 0) return length
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: equivalent, the DP and the bit-parallel paths agree
  if (m * long.length <= TINY_CELLS) return lcsLengthSmall(short, long)

  const { masks, offsetOf, words } = buildMasks(short, long)

  // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent when skipped, the multi-word path gives the same length
  if (words === 1) {
    // Single-word fast path (up to 32 tokens on the shorter side).
    let v = -1
    // Stryker disable next-line EqualityOperator: equivalent, long[length] is undefined, an id that occurs nowhere
    for (let i = 0; i < long.length; i++) {
      const offset = offsetOf(long[i] as number)
      // Stryker disable next-line ConditionalExpression: equivalent when false, masks[-1] is undefined, which leaves v as it is
      if (offset < 0) continue
      const mask = masks[offset] as number
      v = (v + (v & mask)) | (v & ~mask)
    }
    return 32 - popcount32(v)
  }

  const v = new Int32Array(words).fill(-1)
  // Stryker disable next-line EqualityOperator: equivalent, long[length] is undefined, an id that occurs nowhere
  for (let i = 0; i < long.length; i++) {
    const offset = offsetOf(long[i] as number)
    if (offset >= 0) advance(v, 0, v, 0, masks, offset, words)
  }
  // Bits at or above `m` start at 1 and never change (their mask bits are 0), so every 0 bit is a
  // column where the table grows.
  let ones = 0
  // Stryker disable next-line EqualityOperator: equivalent, v[words] is undefined, whose popcount32 is 0
  for (let w = 0; w < words; w++) ones += popcount32(v[w] as number)
  return words * 32 - ones
}

/**
 * The positions in `reference` that rouge-score's `lcs_ind(ref, can)` returns: it fills the LCS table
 * `T[i][j]` (`i` over `reference`, `j` over `candidate`) and walks back from the bottom-right corner:
 *
 * - if `reference[i-1] === candidate[j-1]`, record `i - 1` and move diagonally;
 * - else if `T[i][j-1] > T[i-1][j]`, move left (`j - 1`);
 * - else (ties included) move up (`i - 1`).
 *
 * So a token that occurs several times in `reference` is matched at its last possible position. The
 * table is kept bit-packed (one 32-bit word per 32 cells, built with the same recurrence as
 * {@link lcsLength}), so memory is `reference.length * ceil(candidate.length / 32)` words.
 *
 * @returns the positions, ascending. Their count is the LCS length.
 *
 * @example
 * ```ts
 * // 'add the' inside 'add the flour to the bowl': 'the' is matched at its last position (4).
 * lcsPositions([0, 1, 2, 3, 1, 4], [0, 1]) // [0, 4]
 * ```
 */
export function lcsPositions(reference: TokenIds, candidate: TokenIds): number[] {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, the table and the walk give [] for an empty side too
  if (reference.length === 0 || candidate.length === 0) return []
  return lcsWalkBack(reference, candidate, lcsRows(reference, candidate))
}

/** The bit-parallel LCS table of {@link lcsPositions}: one bit vector of `words` 32-bit words per reference token. */
export interface LcsRows {
  /** rows[(i-1)*words ...]: the bit vector of table row i (i = 1..n). Row 0 is all ones (T[0][j] = 0). */
  rows: Int32Array
  words: number
}

/** The forward pass: every row of the LCS table as a bit vector (a cleared bit is where the row grows). */
export function lcsRows(reference: TokenIds, candidate: TokenIds): LcsRows {
  const n = reference.length
  const { masks, offsetOf, words } = buildMasks(candidate, reference)
  const rows = new Int32Array(n * words)
  let previous = -1 // offset of row i-1, -1 for row 0
  // Stryker disable next-line EqualityOperator: equivalent, a row at n would lie past the end of rows, where writes are ignored
  for (let i = 0; i < n; i++) {
    const current = i * words
    const offset = offsetOf(reference[i] as number)
    if (previous < 0) {
      // Stryker disable next-line ArithmeticOperator: equivalent, current - words fills the later rows too, which are all written below
      rows.fill(-1, current, current + words)
      if (offset >= 0) advance(rows, current, rows, current, masks, offset, words)
    } else if (offset >= 0) {
      advance(rows, previous, rows, current, masks, offset, words)
    } else {
      rows.copyWithin(current, previous, previous + words)
    }
    previous = current
  }
  return { rows, words }
}

/** T[i][j] of the LCS table: zero bits of row i among columns 0..j-1. */
export function lcsCell({ rows, words }: LcsRows, i: number, j: number): number {
  // Stryker disable next-line ConditionalExpression: equivalent for the j test made false, column 0 counts no bits (the i test is killed)
  if (i === 0 || j === 0) return 0
  const base = (i - 1) * words
  const full = j >>> 5
  let ones = 0
  for (let w = 0; w < full; w++) ones += popcount32(rows[base + w] as number)
  const rest = j & 31
  // Stryker disable next-line ConditionalExpression: equivalent when true, rest 0 masks every bit away
  if (rest !== 0) ones += popcount32((rows[base + full] as number) & ((1 << rest) - 1))
  return j - ones
}

/** The backward walk from T[n][m]: the reference positions of one longest common subsequence, in order. */
function lcsWalkBack(reference: TokenIds, candidate: TokenIds, table: LcsRows): number[] {
  const { rows, words } = table
  const positions: number[] = []
  let i = reference.length
  let j = candidate.length
  let here = lcsCell(table, i, j) // T[i][j], kept up to date along the walk
  // At j = 0 (or i = 0) nothing matches and the walk only moves up, so going on there adds no position:
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent for the j test made true and for >= 0 (see above)
  while (i > 0 && j > 0) {
    if (reference[i - 1] === candidate[j - 1]) {
      positions.push(i - 1)
      i--
      j--
      here-- // a match cell is T[i-1][j-1] + 1
    } else {
      // T[i][j-1] is T[i][j] minus the row's growth at column j (bit j-1 cleared = growth).
      // Stryker disable next-line ConditionalExpression: equivalent when false, a non-match cell that grows has up = here, so the walk goes up either way
      const grows = (((rows[(i - 1) * words + ((j - 1) >>> 5)] as number) >>> ((j - 1) & 31)) & 1) === 0
      const left = grows ? here - 1 : here
      // Stryker disable next-line ConditionalExpression: equivalent when false, a shortcut: T[i-1][j] <= T[i][j] = 0
      const up = here === 0 ? 0 : lcsCell(table, i - 1, j)
      if (left > up) {
        j--
        here = left
      } else {
        i--
        here = up
      }
    }
  }
  positions.reverse()
  return positions
}
