import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  rouge,
  rougeL,
  rougeMulti,
  rougeN,
  rougeTokenize,
  type RougeLOptions,
  type RougeOptions,
  type RougeScore,
  type RougeType,
} from '../../src/metrics/rouge.js'

const ZERO: RougeScore = { precision: 0, recall: 0, f: 0 }
const ONE: RougeScore = { precision: 1, recall: 1, f: 1 }

describe('rouge: options and dispatch', () => {
  // Sentences reordered across a newline: rouge1 = 1, rougeL = 0.5, rougeLsum = 1, rouge2 = 2/3.
  const candidate = 'Mix well.\nAdd salt.'
  const reference = 'Add salt.\nMix well.'

  test('computes rougeL by default', () => {
    expect(rouge(candidate, reference)).toEqual({ precision: 0.5, recall: 0.5, f: 0.5 })
  })

  test("type 'rouge1' is rougeN with n = 1", () => {
    expect(rouge(candidate, reference, { type: 'rouge1' })).toEqual(ONE)
  })

  test("type 'rouge2' is rougeN with n = 2", () => {
    expect(rouge(candidate, reference, { type: 'rouge2' })).toEqual(rougeN(candidate, reference, 2))
    expect(rouge(candidate, reference, { type: 'rouge2' }).f).toBeCloseTo(2 / 3, 12)
  })

  test("type 'rougeLsum' is rougeL with summary: true", () => {
    expect(rouge(candidate, reference, { type: 'rougeLsum' })).toEqual(ONE)
    expect(rougeL(candidate, reference, { summary: true })).toEqual(ONE)
  })

  test('precision is measured against the candidate and recall against the reference', () => {
    expect(rouge('comet visible', 'comet visible after sunset', { type: 'rouge1' })).toEqual({ precision: 1, recall: 0.5, f: 2 / 3 })
  })

  test('does not use the stemmer unless asked', () => {
    expect(rouge('cats', 'cat', { type: 'rouge1' })).toEqual(ZERO)
    expect(rouge('cats', 'cat', { type: 'rouge1', stemmer: true })).toEqual(ONE)
  })

  test('stems only tokens longer than 3 characters, like rouge-score', () => {
    // 'dried' -> 'dri', while 'dry' (3 letters) is left alone: 1 of 2 candidate tokens match.
    expect(rouge('dried beans', 'dry beans', { type: 'rouge1', stemmer: true })).toEqual({ precision: 0.5, recall: 0.5, f: 0.5 })
  })

  test("uses the 'unicode' tokenizer by default, which keeps non-ASCII words", () => {
    expect(rouge('Ελλάδα', 'Ελλάδα')).toEqual(ONE)
    expect(rouge('Ελλάδα', 'Ελλάδα', { tokenizer: 'rouge-score' })).toEqual(ZERO)
  })

  test('accepts null as "no options"', () => {
    expect(rouge('a b', 'a b', null as unknown as RougeOptions)).toEqual(ONE)
  })

  test('rougeL accepts null as "no options" too: sentence-level', () => {
    expect(rougeL('a b', 'a b', null as unknown as RougeLOptions)).toEqual(ONE)
  })
})

describe('rougeN', () => {
  test('clips a repeated n-gram to its count in the reference', () => {
    expect(rougeN('stir stir stir', 'stir', 1)).toEqual({ precision: 1 / 3, recall: 1, f: 0.5 })
  })

  test('counts bigrams', () => {
    expect(rougeN('the cat sat on the mat', 'the cat lay on the mat', 2)).toEqual({ precision: 0.6, recall: 0.6, f: 0.6 })
  })

  test('supports n larger than 2', () => {
    // trigrams: 'a b c', 'b c d' vs 'a b c', 'b c e': 1 in common.
    expect(rougeN('a b c d', 'a b c e', 3)).toEqual({ precision: 0.5, recall: 0.5, f: 0.5 })
  })

  test('is 0 for texts shorter than n, even when identical', () => {
    expect(rougeN('Boil', 'Boil', 2)).toEqual(ZERO)
  })

  test('is 0 when only one side has n-grams', () => {
    expect(rougeN('boil the water', 'boil', 2)).toEqual(ZERO)
  })

  test('does not match a trigram of the same words in another order, with more than ten distinct words', () => {
    // Token ids a=0 … l=11: 'b b l' and 'l b b' are (1, 1, 11) and (11, 1, 1), 'b l b' is (1, 11, 1),
    // which would all read 1111 with the ids run together.
    expect(rougeN('a b c d e f g h i j k l b b l', 'b l b', 3)).toEqual(ZERO)
  })
})

