import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { cosineSimilarity } from '../../src/metrics/cosine.js'

/** Independent reference in long-hand arithmetic. */
function referenceCosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0
  let na = 0
  let nb = 0
  a.forEach((x, i) => {
    const y = b[i] as number
    dot += x * y
    na += x * x
    nb += y * y
  })
  return dot / (Math.sqrt(na) * Math.sqrt(nb))
}

describe('cosineSimilarity', () => {
  test('is 1 for vectors in the same direction, whatever their length', () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 14)
  })

  test('is 0 for orthogonal vectors', () => {
    expect(cosineSimilarity([1, 0], [0, 5])).toBe(0)
  })

  test('is -1 for opposite vectors', () => {
    expect(cosineSimilarity([1, 2, 3], [-1, -2, -3])).toBeCloseTo(-1, 14)
  })

  test('is cos 45° for [1, 0] and [1, 1]', () => {
    expect(cosineSimilarity([1, 0], [1, 1])).toBeCloseTo(Math.SQRT1_2, 15)
  })

  test('returns 0 when either vector is all zeros (ml-distance alone gives NaN)', () => {
    expect(cosineSimilarity([0, 0, 0], [1, 2, 3])).toBe(0)
    expect(cosineSimilarity([1, 2, 3], [0, 0, 0])).toBe(0)
    expect(cosineSimilarity([0], [0])).toBe(0)
  })

  test('accepts typed arrays, as embedders often return Float32Array', () => {
    expect(cosineSimilarity(new Float32Array([1, 0]), new Float64Array([1, 1]))).toBeCloseTo(Math.SQRT1_2, 7)
  })

  test('stays correct for huge magnitudes (the squared norms would overflow)', () => {
    expect(cosineSimilarity([1e200, 1e200], [1e200, 0])).toBeCloseTo(Math.SQRT1_2, 15)
  })

  test('stays correct for tiny magnitudes (the squared norms would underflow)', () => {
    expect(cosineSimilarity([1e-200, 1e-200], [1e-200, 0])).toBeCloseTo(Math.SQRT1_2, 15)
    expect(cosineSimilarity([5e-324], [5e-324])).toBe(1)
  })

  test('is clamped to [-1, 1] against rounding', () => {
    const v = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]
    const s = cosineSimilarity(v, v)
    expect(s).toBeLessThanOrEqual(1)
    expect(s).toBeCloseTo(1, 14)
  })

  test('throws a TypeError for vectors of different lengths', () => {
    expect(() => cosineSimilarity([1, 2], [1, 2, 3])).toThrow(/different lengths \(2 and 3\)/)
  })

  test('throws a TypeError for empty vectors', () => {
    expect(() => cosineSimilarity([], [])).toThrow(/first vector is empty/)
  })

  test('throws a TypeError for NaN, Infinity and non-number components', () => {
    expect(() => cosineSimilarity([1, Number.NaN], [1, 2])).toThrow(/NaN\) at index 1/)
    expect(() => cosineSimilarity([1, 2], [Infinity, 2])).toThrow(/second vector has a number \(Infinity\) at index 0/)
    expect(() => cosineSimilarity([1, '2'] as unknown as number[], [1, 2])).toThrow(TypeError)
    // A sparse array has a hole (undefined) where a component should be.
    expect(() => cosineSimilarity([1, , 3] as number[], [1, 2, 3])).toThrow(/undefined at index 1/)
  })

  test('throws a TypeError for non-array arguments, including strings and promises', () => {
    expect(() => cosineSimilarity('12' as unknown as number[], [1, 2])).toThrow(/must be an array of numbers/)
    expect(() => cosineSimilarity([1], undefined as unknown as number[])).toThrow(TypeError)
    expect(() => cosineSimilarity(Promise.resolve([1]) as unknown as number[], [1])).toThrow(/did you forget to await/)
    expect(() => cosineSimilarity(new BigInt64Array(1) as unknown as number[], [1])).toThrow(TypeError)
  })
})

describe('properties', () => {
  // Moderate magnitudes (0 or 1e-6 <= |x| <= 1e6), where the long-hand reference is itself exact
  // enough; the extreme magnitudes have their own tests above.
  const component = fc.oneof(
    fc.constant(0),
    fc.tuple(fc.double({ min: 1e-6, max: 1e6, noNaN: true }), fc.boolean()).map(([x, negative]) => (negative ? -x : x)),
  )
  const pair = fc
    .integer({ min: 1, max: 20 })
    .chain((n) => fc.tuple(fc.array(component, { minLength: n, maxLength: n }), fc.array(component, { minLength: n, maxLength: n })))

  test('is in [-1, 1], never NaN, symmetric, and agrees with the long-hand formula', () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const s = cosineSimilarity(a, b)
        expect(Number.isNaN(s)).toBe(false)
        expect(s).toBeGreaterThanOrEqual(-1)
        expect(s).toBeLessThanOrEqual(1)
        expect(cosineSimilarity(b, a)).toBe(s)
        const zero = a.every((x) => x === 0) || b.every((x) => x === 0)
        const expected = zero ? 0 : Math.min(1, Math.max(-1, referenceCosine(a, b)))
        expect(Math.abs(s - expected)).toBeLessThanOrEqual(1e-9)
      }),
    )
  })

  test('does not change when a vector is scaled by a positive factor', () => {
    fc.assert(
      fc.property(pair, fc.double({ min: 1e-3, max: 1e3, noNaN: true }), ([a, b], factor) => {
        const scaled = a.map((x) => x * factor)
        expect(Math.abs(cosineSimilarity(scaled, b) - cosineSimilarity(a, b))).toBeLessThanOrEqual(1e-9)
      }),
    )
  })
})
