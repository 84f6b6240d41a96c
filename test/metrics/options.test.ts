// The option and input checks of the metric functions: each limit at its boundary (the last value
// accepted and the first refused) and each message word for word, since the message is what a user
// reads to fix the call. The messages follow src/errors.ts: `[expect-llm] Failed to <action>: <reason>. <fix>`.
import { describe, expect, test } from 'vitest'
import { bleu, bleuFromStatistics, bleuTokenize, corpusBleu, tokenize13a, type BleuOptions } from '../../src/metrics/bleu.js'
import { chrF, corpusChrF, type ChrFOptions } from '../../src/metrics/chrf.js'
import { containsAnswer } from '../../src/metrics/contains.js'
import { cosineSimilarity } from '../../src/metrics/cosine.js'
import { editSimilarity, levenshteinDistance } from '../../src/metrics/edit.js'
import { corpusGleu, gleu, type GleuOptions } from '../../src/metrics/gleu.js'
import { readOptionObject } from '../../src/metrics/options.js'
import { retrievalScores } from '../../src/metrics/retrieval.js'
import { rougeMulti, type RougeMultiOptions } from '../../src/metrics/rouge.js'
import { corpusTer, ter, terDetails, type TerOptions } from '../../src/metrics/ter.js'

/** The error `fn` throws, as `Class: message`. */
function thrown(fn: () => unknown): string {
  try {
    fn()
  } catch (e) {
    return `${(e as Error).constructor.name}: ${(e as Error).message}`
  }
  throw new Error('expected a throw')
}
const bleuWith = (options: unknown) => () => bleu('a b', 'a b', options as BleuOptions)
const chrFWith = (options: unknown) => () => chrF('a b', 'a b', options as ChrFOptions)
const terWith = (options: unknown) => () => ter('a b', 'a b', options as TerOptions)
const gleuWith = (options: unknown) => () => gleu('a b', 'a b', options as GleuOptions)

describe('readOptionObject', () => {
  test('undefined and null are no options; an object comes back as it is', () => {
    expect(readOptionObject(undefined, ['a'], 'x', 'y')).toEqual({})
    expect(readOptionObject(null, ['a'], 'x', 'y')).toEqual({})
    const o = { a: 1 }
    expect(readOptionObject(o, ['a'], 'x', 'y')).toBe(o)
  })

  test('a string, a number or an array is refused with the example', () => {
    expect(thrown(() => readOptionObject('a', ['a'], 'compute X', 'Pass e.g. { a: 1 }.'))).toBe(
      'TypeError: [expect-llm] Failed to compute X: the options must be an object, got a string ("a"). Pass e.g. { a: 1 }.',
    )
    expect(thrown(() => readOptionObject(3, ['a'], 'compute X', 'Pass {}.'))).toBe(
      'TypeError: [expect-llm] Failed to compute X: the options must be an object, got a number (3). Pass {}.',
    )
    expect(thrown(() => readOptionObject([], ['a'], 'compute X', 'Pass {}.'))).toBe(
      'TypeError: [expect-llm] Failed to compute X: the options must be an object, got an array (length 0). Pass {}.',
    )
  })

  test('unknown keys are named, quoted, with the valid ones; a key set to undefined is not unknown', () => {
    expect(thrown(() => readOptionObject({ a: 1, b: 2, c: 3 }, ['a', 'z'], 'compute X', 'unused'))).toBe(
      'TypeError: [expect-llm] Failed to compute X: unknown option "b", "c". Valid options are: a, z.',
    )
    expect(readOptionObject({ a: 1, b: undefined }, ['a'], 'x', 'y')).toEqual({ a: 1, b: undefined })
  })
})

