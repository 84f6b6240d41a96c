import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toContainKeywords.js'
import { failureMessage } from '../helpers/failure-message.js'

expect.extend(matcher)

const answer = 'The Eiffel Tower in Paris was completed in 1889.'

describe('.toContainKeywords', () => {
  test('passes when every keyword occurs as a whole word in any case', () => {
    expect(answer).toContainKeywords(['eiffel tower', 'PARIS', '1889'])
  })

  test('passes when a multi-word keyword is split by a line break', () => {
    expect('The Eiffel\n  Tower').toContainKeywords(['Eiffel Tower'])
  })

  test('passes in mode "any" when one keyword of several occurs', () => {
    expect(answer).toContainKeywords(['Lyon', 'Paris'], { mode: 'any' })
  })

  test('fails when a keyword is missing', () => {
    expect(failureMessage(() => expect(answer).toContainKeywords(['Paris', 'Gustave Eiffel', '1889', 'iron']))).toMatchInlineSnapshot(`
      "expect(output).toContainKeywords(keywords)

      Expected: all 4 keywords (whole words, any case)
      Received: 2 of 4 found

      Found (2): "Paris", "1889"
      Missing (2): "Gustave Eiffel", "iron"

      Output: "The Eiffel Tower in Paris was completed in 1889.""
    `)
  })

  test('fails when a keyword occurs only inside a longer word', () => {
    expect(failureMessage(() => expect('We threw a party.').toContainKeywords(['art']))).toMatchInlineSnapshot(`
      "expect(output).toContainKeywords(keywords)

      Expected: the keyword (whole words, any case)
      Received: 0 of 1 found

      Found: none
      Missing (1): "art"

      Output: "We threw a party.""
    `)
  })

  test('fails in mode "any" when no keyword occurs', () => {
    expect(failureMessage(() => expect(answer).toContainKeywords(['Lyon', 'Marseille'], { mode: 'any' }))).toMatchInlineSnapshot(`
      "expect(output).toContainKeywords(keywords, options)

      Expected: at least one of 2 keywords (whole words, any case)
      Received: 0 of 2 found

      Found: none
      Missing (2): "Lyon", "Marseille"

      Output: "The Eiffel Tower in Paris was completed in 1889.""
    `)
  })

  test('fails when the received value is not a string', () => {
    expect(() => expect({ text: answer }).toContainKeywords(['Paris'])).toThrow(
      '[expect-llm] Failed to run toContainKeywords: the received value must be a string, got an object. Pass the model output text to expect().',
    )
  })

  test('fails when the keywords are a single string instead of an array', () => {
    expect(() => expect(answer).toContainKeywords('Paris' as unknown as string[])).toThrow(
      `[expect-llm] Failed to run toContainKeywords: the keywords must be a non-empty array of strings, got a string ("Paris"). Pass them as an array, e.g. ['Paris', 'Eiffel Tower'].`,
    )
  })

  test('fails when the keywords are missing', () => {
    expect(() => (expect(answer).toContainKeywords as (...args: unknown[]) => void)()).toThrow(
      'the keywords must be a non-empty array of strings, got undefined.',
    )
  })

  test('fails when the keyword list is empty, which would pass vacuously', () => {
    expect(() => expect(answer).toContainKeywords([])).toThrow('the keywords must be a non-empty array of strings, got an empty array.')
  })

  test('fails when a keyword is an empty string', () => {
    expect(() => expect(answer).toContainKeywords(['Paris', ' '])).toThrow(
      `the keywords must be non-empty strings, got an empty string (" ") at index 1. Remove it, or pass the keywords as strings, e.g. ['Paris', 'Eiffel Tower'].`,
    )
  })

  test('fails when the mode is unknown', () => {
    expect(() => expect(answer).toContainKeywords(['Paris'], { mode: 'some' as 'any' })).toThrow(
      `mode must be one of 'all', 'any', got a string ("some"). Pass one of 'all', 'any'.`,
    )
  })

  test('fails when an option is unknown', () => {
    expect(() => expect(answer).toContainKeywords(['Paris'], { caseSensitive: true } as never)).toThrow(
      'unknown option "caseSensitive". Valid options are: mode.',
    )
  })
})

describe('.not.toContainKeywords', () => {
  test('passes when one keyword of several is missing', () => {
    expect(answer).not.toContainKeywords(['Paris', 'Lyon'])
  })

  test('passes in mode "any" when no keyword occurs', () => {
    expect(answer).not.toContainKeywords(['as an AI language model', 'I cannot'], { mode: 'any' })
  })

  test('fails when every keyword occurs', () => {
    expect(failureMessage(() => expect(answer).not.toContainKeywords(['Paris', '1889']))).toMatchInlineSnapshot(`
      "expect(output).not.toContainKeywords(keywords)

      Expected: not all 2 keywords (whole words, any case)
      Received: all 2 found

      Found (2): "Paris", "1889"
      Missing: none

      Output: "The Eiffel Tower in Paris was completed in 1889.""
    `)
  })

  test('fails in mode "any" when one keyword occurs', () => {
    expect(
      failureMessage(() => expect('As an AI language model, I cannot browse.').not.toContainKeywords(['as an AI language model', 'sorry'], { mode: 'any' })),
    ).toMatchInlineSnapshot(`
      "expect(output).not.toContainKeywords(keywords, options)

      Expected: none of 2 keywords (whole words, any case)
      Received: 1 of 2 found

      Found (1): "as an AI language model"
      Missing (1): "sorry"

      Output: "As an AI language model, I cannot browse.""
    `)
  })

  test('fails with a usage error, not a pass, when the received value is not a string', () => {
    expect(() => expect(undefined).not.toContainKeywords(['Paris'])).toThrow('the received value must be a string, got undefined.')
  })
})

describe('toContainKeywords: one keyword under .not', () => {
  test('reads "not the keyword" and "1 of 1 found"', () => {
    const message = failureMessage(() => expect('We visited Paris.').not.toContainKeywords(['Paris']))
    expect(message.split('\n').slice(2, 4)).toEqual(['Expected: not the keyword (whole words, any case)', 'Received: 1 of 1 found'])
  })
})
