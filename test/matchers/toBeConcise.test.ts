import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toBeConcise.js'
import { failureMessage } from '../helpers/failure-message.js'

expect.extend(matcher)

const reference = 'Refunds are issued within 30 days.' // 6 words
const rambling = 'Great question! Refunds are issued within 30 days of purchase, provided that the item is unused and in its original packaging.' // 21 words, 126 characters

describe('.toBeConcise', () => {
  test('passes when the word count is under maxWords', () => {
    expect('Refunds take 30 days.').toBeConcise({ maxWords: 5 })
  })

  test('passes when the word count equals maxWords (inclusive)', () => {
    expect('one two three four five').toBeConcise({ maxWords: 5 })
  })

  test('passes when the character count equals maxChars, counting an emoji as one character', () => {
    expect('Ship it 🚢').toBeConcise({ maxChars: 9 })
  })

  test('passes when the output has exactly twice the reference words by default', () => {
    expect('Refunds are issued within 30 days, by bank transfer, to the card.').toBeConcise({ reference })
  })

  test('passes with a custom factor', () => {
    expect('Refunds are issued within 30 days, by bank transfer.').toBeConcise({ reference, factor: 1.5 })
  })

  test('fails when the word count exceeds maxWords', () => {
    expect(failureMessage(() => expect(rambling).toBeConcise({ maxWords: 15 }))).toMatchInlineSnapshot(`
      "expect(output).toBeConcise(limits)

      Expected: at most 15 words
      Received: 21 words

      Words:      21, over maxWords 15 by 6

      Output:    "Great question! Refunds are issued within 30 days of purchase, provided that the item is unused and in its original packaging.""
    `)
  })

  test('fails when the character count exceeds maxChars', () => {
    expect(failureMessage(() => expect('one two three four five six').toBeConcise({ maxChars: 20 }))).toMatchInlineSnapshot(`
      "expect(output).toBeConcise(limits)

      Expected: at most 20 characters
      Received: 27 characters

      Characters: 27, over maxChars 20 by 7

      Output:    "one two three four five six""
    `)
  })

  test('fails when the output is longer than twice the reference', () => {
    expect(failureMessage(() => expect(rambling).toBeConcise({ reference }))).toMatchInlineSnapshot(`
      "expect(output).toBeConcise(limits)

      Expected: at most 12 words
      Received: 21 words

      Words:      21, over 2 × the reference's 6 words (12) by 9

      Output:    "Great question! Refunds are issued within 30 days of purchase, provided that the item is unused and in its original packaging."
      Reference: "Refunds are issued within 30 days.""
    `)
  })

  test('fails when one of several limits is exceeded, showing each', () => {
    expect(failureMessage(() => expect(rambling).toBeConcise({ maxWords: 30, reference, factor: 3, maxChars: 200 }))).toMatchInlineSnapshot(`
      "expect(output).toBeConcise(limits)

      Expected: at most 18 words, at most 200 characters
      Received: 21 words, 126 characters

      Words:      21, within maxWords 30, over 3 × the reference's 6 words (18) by 3
      Characters: 126, within maxChars 200

      Output:    "Great question! Refunds are issued within 30 days of purchase, provided that the item is unused and in its original packaging."
      Reference: "Refunds are issued within 30 days.""
    `)
  })

  test('fails when the received value is not a string', () => {
    expect(() => expect(42).toBeConcise({ maxWords: 5 })).toThrow(
      '[expect-llm] Failed to run toBeConcise: the received value must be a string, got a number (42). Pass the model output text to expect().',
    )
  })

  test('fails when the limits are missing', () => {
    expect(() => (expect('x').toBeConcise as (...args: unknown[]) => void)()).toThrow(
      "[expect-llm] Failed to run toBeConcise: the limits must be an object, got undefined. Pass { maxWords }, { maxChars }, or { reference, factor? } (at most factor × the reference's words).",
    )
  })

  test('fails when no limit is given', () => {
    expect(() => expect('x').toBeConcise({})).toThrow('[expect-llm] Failed to run toBeConcise: no limit was given. Pass { maxWords }')
  })

  test('fails when maxWords is not a whole number', () => {
    expect(() => expect('x').toBeConcise({ maxWords: 2.5 })).toThrow(
      expect.objectContaining({
        name: 'RangeError',
        message: expect.stringContaining('maxWords must be an integer >= 0, got 2.5. Pass a whole number such as 1.'),
      }),
    )
  })

  test('fails when maxChars is a string', () => {
    expect(() => expect('x').toBeConcise({ maxChars: '280' as unknown as number })).toThrow(
      expect.objectContaining({ name: 'TypeError', message: expect.stringContaining('maxChars must be an integer >= 0, got a string ("280").') }),
    )
  })

  test('fails when maxWords is negative', () => {
    expect(() => expect('x').toBeConcise({ maxWords: -1 })).toThrow('maxWords must be an integer >= 0, got -1.')
  })

  test('fails when factor is given without a reference', () => {
    expect(() => expect('x').toBeConcise({ maxWords: 3, factor: 2 })).toThrow(
      'factor was given without a reference. Pass the reference text too: { reference, factor }.',
    )
  })

  test('fails when factor is not positive', () => {
    expect(() => expect('x').toBeConcise({ reference, factor: 0 })).toThrow(
      "factor must be a positive number, got 0. Pass a multiple of the reference's word count, such as 1.5 or 2.",
    )
  })

  test('fails when the reference is not a string', () => {
    expect(() => expect('x').toBeConcise({ reference: ['a'] as unknown as string })).toThrow(
      'the reference must be a string, got an array (length 1). Pass the reference as a string.',
    )
  })

  test('fails when the reference has no words', () => {
    expect(() => expect('x').toBeConcise({ reference: '  ' })).toThrow('the reference has no words, so factor × its length allows nothing.')
  })

  test('fails when an option is unknown', () => {
    expect(() => expect('x').toBeConcise({ maxLines: 3 } as never)).toThrow(
      'unknown option "maxLines". Valid options are: maxWords, maxChars, reference, factor.',
    )
  })
})

