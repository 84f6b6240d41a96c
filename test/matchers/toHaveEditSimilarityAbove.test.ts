import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toHaveEditSimilarityAbove.js'
import { failureMessage } from '../helpers/failure-message.js'
import { testRejectsInvalidThresholds } from '../helpers/threshold-errors.js'

expect.extend(matcher)

describe('.toHaveEditSimilarityAbove', () => {
  test('passes when the texts are identical at threshold 1', () => {
    expect('AB-1234-X').toHaveEditSimilarityAbove('AB-1234-X', 1)
  })

  test('passes when two empty texts are compared at threshold 1', () => {
    expect('').toHaveEditSimilarityAbove('', 1)
  })

  test('passes when the score equals the threshold (inclusive)', () => {
    // One substitution in four code points: 1 - 1/4 = 0.75 exactly.
    expect('abcd').toHaveEditSimilarityAbove('abce', 0.75)
  })

  test('passes when an emoji difference counts as one code point', () => {
    expect('ok 👍🏽').toHaveEditSimilarityAbove('ok 👍', 0.8)
  })

  test('fails when one character differs and the threshold is 1', () => {
    expect(failureMessage(() => expect('AB-1234-X').toHaveEditSimilarityAbove('AB-1234-Y', 1))).toMatchInlineSnapshot(`
      "expect(output).toHaveEditSimilarityAbove(reference, threshold)

      Expected edit similarity: >= 1
      Received edit similarity:    0.8889 (1 - 1 / 9)

      Levenshtein distance: 1 edit (output 9 code points, reference 9)
      Differs from code point 9: "X" in the output, "Y" in the reference (common start and end left out)

      Output:    "AB-1234-X"
      Reference: "AB-1234-Y""
    `)
  })

  test('fails when the output has extra text in the middle', () => {
    expect(failureMessage(() => expect('Order 1234 (express) shipped').toHaveEditSimilarityAbove('Order 1234 shipped', 0.9))).toMatchInlineSnapshot(`
      "expect(output).toHaveEditSimilarityAbove(reference, threshold)

      Expected edit similarity: >= 0.9
      Received edit similarity:    0.6429 (1 - 10 / 28)

      Levenshtein distance: 10 edits (output 28 code points, reference 18)
      Differs from code point 12: "(express) " in the output, "" in the reference (common start and end left out)

      Output:    "Order 1234 (express) shipped"
      Reference: "Order 1234 shipped""
    `)
  })

  test('fails when only the case differs, as no case folding is applied', () => {
    expect(failureMessage(() => expect('NASA').toHaveEditSimilarityAbove('nasa', 0.5))).toMatchInlineSnapshot(`
      "expect(output).toHaveEditSimilarityAbove(reference, threshold)

      Expected edit similarity: >= 0.5
      Received edit similarity:    0 (1 - 4 / 4)

      Levenshtein distance: 4 edits (output 4 code points, reference 4)
      Differs from code point 1: "NASA" in the output, "nasa" in the reference (common start and end left out)

      Output:    "NASA"
      Reference: "nasa""
    `)
  })

  test('fails when the received value is not a string', () => {
    expect(() => expect(1234).toHaveEditSimilarityAbove('1234', 0.9)).toThrow(
      '[expect-llm] Failed to run toHaveEditSimilarityAbove: the received value must be a string, got a number (1234). Pass the model output text to expect().',
    )
  })

  test('fails when the reference is missing', () => {
    expect(() => (expect('x').toHaveEditSimilarityAbove as (...args: unknown[]) => void)()).toThrow(
      '[expect-llm] Failed to run toHaveEditSimilarityAbove: the reference must be a string, got undefined. Pass the reference as a string.',
    )
  })

  test('fails when the reference is an array', () => {
    expect(() => expect('x').toHaveEditSimilarityAbove(['x'] as unknown as string, 0.5)).toThrow('the reference must be a string, got an array (length 1).')
  })

  testRejectsInvalidThresholds('toHaveEditSimilarityAbove', (t) => expect('x').toHaveEditSimilarityAbove('x', t as number))
})

describe('.not.toHaveEditSimilarityAbove', () => {
  test('passes when the texts are far apart', () => {
    expect('ZZ').not.toHaveEditSimilarityAbove('AB-1234-Y', 0.5)
  })

  test('fails when the texts are identical', () => {
    expect(failureMessage(() => expect('AB-1234-X').not.toHaveEditSimilarityAbove('AB-1234-X', 0.95))).toMatchInlineSnapshot(`
      "expect(output).not.toHaveEditSimilarityAbove(reference, threshold)

      Expected edit similarity: < 0.95
      Received edit similarity:   1 (1 - 0 / 9)

      Levenshtein distance: 0 edits (output 9 code points, reference 9)
      The texts are identical.

      Output:    "AB-1234-X"
      Reference: "AB-1234-X""
    `)
  })
})

describe('toHaveEditSimilarityAbove: where the texts differ', () => {
  const differs = (output: string, reference: string) =>
    failureMessage(() => expect(output).toHaveEditSimilarityAbove(reference, 1))
      .split('\n')
      .find((l) => l.startsWith('Differs from') || l.startsWith('The texts'))

  test('an output that is a prefix of the reference differs at the end, and the other way round', () => {
    expect(differs('abc', 'abcd')).toBe('Differs from code point 4: "" in the output, "d" in the reference (common start and end left out)')
    expect(differs('abcd', 'abc')).toBe('Differs from code point 4: "d" in the output, "" in the reference (common start and end left out)')
  })

  test('the common end never overlaps the common start', () => {
    // Start "a" is common; of the rest, "b" vs "ab" share only the final "b".
    expect(differs('ab', 'aab')).toBe('Differs from code point 2: "" in the output, "a" in the reference (common start and end left out)')
    expect(differs('aab', 'ab')).toBe('Differs from code point 2: "a" in the output, "" in the reference (common start and end left out)')
  })

  test('two empty texts are explained, not divided by zero', () => {
    const message = failureMessage(() => expect('').not.toHaveEditSimilarityAbove('', 0.5))
    expect(message.split('\n').find((l) => l.startsWith('Received'))).toMatch(/\(both texts are empty\)$/)
    expect(message).toContain('The texts are identical.')
  })
})
