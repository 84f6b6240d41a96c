// The ROUGE, SQuAD and BLEU (13a) tokenizers were rewritten for speed (issue 11): one scan instead of
// regex chains over the whole text. These properties check that they return exactly the tokens of the
// regex chains they replace (kept in bench/tokenizers-before.ts, where the benchmark also uses them)
// on random text, including the characters each rule singles out.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { rougeScoreTokensBefore, rougeUnicodeTokensBefore, squadTokensBefore, tokenize13aBefore } from '../../bench/tokenizers-before.js'
import { tokenize13a } from '../../src/metrics/bleu.js'
import { rougeTokenize } from '../../src/metrics/rouge.js'
import { squadTokens } from '../../src/metrics/squad.js'

const pieces = [
  'the',
  'The',
  'a',
  'an',
  'A',
  'AN',
  'thé',
  'the\u200b',
  '_the',
  'cats',
  'running',
  '1',
  '2',
  '9',
  '1,500',
  '2.10.1',
  '3.',
  '.5',
  ',',
  '.',
  '-',
  '--',
  '2-3',
  'x-',
  '-y',
  "don't",
  'Don’t',
  '&amp;',
  '&quot;',
  '&lt;',
  '<skipped>',
  '-\n',
  '\n',
  '\r',
  ' ',
  '  ',
  '\t',
  '\u0085',
  '\u00a0',
  '\u2003',
  '\u3000',
  '\ufeff',
  '$',
  '€',
  '(',
  ')',
  '"',
  '/',
  ':',
  '@',
  '[',
  '`',
  '{',
  '~',
  'Straße',
  'İzmir',
  'ΟΔΟΣ',
  'crème',
  'e\u0301',
  '火车',
  '４番線',
  'ｶﾞ',
  'ー',
  '😀',
  '👩‍🚀',
  '\ud800',
  'K',
  'ﬁ',
  '½',
  'm²',
  '_',
  '\x7f',
  '\x1c',
]
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.array(fc.constantFrom(...pieces), { maxLength: 24 }).map((parts) => parts.join('')),
  fc.array(fc.constantFrom(...pieces), { maxLength: 24 }).map((parts) => parts.join(' ')),
)
const RUNS = { numRuns: 2000 }

describe('the fast tokenizers return the tokens of the regex chains they replace', () => {
  test("rougeTokenize(text) ('unicode')", () => {
    fc.assert(
      fc.property(text, fc.boolean(), (t, stemmer) => {
        expect(rougeTokenize(t, { stemmer })).toEqual(rougeUnicodeTokensBefore(t, stemmer))
      }),
      RUNS,
    )
  })

  test("rougeTokenize(text, { tokenizer: 'rouge-score' })", () => {
    fc.assert(
      fc.property(text, fc.boolean(), (t, stemmer) => {
        expect(rougeTokenize(t, { tokenizer: 'rouge-score', stemmer })).toEqual(rougeScoreTokensBefore(t, stemmer))
      }),
      RUNS,
    )
  })

  test('squadTokens(text)', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(squadTokens(t)).toEqual(squadTokensBefore(t))
      }),
      RUNS,
    )
  })

  test('tokenize13a(text)', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(tokenize13a(t)).toEqual(tokenize13aBefore(t))
      }),
      RUNS,
    )
  })
})