describe('rougeL', () => {
  test('is the longest common subsequence over the lengths', () => {
    expect(rougeL('the cat sat on the mat', 'the cat was on the mat')).toEqual({ precision: 5 / 6, recall: 5 / 6, f: 5 / 6 })
  })

  test('depends on word order', () => {
    expect(rougeL('salt add', 'add salt')).toEqual({ precision: 0.5, recall: 0.5, f: 0.5 })
  })

  test('is sentence-level unless summary is true: reordered sentences do not all match', () => {
    expect(rougeL('Mix well.\nAdd salt.', 'Add salt.\nMix well.')).toEqual({ precision: 0.5, recall: 0.5, f: 0.5 })
  })

  test('treats a newline as plain whitespace without summary', () => {
    expect(rougeL('Add the\nflour', 'Add the flour')).toEqual(ONE)
  })
})

describe('rougeL with summary: true (rougeLsum)', () => {
  test('matches sentences in any order', () => {
    expect(rougeL('Add salt.\nMix well.\nServe.', 'Serve.\nMix well.\nAdd salt.', { summary: true })).toEqual(ONE)
  })

  test('splits on \\n only, not on \\r', () => {
    const score = rougeL('Add salt.\rMix well.', 'Mix well.\rAdd salt.', { summary: true })
    expect(score).toEqual(rougeL('Add salt.\rMix well.', 'Mix well.\rAdd salt.'))
    expect(score.f).toBe(0.5)
  })

  test('ignores empty and whitespace-only lines', () => {
    expect(rougeL('Add salt.\n\n   \nMix well.\n', 'Add salt.\nMix well.', { summary: true })).toEqual(ONE)
  })

  test('caps hits by the token counts of the candidate (a reference sentence repeated twice)', () => {
    expect(rougeL('Mix well.\nAdd salt.', 'Mix well.\nAdd salt.\nMix well.', { summary: true })).toEqual({ precision: 1, recall: 2 / 3, f: 0.8 })
  })

  test('caps hits by the token counts of the reference (a candidate sentence repeated twice)', () => {
    expect(rougeL('Mix well.\nAdd salt.\nMix well.', 'Mix well.\nAdd salt.', { summary: true })).toEqual({ precision: 2 / 3, recall: 1, f: 0.8 })
  })

  test("matches a repeated word at its last position in the reference sentence, like rouge-score's table walk", () => {
    // The candidate line 'add the' matches the second 'the' of the reference, so the first 'the' is
    // never hit: 5 of 6 tokens. Matching the earliest 'the' would give 1.
    expect(rougeL('add the\nflour to the bowl', 'add the flour to the bowl', { summary: true })).toEqual({
      precision: 5 / 6,
      recall: 5 / 6,
      f: 5 / 6,
    })
  })

  test('is 0 when either text has no sentence', () => {
    expect(rougeL('', 'Add salt.', { summary: true })).toEqual(ZERO)
    expect(rougeL('Add salt.', '\n\n', { summary: true })).toEqual(ZERO)
  })

  test('is 0 when either text has sentences but no tokens', () => {
    expect(rougeL('...\n!!!', 'Add salt.', { summary: true })).toEqual(ZERO)
  })
})

describe('rougeMulti', () => {
  test('takes the first of the references tied for the best F-measure', () => {
    expect(rougeMulti('a b', ['x', 'a b', 'b a'], { types: ['rouge1'] })).toEqual({ rouge1: { precision: 1, recall: 1, f: 1, referenceIndex: 1 } })
  })
})

describe('rouge: texts without tokens', () => {
  test.each(['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] as const)('%s is 0 when both texts are empty', (type) => {
    expect(rouge('', '', { type })).toEqual(ZERO)
  })

  test.each(['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] as const)('%s is 0 when the candidate is only punctuation and whitespace', (type) => {
    expect(rouge(' ?! ... \n\t', 'Add salt now.', { type })).toEqual(ZERO)
  })

  test.each(['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] as const)('%s is 0 when the reference is empty', (type) => {
    expect(rouge('Add salt now.', '', { type })).toEqual(ZERO)
  })
})

