import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toHaveRougeNAbove.js'
import { failureMessage } from '../helpers/failure-message.js'
import { testRejectsInvalidThresholds } from '../helpers/threshold-errors.js'

expect.extend(matcher)

const reference = 'the cat lay on the mat'

describe('.toHaveRougeNAbove', () => {
  test('passes when identical texts score 1 at threshold 1', () => {
    expect('The cat lay on the mat.').toHaveRougeNAbove(reference, 2, 1)
  })

  test('passes when the score equals the threshold (inclusive)', () => {
    // Bigrams: 3 of 5 shared (the cat, on the, the mat), so precision = recall = F = 0.6.
    expect('the cat sat on the mat').toHaveRougeNAbove(reference, 2, 0.6)
  })

  test('passes when the unigram overlap is above the threshold', () => {
    expect('the cat sat on the mat').toHaveRougeNAbove(reference, 1, 0.8)
  })

  test('passes for n = 3', () => {
    expect('the cat lay on a mat').toHaveRougeNAbove(reference, 3, 0.25)
  })

  test('passes with the stemmer when only inflections differ', () => {
    expect('the cats ran').toHaveRougeNAbove('the cat runs', 1, 0.6, { stemmer: true })
  })

  test('passes on recall when the output adds words to the whole reference', () => {
    expect('Sure! The cat lay on the mat, as always, all afternoon.').toHaveRougeNAbove(reference, 2, 1, { measure: 'recall' })
  })

  test('fails when the bigram F-measure is below the threshold', () => {
    expect(failureMessage(() => expect('the cat was lying on the mat').toHaveRougeNAbove(reference, 2, 0.6))).toMatchInlineSnapshot(`
      "expect(output).toHaveRougeNAbove(reference, n, threshold)

      Expected ROUGE-2 F-measure: >= 0.6
      Received ROUGE-2 F-measure:    0.5455 (precision 0.5, recall 0.6, F 0.5455)

      Reference bigrams missing from the output (2): "cat lay", "lay on"
      Output bigrams not in the reference (3): "cat was", "was lying", "lying on"

      Output:    "the cat was lying on the mat"
      Reference: "the cat lay on the mat""
    `)
  })

  test('fails when the unigram precision is below the threshold', () => {
    expect(
      failureMessage(() => expect('A dog lay on the sofa all day.').toHaveRougeNAbove(reference, 1, 0.5, { measure: 'precision' })),
    ).toMatchInlineSnapshot(`
      "expect(output).toHaveRougeNAbove(reference, n, threshold)

      Expected ROUGE-1 precision: >= 0.5
      Received ROUGE-1 precision:    0.375 (precision 0.375, recall 0.5, F 0.4286)

      Reference tokens missing from the output (3): "the", "cat", "mat"
      Output tokens not in the reference (5): "a", "dog", "sofa", "all", "day"

      Output:    "A dog lay on the sofa all day."
      Reference: "the cat lay on the mat""
    `)
  })

  test('fails when the output is too short to have an n-gram', () => {
    expect(failureMessage(() => expect('Cat.').toHaveRougeNAbove(reference, 2, 0.1))).toMatchInlineSnapshot(`
      "expect(output).toHaveRougeNAbove(reference, n, threshold)

      Expected ROUGE-2 F-measure: >= 0.1
      Received ROUGE-2 F-measure:    0 (precision 0, recall 0, F 0)

      The output has 1 token, too few for a bigram.
      Reference bigrams missing from the output (5): "the cat", "cat lay", "lay on", "on the", "the mat"
      Output bigrams not in the reference: none

      Output:    "Cat."
      Reference: "the cat lay on the mat""
    `)
  })

  test('fails without the stemmer when only inflections differ', () => {
    expect(failureMessage(() => expect('the cats ran').toHaveRougeNAbove('the cat runs', 1, 0.6))).toContain('Received ROUGE-1 F-measure:    0.3333')
  })

  test('fails when the received value is not a string', () => {
    expect(() => expect(42).toHaveRougeNAbove(reference, 2, 0.5)).toThrow(
      '[expect-llm] Failed to run toHaveRougeNAbove: the received value must be a string, got a number (42). Pass the model output text to expect().',
    )
  })

  test('fails when the reference is missing', () => {
    expect(() => (expect('x').toHaveRougeNAbove as (...args: unknown[]) => void)()).toThrow(
      '[expect-llm] Failed to run toHaveRougeNAbove: the reference must be a string, got undefined. Pass the reference as a string.',
    )
  })

  test.each([
    [0, 'got 0'],
    [1.5, 'got 1.5'],
    [Number.NaN, 'got NaN'],
  ])('fails when n is %s', (n, got) => {
    expect(() => expect('x').toHaveRougeNAbove(reference, n, 0.5)).toThrow(
      `[expect-llm] Failed to run toHaveRougeNAbove: n (the n-gram size) must be an integer >= 1, ${got}. Pass a whole number such as 1.`,
    )
  })

  test('fails when n is a string', () => {
    expect(() => expect('x').toHaveRougeNAbove(reference, '2' as unknown as number, 0.5)).toThrow(
      'n (the n-gram size) must be an integer >= 1, got a string ("2").',
    )
  })

  test('fails when n is left out and the threshold takes its place', () => {
    expect(() => (expect('x').toHaveRougeNAbove as (...args: unknown[]) => void)(reference, 0.5)).toThrow(
      'n (the n-gram size) must be an integer >= 1, got 0.5.',
    )
  })

  testRejectsInvalidThresholds('toHaveRougeNAbove', (t) => expect('x').toHaveRougeNAbove(reference, 2, t as number))

  test('fails when an option is unknown', () => {
    expect(() => expect('x').toHaveRougeNAbove(reference, 2, 0.5, { variant: 'rougeL' } as never)).toThrow(
      'unknown option "variant". Valid options are: measure, stemmer, tokenizer.',
    )
  })

  test('fails when the measure is unknown', () => {
    expect(() => expect('x').toHaveRougeNAbove(reference, 2, 0.5, { measure: 'f1' as 'f' })).toThrow(
      `measure must be one of 'f', 'precision', 'recall', got a string ("f1").`,
    )
  })

  test('fails when the tokenizer is unknown', () => {
    expect(() => expect('x').toHaveRougeNAbove(reference, 2, 0.5, { tokenizer: 'nltk' as 'unicode' })).toThrow(
      `tokenizer must be one of 'unicode', 'rouge-score', got a string ("nltk").`,
    )
  })

  test('fails when stemmer is not a boolean', () => {
    expect(() => expect('x').toHaveRougeNAbove(reference, 2, 0.5, { stemmer: 'porter' as unknown as boolean })).toThrow(
      'stemmer must be a boolean, got a string ("porter"). Pass stemmer: true or false.',
    )
  })
})

