import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { __testing, editSimilarity, levenshteinDistance } from '../../src/metrics/edit.js'

/** Independent reference: the textbook full-matrix DP over code points (Array.from). */
function referenceDistance(a: string, b: string): number {
  const x = Array.from(a)
  const y = Array.from(b)
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const row = d[i] as number[]
      const above = d[i - 1] as number[]
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1))
    }
  }
  return (d[x.length] as number[])[y.length] as number
}

function referenceSimilarity(a: string, b: string): number {
  const longest = Math.max(Array.from(a).length, Array.from(b).length)
  return longest === 0 ? 1 : 1 - referenceDistance(a, b) / longest
}

/** Strings over a small alphabet with astral characters, so that matches are frequent. */
const smallAlphabet = fc.constantFrom('a', 'b', 'c', 'é', 'e\u0301', '🚆', '👏', '🏽', '\u200d', '😀', '𝒳', ' ')
const mixedText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.array(smallAlphabet, { maxLength: 80 }).map((parts) => parts.join('')),
  fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 100 }),
)

describe('levenshteinDistance', () => {
  test('classic example: kitten vs sitting is 3', () => {
    expect(levenshteinDistance('kitten', 'sitting')).toBe(3)
  })

  test('an emoji with a skin-tone modifier is 1 edit from the bare emoji (code points, not UTF-16 units)', () => {
    expect(levenshteinDistance('Nice shot 👏🏽', 'Nice shot 👏')).toBe(1)
  })

  test('two ZWJ sequences that differ in one astral person emoji are 1 edit apart', () => {
    expect(levenshteinDistance('👩\u200d🚀 on board', '🧑\u200d🚀 on board')).toBe(1)
  })

  test('different astral characters sharing a high surrogate still differ by 1', () => {
    // U+1F600 and U+1F601 are \uD83D\uDE00 and \uD83D\uDE01.
    expect(levenshteinDistance('😀', '😁')).toBe(1)
  })

  test('does not normalise: NFC vs NFD Crème fraîche is 4', () => {
    expect(levenshteinDistance('Crème fraîche', 'Cre\u0300me frai\u0302che')).toBe(4)
  })

  test('is case-sensitive', () => {
    expect(levenshteinDistance('NASA', 'nasa')).toBe(4)
  })

  test('does not trim', () => {
    expect(levenshteinDistance('  \t ', '')).toBe(4)
    expect(levenshteinDistance('a\r\nb', 'a\nb')).toBe(1)
  })

  test('is the length for an empty side, in code points', () => {
    expect(levenshteinDistance('', '🚆🚆')).toBe(2)
    expect(levenshteinDistance('🚆🚆', '')).toBe(2)
  })

  test('works on long texts (more than 64 code points, beyond a single bit-vector word)', () => {
    const a = `${'🚆ab'.repeat(40)}x`
    const b = `${'🚆ab'.repeat(40)}y🚆`
    expect(levenshteinDistance(a, b)).toBe(2)
    expect(levenshteinDistance('a'.repeat(100), 'b'.repeat(70))).toBe(100)
  })

  test('works on texts with astral characters longer than 8,192 code points (re-encoded in chunks)', () => {
    const body = 'ab'.repeat(5000)
    expect(levenshteinDistance(`🚆${body}x`, `🚆${body}y`)).toBe(1)
    expect(levenshteinDistance(`🚆${body}`, `${body}🚆`)).toBe(2)
    expect(editSimilarity(`🚆${body}x`, `🚆${body}`)).toBe(1 - 1 / 10_002)
  })

  test('names the argument that is not a string', () => {
    expect(() => levenshteinDistance(1 as unknown as string, 'x')).toThrow(
      new TypeError(
        '[expect-llm] Failed to compute the Levenshtein distance: the first string must be a string, got a number (1). Pass the first string as a string.',
      ),
    )
    expect(() => levenshteinDistance('x', null as unknown as string)).toThrow(
      new TypeError(
        '[expect-llm] Failed to compute the Levenshtein distance: the second string must be a string, got null. Pass the second string as a string.',
      ),
    )
    expect(() => editSimilarity(['x'] as unknown as string, 'x')).toThrow(
      new TypeError('[expect-llm] Failed to compute edit similarity: the candidate must be a string, got an array (length 1). Pass the candidate as a string.'),
    )
    expect(() => editSimilarity('x', undefined as unknown as string)).toThrow(
      new TypeError('[expect-llm] Failed to compute edit similarity: the reference must be a string, got undefined. Pass the reference as a string.'),
    )
  })

  test('rejects non-strings with a TypeError', () => {
    expect(() => levenshteinDistance(null as unknown as string, 'x')).toThrow(TypeError)
  })
})

