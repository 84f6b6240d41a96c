import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toHaveRougeLAbove.js'
import { failureMessage } from '../helpers/failure-message.js'
import { testRejectsInvalidThresholds } from '../helpers/threshold-errors.js'

expect.extend(matcher)

const reference = 'The meeting moved to Friday at 10am.'
const steps = 'Mix well.\nAdd salt.'
const swapped = 'Add salt.\nMix well.'

describe('.toHaveRougeLAbove', () => {
  test('passes when identical texts score 1 at threshold 1', () => {
    expect(reference).toHaveRougeLAbove(reference, 1)
  })

  test('passes when the score equals the threshold (inclusive)', () => {
    // Swapped sentences: the LCS is 2 of 4 tokens, so precision = recall = F = 0.5.
    expect(swapped).toHaveRougeLAbove(steps, 0.5)
  })

  test('passes when the F-measure is above the threshold', () => {
    expect('The meeting was moved to Friday, 10am.').toHaveRougeLAbove(reference, 0.7)
  })

  test('passes with rougeLsum when whole sentences come in another order', () => {
    expect(swapped).toHaveRougeLAbove(steps, 1, { variant: 'rougeLsum' })
  })

  test('passes on recall when the output contains the whole reference', () => {
    expect('Heads up: the meeting moved to Friday at 10am, room 4.').toHaveRougeLAbove(reference, 1, { measure: 'recall' })
  })

  test('passes with the stemmer when only inflections differ', () => {
    expect('The meetings move to Friday at 10am.').toHaveRougeLAbove(reference, 1, { stemmer: true })
  })

  test('fails when the F-measure is below the threshold', () => {
    expect(failureMessage(() => expect('The call is on Monday at 9am.').toHaveRougeLAbove(reference, 0.5))).toMatchInlineSnapshot(`
      "expect(output).toHaveRougeLAbove(reference, threshold)

      Expected ROUGE-L F-measure: >= 0.5
      Received ROUGE-L F-measure:    0.2857 (precision 0.2857, recall 0.2857, F 0.2857)

      Reference tokens missing from the output (5): "meeting", "moved", "to", "friday", "10am"
      Output tokens not in the reference (5): "call", "is", "on", "monday", "9am"

      Output:    "The call is on Monday at 9am."
      Reference: "The meeting moved to Friday at 10am.""
    `)
  })

  test('fails when whole sentences are swapped and the variant is rougeL', () => {
    expect(failureMessage(() => expect(swapped).toHaveRougeLAbove(steps, 0.8))).toMatchInlineSnapshot(`
      "expect(output).toHaveRougeLAbove(reference, threshold)

      Expected ROUGE-L F-measure: >= 0.8
      Received ROUGE-L F-measure:    0.5 (precision 0.5, recall 0.5, F 0.5)

      Reference tokens missing from the output: none
      Output tokens not in the reference: none
      Both texts have the same tokens in a different order: ROUGE-L counts only the longest common subsequence.
      If sentences may come in any order, put one per line and use { variant: 'rougeLsum' }.

      Output:    "Add salt.⏎Mix well."
      Reference: "Mix well.⏎Add salt.""
    `)
  })

  test('fails on precision when the output pads the reference', () => {
    expect(
      failureMessage(() => expect('Heads up: the meeting moved to Friday at 10am, room 4.').toHaveRougeLAbove(reference, 0.8, { measure: 'precision' })),
    ).toMatchInlineSnapshot(`
      "expect(output).toHaveRougeLAbove(reference, threshold)

      Expected ROUGE-L precision: >= 0.8
      Received ROUGE-L precision:    0.6364 (precision 0.6364, recall 1, F 0.7778)

      Reference tokens missing from the output: none
      Output tokens not in the reference (4): "heads", "up", "room", "4"

      Output:    "Heads up: the meeting moved to Friday at 10am, room 4."
      Reference: "The meeting moved to Friday at 10am.""
    `)
  })

  test('fails when the received value is not a string', () => {
    expect(() => expect({ text: reference }).toHaveRougeLAbove(reference, 0.5)).toThrow(
      '[expect-llm] Failed to run toHaveRougeLAbove: the received value must be a string, got an object. Pass the model output text to expect().',
    )
  })

  test('fails when the reference is missing', () => {
    expect(() => (expect('x').toHaveRougeLAbove as (...args: unknown[]) => void)()).toThrow(
      '[expect-llm] Failed to run toHaveRougeLAbove: the reference must be a string, got undefined. Pass the reference as a string.',
    )
  })

  testRejectsInvalidThresholds('toHaveRougeLAbove', (t) => expect('x').toHaveRougeLAbove(reference, t as number))

  test('fails with a RangeError for a threshold outside [0, 1]', () => {
    expect(() => expect('x').toHaveRougeLAbove(reference, 2)).toThrow(RangeError)
  })

  test('fails when an option is unknown', () => {
    expect(() => expect('x').toHaveRougeLAbove(reference, 0.5, { type: 'rouge1' } as never)).toThrow(
      'unknown option "type". Valid options are: variant, measure, stemmer, tokenizer.',
    )
  })

  test('fails when the variant is unknown', () => {
    expect(() => expect('x').toHaveRougeLAbove(reference, 0.5, { variant: 'rouge2' as 'rougeL' })).toThrow(
      `variant must be one of 'rougeL', 'rougeLsum', got a string ("rouge2").`,
    )
  })
})

