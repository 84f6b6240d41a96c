import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { containsAnswer, indexOfTokens } from '../../src/metrics/contains.js'
import { squadTokens } from '../../src/metrics/squad.js'

describe('containsAnswer', () => {
  test('finds a one-word answer in a sentence', () => {
    expect(containsAnswer('The capital is Paris.', 'Paris')).toEqual({ contained: true, matched: 'Paris', tokenIndex: 2 })
  })

  test('ignores case, ASCII punctuation and articles on both sides', () => {
    expect(containsAnswer('It is THE Eiffel-Tower!', 'an eiffeltower').contained).toBe(true)
  })

  test('finds a multi-word answer as a contiguous run', () => {
    expect(containsAnswer('He was born in New York City.', 'New York').contained).toBe(true)
  })

  test('does not find an answer inside a longer word', () => {
    expect(containsAnswer('We threw a party.', 'art')).toEqual({ contained: false })
  })

  test('does not find an answer whose words occur apart', () => {
    expect(containsAnswer('New homes in York', 'New York').contained).toBe(false)
  })

  test('does not find an answer whose words occur in another order', () => {
    expect(containsAnswer('York, New', 'New York').contained).toBe(false)
  })

  test('does not ignore non-ASCII punctuation, as SQuAD does not', () => {
    expect(containsAnswer('It is “Paris”.', 'Paris').contained).toBe(false)
  })

  test('reports the first acceptable answer, in the order given, that occurs', () => {
    expect(containsAnswer('Opened in 1889 in Paris', ['1887', 'Paris', '1889'])).toEqual({ contained: true, matched: 'Paris', tokenIndex: 4 })
  })

  test('reports nothing matched when no acceptable answer occurs', () => {
    expect(containsAnswer('Opened in 1889', ['1887', '1890'])).toEqual({ contained: false })
  })

  test('finds nothing in an empty candidate', () => {
    expect(containsAnswer('', 'Paris').contained).toBe(false)
  })

  test('throws a RangeError when the expected answer normalizes to nothing', () => {
    expect(() => containsAnswer('anything', 'The')).toThrow(
      new RangeError(
        '[expect-llm] Failed to check the answer: the expected answer "The" normalizes to nothing (SQuAD normalization drops case, ASCII punctuation and the articles a, an, the), so every text would contain it. Pass an answer with at least one other word or number.',
      ),
    )
  })

  test('throws when one acceptable answer of several normalizes to nothing', () => {
    expect(() => containsAnswer('Paris', ['Paris', '?!'])).toThrow('the expected answer "?!" normalizes to nothing')
  })

  test('throws a TypeError when the candidate is not a string', () => {
    expect(() => containsAnswer(1 as unknown as string, 'x')).toThrow(
      new TypeError('[expect-llm] Failed to check the answer: the candidate must be a string, got a number (1). Pass the candidate as a string.'),
    )
  })

  test('throws a TypeError when the expected answers are an empty array', () => {
    expect(() => containsAnswer('x', [])).toThrow('the expected answer must be a string or a non-empty array of strings, got an empty array.')
  })

  test('always contains an answer that was inserted into any text', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.stringMatching(/^[a-z0-9]+( [a-z0-9]+)*$/), (before, after, answer) => {
        fc.pre(squadTokens(answer).length > 0)
        return containsAnswer(`${before} ${answer} ${after}`, answer).contained
      }),
    )
  })
})

describe('indexOfTokens', () => {
  test('finds a run at the end', () => {
    expect(indexOfTokens(['a', 'b', 'c'], ['b', 'c'])).toBe(1)
  })

  test('finds the run after a false start', () => {
    expect(indexOfTokens(['a', 'a', 'b'], ['a', 'b'])).toBe(1)
  })

  test('returns -1 for a needle longer than the haystack', () => {
    expect(indexOfTokens(['a'], ['a', 'b'])).toBe(-1)
  })
})