describe('editSimilarity', () => {
  test('is 1 - distance / longest length', () => {
    expect(editSimilarity('colour', 'color')).toBe(1 - 1 / 6)
  })

  test('two empty strings are identical: 1', () => {
    expect(editSimilarity('', '')).toBe(1)
  })

  test('an empty side gives 0', () => {
    expect(editSimilarity('', 'abc')).toBe(0)
    expect(editSimilarity('  \t ', '')).toBe(0)
  })

  test('counts lengths in code points: 👏🏽 vs 👏 in a sentence is 11/12', () => {
    expect(editSimilarity('Nice shot 👏', 'Nice shot 👏🏽')).toBe(1 - 1 / 12)
  })

  test('rejects a non-string reference', () => {
    expect(() => editSimilarity('x', 3 as unknown as string)).toThrow(/reference must be a string/)
  })
})

describe('code-point re-encoding for fastest-levenshtein', () => {
  const { distanceWithAlphabetLimit, dpDistance, codePointArray } = __testing

  test('falls back to the DP when the shared alphabet does not fit, with the same result', () => {
    // Limit 4 leaves room for 2 shared code points (units 0 and 1 are the one-sided ones).
    const a = '😀😁😂🤣 abc'
    const b = '🤣😂😁😀 cba'
    expect(distanceWithAlphabetLimit(a, b, 4)).toBe(referenceDistance(a, b))
    expect(distanceWithAlphabetLimit(a, b, 0x10000)).toBe(referenceDistance(a, b))
  })

  test('codePointArray: one number per code point, a lone surrogate as its own', () => {
    expect(codePointArray('a🚆\uD800b')).toEqual([0x61, 0x1f686, 0xd800, 0x62])
    expect(codePointArray('')).toEqual([])
  })

  test('code points only one side has never match each other', () => {
    // All of a's and b's characters are distinct: every position is a substitution or indel.
    expect(distanceWithAlphabetLimit('😀😁😂', '🤣🥲', 0x10000)).toBe(3)
  })

  test('the DP fallback agrees with the full-matrix reference', () => {
    fc.assert(
      fc.property(mixedText, mixedText, (a, b) => {
        expect(dpDistance(codePointArray(a), codePointArray(b))).toBe(referenceDistance(a, b))
      }),
    )
  })

  test('agrees with the reference for every alphabet limit, mapped or not', () => {
    fc.assert(
      fc.property(mixedText, mixedText, fc.integer({ min: 2, max: 12 }), (a, b, limit) => {
        expect(distanceWithAlphabetLimit(a, b, limit)).toBe(referenceDistance(a, b))
      }),
    )
  })
})

describe('properties', () => {
  test('the distance equals a plain code-point DP on random strings, including astral characters', () => {
    fc.assert(
      fc.property(mixedText, mixedText, (a, b) => {
        expect(levenshteinDistance(a, b)).toBe(referenceDistance(a, b))
      }),
      { numRuns: 300 },
    )
  })

  test('editSimilarity equals the reference formula, lies in [0, 1] and is symmetric', () => {
    fc.assert(
      fc.property(mixedText, mixedText, (a, b) => {
        const similarity = editSimilarity(a, b)
        expect(similarity).toBe(referenceSimilarity(a, b))
        expect(similarity).toBeGreaterThanOrEqual(0)
        expect(similarity).toBeLessThanOrEqual(1)
        expect(editSimilarity(b, a)).toBe(similarity)
      }),
    )
  })

  test('a text is identical to itself: distance 0, similarity 1', () => {
    fc.assert(
      fc.property(mixedText, (s) => {
        expect(levenshteinDistance(s, s)).toBe(0)
        expect(editSimilarity(s, s)).toBe(1)
      }),
    )
  })

  test('similarity is below 1 for any two different texts', () => {
    fc.assert(
      fc.property(mixedText, mixedText, (a, b) => {
        fc.pre(a !== b)
        expect(editSimilarity(a, b)).toBeLessThan(1)
      }),
    )
  })

  test('the triangle inequality holds', () => {
    fc.assert(
      fc.property(mixedText, mixedText, mixedText, (a, b, c) => {
        expect(levenshteinDistance(a, c)).toBeLessThanOrEqual(levenshteinDistance(a, b) + levenshteinDistance(b, c))
      }),
    )
  })
})
