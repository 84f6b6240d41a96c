import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toMatchAnswer.js'
import { failureMessage } from '../helpers/failure-message.js'

expect.extend(matcher)

describe('.toMatchAnswer', () => {
  test('passes when the output equals the answer after normalization', () => {
    expect('The Eiffel Tower!').toMatchAnswer('eiffel tower')
  })

  test('passes when the output equals one of several acceptable answers', () => {
    expect('in 1889').toMatchAnswer(['31 March 1889', 'in 1889'])
  })

  test('passes when only whitespace differs', () => {
    expect('  Eiffel\n\tTower ').toMatchAnswer('Eiffel Tower')
  })

  test('fails when the output has extra words', () => {
    expect(failureMessage(() => expect('It is the Eiffel Tower, in Paris.').toMatchAnswer('Eiffel Tower'))).toMatchInlineSnapshot(`
      "expect(output).toMatchAnswer(expected)

      Expected (normalized): "eiffel tower"
      Received (normalized): "it is eiffel tower in paris" (token F1 0.5)

      Answer tokens missing from the output: none
      Output tokens not in the answer (4): "it", "is", "in", "paris"

      Output: "It is the Eiffel Tower, in Paris.""
    `)
  })

  test('fails against several answers, showing the nearest by token F1', () => {
    expect(failureMessage(() => expect('March 1889').toMatchAnswer(['1887', '31 March 1889', 'spring of 1889']))).toMatchInlineSnapshot(`
      "expect(output).toMatchAnswer(expected)

      Expected (normalized): "31 march 1889" (the nearest of 3 acceptable answers)
      Received (normalized): "march 1889" (token F1 0.8)

      Answer tokens missing from the output (1): "31"
      Output tokens not in the answer: none

      Output: "March 1889"
      Acceptable answers: "1887", "31 March 1889", "spring of 1889""
    `)
  })

  test('fails when the same tokens come in another order', () => {
    expect(failureMessage(() => expect('Tower Eiffel').toMatchAnswer('Eiffel Tower'))).toMatchInlineSnapshot(`
      "expect(output).toMatchAnswer(expected)

      Expected (normalized): "eiffel tower"
      Received (normalized): "tower eiffel" (token F1 1)

      Same tokens in a different order: exact match compares the normalized texts.

      Output: "Tower Eiffel""
    `)
  })

  test('fails when only non-ASCII punctuation differs, as in SQuAD', () => {
    expect(failureMessage(() => expect('“Eiffel Tower”').toMatchAnswer('Eiffel Tower'))).toMatchInlineSnapshot(`
      "expect(output).toMatchAnswer(expected)

      Expected (normalized): "eiffel tower"
      Received (normalized): "“eiffel tower”" (token F1 0)

      Answer tokens missing from the output (2): "eiffel", "tower"
      Output tokens not in the answer (2): "“eiffel", "tower”"

      Output: "“Eiffel Tower”""
    `)
  })

  test('fails when the received value is not a string', () => {
    expect(() => expect(null).toMatchAnswer('Paris')).toThrow(
      '[expect-llm] Failed to run toMatchAnswer: the received value must be a string, got null. Pass the model output text to expect().',
    )
  })

  test('fails when the expected answer is missing', () => {
    expect(() => (expect('Paris').toMatchAnswer as (...args: unknown[]) => void)()).toThrow(
      '[expect-llm] Failed to run toMatchAnswer: the expected answer must be a string or a non-empty array of strings, got undefined. Pass the expected answer as a string, or every acceptable one in an array.',
    )
  })

  test('fails when the acceptable answers are an empty array', () => {
    expect(() => expect('Paris').toMatchAnswer([])).toThrow('the expected answer must be a string or a non-empty array of strings, got an empty array.')
  })

  test('fails with a usage error when the expected answer normalizes to nothing', () => {
    expect(() => expect('B').toMatchAnswer('A')).toThrow(
      '[expect-llm] Failed to run toMatchAnswer: the expected answer "A" normalizes to nothing (SQuAD normalization drops case, ASCII punctuation and the articles a, an, the). Pass an answer with at least one other word or number; for a single-letter choice such as "A", use toBe or toMatch instead.',
    )
  })
})

describe('.not.toMatchAnswer', () => {
  test('passes when the output is a different answer', () => {
    expect('Big Ben').not.toMatchAnswer(['Eiffel Tower', 'la tour Eiffel'])
  })

  test('fails when the output matches the answer', () => {
    expect(failureMessage(() => expect('The Eiffel Tower.').not.toMatchAnswer('eiffel tower'))).toMatchInlineSnapshot(`
      "expect(output).not.toMatchAnswer(expected)

      Expected (normalized): not "eiffel tower"
      Received (normalized):     "eiffel tower"

      Output: "The Eiffel Tower.""
    `)
  })

  test('fails when the output matches one of several answers, naming it', () => {
    expect(failureMessage(() => expect("I don't know.").not.toMatchAnswer(['Unknown', 'I dont know']))).toMatchInlineSnapshot(`
      "expect(output).not.toMatchAnswer(expected)

      Expected (normalized): not any of 2 acceptable answers
      Received (normalized):     "i dont know"
      Matches the acceptable answer "I dont know"

      Output: "I don't know.""
    `)
  })
})