describe('BLEU options', () => {
  const prefix = 'TypeError: [expect-llm] Failed to compute BLEU:'

  test('an unknown option and a non-object are refused with the BLEU example', () => {
    expect(thrown(bleuWith({ tokenizer: 'intl' }))).toBe(
      `${prefix} unknown option "tokenizer". Valid options are: tokenize, lowercase, smoothMethod, smoothValue, maxNgramOrder, effectiveOrder.`,
    )
    expect(thrown(bleuWith('intl'))).toBe(`${prefix} the options must be an object, got a string ("intl"). Pass e.g. { tokenize: 'intl' }.`)
  })

  test('an unknown tokenizer is refused, pointing to 13a', () => {
    expect(thrown(bleuWith({ tokenize: 'moses' }))).toBe(
      `${prefix} options.tokenize must be one of 'none', '13a', 'intl', 'char', 'zh', got a string ("moses"). Use '13a' (sacrebleu's default) unless you need another tokenizer.`,
    )
  })

  test.each(['ja-mecab', 'ko-mecab', 'spm', 'flores101', 'flores200'])("sacrebleu's model-backed tokenizer %s is refused with the reason", (tokenize) => {
    expect(thrown(bleuWith({ tokenize }))).toBe(
      `${prefix} options.tokenize must be one of 'none', '13a', 'intl', 'char', 'zh', got a string ("${tokenize}"). ` +
        `sacrebleu's '${tokenize}' needs a native model (MeCab or SentencePiece) that no maintained JavaScript library reproduces; use 'char' or 'zh' for CJK text, or tokenize yourself and pass 'none'.`,
    )
  })

  test.each(['lowercase', 'effectiveOrder'])('%s must be a boolean (undefined is the default)', (key) => {
    expect(thrown(bleuWith({ [key]: 1 }))).toBe(`${prefix} options.${key} must be a boolean, got a number (1). Pass true or false.`)
    expect(bleu('a b', 'a b', { [key]: undefined })).toBe(1)
  })

  test('an unknown smoothing method is refused', () => {
    expect(thrown(bleuWith({ smoothMethod: 'exp2' }))).toBe(
      `${prefix} options.smoothMethod must be one of 'exp', 'floor', 'add-k', 'none', got a string ("exp2"). Use 'exp' (sacrebleu's default).`,
    )
  })

  test('smoothValue: 0 is accepted; below 0, not finite or not a number is refused', () => {
    expect(bleu('a b c d', 'a b c e', { smoothMethod: 'floor', smoothValue: 0 })).toBe(0)
    for (const [value, shown] of [
      [-0.01, 'a number (-0.01)'],
      [Number.POSITIVE_INFINITY, 'a number (Infinity)'],
      [Number.NaN, 'a number (NaN)'],
      ['1', 'a string ("1")'],
    ] as const) {
      expect(thrown(bleuWith({ smoothMethod: 'floor', smoothValue: value }))).toBe(
        `${prefix} options.smoothValue must be a finite number >= 0, got ${shown}. Pass e.g. 0.1 for 'floor' or 1 for 'add-k'.`,
      )
    }
  })

  test('maxNgramOrder: 1 and 100 are accepted; 0, 101, 2.5 and "4" are refused', () => {
    // sacrebleu 2.6.0: BLEU(max_ngram_order=1).sentence_score('a b', ['a c']).score = 49.99999999999999
    expect(bleu('a b', 'a c', { maxNgramOrder: 1 })).toBeCloseTo(0.5, 14)
    expect(bleu('a b', 'a b', { maxNgramOrder: 100 })).toBe(1)
    for (const [value, shown] of [
      [0, 'a number (0)'],
      [101, 'a number (101)'],
      [2.5, 'a number (2.5)'],
      ['4', 'a string ("4")'],
    ] as const) {
      expect(thrown(bleuWith({ maxNgramOrder: value }))).toBe(
        `${prefix} options.maxNgramOrder must be a whole number from 1 to 100, got ${shown}. Pass e.g. 4 (the default).`,
      )
    }
  })

  test('a reference that is not a string or a non-empty array of strings is refused, naming the reference', () => {
    expect(thrown(() => bleu('a', 3 as unknown as string))).toBe(
      `${prefix} the reference must be a string or a non-empty array of strings, got a number (3). Pass the reference as a string, or several acceptable ones as an array.`,
    )
  })

  test('the tokenizers name their own action and the text', () => {
    expect(thrown(() => tokenize13a(42 as unknown as string))).toBe(
      'TypeError: [expect-llm] Failed to tokenize for BLEU: the text must be a string, got a number (42). Pass the text as a string.',
    )
    expect(thrown(() => bleuTokenize(null as unknown as string))).toBe(
      'TypeError: [expect-llm] Failed to tokenize for BLEU: the text must be a string, got null. Pass the text as a string.',
    )
    expect(thrown(() => bleuTokenize('a', { tokenize: 'x' as 'none' }))).toBe(
      "TypeError: [expect-llm] Failed to tokenize for BLEU: options.tokenize must be one of 'none', '13a', 'intl', 'char', 'zh', got a string (\"x\"). Use '13a' (sacrebleu's default) unless you need another tokenizer.",
    )
  })
})

