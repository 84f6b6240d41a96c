// The steps of lcsPositions (src/metrics/lcs.ts): the bit-parallel table and its cells against the textbook DP.
import { describe, expect, test } from 'vitest'
import { lcsCell, lcsRows } from '../../src/metrics/lcs.js'

/** The O(n·m) table, T[i][j] = LCS length of reference[0..i) and candidate[0..j). */
function textbook(a: readonly number[], b: readonly number[]): number[][] {
  const t = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0))
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) t[i]![j] = a[i - 1] === b[j - 1] ? t[i - 1]![j - 1]! + 1 : Math.max(t[i - 1]![j]!, t[i]![j - 1]!)
  return t
}

describe('lcsRows and lcsCell', () => {
  test.each([
    [
      [0, 1, 2, 3, 1, 4],
      [0, 1],
    ],
    [
      [5, 6, 5, 7, 8],
      [6, 5, 8, 9, 5, 7],
    ],
    // Over one 32-bit word of candidate tokens.
    [Array.from({ length: 40 }, (_, i) => i % 7), Array.from({ length: 70 }, (_, i) => (i * 3) % 7)],
  ])('every cell equals the textbook table (%#)', (reference, candidate) => {
    const table = lcsRows(reference, candidate)
    const expected = textbook(reference, candidate)
    for (let i = 0; i <= reference.length; i++) for (let j = 0; j <= candidate.length; j++) expect(lcsCell(table, i, j)).toBe(expected[i]![j])
  })
})
