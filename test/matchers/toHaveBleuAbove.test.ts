import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toHaveBleuAbove.js'
import { failureMessage } from '../helpers/failure-message.js'
import { testRejectsInvalidThresholds } from '../helpers/threshold-errors.js'

expect.extend(matcher)

const reference = 'The cat is on the mat.'

describe('.toHaveBleuAbove', () => {
  test('passes when identical texts score 1 at threshold 1', () => {
    expect(reference).toHaveBleuAbove(reference, 1)
  })

  test('passes when the score equals the threshold (inclusive)', () => {
    // Same text without the final period: every precision is 1 and BLEU is the brevity penalty exp(1 - 7/6).
    expect('The cat is on the mat').toHaveBleuAbove(reference, Math.exp(1 - 7 / 6))
  })

  test('passes when one of several references matches', () => {
    expect('There is a cat on the mat.').toHaveBleuAbove([reference, 'There is a cat on the mat.'], 1)
  })

  test('fails when the output shares few n-grams and is short', () => {
    expect(failureMessage(() => expect('A dog.').toHaveBleuAbove(reference, 0.5))).toMatchInlineSnapshot(`
      "expect(output).toHaveBleuAbove(reference, threshold)

      Expected BLEU: >= 0.5
      Received BLEU:    0.0725

      n-gram precisions: 1-gram 1/3 = 0.3333, 2-gram 0/2 (smoothed to 0.25), 3-gram 0/1 (smoothed to 0.25), 4-gram none (the output has 3 tokens)
      Brevity penalty:   0.2636 (the output is shorter: 3 tokens vs 7 in the reference)

      Reference tokens missing from the output (6): "The", "cat", "is", "on", "the", "mat"
      Output tokens not in the reference (2): "A", "dog"

      Output:    "A dog."
      Reference: "The cat is on the mat.""
    `)
  })

  test('fails when one word differs, showing every n-gram precision', () => {
    expect(failureMessage(() => expect('The cat sat on the mat.').toHaveBleuAbove(reference, 0.6))).toMatchInlineSnapshot(`
      "expect(output).toHaveBleuAbove(reference, threshold)

      Expected BLEU: >= 0.6
      Received BLEU:    0.4889

      n-gram precisions: 1-gram 6/7 = 0.8571, 2-gram 4/6 = 0.6667, 3-gram 2/5 = 0.4, 4-gram 1/4 = 0.25
      Brevity penalty:   1 (output 7 tokens, reference 7)

      Reference tokens missing from the output (1): "is"
      Output tokens not in the reference (1): "sat"

      Output:    "The cat sat on the mat."
      Reference: "The cat is on the mat.""
    `)
  })

  test('fails when only the case differs, as BLEU is case-sensitive', () => {
    expect(failureMessage(() => expect('the cat is on the mat.').toHaveBleuAbove(reference, 0.9))).toMatchInlineSnapshot(`
      "expect(output).toHaveBleuAbove(reference, threshold)

      Expected BLEU: >= 0.9
      Received BLEU:    0.8091

      n-gram precisions: 1-gram 6/7 = 0.8571, 2-gram 5/6 = 0.8333, 3-gram 4/5 = 0.8, 4-gram 3/4 = 0.75
      Brevity penalty:   1 (output 7 tokens, reference 7)

      Reference tokens missing from the output (1): "The"
      Output tokens not in the reference (1): "the"
      BLEU is case-sensitive: "The" vs "the" differ only in case.

      Output:    "the cat is on the mat."
      Reference: "The cat is on the mat.""
    `)
  })

  test('fails against several references, naming the nearest', () => {
    expect(failureMessage(() => expect('A cat sat on a mat.').toHaveBleuAbove([reference, 'There is a cat on the mat.'], 0.5))).toMatchInlineSnapshot(`
      "expect(output).toHaveBleuAbove(reference, threshold)

      Expected BLEU: >= 0.5
      Received BLEU:    0.1652

      n-gram precisions: 1-gram 5/7 = 0.7143, 2-gram 1/6 = 0.1667, 3-gram 0/5 (smoothed to 0.1), 4-gram 0/4 (smoothed to 0.0625)
      Brevity penalty:   1 (output 7 tokens, closest reference 7)

      Reference tokens missing from the output (3): "The", "is", "the"
      Output tokens not in the reference (3): "A", "sat", "a"

      Output:    "A cat sat on a mat."
      Reference: "The cat is on the mat." (the nearest of 2 references, #1)"
    `)
  })

  test('fails when the received value is not a string', () => {
    expect(() => expect(undefined).toHaveBleuAbove(reference, 0.5)).toThrow(
      '[expect-llm] Failed to run toHaveBleuAbove: the received value must be a string, got undefined. Pass the model output text to expect().',
    )
  })

  test('fails when the reference is missing', () => {
    expect(() => (expect('x').toHaveBleuAbove as (...args: unknown[]) => void)()).toThrow(
      '[expect-llm] Failed to run toHaveBleuAbove: the reference must be a string or a non-empty array of strings, got undefined.',
    )
  })

  testRejectsInvalidThresholds('toHaveBleuAbove', (t) => expect('x').toHaveBleuAbove('x', t as number))

  test('fails with a usage error when the threshold is given as a percentage', () => {
    expect(() => expect('x').toHaveBleuAbove('x', 40)).toThrow('the threshold must be a number from 0 to 1, got 40.')
  })
})

