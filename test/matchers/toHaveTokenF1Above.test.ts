import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toHaveTokenF1Above.js'
import { failureMessage } from '../helpers/failure-message.js'
import { testRejectsInvalidThresholds } from '../helpers/threshold-errors.js'

expect.extend(matcher)

describe('.toHaveTokenF1Above', () => {
  test('passes when the answers are equal after normalization', () => {
    expect('The Eiffel Tower!').toHaveTokenF1Above('eiffel tower', 1)
  })

  test('passes when the score equals the threshold (inclusive)', () => {
    // Tokens capital, is, paris vs paris: precision 1/3, recall 1, F1 exactly 0.5.
    expect('The capital is Paris.').toHaveTokenF1Above('Paris', 0.5)
  })

  test('passes when the best of several references is above the threshold', () => {
    expect('Paris').toHaveTokenF1Above(['London', 'Paris, France'], 0.6)
  })

  test('fails when the F1 is below the threshold', () => {
    expect(failureMessage(() => expect('It was built by Gustave Eiffel in 1889.').toHaveTokenF1Above('Gustave Eiffel', 0.8))).toMatchInlineSnapshot(`
      "expect(output).toHaveTokenF1Above(reference, threshold)

      Expected token F1: >= 0.8
      Received token F1:    0.4 (precision 0.25, recall 1)

      Reference tokens missing from the output: none
      Output tokens not in the reference (6): "it", "was", "built", "by", "in", "1889"

      Output:    "It was built by Gustave Eiffel in 1889."
      Reference: "Gustave Eiffel""
    `)
  })

  test('fails against several references, naming the best one', () => {
    expect(
      failureMessage(() => expect('The engineer Eiffel').toHaveTokenF1Above(['Maurice Koechlin', 'Gustave Eiffel', 'Émile Nouguier'], 0.8)),
    ).toMatchInlineSnapshot(`
      "expect(output).toHaveTokenF1Above(reference, threshold)

      Expected token F1: >= 0.8
      Received token F1:    0.5 (precision 0.5, recall 0.5)

      Reference tokens missing from the output (1): "gustave"
      Output tokens not in the reference (1): "engineer"

      Output:    "The engineer Eiffel"
      Reference: "Gustave Eiffel" (the best of 3 references, #2)"
    `)
  })

  test('fails when the reference normalizes to no tokens', () => {
    expect(failureMessage(() => expect('The').toHaveTokenF1Above('a', 0.5))).toMatchInlineSnapshot(`
      "expect(output).toHaveTokenF1Above(reference, threshold)

      Expected token F1: >= 0.5
      Received token F1:    0 (precision 0, recall 0)

      The reference normalizes to no tokens, so token F1 is 0 for any output.
      Reference tokens missing from the output: none
      Output tokens not in the reference: none

      Output:    "The"
      Reference: "a""
    `)
  })

  test('fails when the received value is not a string', () => {
    expect(() => expect(3).toHaveTokenF1Above('3', 0.5)).toThrow(
      '[expect-llm] Failed to run toHaveTokenF1Above: the received value must be a string, got a number (3). Pass the model output text to expect().',
    )
  })

  test('fails when the reference is missing', () => {
    expect(() => (expect('x').toHaveTokenF1Above as (...args: unknown[]) => void)()).toThrow(
      '[expect-llm] Failed to run toHaveTokenF1Above: the reference must be a string or a non-empty array of strings, got undefined. Pass the reference as a string, or every acceptable one in an array.',
    )
  })

  test('fails when the references are an empty array', () => {
    expect(() => expect('x').toHaveTokenF1Above([], 0.5)).toThrow('the reference must be a string or a non-empty array of strings, got an empty array.')
  })

  testRejectsInvalidThresholds('toHaveTokenF1Above', (t) => expect('x').toHaveTokenF1Above('x', t as number))
})

describe('.not.toHaveTokenF1Above', () => {
  test('passes when the answers share no token', () => {
    expect('Big Ben').not.toHaveTokenF1Above('Eiffel Tower', 0.1)
  })

  test('fails when the F1 reaches the threshold', () => {
    expect(failureMessage(() => expect('The capital is Paris.').not.toHaveTokenF1Above('Paris', 0.5))).toMatchInlineSnapshot(`
      "expect(output).not.toHaveTokenF1Above(reference, threshold)

      Expected token F1: < 0.5
      Received token F1:   0.5 (precision 0.3333, recall 1)

      Reference tokens missing from the output: none
      Output tokens not in the reference (2): "capital", "is"

      Output:    "The capital is Paris."
      Reference: "Paris""
    `)
  })
})
