/**
 * Cosine similarity of two embedding vectors, computed by ml-distance's `similarity.cosine`, with
 * the input checks and edge cases that function leaves out (it returns NaN for a zero vector and
 * silently reads `undefined` when the lengths differ).
 *
 * @module
 */
import { similarity } from 'ml-distance'
import { describeValue, formatMessage, isFiniteNumber } from '../errors.js'

/**
 * ml-distance computes `p / Math.sqrt(p2 * q2)` (dot product over the product of the squared norms).
 * Beyond these magnitudes `p2 * q2` overflows to Infinity or underflows to 0 and the result is wrong
 * (0 or NaN), so such vectors are first divided by their largest absolute value, which leaves the
 * cosine unchanged.
 */
const MAX_SAFE_MAGNITUDE = 1e50
const MIN_SAFE_MAGNITUDE = 1e-50

const ACTION = 'compute cosine similarity'

function fail(reason: string, fix: string): never {
  throw new TypeError(formatMessage(`Failed to ${ACTION}: ${reason}. ${fix}`))
}

function isNumberArrayLike(value: unknown): value is ArrayLike<number> {
  if (Array.isArray(value)) return true
  return ArrayBuffer.isView(value) && !(value instanceof DataView) && !(value instanceof BigInt64Array) && !(value instanceof BigUint64Array)
}

/** Validates one vector and returns its largest absolute component. */
function checkVector(value: unknown, name: string): number {
  if (!isNumberArrayLike(value)) {
    fail(
      `the ${name} vector must be an array of numbers or a typed array (Float32Array, Float64Array, ...), got ${describeValue(value)}`,
      'Pass the embedding as returned by the embedder.',
    )
  }
  if (value.length === 0) {
    fail(`the ${name} vector is empty`, 'Pass a vector with at least one dimension.')
  }
  let maxAbs = 0
  for (let i = 0; i < value.length; i++) {
    const component: unknown = value[i]
    if (!isFiniteNumber(component)) {
      fail(
        `the ${name} vector has ${describeValue(component)} at index ${i}`,
        'Every component must be a finite number (check the embedder output for NaN or missing values).',
      )
    }
    const abs = Math.abs(component)
    // Stryker disable next-line EqualityOperator: equivalent, >= sets the same maximum again
    if (abs > maxAbs) maxAbs = abs
  }
  return maxAbs
}

/**
 * The vector as ml-distance's parameter type. `checkVector` has accepted only arrays and number typed
 * arrays, and ml-distance only reads `length` and indices, so the cast is sound.
 */
function rescaled(vector: ArrayLike<number>, maxAbs: number): Float64Array | number[] {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent up to rounding, cosine does not depend on scale (this guards against overflow)
  if (maxAbs <= MAX_SAFE_MAGNITUDE && maxAbs >= MIN_SAFE_MAGNITUDE) return vector as number[]
  return Float64Array.from(vector, (x) => x / maxAbs)
}

/**
 * Cosine similarity of two vectors: the dot product divided by the product of the norms. The result
 * lies in **[-1, 1]** (1 = same direction, 0 = orthogonal, -1 = opposite); it is clamped to that range
 * against rounding. When either vector is all zeros, the cosine is undefined and this returns 0.
 *
 * Throws a `TypeError` when an argument is not an array or typed array of numbers, is empty, contains
 * a non-finite number, or when the two lengths differ (e.g. embeddings from two different models).
 *
 * @example
 * ```ts
 * cosineSimilarity([1, 0], [1, 1])                    // 0.7071067811865475
 * cosineSimilarity([1, 2, 3], [-1, -2, -3])           // -1
 * cosineSimilarity(new Float32Array([0, 0]), [1, 2])  // 0 (zero vector)
 * ```
 */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const maxA = checkVector(a, 'first')
  const maxB = checkVector(b, 'second')
  if (a.length !== b.length) {
    fail(`the vectors have different lengths (${a.length} and ${b.length})`, 'Compare embeddings from the same model and dimensions.')
  }
  if (maxA === 0 || maxB === 0) return 0
  const value = similarity.cosine(rescaled(a, maxA), rescaled(b, maxB))
  return Math.min(1, Math.max(-1, value))
}