describe('bleuFromStatistics checks the statistics', () => {
  const prefix = 'TypeError: [expect-llm] Failed to compute BLEU from statistics:'
  const shape = 'the statistics must be { counts, totals, sysLen, refLen } with counts and totals non-empty arrays of numbers >= 0 of one length'
  const ok = { counts: [1, 0], totals: [2, 1], sysLen: 2, refLen: 2 }

  test.each([
    ['null', null, 'null'],
    ['undefined', undefined, 'undefined'],
    ['a number', 3, 'a number (3)'],
    ['empty counts', { ...ok, counts: [], totals: [] }, 'an object'],
    ['a negative count', { ...ok, counts: [-1, 0] }, 'an object'],
    ['a count that is not finite', { ...ok, totals: [2, Number.NaN] }, 'an object'],
    ['an infinite count', { ...ok, counts: [Number.POSITIVE_INFINITY, 0] }, 'an object'],
    ['a count that is a string', { ...ok, counts: ['1', 0] }, 'an object'],
    ['counts and totals of two lengths', { ...ok, totals: [2, 1, 0] }, 'an object'],
    ['totals that are not an array', { ...ok, totals: 2 }, 'an object'],
  ])('%s is refused', (_, statistics, shown) => {
    expect(thrown(() => bleuFromStatistics(statistics as never))).toBe(`${prefix} ${shape}, got ${shown}. Pass the fields of a BleuDetails.`)
  })

  test.each([
    ['sysLen', -1, 'a number (-1)'],
    ['refLen', Number.POSITIVE_INFINITY, 'a number (Infinity)'],
    ['sysLen', '2', 'a string ("2")'],
    ['refLen', undefined, 'undefined'],
  ])('%s = %s is refused', (key, value, shown) => {
    expect(thrown(() => bleuFromStatistics({ ...ok, [key]: value } as never))).toBe(
      `${prefix} statistics.${key} must be a number >= 0, got ${shown}. Pass the fields of a BleuDetails.`,
    )
  })

  test('zero lengths and zero counts are accepted (BLEU 0)', () => {
    expect(bleuFromStatistics({ counts: [0], totals: [0], sysLen: 0, refLen: 0 }).score).toBe(0)
  })

  test("a log of 0 is sacrebleu's my_log floor, so an overflowing precision still gives a number", () => {
    // Order 1: 100 · 1e308 / 1 overflows to Infinity; order 2 has no match (smoothing none). With
    // my_log's -9999999999 the log sum is Infinity (score clamped to 1); Math.log(0) would make it NaN.
    const d = bleuFromStatistics({ counts: [1e308, 0], totals: [1, 1], sysLen: 1, refLen: 1 }, { smoothMethod: 'none' })
    expect(d.score).toBe(1)
  })

  test('the options default as for a corpus: effective order off', () => {
    // No bigrams: without effective order the empty order 2 counts (log 0), with it only order 1 is averaged.
    const statistics = { counts: [1, 0], totals: [1, 0], sysLen: 1, refLen: 1 }
    expect(bleuFromStatistics(statistics)).toMatchObject({ score: 0, effectiveOrder: 2 })
    expect(bleuFromStatistics(statistics, { effectiveOrder: true })).toMatchObject({ score: 1, effectiveOrder: 1 })
  })
})

