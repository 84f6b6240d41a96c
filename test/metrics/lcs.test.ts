import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { lcsLength, lcsPositions } from '../../src/metrics/lcs.js'

// Oracles: the textbook O(n*m) table, and rouge-score's `lcs_ind` (`_lcs_table` + `_backtrack_norec`)
// written as plainly as the Python. The implementation under test is bit-parallel / bit-packed.
function lcsTable(a: ArrayLike<number>, b: ArrayLike<number>): number[][] {
  const t = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = t[i] as number[]
      const above = t[i - 1] as number[]
      row[j] = a[i - 1] === b[j - 1] ? (above[j - 1] as number) + 1 : Math.max(above[j] as number, row[j - 1] as number)
    }
  }
  return t
}

function textbookLcsLength(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return (lcsTable(a, b)[a.length] as number[])[b.length] as number
}

function rougeScoreLcsInd(ref: ArrayLike<number>, can: ArrayLike<number>): number[] {
  const t = lcsTable(ref, can)
  const at = (i: number, j: number): number => (t[i] as number[])[j] as number
  let i = ref.length
  let j = can.length
  const lcs: number[] = []
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      lcs.unshift(i - 1)
      i--
      j--
    } else if (at(i, j - 1) > at(i - 1, j)) {
      j--
    } else {
      i--
    }
  }
  return lcs
}

/** Token-id arrays over an alphabet of `alphabet` ids, of length 0..maxLength. */
const ids = (alphabet: number, maxLength: number): fc.Arbitrary<number[]> => fc.array(fc.integer({ min: 0, max: alphabet - 1 }), { maxLength })

/** Pairs whose lengths sit on and around the 32-bit word boundaries (31/32/33, 63/64/65, 95-97). */
const BOUNDARY_LENGTHS = [1, 31, 32, 33, 63, 64, 65, 95, 96, 97, 128, 129]
const boundaryPair = fc
  .tuple(fc.constantFrom(...BOUNDARY_LENGTHS), fc.constantFrom(...BOUNDARY_LENGTHS), fc.integer({ min: 1, max: 6 }))
  .chain(([n, m, alphabet]) =>
    fc.tuple(
      fc.array(fc.integer({ min: 0, max: alphabet - 1 }), { minLength: n, maxLength: n }),
      fc.array(fc.integer({ min: 0, max: alphabet - 1 }), { minLength: m, maxLength: m }),
    ),
  )