describe("rougeTokenize with tokenizer: 'rouge-score'", () => {
  const opts = { tokenizer: 'rouge-score' } as const

  test('lower-cases and splits on every character that is not ASCII a-z or 0-9', () => {
    expect(rougeTokenize("Don't stop: 1,500 km/s!", opts)).toEqual(['don', 't', 'stop', '1', '500', 'km', 's'])
  })

  test('turns non-ASCII letters into word breaks', () => {
    expect(rougeTokenize('Crème brûlée', opts)).toEqual(['cr', 'me', 'br', 'l', 'e'])
  })

  test('keeps nothing of a Chinese sentence but its ASCII digits', () => {
    expect(rougeTokenize('8号线晚点了', opts)).toEqual(['8'])
  })

  test('stems with NLTK rules when stemmer is on', () => {
    expect(rougeTokenize('Tying the laces, ties shining', { ...opts, stemmer: true })).toEqual(['tie', 'the', 'lace', 'tie', 'shine'])
  })
})

describe("rougeTokenize with the default tokenizer ('unicode')", () => {
  test('does not stem without options', () => {
    expect(rougeTokenize('The cats are running!')).toEqual(['the', 'cats', 'are', 'running'])
  })

  test('keeps letters with diacritics inside words', () => {
    expect(rougeTokenize('Crème brûlée, Straße!')).toEqual(['crème', 'brûlée', 'straße'])
  })

  test('keeps combining marks, without normalizing (NFD stays NFD)', () => {
    expect(rougeTokenize('Cre\u0300me')).toEqual(['cre\u0300me'])
  })

  test('keeps Unicode numbers', () => {
    expect(rougeTokenize('m² ½ ４')).toEqual(['m²', '½', '４'])
  })

  test('drops emoji and symbols', () => {
    expect(rougeTokenize('🚆 € 👩‍🚀 ✓')).toEqual([])
  })

  test('lower-cases with the locale-independent Unicode mapping', () => {
    // Kelvin sign -> ASCII k; İ -> i + U+0307 (toLocaleLowerCase('tr') would give a dotted i alone).
    expect(rougeTokenize('\u212Aelvin İzmir')).toEqual(['kelvin', 'i\u0307zmir'])
  })

  test('stems only pure-ASCII tokens', () => {
    expect(rougeTokenize('naïvely running', { stemmer: true })).toEqual(['naïvely', 'run'])
  })

  test('makes every Chinese character a token', () => {
    expect(rougeTokenize('火车晚点了。')).toEqual(['火', '车', '晚', '点', '了'])
  })

  test('makes every Japanese kana a token, with its sound marks and the prolonged sound mark', () => {
    expect(rougeTokenize('ラーメンを食べた')).toEqual(['ラ', 'ー', 'メ', 'ン', 'を', '食', 'べ', 'た'])
    expect(rougeTokenize('ｶﾞｰﾄﾞ')).toEqual(['ｶﾞ', 'ｰ', 'ﾄﾞ'])
  })

  test('keeps a run of other letters and digits next to CJK characters whole', () => {
    expect(rougeTokenize('4番線 gpt4模型')).toEqual(['4', '番', '線', 'gpt4', '模', '型'])
  })

  test('stems an ASCII run split off a CJK token', () => {
    expect(rougeTokenize('running模型', { stemmer: true })).toEqual(['run', '模', '型'])
  })

  test('keeps Korean words whole (Hangul is written with spaces)', () => {
    expect(rougeTokenize('서울에 갔다')).toEqual(['서울에', '갔다'])
  })

  test('scores two different Chinese sentences on the characters they share', () => {
    // 火车 晚点 了 vs 火车 准时: 2 of 5 and 2 of 4 characters.
    expect(rouge('火车准时', '火车晚点了', { type: 'rouge1' })).toEqual({ precision: 0.5, recall: 0.4, f: expect.closeTo(4 / 9, 15) })
  })
})