describe('corpus inputs (shared by corpus BLEU, chrF, TER and GLEU)', () => {
  test.each([
    ['corpus BLEU', corpusBleu],
    ['corpus chrF', corpusChrF],
    ['corpus TER', corpusTer],
    ['corpus GLEU', corpusGleu],
  ] as const)('%s refuses what is not one string candidate and one reference per segment', (name, f) => {
    const call = (c: unknown, r: unknown) => () => (f as (c: unknown, r: unknown) => number)(c, r)
    const prefix = `TypeError: [expect-llm] Failed to compute ${name}:`
    expect(thrown(call('a', ['a']))).toBe(`${prefix} the candidates must be an array of strings, got a string ("a"). Pass one model output per segment.`)
    expect(thrown(call(['a'], 'a'))).toBe(
      `${prefix} the references must be an array, got a string ("a"). Pass one reference (or an array of references) per candidate.`,
    )
    expect(thrown(call([], []))).toBe(`${prefix} the candidates array is empty, so there is nothing to score. Pass at least one candidate.`)
    expect(thrown(call(['a', 'b'], ['a']))).toBe(
      `${prefix} got 2 candidates but 1 references. Pass exactly one reference (or one array of alternative references) per candidate, in the same order.`,
    )
    expect(thrown(call(['a', 3], ['a', 'b']))).toBe(
      `${prefix} the candidate at index 1 must be a string, got a number (3). Pass the candidate at index 1 as a string.`,
    )
    expect(thrown(call(['a', 'b'], ['a', 3]))).toMatch(
      new RegExp(`^${prefix.replace(/[[\]]/g, '\\$&')} the reference at index 1 must be a string or a non-empty array of strings`),
    )
  })
})

describe('chrF options', () => {
  const prefix = 'TypeError: [expect-llm] Failed to compute chrF:'

  test('an unknown option is refused with the valid ones', () => {
    expect(thrown(chrFWith({ nWordOrder: 2 }))).toBe(
      `${prefix} unknown option "nWordOrder". Valid options are: charOrder, wordOrder, beta, lowercase, whitespace, epsSmoothing.`,
    )
    expect(thrown(chrFWith(2))).toBe(`${prefix} the options must be an object, got a number (2). Pass e.g. { wordOrder: 2 } for chrF++.`)
  })

  test.each([
    ['charOrder', 6],
    ['wordOrder', 0],
  ] as const)('%s: 0 and 100 are accepted; -1, 101, 1.5 and a string are refused', (key, fallback) => {
    const other = key === 'charOrder' ? { wordOrder: 1 } : {}
    expect(chrF('a b', 'a b', { ...other, [key]: 0 })).toBe(1)
    expect(chrF('a b', 'a b', { [key]: 100 })).toBe(1)
    for (const [value, shown] of [
      [-1, 'a number (-1)'],
      [101, 'a number (101)'],
      [1.5, 'a number (1.5)'],
      ['2', 'a string ("2")'],
    ] as const) {
      expect(thrown(chrFWith({ [key]: value }))).toBe(
        `${prefix} options.${key} must be a whole number from 0 to 100, got ${shown}. Pass e.g. ${fallback} (the default).`,
      )
    }
  })

  test('charOrder and wordOrder both 0 are refused; 0 characters with 1 word order is chrF over words', () => {
    expect(thrown(chrFWith({ charOrder: 0, wordOrder: 0 }))).toBe(
      `${prefix} charOrder and wordOrder are both 0, so there is nothing to compare. Pass charOrder: 6 (the default).`,
    )
    // Unigram words only: precision 1/2, recall 1/2, F-beta 1/2 for any beta.
    expect(chrF('a b', 'a c', { charOrder: 0, wordOrder: 1 })).toBe(0.5)
  })

  test('only their sum must be above 0: charOrder equal to wordOrder is accepted', () => {
    expect(chrF('a b', 'a b', { charOrder: 2, wordOrder: 2 })).toBe(1)
  })

  test('a candidate that is not a string is refused, naming the candidate', () => {
    expect(thrown(() => chrF(3 as unknown as string, 'a'))).toBe(`${prefix} the candidate must be a string, got a number (3). Pass the candidate as a string.`)
  })

  test('a reference that is not a string or a non-empty array of strings is refused, naming the reference', () => {
    expect(thrown(() => chrF('a', 3 as unknown as string))).toBe(
      `${prefix} the reference must be a string or a non-empty array of strings, got a number (3). Pass the reference as a string, or several acceptable ones as an array.`,
    )
  })

  test('beta: 0 is accepted (precision only); below 0, not finite or not a number is refused', () => {
    // Character unigrams of "ab" against "abcd": precision 1, recall 1/2; beta 0 gives the precision.
    expect(chrF('ab', 'abcd', { charOrder: 1, beta: 0 })).toBe(1)
    for (const [value, shown] of [
      [-0.5, 'a number (-0.5)'],
      [Number.POSITIVE_INFINITY, 'a number (Infinity)'],
      ['2', 'a string ("2")'],
    ] as const) {
      expect(thrown(chrFWith({ beta: value }))).toBe(`${prefix} options.beta must be a finite number >= 0, got ${shown}. Pass e.g. 2 (the default).`)
    }
  })

  test.each(['lowercase', 'whitespace', 'epsSmoothing'])('%s must be a boolean', (key) => {
    expect(thrown(chrFWith({ [key]: 'yes' }))).toBe(`${prefix} options.${key} must be a boolean, got a string ("yes"). Pass true or false.`)
  })
})

