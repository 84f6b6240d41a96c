import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toContainAnswer.js'
import { failureMessage } from '../helpers/failure-message.js'

expect.extend(matcher)

const answer = 'The tower was designed by the engineers Maurice Koechlin and Émile Nouguier, and opened in 1889.'

describe('.toContainAnswer', () => {
  test('passes when the answer occurs as a word in a sentence', () => {
    expect('The capital is Paris.').toContainAnswer('Paris')
  })

  test('passes when a multi-word answer occurs with other case and punctuation', () => {
    expect(answer).toContainAnswer('maurice koechlin')
  })

  test('passes when one of several acceptable answers occurs', () => {
    expect(answer).toContainAnswer(['Gustave Eiffel', '1889'])
  })

  test('fails when the answer occurs only inside a longer word', () => {
    expect(failureMessage(() => expect('We threw a party.').toContainAnswer('art'))).toMatchInlineSnapshot(`
      "expect(output).toContainAnswer(expected)

      Expected: the output to contain "art" (normalized tokens, in order)
      Received: not found

        "art": missing "art"

      Output (normalized): "we threw party"
      Output:              "We threw a party.""
    `)
  })

  test('fails when the words of the answer occur apart', () => {
    expect(failureMessage(() => expect(answer).toContainAnswer('Koechlin Maurice'))).toMatchInlineSnapshot(`
      "expect(output).toContainAnswer(expected)

      Expected: the output to contain "koechlin maurice" (normalized tokens, in order)
      Received: not found

        "koechlin maurice": every token occurs, but not together in this order

      Output (normalized): "tower was designed by engineers maurice koechlin and émile nouguier and opened in 1889"
      Output:              "The tower was designed by the engineers Maurice Koechlin and Émile Nouguier, and opened in 1889.""
    `)
  })

  test('fails when no acceptable answer occurs, listing what each one lacks', () => {
    expect(failureMessage(() => expect(answer).toContainAnswer(['Gustave Eiffel', '1887', 'Eiffel']))).toMatchInlineSnapshot(`
      "expect(output).toContainAnswer(expected)

      Expected: the output to contain one of 3 acceptable answers (normalized tokens, in order)
      Received: none found

        "gustave eiffel": missing "gustave", "eiffel"
        "1887": missing "1887"
        "eiffel": missing "eiffel"

      Output (normalized): "tower was designed by engineers maurice koechlin and émile nouguier and opened in 1889"
      Output:              "The tower was designed by the engineers Maurice Koechlin and Émile Nouguier, and opened in 1889.""
    `)
  })

  test('fails when the received value is not a string', () => {
    expect(() => expect(['Paris']).toContainAnswer('Paris')).toThrow(
      '[expect-llm] Failed to run toContainAnswer: the received value must be a string, got an array (length 1). Pass the model output text to expect().',
    )
  })

  test('fails when an acceptable answer is not a string', () => {
    expect(() => expect('Paris').toContainAnswer(['Paris', 1889] as unknown as string[])).toThrow(
      'the expected answer must be a string or a non-empty array of strings, got an array containing a number (1889).',
    )
  })

  test('fails with a usage error, not a silent pass, when the expected answer normalizes to nothing', () => {
    expect(() => expect('anything at all').toContainAnswer('The')).toThrow(
      '[expect-llm] Failed to run toContainAnswer: the expected answer "The" normalizes to nothing (SQuAD normalization drops case, ASCII punctuation and the articles a, an, the).',
    )
  })

  test('fails with a usage error when one of several answers normalizes to nothing', () => {
    expect(() => expect('Paris').toContainAnswer(['Paris', '...'])).toThrow('the expected answer "..." normalizes to nothing')
  })
})

describe('.not.toContainAnswer', () => {
  test('passes when the answer does not occur', () => {
    expect('It opened in 1889.').not.toContainAnswer('1890')
  })

  test('fails when the answer occurs, showing where', () => {
    expect(failureMessage(() => expect(answer).not.toContainAnswer(['Eiffel', 'Émile Nouguier']))).toMatchInlineSnapshot(`
      "expect(output).not.toContainAnswer(expected)

      Expected: the output not to contain any of 2 acceptable answers (normalized tokens, in order)
      Received: found "Émile Nouguier" at "…designed by engineers maurice koechlin and [émile nouguier] and opened in 1889"

      Output: "The tower was designed by the engineers Maurice Koechlin and Émile Nouguier, and opened in 1889.""
    `)
  })

  test('fails with a usage error, not a pass, when the expected answer normalizes to nothing', () => {
    expect(() => expect('anything').not.toContainAnswer('a')).toThrow('the expected answer "a" normalizes to nothing')
  })
})

describe('toContainAnswer message details', () => {
  const words = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `w${from + i}`).join(' ')
  const foundLine = (output: string) =>
    failureMessage(() => expect(output).not.toContainAnswer('x'))
      .split('\n')
      .find((l) => l.startsWith('Received:'))

  test('the context shows 6 tokens each side, with … only when more lie beyond', () => {
    expect(foundLine(`${words(0, 5)} x ${words(7, 12)}`)).toBe('Received: found "x" at "w0 w1 w2 w3 w4 w5 [x] w7 w8 w9 w10 w11 w12"')
    expect(foundLine(`${words(0, 6)} x ${words(8, 14)}`)).toBe('Received: found "x" at "…w1 w2 w3 w4 w5 w6 [x] w8 w9 w10 w11 w12 w13…"')
  })

  test('ten acceptable answers are listed, then how many more', () => {
    const answers = Array.from({ length: 12 }, (_, i) => `a${i}`)
    const message = failureMessage(() => expect('nothing here').toContainAnswer(answers))
    expect(message).toContain('  "a9": missing "a9"\n  … and 2 more\n')
    expect(message).not.toContain('"a10"')
    const ten = failureMessage(() => expect('nothing here').toContainAnswer(answers.slice(0, 10)))
    expect(ten).toContain('  "a9": missing "a9"\n\nOutput (normalized)')
  })
})