describe('errors', () => {
  const notStrings: unknown[] = [undefined, null, 42, ['text'], { text: 'x' }, Promise.resolve('x')]

  test.each(notStrings.map((v) => [String(v), v] as const))('rouge throws a TypeError for a candidate that is %s', (_name, value) => {
    expect(() => rouge(value as string, 'reference')).toThrow(TypeError)
    expect(() => rouge(value as string, 'reference')).toThrow(/Failed to compute ROUGE: the candidate must be a string/)
  })

  test('rouge names the reference when the reference is not a string', () => {
    expect(() => rouge('candidate', 7 as unknown as string)).toThrow(/the reference must be a string, got a number \(7\)/)
  })

  test('rouge points at a forgotten await', () => {
    expect(() => rouge(Promise.resolve('x') as unknown as string, 'y')).toThrow(/did you forget to await it/)
  })

  test('rougeL, rougeN and rougeTokenize reject non-strings too', () => {
    expect(() => rougeL(1 as unknown as string, 'x')).toThrow(
      new TypeError('[expect-llm] Failed to compute ROUGE: the candidate must be a string, got a number (1). Pass the candidate as a string.'),
    )
    expect(() => rougeN('x', undefined as unknown as string, 1)).toThrow(
      new TypeError('[expect-llm] Failed to compute ROUGE: the reference must be a string, got undefined. Pass the reference as a string.'),
    )
    expect(() => rougeTokenize(null as unknown as string)).toThrow(/Failed to tokenize text for ROUGE: the text must be a string/)
  })

  test('rougeTokenize names its action when the options are not an object', () => {
    expect(() => rougeTokenize('x', 'rouge1' as unknown as RougeOptions)).toThrow(
      new TypeError('[expect-llm] Failed to tokenize text for ROUGE: the options must be an object, got a string ("rouge1"). Pass e.g. { stemmer: true }.'),
    )
  })

  test('rouge rejects an unknown type, lists the valid ones and points at rougeN', () => {
    expect(() => rouge('a', 'b', { type: 'rouge3' as RougeType })).toThrow(
      new TypeError(
        "[expect-llm] Failed to compute ROUGE: options.type must be one of 'rouge1', 'rouge2', 'rougeL', 'rougeLsum', got a string (\"rouge3\"). " +
          'For other n-gram sizes call rougeN(candidate, reference, n).',
      ),
    )
  })

  test('rouge rejects an unknown tokenizer', () => {
    expect(() => rouge('a', 'b', { tokenizer: 'whitespace' as 'unicode' })).toThrow(/options\.tokenizer must be 'unicode' or 'rouge-score'/)
  })

  test('rouge rejects a non-boolean stemmer', () => {
    expect(() => rouge('a', 'b', { stemmer: 'yes' as unknown as boolean })).toThrow(/options\.stemmer must be a boolean/)
  })

  test('rouge rejects options that are not an object', () => {
    expect(() => rouge('a', 'b', 'rouge1' as unknown as RougeOptions)).toThrow(/the options must be an object/)
  })

  test('rougeL rejects a non-boolean summary', () => {
    expect(() => rougeL('a', 'b', { summary: 1 as unknown as boolean })).toThrow(/options\.summary must be a boolean/)
  })

  test.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rougeN throws a RangeError for n = %s', (n) => {
    expect(() => rougeN('a b', 'a b', n)).toThrow(
      new RangeError(`[expect-llm] Failed to compute ROUGE: n must be a positive integer, got ${String(n)}. Pass the n-gram size, e.g. 1 or 2.`),
    )
  })

  test('rougeN throws a TypeError for a non-number n', () => {
    expect(() => rougeN('a b', 'a b', '2' as unknown as number)).toThrow(
      new TypeError('[expect-llm] Failed to compute ROUGE: n must be a number, got a string ("2"). Pass the n-gram size, e.g. 2.'),
    )
  })
})

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

/** Any UTF-16 code unit, so lone surrogates are generated too. */
const utf16Unit = fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u))
/** Word-like text: words of ASCII, accented, Greek, CJK, kana and Hangul letters, with punctuation and newlines. */
const wordy = fc
  .array(
    fc.oneof(
      fc.constantFrom('the', 'cat', 'sat', 'running', 'ties', 'dried', 'sky', 'crème', 'straße', 'οδος', '火', '车', 'ラーメン', '서울', '42', '½'),
      fc.constantFrom(' ', '  ', '\n', '\r\n', '\r', '.', ', ', '\u00a0', '\u0085', '\u200b', '\ufeff', '-', '\u0301'),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''))
const anyText = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: utf16Unit }), fc.string({ unit: 'grapheme' }), wordy)
const anyOptions = fc.record(
  {
    type: fc.constantFrom<RougeType>('rouge1', 'rouge2', 'rougeL', 'rougeLsum'),
    stemmer: fc.boolean(),
    tokenizer: fc.constantFrom('unicode' as const, 'rouge-score' as const),
  },
  { requiredKeys: [] },
)

