// Properties of chrF, TER, GLEU, the BLEU options and multi-reference ROUGE on random text (any
// Unicode, including lone surrogates): values in range, nothing throws, and the optimised TER equals
// a line-by-line port of sacrebleu's lib_ter (bench/naive-metrics.ts) on random word sequences.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { naiveChrF, naiveGleu, naiveTer, naiveTerEdits } from '../../bench/naive-metrics.js'
import { bleu, corpusBleu, type BleuOptions } from '../../src/metrics/bleu.js'
import { chrF, corpusChrF } from '../../src/metrics/chrf.js'
import { corpusGleu, gleu } from '../../src/metrics/gleu.js'
import { rouge, rougeMulti } from '../../src/metrics/rouge.js'
import { corpusTer, ter, terDetails } from '../../src/metrics/ter.js'

const pieces = [
  'the',
  'The',
  'cat',
  'mat',
  '.',
  ',',
  '-',
  "'s",
  '2',
  '3.5',
  '火',
  '车',
  'りの',
  'ー',
  '。',
  '！',
  '&amp;',
  '\n',
  '\n-',
  ' ',
  '\u00a0',
  '😀',
  '\ud800',
  'é',
  'e\u0301',
]
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.array(fc.constantFrom(...pieces), { maxLength: 20 }).map((p) => p.join(' ')),
  fc.array(fc.constantFrom(...pieces), { maxLength: 20 }).map((p) => p.join('')),
)
const refs = fc.array(text, { minLength: 1, maxLength: 3 })
const inUnit = (x: number) => Number.isFinite(x) && x >= 0 && x <= 1

describe('ranges and no throws on random Unicode', () => {
  test('chrF and chrF++ are in [0, 1], 1 for a non-empty text against itself', () => {
    fc.assert(
      fc.property(text, refs, fc.integer({ min: 0, max: 3 }), fc.boolean(), (c, r, wordOrder, lowercase) => {
        expect(inUnit(chrF(c, r, { wordOrder, lowercase }))).toBe(true)
        expect(inUnit(corpusChrF([c, c], [r, r], { wordOrder }))).toBe(true)
      }),
    )
  })

  test('TER is >= 0 and finite, 0 for a text against itself, under every option', () => {
    fc.assert(
      fc.property(
        text,
        refs,
        fc.record({ normalized: fc.boolean(), noPunct: fc.boolean(), asianSupport: fc.boolean(), caseSensitive: fc.boolean() }),
        (c, r, options) => {
          const t = ter(c, r, options)
          expect(Number.isFinite(t) && t >= 0).toBe(true)
          expect(ter(c, c, options)).toBe(0)
          expect(Number.isFinite(corpusTer([c], [r], options))).toBe(true)
        },
      ),
    )
  })

  test('GLEU is in [0, 1] and symmetric for one reference', () => {
    fc.assert(
      fc.property(text, text, (c, r) => {
        expect(inUnit(gleu(c, r))).toBe(true)
        expect(gleu(c, r)).toBe(gleu(r, c))
        expect(inUnit(corpusGleu([c], [[r]]))).toBe(true)
      }),
    )
  })

  test('BLEU is in [0, 1] under every tokenizer and smoothing', () => {
    const options = fc.record({
      tokenize: fc.constantFrom('none', '13a', 'intl', 'char', 'zh'),
      lowercase: fc.boolean(),
      smoothMethod: fc.constantFrom('exp', 'floor', 'add-k', 'none'),
      maxNgramOrder: fc.integer({ min: 1, max: 6 }),
      effectiveOrder: fc.boolean(),
    }) as fc.Arbitrary<BleuOptions>
    fc.assert(
      fc.property(text, refs, options, (c, r, o) => {
        expect(inUnit(bleu(c, r, o))).toBe(true)
        expect(inUnit(corpusBleu([c, c], [r, r], o))).toBe(true)
      }),
    )
  })

  test('multi-reference ROUGE is the score of one reference, the one with the best F', () => {
    fc.assert(
      fc.property(text, refs, (c, r) => {
        const multi = rougeMulti(c, r)
        for (const [type, s] of Object.entries(multi)) {
          expect(rouge(c, r[s.referenceIndex]!, { type: type as 'rouge1' })).toEqual({ precision: s.precision, recall: s.recall, f: s.f })
          for (const ref of r) expect(rouge(c, ref, { type: type as 'rouge1' }).f).toBeLessThanOrEqual(s.f)
        }
      }),
    )
  })
})

describe('the fast metrics equal their straightforward versions', () => {
  const words = (alphabet: number, max: number) =>
    fc.array(
      fc.integer({ min: 0, max: alphabet - 1 }).map((i) => `w${i}`),
      { maxLength: max },
    )

  test('TER edits equal the line-by-line port of lib_ter (random word sequences, up to 120 words)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 12 }).chain((a) => fc.tuple(words(a, 120), words(a, 120))),
        ([h, r]) => {
          expect(terDetails(h.join(' '), r.join(' ')).edits).toBe(naiveTerEdits(h, r))
        },
      ),
      { numRuns: 150 },
    )
  })

  test('TER with long shifts and very different lengths (wide beams)', () => {
    fc.assert(
      fc.property(words(6, 200), words(6, 12), (h, r) => {
        expect(ter(h.join(' '), r.join(' '))).toBe(naiveTer(h.join(' '), r.join(' ')))
        expect(ter(r.join(' '), h.join(' '))).toBe(naiveTer(r.join(' '), h.join(' ')))
      }),
      { numRuns: 60 },
    )
  })

  test('chrF and GLEU', () => {
    fc.assert(
      fc.property(text, text, (c, r) => {
        expect(Math.abs(chrF(c, r) - naiveChrF(c, [r]))).toBeLessThanOrEqual(1e-12)
        expect(gleu(c, r)).toBe(naiveGleu(c, r))
      }),
    )
  })
})