describe('.not.toHaveBleuAbove', () => {
  test('passes when the score is below the threshold', () => {
    expect('A dog.').not.toHaveBleuAbove(reference, 0.5)
  })

  test('fails when the texts are identical', () => {
    expect(failureMessage(() => expect(reference).not.toHaveBleuAbove(reference, 0.5))).toMatchInlineSnapshot(`
      "expect(output).not.toHaveBleuAbove(reference, threshold)

      Expected BLEU: < 0.5
      Received BLEU:   1

      n-gram precisions: 1-gram 7/7 = 1, 2-gram 6/6 = 1, 3-gram 5/5 = 1, 4-gram 4/4 = 1
      Brevity penalty:   1 (output 7 tokens, reference 7)

      Reference tokens missing from the output: none
      Output tokens not in the reference: none

      Output:    "The cat is on the mat."
      Reference: "The cat is on the mat.""
    `)
  })
})

describe('toHaveBleuAbove message details', () => {
  const line = (message: string, start: string) => message.split('\n').find((l) => l.startsWith(start))

  test('the nearest reference is the one that scores best on its own, the first on a tie', () => {
    const far = 'x y z w'
    const near = 'the cat sat on the mat'
    expect(
      line(
        failureMessage(() => expect('the cat sat on a mat').toHaveBleuAbove([far, near], 0.99)),
        'Reference:',
      ),
    ).toBe(`Reference: "${near}" (the nearest of 2 references, #2)`)
    expect(
      line(
        failureMessage(() => expect('the cat sat on a mat').toHaveBleuAbove([near, near], 0.99)),
        'Reference:',
      ),
    ).toBe(`Reference: "${near}" (the nearest of 2 references, #1)`)
  })

  test('orders beyond a short output read "none", with the token count singular for one token', () => {
    expect(
      line(
        failureMessage(() => expect('cat').toHaveBleuAbove('the cat', 0.99)),
        'n-gram precisions:',
      ),
    ).toBe(
      'n-gram precisions: 1-gram 1/1 = 1, 2-gram none (the output has 1 token), 3-gram none (the output has 1 token), 4-gram none (the output has 1 token)',
    )
    expect(
      line(
        failureMessage(() => expect('a cat').toHaveBleuAbove('the cat', 0.99)),
        'n-gram precisions:',
      ),
    ).toMatch(/, 3-gram none \(the output has 2 tokens\),/)
  })

  test('case-only differences are listed, five at most, comma-separated', () => {
    const message = failureMessage(() => expect('a b c d e f').toHaveBleuAbove('A B C D E F', 0.5))
    expect(line(message, 'BLEU is case-sensitive:')).toBe(
      'BLEU is case-sensitive: "A" vs "a", "B" vs "b", "C" vs "c", "D" vs "d", "E" vs "e" differ only in case.',
    )
  })
})