describe('.not.toHaveRougeLAbove', () => {
  test('passes when the score is below the threshold', () => {
    expect('The call is on Monday at 9am.').not.toHaveRougeLAbove(reference, 0.5)
  })

  test('fails when the score equals the threshold', () => {
    expect(failureMessage(() => expect(swapped).not.toHaveRougeLAbove(steps, 0.5))).toMatchInlineSnapshot(`
      "expect(output).not.toHaveRougeLAbove(reference, threshold)

      Expected ROUGE-L F-measure: < 0.5
      Received ROUGE-L F-measure:   0.5 (precision 0.5, recall 0.5, F 0.5)

      Reference tokens missing from the output: none
      Output tokens not in the reference: none

      Output:    "Add salt.⏎Mix well."
      Reference: "Mix well.⏎Add salt.""
    `)
  })

  test('fails with a usage error, not a pass, when the threshold is invalid', () => {
    expect(() => expect('x').not.toHaveRougeLAbove(reference, Number.NaN)).toThrow('the threshold must be a number from 0 to 1, got NaN.')
  })
})

describe('toHaveRougeLAbove option checks and the order hint', () => {
  test.each([
    ['measure', 'f1', "'f', 'precision', 'recall'"],
    ['tokenizer', 'nltk', "'unicode', 'rouge-score'"],
  ])('an unknown %s is refused', (key, value, allowed) => {
    expect(failureMessage(() => expect('x').toHaveRougeLAbove(reference, 0.5, { [key]: value } as never))).toBe(
      `expect(output).toHaveRougeLAbove(reference, threshold)\n\n[expect-llm] Failed to run toHaveRougeLAbove: ${key} must be one of ${allowed}, got a string ("${value}"). Pass one of ${allowed}.`,
    )
  })

  test('rougeLsum names itself and points at the line breaks when the tokens only differ in order', () => {
    const message = failureMessage(() => expect('b a').toHaveRougeLAbove('a b', 1, { variant: 'rougeLsum' }))
    expect(message).toContain('Expected ROUGE-Lsum F-measure: >= 1')
    expect(message).toContain(
      'Both texts have the same tokens in a different order: ROUGE-L counts only the longest common subsequence.\nrougeLsum matches each reference line against every output line; check the line breaks.',
    )
  })

  test('an output that only misses reference tokens gets no order hint', () => {
    expect(failureMessage(() => expect('the meeting moved').toHaveRougeLAbove('the meeting moved to Friday', 0.9, { measure: 'recall' }))).toBe(
      [
        'expect(output).toHaveRougeLAbove(reference, threshold)',
        '',
        'Expected ROUGE-L recall: >= 0.9',
        'Received ROUGE-L recall:    0.6 (precision 1, recall 0.6, F 0.75)',
        '',
        'Reference tokens missing from the output (2): "to", "friday"',
        'Output tokens not in the reference: none',
        '',
        'Output:    "the meeting moved"',
        'Reference: "the meeting moved to Friday"',
      ].join('\n'),
    )
  })

  test('a passing score under .not gets no order hint', () => {
    expect(failureMessage(() => expect('a b').not.toHaveRougeLAbove('a b', 0.5))).not.toContain('same tokens in a different order')
  })
})