describe('lcsLength', () => {
  test('is 0 when either side is empty', () => {
    expect([lcsLength([], []), lcsLength([], [1, 2]), lcsLength([1, 2], [])]).toEqual([0, 0, 0])
  })

  test('is the length of the sequence for identical sequences', () => {
    const a = Array.from({ length: 100 }, (_, i) => i % 7)
    expect(lcsLength(a, a.slice())).toBe(100)
  })

  test('is 0 for sequences with no token in common', () => {
    expect(lcsLength([1, 2, 3, 1, 2, 3], [4, 5, 6, 7, 8, 9, 4, 5, 6, 7, 8, 9, 4, 5, 6, 7, 8, 9])).toBe(0)
  })

  test('counts a subsequence, not a substring', () => {
    expect(lcsLength([1, 2, 3, 4], [1, 3, 4, 2])).toBe(3)
  })

  test('counts a repeated token only as often as both sides have it', () => {
    expect(lcsLength([5, 5, 5], [5])).toBe(1)
  })

  test('is 1 for a 2,000-token sequence against its reversal (all tokens distinct)', () => {
    const a = Array.from({ length: 2000 }, (_, i) => i)
    expect(lcsLength(a, a.slice().reverse())).toBe(1)
  })

  test('accepts Int32Array and plain arrays alike', () => {
    const a = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4]
    const b = [2, 7, 1, 8, 2, 8, 1, 8, 2, 8, 4, 5, 9, 0, 4, 5, 2, 3, 5, 3]
    expect(lcsLength(Int32Array.from(a), Int32Array.from(b))).toBe(lcsLength(a, b))
  })

  test('handles negative and very large ids (the sparse-alphabet path)', () => {
    const a = [-7, 2 ** 31 - 1, 0, -7, 1e9, 42, -7, 2 ** 31 - 1, 5, 6, 7, 8]
    const b = [2 ** 31 - 1, -7, 1e9, 0, 42, -7, 8, 7, 6, 5, 2 ** 31 - 1, -7]
    expect(lcsLength(a, b)).toBe(textbookLcsLength(a, b))
  })

  test('longer than one word on both sides with negative and fractional ids, and ids one side lacks (the Map alphabet)', () => {
    // 40 and 50 tokens: too long for the one-word path and the tiny DP, so the masks are keyed by a Map.
    const a = Array.from({ length: 40 }, (_, i) => [-3, 0.5, 7, -1e9, 12][i % 5] as number)
    const b = Array.from({ length: 50 }, (_, i) => [7, -3, 99, 0.5, -2, 12, 1.25][i % 7] as number)
    expect(lcsLength(a, b)).toBe(textbookLcsLength(a, b))
    expect(lcsLength(b, a)).toBe(textbookLcsLength(a, b))
    expect(lcsPositions(b, a)).toEqual(rougeScoreLcsInd(b, a))
  })

  test('longer than one word with negative whole-number ids (the Map alphabet)', () => {
    const a = Array.from({ length: 40 }, (_, i) => [-1, -2, 3, -1, 4, 0][i % 6] as number)
    const b = Array.from({ length: 50 }, (_, i) => [4, -1, -5, 3, -2, 0, -1][i % 7] as number)
    expect(lcsLength(a, b)).toBe(textbookLcsLength(a, b))
    expect(lcsLength(b, a)).toBe(textbookLcsLength(a, b))
    expect(lcsPositions(b, a)).toEqual(rougeScoreLcsInd(b, a))
  })

  test('longer than one word with only negative, or only fractional, ids (the Map alphabet)', () => {
    const negative = (n: number, step: number) => Array.from({ length: n }, (_, i) => -1 - ((i * step) % 6))
    const fractional = (n: number, step: number) => Array.from({ length: n }, (_, i) => ((i * step) % 6) + 0.5)
    for (const ids of [negative, fractional]) {
      const a = ids(40, 1)
      const b = ids(50, 5)
      expect(lcsLength(a, b)).toBe(textbookLcsLength(a, b))
      expect(lcsPositions(b, a)).toEqual(rougeScoreLcsInd(b, a))
    }
  })

  test("ids far above the sequences' lengths are not given a table slot each (the Map alphabet)", () => {
    // A dense table indexed by id would need 2^40 slots: more than a typed array can hold.
    const a = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? 2 ** 40 : i % 4))
    const b = Array.from({ length: 45 }, (_, i) => (i % 5 === 0 ? 2 ** 40 : i % 6))
    expect(lcsLength(a, b)).toBe(textbookLcsLength(a, b))
    expect(lcsPositions(b, a)).toEqual(rougeScoreLcsInd(b, a))
  })

  test('property: equals the textbook DP on random short sequences (tiny-input path included)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }).chain((alphabet) => fc.tuple(ids(alphabet, 20), ids(alphabet, 20))),
        ([a, b]) => {
          expect(lcsLength(a, b)).toBe(textbookLcsLength(a, b))
        },
      ),
      { numRuns: 300 },
    )
  })

  test('property: equals the textbook DP on random sequences up to 300 tokens', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }).chain((alphabet) => fc.tuple(ids(alphabet, 300), ids(alphabet, 300))),
        ([a, b]) => {
          expect(lcsLength(a, b)).toBe(textbookLcsLength(a, b))
        },
      ),
      { numRuns: 200 },
    )
  })

  test('property: equals the textbook DP at lengths around the 32/64/96-bit word boundaries', () => {
    fc.assert(
      fc.property(boundaryPair, ([a, b]) => {
        expect(lcsLength(a, b)).toBe(textbookLcsLength(a, b))
        expect(lcsLength(Int32Array.from(b), Int32Array.from(a))).toBe(textbookLcsLength(a, b))
      }),
      { numRuns: 300 },
    )
  })

  test('property: equals the textbook DP with arbitrary 32-bit ids (sparse alphabet)', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { minLength: 1, maxLength: 8 })
          .chain((alphabet) => fc.tuple(fc.array(fc.constantFrom(...alphabet), { maxLength: 80 }), fc.array(fc.constantFrom(...alphabet), { maxLength: 80 }))),
        ([a, b]) => {
          expect(lcsLength(a, b)).toBe(textbookLcsLength(a, b))
        },
      ),
      { numRuns: 200 },
    )
  })

  test('property: is symmetric', () => {
    fc.assert(
      fc.property(fc.tuple(ids(5, 120), ids(5, 120)), ([a, b]) => {
        expect(lcsLength(a, b)).toBe(lcsLength(b, a))
      }),
      { numRuns: 200 },
    )
  })
})

