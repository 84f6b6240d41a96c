import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toHaveTerBelow.js'
import { failureMessage } from '../helpers/failure-message.js'
import { testRejectsInvalidThresholds } from '../helpers/threshold-errors.js'

expect.extend(matcher)

const reference = 'The cat is on the mat.'

describe('.toHaveTerBelow', () => {
  test('passes when identical texts score 0 at threshold 0', () => {
    expect(reference).toHaveTerBelow(reference, 0)
  })

  test('passes when the score equals the threshold (inclusive)', () => {
    // sacrebleu 2.6.0: one shift fixes 'd e f g h a b c' against 'a b c d e f g h': TER 12.5.
    expect('d e f g h a b c').toHaveTerBelow('a b c d e f g h', 0.125)
  })

  test('is case-insensitive unless caseSensitive is set', () => {
    expect('THE CAT IS ON THE MAT.').toHaveTerBelow(reference, 0)
    expect('THE CAT IS ON THE MAT.').not.toHaveTerBelow(reference, 0.5, { caseSensitive: true })
  })

  test('passes when one of several references matches', () => {
    expect('There is a cat on the mat.').toHaveTerBelow([reference, 'There is a cat on the mat.'], 0)
  })

  test('fails when the output needs many edits', () => {
    expect(failureMessage(() => expect('A dog.').toHaveTerBelow(reference, 0.5))).toMatchInlineSnapshot(`
      "expect(output).toHaveTerBelow(reference, threshold)

      Expected TER: <= 0.5
      Received TER:    1 (6 edits over 6 reference words)

      Reference words missing from the output (6): "the", "the", "cat", "is", "on", "mat."
      Output words not in the reference (2): "a", "dog."

      Output:    "A dog."
      Reference: "The cat is on the mat.""
    `)
  })

  test('fails on a single edit, counted as "1 edit"', () => {
    expect(failureMessage(() => expect('The cat is on a mat.').toHaveTerBelow(reference, 0.1))).toMatchInlineSnapshot(`
      "expect(output).toHaveTerBelow(reference, threshold)

      Expected TER: <= 0.1
      Received TER:    0.1667 (1 edit over 6 reference words)

      Reference words missing from the output (1): "the"
      Output words not in the reference (1): "a"

      Output:    "The cat is on a mat."
      Reference: "The cat is on the mat.""
    `)
  })

  test('fails against several references, naming the closest', () => {
    expect(failureMessage(() => expect('A cat sat on a mat.').toHaveTerBelow([reference, 'There is a cat on the mat.'], 0.2))).toMatchInlineSnapshot(`
      "expect(output).toHaveTerBelow(reference, threshold)

      Expected TER: <= 0.2
      Received TER:    0.4615 (3 edits over 6.5 reference words)

      Reference words missing from the output (3): "the", "the", "is"
      Output words not in the reference (3): "a", "a", "sat"

      Output:    "A cat sat on a mat."
      Reference: "The cat is on the mat." (the closest of 2 references, #1)"
    `)
  })

  test('fails when the received value is not a string', () => {
    expect(() => expect(undefined).toHaveTerBelow(reference, 0.5)).toThrow(
      '[expect-llm] Failed to run toHaveTerBelow: the received value must be a string, got undefined. Pass the model output text to expect().',
    )
  })

  test('fails when the reference is missing', () => {
    expect(() => (expect('x').toHaveTerBelow as (...args: unknown[]) => void)()).toThrow(
      '[expect-llm] Failed to run toHaveTerBelow: the reference must be a string or a non-empty array of strings, got undefined.',
    )
  })

  test('fails with a usage error on an unknown option', () => {
    expect(() => expect('x').toHaveTerBelow('x', 0.5, { lowercase: true } as never)).toThrow('unknown option "lowercase"')
  })

  testRejectsInvalidThresholds('toHaveTerBelow', (t) => expect('x').toHaveTerBelow('x', t as number))
})

describe('.not.toHaveTerBelow', () => {
  test('passes when the score is above the threshold', () => {
    expect('A dog.').not.toHaveTerBelow(reference, 0.5)
  })

  test('fails when the texts are identical', () => {
    expect(failureMessage(() => expect(reference).not.toHaveTerBelow(reference, 0.5))).toMatchInlineSnapshot(`
      "expect(output).not.toHaveTerBelow(reference, threshold)

      Expected TER: > 0.5
      Received TER:   0 (0 edits over 6 reference words)

      Reference words missing from the output: none
      Output words not in the reference: none

      Output:    "The cat is on the mat."
      Reference: "The cat is on the mat.""
    `)
  })
})
