// NLTK 3.8's GLEU examples (the doctests of nltk/translate/gleu_score.py; NLTK has no unit test file for
// GLEU), ported with their inputs and printed values (doctest ELLIPSIS: the shown digits must match).
import { describe, expect, test } from 'vitest'
import { corpusGleu, gleu } from '../../../src/metrics/gleu.js'

const startsWith = (value: number, shown: string) => expect(String(value).startsWith(shown)).toBe(true)

const ref1 = 'It is a guide to action that ensures that the military will forever heed Party commands'
const hyp1 = 'It is a guide to action which ensures that the military always obeys the commands of the party'
const hyp2 = 'It is to insure the troops forever hearing the activity guidebook that party direct'
const ref1b = 'It is the guiding principle which guarantees the military forces always being under the command of the Party'
const ref1c = 'It is the practical guide for the army always to heed the directions of the party'
const hyp2b = 'he read the book because he was interested in world history'
const ref2a = 'he was interested in world history because he read the book'

describe('gleu_score.py doctests', () => {
  test('sentence_gleu: the infamous "the the the ..." example', () => {
    startsWith(gleu('the the the the the the the', 'the cat is on the mat'), '0.0909')
  })

  test('sentence_gleu: a normal machine translation output', () => {
    startsWith(gleu(hyp1, ref1), '0.4393')
  })

  test('sentence_gleu: a poor machine translation output', () => {
    startsWith(gleu(hyp2, ref1), '0.1206')
  })

  test('corpus_gleu with three references for the first hypothesis', () => {
    startsWith(corpusGleu([hyp1, hyp2b], [[ref1, ref1b, ref1c], [ref2a]]), '0.5673')
  })

  test('corpus_gleu differs from the mean of sentence_gleu', () => {
    startsWith((gleu(hyp1, ref1) + gleu(hyp2b, ref2a)) / 2, '0.6144')
  })
})