describe('TER options', () => {
  const prefix = 'TypeError: [expect-llm] Failed to compute TER:'

  test('an unknown option and a non-object are refused', () => {
    expect(thrown(terWith({ normalize: true }))).toBe(
      `${prefix} unknown option "normalize". Valid options are: normalized, noPunct, asianSupport, caseSensitive.`,
    )
    expect(thrown(terWith([]))).toBe(`${prefix} the options must be an object, got an array (length 0). Pass e.g. { normalized: true }.`)
  })

  test.each(['normalized', 'noPunct', 'asianSupport', 'caseSensitive'])('%s must be a boolean; undefined keeps the default', (key) => {
    expect(thrown(terWith({ [key]: 0 }))).toBe(`${prefix} options.${key} must be a boolean, got a number (0). Pass true or false.`)
    expect(ter('A b', 'a b', { [key]: undefined })).toBe(0)
  })

  test('each boolean is read: caseSensitive true counts a case difference as an edit', () => {
    expect(ter('A b', 'a b', { caseSensitive: true })).toBe(0.5)
    expect(ter('A b', 'a b', { caseSensitive: false })).toBe(0)
  })

  test('a candidate that is not a string is refused, naming the candidate', () => {
    expect(thrown(() => terDetails(3 as unknown as string, 'a'))).toBe(
      `${prefix} the candidate must be a string, got a number (3). Pass the candidate as a string.`,
    )
  })

  test('a reference that is neither a string nor a non-empty array of strings is refused, naming the reference', () => {
    expect(thrown(() => terDetails('a', []))).toBe(
      `${prefix} the reference must be a string or a non-empty array of strings, got an empty array. Pass the reference as a string, or several acceptable ones as an array.`,
    )
  })
})

describe('GLEU options', () => {
  const prefix = 'TypeError: [expect-llm] Failed to compute GLEU:'
  const example = 'Pass e.g. { minLen: 1, maxLen: 4 } (the defaults).'

  test('an unknown option is refused', () => {
    expect(thrown(gleuWith({ min_len: 1 }))).toBe(`${prefix} unknown option "min_len". Valid options are: minLen, maxLen.`)
    expect(thrown(gleuWith(true))).toBe(`${prefix} the options must be an object, got a boolean (true). ${example}`)
  })

  test.each(['minLen', 'maxLen'])('%s: 1 is accepted; 0, 1.5 and a string are refused', (key) => {
    // Unigrams only (minLen 1 up to maxLen 1, or minLen 1 up to 4): "a b" against "a c" shares 1 of 2.
    expect(gleu('a b', 'a c', { minLen: 1, maxLen: 1, [key]: 1 })).toBe(0.5)
    for (const [value, shown] of [
      [0, 'a number (0)'],
      [1.5, 'a number (1.5)'],
      ['1', 'a string ("1")'],
    ] as const) {
      expect(thrown(gleuWith({ [key]: value }))).toBe(`${prefix} options.${key} must be a whole number >= 1, got ${shown}. ${example}`)
    }
  })
})