describe('.not.toHaveRougeNAbove', () => {
  test('passes when the score is below the threshold', () => {
    expect('the cat was lying on the mat').not.toHaveRougeNAbove(reference, 2, 0.6)
  })

  test('fails when the score equals the threshold', () => {
    expect(failureMessage(() => expect('the cat sat on the mat').not.toHaveRougeNAbove(reference, 2, 0.6))).toMatchInlineSnapshot(`
      "expect(output).not.toHaveRougeNAbove(reference, n, threshold)

      Expected ROUGE-2 F-measure: < 0.6
      Received ROUGE-2 F-measure:   0.6 (precision 0.6, recall 0.6, F 0.6)

      Reference bigrams missing from the output (2): "cat lay", "lay on"
      Output bigrams not in the reference (2): "cat sat", "sat on"

      Output:    "the cat sat on the mat"
      Reference: "the cat lay on the mat""
    `)
  })

  test('fails with a usage error, not a pass, when the received value is not a string', () => {
    expect(() => expect(undefined).not.toHaveRougeNAbove(reference, 2, 0.5)).toThrow('the received value must be a string, got undefined.')
  })
})

describe('toHaveRougeNAbove: texts too short for the n-gram', () => {
  const shortLines = (output: string, ref: string, n: number) =>
    failureMessage(() => expect(output).toHaveRougeNAbove(ref, n, 0.5))
      .split('\n')
      .filter((l) => l.includes('too few'))

  test('names trigrams, counts tokens in the plural, and says which text is short', () => {
    expect(shortLines('the cat', 'the cat sat', 3)).toEqual(['The output has 2 tokens, too few for a trigram.'])
    expect(shortLines('the cat sat', 'cat', 3)).toEqual(['The reference has 1 token, too few for a trigram.'])
    expect(shortLines('the cat sat', 'a cat', 3)).toEqual(['The reference has 2 tokens, too few for a trigram.'])
    expect(shortLines('cat', 'mat', 2)).toEqual(['The output has 1 token, too few for a bigram.', 'The reference has 1 token, too few for a bigram.'])
  })

  test('a 4-gram is named by its size', () => {
    expect(shortLines('a b c', 'a b c d', 4)).toEqual(['The output has 3 tokens, too few for a 4-gram.'])
  })
})