const inUnitInterval = (x: number): boolean => x >= 0 && x <= 1 && !Number.isNaN(x)

describe('properties', () => {
  test('never throws and always returns values in [0, 1] for any strings', () => {
    fc.assert(
      fc.property(anyText, anyText, anyOptions, (candidate, reference, options) => {
        const s = rouge(candidate, reference, options)
        expect(inUnitInterval(s.precision) && inUnitInterval(s.recall) && inUnitInterval(s.f), JSON.stringify(s)).toBe(true)
      }),
      { numRuns: 800 },
    )
  })

  test('rougeN stays in [0, 1] for any n', () => {
    fc.assert(
      fc.property(wordy, wordy, fc.integer({ min: 1, max: 6 }), (candidate, reference, n) => {
        const s = rougeN(candidate, reference, n)
        expect([s.precision, s.recall, s.f].every(inUnitInterval)).toBe(true)
      }),
      { numRuns: 300 },
    )
  })

  test('identical texts with at least one token score 1 (rouge1, rougeL, rougeLsum) with any tokenizer', () => {
    fc.assert(
      fc.property(
        anyText,
        fc.constantFrom<RougeType>('rouge1', 'rougeL', 'rougeLsum'),
        fc.boolean(),
        fc.constantFrom('unicode' as const, 'rouge-score' as const),
        (text, type, stemmer, tokenizer) => {
          fc.pre(rougeTokenize(text, { tokenizer }).length > 0)
          expect(rouge(text, text, { type, stemmer, tokenizer })).toEqual(ONE)
        },
      ),
      { numRuns: 600 },
    )
  })

  test('identical texts with at least two tokens score 1 on rouge2', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        fc.pre(rougeTokenize(text).length >= 2)
        expect(rouge(text, text, { type: 'rouge2' })).toEqual(ONE)
      }),
      { numRuns: 300 },
    )
  })

  test('swapping candidate and reference swaps precision and recall and keeps F (rouge1, rouge2, rougeL)', () => {
    fc.assert(
      fc.property(anyText, anyText, fc.constantFrom<RougeType>('rouge1', 'rouge2', 'rougeL'), fc.boolean(), (a, b, type, stemmer) => {
        const ab = rouge(a, b, { type, stemmer })
        const ba = rouge(b, a, { type, stemmer })
        expect(ba).toEqual({ precision: ab.recall, recall: ab.precision, f: ab.f })
      }),
      { numRuns: 500 },
    )
  })

  test('rougeLsum equals rougeL on texts without \\n', () => {
    fc.assert(
      fc.property(anyText, anyText, fc.boolean(), (a, b, stemmer) => {
        const candidate = a.replaceAll('\n', ' ')
        const reference = b.replaceAll('\n', ' ')
        expect(rouge(candidate, reference, { type: 'rougeLsum', stemmer })).toEqual(rouge(candidate, reference, { type: 'rougeL', stemmer }))
      }),
      { numRuns: 400 },
    )
  })

  test("the 'unicode' tokenizer gives exactly the 'rouge-score' tokens on ASCII text", () => {
    const asciiWordy = fc
      .array(
        fc.oneof(
          fc.constantFrom('The', 'CATS', 'running', 'ties', 'dried', 'sky', 'Skies', 'hopefully', 'x', 'ab', 'abc', 'abcd', '2.10.1', '1,500'),
          fc.string({ unit: 'binary-ascii', maxLength: 6 }),
        ),
        { maxLength: 30 },
      )
      .map((parts) => parts.join(' '))
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary-ascii' }), asciiWordy), fc.boolean(), (text, stemmer) => {
        expect(rougeTokenize(text, { stemmer })).toEqual(rougeTokenize(text, { stemmer, tokenizer: 'rouge-score' }))
      }),
      { numRuns: 1000 },
    )
  })

  test("'rouge-score' tokens always match /^[a-z0-9]+$/", () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), (text, stemmer) => {
        for (const token of rougeTokenize(text, { stemmer, tokenizer: 'rouge-score' })) expect(token).toMatch(/^[a-z0-9]+$/)
      }),
      { numRuns: 500 },
    )
  })

  test("'unicode' tokens are non-empty runs of letters, marks and numbers", () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), (text, stemmer) => {
        for (const token of rougeTokenize(text, { stemmer })) expect(token).toMatch(/^[\p{L}\p{M}\p{N}]+$/u)
      }),
      { numRuns: 500 },
    )
  })
})