describe('rougeMulti inputs', () => {
  const prefix = 'TypeError: [expect-llm] Failed to compute multi-reference ROUGE:'

  test('the candidate must be a string', () => {
    expect(thrown(() => rougeMulti(3 as unknown as string, ['a']))).toBe(
      `${prefix} the candidate must be a string, got a number (3). Pass the candidate as a string.`,
    )
  })

  test('the references must be a non-empty array of strings', () => {
    expect(thrown(() => rougeMulti('a', [] as string[]))).toBe(
      `${prefix} the references must be a non-empty array of strings, got an array (length 0). Pass every acceptable reference.`,
    )
    expect(thrown(() => rougeMulti('a', 'a' as unknown as string[]))).toBe(
      `${prefix} the references must be a non-empty array of strings, got a string ("a"). Pass every acceptable reference.`,
    )
    expect(thrown(() => rougeMulti('a', ['a', 1] as unknown as string[]))).toBe(
      `${prefix} the reference at index 1 must be a string, got a number (1). Pass the reference at index 1 as a string.`,
    )
  })

  test('types must be a non-empty array of ROUGE types', () => {
    const message = (shown: string) => `${prefix} options.types must be a non-empty array of 'rouge1', 'rouge2', 'rougeL', 'rougeLsum', got ${shown}.`
    expect(thrown(() => rougeMulti('a', ['a'], { types: [] }))).toBe(message('an array (length 0)'))
    expect(thrown(() => rougeMulti('a', ['a'], { types: ['rouge1', 'rouge3'] } as unknown as RougeMultiOptions))).toBe(message('an array (length 2)'))
    expect(thrown(() => rougeMulti('a', ['a'], { types: 'rouge1' } as unknown as RougeMultiOptions))).toBe(message('a string ("rouge1")'))
  })
})

describe('retrievalScores inputs', () => {
  const prefix = 'TypeError: [expect-llm] Failed to compute retrieval scores:'

  test('the retrieved results must be an array', () => {
    expect(thrown(() => retrievalScores('a' as unknown as string[], ['a']))).toBe(
      `${prefix} the retrieved results must be an array, got a string ("a"). Pass the ids (or { id, score } objects) the retriever returned.`,
    )
  })

  test('each retrieved item must be an id or { id, score? } with a finite score', () => {
    expect(thrown(() => retrievalScores([null] as unknown as string[], ['a']))).toBe(
      `${prefix} retrieved item 0 must be an id string or an object { id, score? }, got null. Map your retriever results to ids (or { id, score }) first.`,
    )
    const notFinite = (shown: string) =>
      `${prefix} retrieved item 0 ("a") has a score that is not a finite number: ${shown}. Leave the score out, or pass a finite number (higher = more similar).`
    expect(thrown(() => retrievalScores([{ id: 'a', score: Number.NaN }], ['a']))).toBe(notFinite('a number (NaN)'))
    expect(thrown(() => retrievalScores([{ id: 'a', score: '0.5' as unknown as number }], ['a']))).toBe(notFinite('a string ("0.5")'))
  })

  test('the relevant ids must be an array', () => {
    expect(thrown(() => retrievalScores(['a'], 'a' as unknown as string[]))).toBe(
      `${prefix} the relevant ids must be an array of strings, got a string ("a"). Pass the ids that should be retrieved.`,
    )
  })

  test('the relevant ids must be a non-empty list of strings', () => {
    expect(thrown(() => retrievalScores(['a'], []))).toBe(
      `${prefix} the relevant ids are empty, so there is nothing to check. Pass at least one id that should be retrieved.`,
    )
    expect(thrown(() => retrievalScores(['a'], [1] as unknown as string[]))).toBe(
      `${prefix} relevant id 0 is not a string: a number (1). Pass the relevant ids as strings.`,
    )
  })

  test('k must be a positive integer and minScore a finite number', () => {
    expect(thrown(() => retrievalScores(['a'], ['a'], { k: 0 }))).toBe(
      `${prefix} k must be a positive integer, got a number (0). Pass k >= 1, or leave it out to use every retrieved item.`,
    )
    expect(thrown(() => retrievalScores(['a'], ['a'], { k: '2' as unknown as number }))).toBe(
      `${prefix} k must be a positive integer, got a string ("2"). Pass k >= 1, or leave it out to use every retrieved item.`,
    )
    const minScoreMessage = (shown: string) => `${prefix} minScore must be a finite number, got ${shown}. Pass a number such as 0.75, or leave it out.`
    expect(thrown(() => retrievalScores([{ id: 'a', score: 1 }], ['a'], { minScore: Number.NaN }))).toBe(minScoreMessage('a number (NaN)'))
    expect(thrown(() => retrievalScores([{ id: 'a', score: 1 }], ['a'], { minScore: '0.5' as unknown as number }))).toBe(minScoreMessage('a string ("0.5")'))
  })

  test('the options must be an object', () => {
    expect(thrown(() => retrievalScores(['a'], ['a'], null as never))).toBe(`${prefix} the options must be an object, got null. Pass { k?, minScore? }.`)
    expect(thrown(() => retrievalScores(['a'], ['a'], 5 as never))).toBe(`${prefix} the options must be an object, got a number (5). Pass { k?, minScore? }.`)
  })
})