describe('lcsPositions', () => {
  test('is empty when either side is empty', () => {
    expect([lcsPositions([], [1]), lcsPositions([1], [])]).toEqual([[], []])
  })

  test('matches a token that occurs twice in the reference at its last possible position', () => {
    // reference 'add the flour to the bowl', candidate 'add the': rouge-score's walk moves up on ties,
    // so 'the' is matched at position 4, not 1 (this is what makes pub-multi-07's rougeLsum 0.9).
    expect(lcsPositions([0, 1, 2, 3, 1, 4], [0, 1])).toEqual([0, 4])
  })

  test('moves up in the reference on a tie between up and left', () => {
    // T[2][2] = 1 for r = [1, 2], c = [2, 1]: both neighbours are 1, so the walk goes up and the match
    // recorded is r[0] = 1 (position 0), not r[1] = 2.
    expect(lcsPositions([1, 2], [2, 1])).toEqual([0])
  })

  test('a first reference token the candidate lacks, with a candidate longer than one word', () => {
    // 34 candidate tokens (two words of bits). A first row that grew anywhere would send the walk up
    // from the last cell and lose the match of the reference's 1 with the candidate's 1s.
    const candidate = [5, ...new Array<number>(31).fill(1), 7, 8]
    expect(lcsPositions([99, 1], candidate)).toEqual([1])
    expect(lcsPositions([99, 1], candidate)).toEqual(rougeScoreLcsInd([99, 1], candidate))
  })

  test('returns every position for identical sequences', () => {
    expect(lcsPositions([4, 4, 4, 4], [4, 4, 4, 4])).toEqual([0, 1, 2, 3])
  })

  test('reads back the same positions as rouge-score on a sentence longer than 32 tokens', () => {
    const r = Array.from({ length: 70 }, (_, i) => (i * 7) % 5)
    const c = Array.from({ length: 40 }, (_, i) => (i * 3) % 4)
    expect(lcsPositions(r, c)).toEqual(rougeScoreLcsInd(r, c))
  })

  test('property: equals rouge-score`s table walk on random sequences', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }).chain((alphabet) => fc.tuple(ids(alphabet, 60), ids(alphabet, 60))),
        ([r, c]) => {
          expect(lcsPositions(r, c)).toEqual(rougeScoreLcsInd(r, c))
        },
      ),
      { numRuns: 400 },
    )
  })

  test('property: equals rouge-score`s table walk at lengths around the word boundaries', () => {
    fc.assert(
      fc.property(boundaryPair, ([r, c]) => {
        expect(lcsPositions(r, c)).toEqual(rougeScoreLcsInd(r, c))
      }),
      { numRuns: 300 },
    )
  })

  test('property: returns ascending positions, as many as the LCS length, forming a common subsequence', () => {
    fc.assert(
      fc.property(fc.tuple(ids(4, 90), ids(4, 90)), ([r, c]) => {
        const positions = lcsPositions(r, c)
        expect(positions.length).toBe(lcsLength(r, c))
        for (let k = 1; k < positions.length; k++) expect(positions[k]).toBeGreaterThan(positions[k - 1] as number)
        // The tokens at these positions appear in c in the same order.
        let j = 0
        for (const p of positions) {
          while (j < c.length && c[j] !== r[p]) j++
          expect(j).toBeLessThan(c.length)
          j++
        }
      }),
      { numRuns: 200 },
    )
  })
})

describe('lcsLength: the small-input path (shorter side of at most 32 tokens)', () => {
  test('property: equals the textbook DP when the longer side has ids the shorter lacks (negative, huge, fractional)', () => {
    const other = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: -5, max: -1 }), fc.constant(2 ** 30), fc.constant(1.5))
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 32 }), fc.array(other, { maxLength: 60 }), (short, long) => {
        expect(lcsLength(short, long)).toBe(textbookLcsLength(short, long))
        expect(lcsLength(long, short)).toBe(textbookLcsLength(short, long))
      }),
      { numRuns: 300 },
    )
  })

  test('a short side with an id far above the lengths takes another path (no table of 2^40 slots)', () => {
    const short = [2 ** 40, 1, 2, 2 ** 40, 3]
    const long = Array.from({ length: 40 }, (_, i) => (i % 7 === 0 ? 2 ** 40 : i % 5))
    expect(lcsLength(short, long)).toBe(textbookLcsLength(short, long))
    expect(lcsLength(long, short)).toBe(textbookLcsLength(short, long))
  })

  test('is right at exactly 32 tokens on the shorter side, all matching', () => {
    const a = Array.from({ length: 32 }, (_, i) => i)
    expect(lcsLength(a, [...a, ...a])).toBe(32)
  })
})