describe('.not.toBeConcise', () => {
  test('passes when the output exceeds maxWords', () => {
    expect(rambling).not.toBeConcise({ maxWords: 15 })
  })

  test('passes when only one of two limits is exceeded', () => {
    expect(rambling).not.toBeConcise({ maxWords: 100, maxChars: 100 })
  })

  test('fails when the output is within every limit', () => {
    expect(failureMessage(() => expect('Refunds take 30 days.').not.toBeConcise({ maxWords: 10, reference }))).toMatchInlineSnapshot(`
      "expect(output).not.toBeConcise(limits)

      Expected: more than 10 words
      Received: 4 words

      Words:      4, within maxWords 10, within 2 × the reference's 6 words (12)

      Output:    "Refunds take 30 days."
      Reference: "Refunds are issued within 30 days.""
    `)
  })
})

describe('toBeConcise boundaries and messages', () => {
  const line = (message: string, start: string) => message.split('\n').find((l) => l.startsWith(start))

  test('one word and one character are singular', () => {
    const message = failureMessage(() => expect('ab').toBeConcise({ maxWords: 0, maxChars: 1 }))
    expect(line(message, 'Expected:')).toBe('Expected: at most 0 words, at most 1 character')
    expect(line(message, 'Received:')).toBe('Received: 1 word, 2 characters')
  })

  test('.not joins the limits of both units with "or more than"', () => {
    expect(
      line(
        failureMessage(() => expect('a').not.toBeConcise({ maxWords: 3, maxChars: 10 })),
        'Expected:',
      ),
    ).toBe('Expected: more than 3 words or more than 10 characters')
  })

  test.each([
    ['null', null],
    ['a string ("short")', 'short'],
    ['an array (length 0)', []],
  ])('limits that are %s are refused', (shown, limits) => {
    expect(failureMessage(() => expect('x').toBeConcise(limits as never))).toBe(
      `expect(output).toBeConcise(limits)\n\n[expect-llm] Failed to run toBeConcise: the limits must be an object, got ${shown}. Pass { maxWords }, { maxChars }, or { reference, factor? } (at most factor × the reference's words).`,
    )
  })

  test.each([
    ['NaN', Number.NaN, 'RangeError'],
    ['Infinity', Number.POSITIVE_INFINITY, 'RangeError'],
    ['-1', -1, 'RangeError'],
    ['a string ("2")', '2', 'TypeError'],
  ])('factor %s is refused as a %s', (shown, factor, name) => {
    let error: Error | undefined
    try {
      expect('x').toBeConcise({ reference, factor: factor as number })
    } catch (e) {
      error = e as Error
    }
    expect(error?.name).toBe(name)
    expect(error?.message).toMatch(
      new RegExp(
        `Failed to run toBeConcise: factor must be a positive number, got ${shown.replace(/[()]/g, '\\$&')}\\. Pass a multiple of the reference's word count, such as 1\\.5 or 2\\.$`,
      ),
    )
  })

  test('a reference with no words is refused with the fix', () => {
    expect(failureMessage(() => expect('x').toBeConcise({ reference: '  ' }))).toMatch(
      /the reference has no words, so factor × its length allows nothing\. Pass the reference answer text, or use maxWords \/ maxChars\.$/,
    )
  })
})

describe('toBeConcise at the limit and without limits', () => {
  test('a text exactly at the limit is within it, in the message too', () => {
    const message = failureMessage(() => expect('Refunds take thirty days.').not.toBeConcise({ maxWords: 4, maxChars: 25 }))
    expect(message).toContain('Words:      4, within maxWords 4')
    expect(message).toContain('Characters: 25, within maxChars 25')
  })

  test.each([
    ['no options', undefined, 'undefined'],
    ['null', null, 'null'],
    ['an array', [30], 'an array (length 1)'],
  ])('limits that are %s are a usage error naming the fix', (_, options, shown) => {
    const call = () => expect('Hi.').toBeConcise(options as never)
    expect(call).toThrow(TypeError)
    expect(call).toThrow(`the limits must be an object, got ${shown}. Pass { maxWords }, { maxChars }, or { reference, factor? }`)
  })
})
