import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toHaveChrFAbove.js'
import { failureMessage } from '../helpers/failure-message.js'
import { testRejectsInvalidThresholds } from '../helpers/threshold-errors.js'

expect.extend(matcher)

const reference = 'The cat is on the mat.'

describe('.toHaveChrFAbove', () => {
  test('passes when identical texts score 1 at threshold 1', () => {
    expect(reference).toHaveChrFAbove(reference, 1)
  })

  test('passes when the score equals the threshold (inclusive)', () => {
    // sacrebleu 2.6.0: corpus_chrf(['a', 'b'], [['a', 'c']]) = 50.0 (effective order 1); one segment 'a b' vs 'a c' is the same as a sentence.
    expect('aa').toHaveChrFAbove('ab', 0.25)
  })

  test('passes when one of several references matches', () => {
    expect('There is a cat on the mat.').toHaveChrFAbove([reference, 'There is a cat on the mat.'], 1)
  })

  test('takes sacrebleu options: chrF++ adds word n-grams', () => {
    expect('The cat sat on the mat.').toHaveChrFAbove(reference, 0.6, { wordOrder: 2 })
    expect('the cat is on the mat.').toHaveChrFAbove(reference, 1, { lowercase: true })
  })

  test('fails when the output shares few character n-grams', () => {
    expect(failureMessage(() => expect('A dog.').toHaveChrFAbove(reference, 0.5))).toMatchInlineSnapshot(`
      "expect(output).toHaveChrFAbove(reference, threshold)

      Expected chrF2: >= 0.5
      Received chrF2:    0.0274

      n-gram precision (P) and recall (R) per order: c1 P 0.4 R 0.1176, c2 P 0 R 0, c3 P 0 R 0, c4 P 0 R 0, c5 P 0 R 0, c6 P - R 0

      Output:    "A dog."
      Reference: "The cat is on the mat.""
    `)
  })

  test('fails with chrF++ naming the word orders', () => {
    expect(failureMessage(() => expect('The cat sat.').toHaveChrFAbove(reference, 0.9, { wordOrder: 2 }))).toMatchInlineSnapshot(`
      "expect(output).toHaveChrFAbove(reference, threshold)

      Expected chrF2++: >= 0.9
      Received chrF2++:    0.3311

      n-gram precision (P) and recall (R) per order: c1 P 1 R 0.5882, c2 P 0.7778 R 0.4375, c3 P 0.625 R 0.3333, c4 P 0.4286 R 0.2143, c5 P 0.3333 R 0.1538, c6 P 0.2 R 0.0833, w1 P 0.75 R 0.4286, w2 P 0.3333 R 0.1667

      Output:    "The cat sat."
      Reference: "The cat is on the mat.""
    `)
  })

  test('fails against several references, naming the best', () => {
    expect(failureMessage(() => expect('A cat sat on a mat.').toHaveChrFAbove([reference, 'There is a cat on the mat.'], 0.9))).toMatchInlineSnapshot(`
      "expect(output).toHaveChrFAbove(reference, threshold)

      Expected chrF2: >= 0.9
      Received chrF2:    0.252

      n-gram precision (P) and recall (R) per order: c1 P 0.8571 R 0.6, c2 P 0.6154 R 0.4211, c3 P 0.4167 R 0.2778, c4 P 0.1818 R 0.1176, c5 P 0 R 0, c6 P 0 R 0

      Output:    "A cat sat on a mat."
      Reference: "There is a cat on the mat." (the best of 2 references, #2)"
    `)
  })

  test('fails when the received value is not a string', () => {
    expect(() => expect(undefined).toHaveChrFAbove(reference, 0.5)).toThrow(
      '[expect-llm] Failed to run toHaveChrFAbove: the received value must be a string, got undefined. Pass the model output text to expect().',
    )
  })

  test('fails when the reference is missing', () => {
    expect(() => (expect('x').toHaveChrFAbove as (...args: unknown[]) => void)()).toThrow(
      '[expect-llm] Failed to run toHaveChrFAbove: the reference must be a string or a non-empty array of strings, got undefined.',
    )
  })

  test('fails with a usage error on an unknown option', () => {
    expect(() => expect('x').toHaveChrFAbove('x', 0.5, { order: 2 } as never)).toThrow('unknown option "order"')
  })

  test('fails with a usage error on an invalid option value', () => {
    expect(() => expect('x').toHaveChrFAbove('x', 0.5, { wordOrder: -1 })).toThrow('options.wordOrder must be a whole number from 0 to 100, got a number (-1)')
  })

  testRejectsInvalidThresholds('toHaveChrFAbove', (t) => expect('x').toHaveChrFAbove('x', t as number))
})

describe('.not.toHaveChrFAbove', () => {
  test('passes when the score is below the threshold', () => {
    expect('A dog.').not.toHaveChrFAbove(reference, 0.5)
  })

  test('fails when the texts are identical', () => {
    expect(failureMessage(() => expect(reference).not.toHaveChrFAbove(reference, 0.5))).toMatchInlineSnapshot(`
      "expect(output).not.toHaveChrFAbove(reference, threshold)

      Expected chrF2: < 0.5
      Received chrF2:   1

      n-gram precision (P) and recall (R) per order: c1 P 1 R 1, c2 P 1 R 1, c3 P 1 R 1, c4 P 1 R 1, c5 P 1 R 1, c6 P 1 R 1

      Output:    "The cat is on the mat."
      Reference: "The cat is on the mat.""
    `)
  })
})