describe('GLEU against NLTK 3.9 (nltk.translate.gleu_score) on boundary cases', () => {
  test('minLen 2 leaves the unigrams out (sentence_gleu min_len=2, max_len=3: 0.2)', () => {
    expect(gleu('a b x d', 'a b c d', { minLen: 2, maxLen: 3 })).toBe(0.2)
  })

  test('of two references with the same ratio the first one counts in the corpus sums (0.4, not 3/7)', () => {
    // Segment 1: "a c" gives 1/2 and "a b c d" gives 2/4; segment 2 gives 1/3. NLTK: (1 + 1) / (2 + 3).
    expect(corpusGleu(['a b', 'x q q'], [['a c', 'a b c d'], 'x y z'], { maxLen: 1 })).toBe(0.4)
    expect(corpusGleu(['a b', 'x q q'], [['a b c d', 'a c'], 'x y z'], { maxLen: 1 })).toBe(3 / 7)
  })

  test('a corpus with no n-grams at all scores 0, not NaN', () => {
    expect(corpusGleu(['', ' '], ['', ''])).toBe(0)
  })

  test("the inputs are checked with GLEU's action in the message", () => {
    expect(thrown(() => gleu(1 as unknown as string, 'a'))).toBe(
      'TypeError: [expect-llm] Failed to compute GLEU: the candidate must be a string, got a number (1). Pass the candidate as a string.',
    )
    expect(thrown(() => gleu('a', 1 as unknown as string))).toMatch(
      /^TypeError: \[expect-llm\] Failed to compute GLEU: the reference must be a string or a non-empty array of strings, got a number \(1\)\. Pass the reference as a string/,
    )
  })
})

describe('containsAnswer and cosineSimilarity messages', () => {
  test('containsAnswer names the expected answer', () => {
    expect(thrown(() => containsAnswer('x', 3 as unknown as string))).toMatch(
      /^TypeError: \[expect-llm\] Failed to check the answer: the expected answer must be a string or a non-empty array of strings, got a number \(3\)\. Pass the expected answer as a string/,
    )
  })

  test('cosineSimilarity says which vector is wrong and how to fix it', () => {
    const prefix = 'TypeError: [expect-llm] Failed to compute cosine similarity:'
    expect(thrown(() => cosineSimilarity('ab' as never, [1]))).toBe(
      `${prefix} the first vector must be an array of numbers or a typed array (Float32Array, Float64Array, ...), got a string ("ab"). Pass the embedding as returned by the embedder.`,
    )
    expect(thrown(() => cosineSimilarity([1], []))).toBe(`${prefix} the second vector is empty. Pass a vector with at least one dimension.`)
    expect(thrown(() => cosineSimilarity([1, Number.NaN], [1, 2]))).toBe(
      `${prefix} the first vector has a number (NaN) at index 1. Every component must be a finite number (check the embedder output for NaN or missing values).`,
    )
    expect(thrown(() => cosineSimilarity([1, 2], [1, 2, 3]))).toBe(
      `${prefix} the vectors have different lengths (2 and 3). Compare embeddings from the same model and dimensions.`,
    )
  })
})

describe('levenshteinDistance and editSimilarity messages', () => {
  test('name the argument and the action', () => {
    expect(thrown(() => levenshteinDistance(1 as unknown as string, 'a'))).toBe(
      'TypeError: [expect-llm] Failed to compute the Levenshtein distance: the first string must be a string, got a number (1). Pass the first string as a string.',
    )
    expect(thrown(() => levenshteinDistance('a', null as unknown as string))).toBe(
      'TypeError: [expect-llm] Failed to compute the Levenshtein distance: the second string must be a string, got null. Pass the second string as a string.',
    )
    expect(thrown(() => editSimilarity([] as unknown as string, 'a'))).toBe(
      'TypeError: [expect-llm] Failed to compute edit similarity: the candidate must be a string, got an array (length 0). Pass the candidate as a string.',
    )
    expect(thrown(() => editSimilarity('a', 2 as unknown as string))).toBe(
      'TypeError: [expect-llm] Failed to compute edit similarity: the reference must be a string, got a number (2). Pass the reference as a string.',
    )
  })
})
