// chrF and chrF++ on small cases whose statistics can be counted by hand; the sacrebleu values of many
// pairs are in extended.reference.test.ts.
import { describe, expect, test } from 'vitest'
import { chrF, chrFDetails, corpusChrFDetails } from '../../src/metrics/chrf.js'

describe('chrF++ words (sacrebleu CHRF._remove_punctuation)', () => {
  test('splits one punctuation character off the start of a word', () => {
    // '(cat' gives the words '(' and 'cat', as '( cat' does.
    expect(chrFDetails('(cat', '( cat', { charOrder: 0, wordOrder: 1 }).statistics).toEqual([{ kind: 'word', n: 1, candidate: 2, reference: 2, matches: 2 }])
  })

  test('word bigrams keep the word boundary: "ab c" and "a bc" share no bigram', () => {
    expect(chrFDetails('ab c', 'a bc', { charOrder: 0, wordOrder: 2 }).statistics[1]).toEqual({
      kind: 'word',
      n: 2,
      candidate: 1,
      reference: 1,
      matches: 0,
    })
  })

  test('the statistics list the character orders, then the word orders', () => {
    expect(chrFDetails('a b', 'a b', { charOrder: 1, wordOrder: 1 }).statistics).toEqual([
      { kind: 'char', n: 1, candidate: 2, reference: 2, matches: 2 },
      { kind: 'word', n: 1, candidate: 2, reference: 2, matches: 2 },
    ])
  })
})

describe('chrF with eps smoothing (sacrebleu eps_smoothing=True)', () => {
  // The score is the mean over the orders of each order's F-score; an order without matches adds eps = 1e-16.
  test('averages over exactly charOrder + wordOrder orders', () => {
    expect(chrF('a', 'b', { charOrder: 1, epsSmoothing: true })).toBe(1e-16)
  })

  test('an order the candidate has no n-grams of adds 0 when the reference has some', () => {
    // Order 1: no match, eps. Order 2: the candidate has no bigram (precision eps, recall 0), so F is 0.
    expect(chrF('a', 'bc', { charOrder: 2, epsSmoothing: true })).toBe(5e-17)
  })

  test("an order with no n-grams on either side adds sacrebleu's F of precision eps and recall eps", () => {
    // ((1 + β²) · eps · eps) / (β² · eps + eps) in doubles: 1.0000000000000001e-16 for β = 0.3, not eps itself.
    expect(chrF('', '', { charOrder: 1, beta: 0.3, epsSmoothing: true })).toBe(1.0000000000000001e-16)
  })
})

describe('chrF with several references', () => {
  test('takes the first of the references with the best score', () => {
    expect(chrFDetails('ab', ['ab', 'ab']).bestReferenceIndex).toBe(0)
  })
})

describe('corpusChrF', () => {
  test('has no best reference index: -1', () => {
    expect(corpusChrFDetails(['a'], ['a']).bestReferenceIndex).toBe(-1)
  })
})
