import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { bleu, bleuDetails, bleuTokenize, corpusBleu, corpusBleuDetails, tokenize13a } from '../../src/metrics/bleu.js'

const close = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-9)

describe('tokenize13a', () => {
  test('keeps apostrophes, hyphens and non-ASCII characters inside tokens', () => {
    expect(tokenize13a("don't Don’t sign-in €7.80 2–3 non\u2011stick")).toEqual(["don't", 'Don’t', 'sign-in', '€7.80', '2–3', 'non\u2011stick'])
  })

  test('keeps . and , between digits', () => {
    expect(tokenize13a('1,500 2.10.1 3.5')).toEqual(['1,500', '2.10.1', '3.5'])
  })

  test('splits . and , next to a non-digit', () => {
    expect(tokenize13a('Mars, then home. 9.')).toEqual(['Mars', ',', 'then', 'home', '.', '9', '.'])
  })

  test('puts spaces around ASCII symbols', () => {
    expect(tokenize13a('$7.80 (23:40) a/b')).toEqual(['$', '7.80', '(', '23', ':', '40', ')', 'a', '/', 'b'])
  })

  test('splits a dash after a digit only', () => {
    expect(tokenize13a('2-3 well-known')).toEqual(['2', '-', '3', 'well-known'])
  })

  test('unescapes &quot; &amp; &lt; &gt; in that order', () => {
    expect(tokenize13a('Salt &amp; pepper')).toEqual(['Salt', '&', 'pepper'])
    expect(tokenize13a('&amp;lt;')).toEqual(['<'])
    expect(tokenize13a('&quot;hi&quot;')).toEqual(['"', 'hi', '"'])
    // sacrebleu 2.6.0 Tokenizer13a: ['x', '>', 'y', '<', 'z', '"', 'q', '"', '&']
    expect(tokenize13a('x &gt; y &lt; z &quot;q&quot; &amp;')).toEqual(['x', '>', 'y', '<', 'z', '"', 'q', '"', '&'])
  })

  test('splits the dash after every digit, 0 and 9 included (sacrebleu: 0 - 1 9 - 2 5 - 3)', () => {
    expect(tokenize13a('0-1 9-2 5-3')).toEqual(['0', '-', '1', '9', '-', '2', '5', '-', '3'])
  })

  test('a word with one inner period, then a comma of its own, splits the period (sacrebleu: ab . c ,)', () => {
    // The scanner's shortcut for a single final period must look at the piece's own last character.
    expect(tokenize13a('ab.c ,')).toEqual(['ab', '.', 'c', ','])
    expect(tokenize13a('ab.c .')).toEqual(['ab', '.', 'c', '.'])
  })

  test('joins words hyphenated across a line break, and turns other newlines into spaces', () => {
    expect(tokenize13a('week-\nends\nonly')).toEqual(['weekends', 'only'])
  })

  test('strips trailing whitespace before joining -\\n, so a final hyphen stays', () => {
    expect(tokenize13a('week-\n')).toEqual(['week-'])
  })

  test('removes <skipped>', () => {
    expect(tokenize13a('a <skipped> b')).toEqual(['a', 'b'])
  })

  test('treats \\r and U+0085 as whitespace, but not U+FEFF or U+200B', () => {
    expect(tokenize13a('a\rb\u0085c \ufeffd e\u200bf')).toEqual(['a', 'b', 'c', '\ufeffd', 'e\u200bf'])
  })

  test('keeps astral characters whole next to punctuation', () => {
    expect(tokenize13a('🚆.')).toEqual(['🚆', '.'])
  })

  test('keeps case', () => {
    expect(tokenize13a('NASA nasa')).toEqual(['NASA', 'nasa'])
  })

  test('gives no tokens for empty or whitespace-only text', () => {
    expect(tokenize13a('')).toEqual([])
    expect(tokenize13a(' \t\n')).toEqual([])
  })
})

describe("bleuTokenize with sacrebleu's zh tokenizer (values from sacrebleu 2.6.0 TokenizerZh)", () => {
  test('the first and last code point of a CJK range are split off as characters of their own', () => {
    // U+4E00 starts a range, U+4DB5 and U+33FF end one, U+3400 starts one.
    expect(bleuTokenize('a\u4e00b a\u4db5b', { tokenize: 'zh' })).toEqual(['a', '\u4e00', 'b', 'a', '\u4db5', 'b'])
    expect(bleuTokenize('a\u33ffb a\u3400b', { tokenize: 'zh' })).toEqual(['a', '\u33ff', 'b', 'a', '\u3400', 'b'])
  })

  test('leading whitespace is stripped before the period rules, so " .5" stays one token', () => {
    // Unstripped, the space before "." would split it off (rule 2): ['.', '5'].
    expect(bleuTokenize(' .5', { tokenize: 'zh' })).toEqual(['.5'])
    expect(bleuTokenize(' ab', { tokenize: 'zh' })).toEqual(['ab'])
  })
})

describe('bleu (sacrebleu sentence_bleu)', () => {
  test('identical texts score exactly 1 (sacrebleu says 1.0000000000000004)', () => {
    expect(bleu('The comet will be visible after sunset.', 'The comet will be visible after sunset.')).toBe(1)
  })

  test('uses the effective order: a one-token exact match scores 1', () => {
    expect(bleu('Boil', 'Boil')).toBe(1)
  })

  test('is case-sensitive', () => {
    expect(bleu('add salt and pepper', 'Add Salt And Pepper')).toBe(0)
  })

  test('unescapes &amp; before comparing', () => {
    expect(bleu('Salt & pepper', 'Salt &amp; pepper')).toBe(1)
  })

  test('1,500 is one token: 1,500 mg vs 1500 mg is 0.5', () => {
    close(bleu('1500 mg', '1,500 mg'), 0.49999999999999994)
  })

  test('smooths orders without matches (exp) instead of scoring 0', () => {
    // sacrebleu 2.6.0: sentence_bleu('Mars, which humans first visited in 1998.', ['Mars'])
    close(bleu('Mars, which humans first visited in 1998.', 'Mars'), 0.04767707020457095)
  })

  test('clips repeated words by the reference count', () => {
    const details = bleuDetails('stir stir stir', 'stir')
    expect(details.counts).toEqual([1, 0, 0, 0])
    expect(details.totals).toEqual([3, 2, 1, 0])
    expect(details.effectiveOrder).toBe(3)
    close(details.score, 0.27516060407455223)
  })

  test('without a match, the effective order counts the orders the candidate has n-grams of', () => {
    expect(bleuDetails('a b', 'c d')).toMatchObject({ score: 0, totals: [2, 1, 0, 0], effectiveOrder: 2 })
    expect(bleuDetails('a b c d e', 'f')).toMatchObject({ score: 0, totals: [5, 4, 3, 2], effectiveOrder: 4 })
    expect(bleuDetails('a b', 'c d', { effectiveOrder: false }).effectiveOrder).toBe(4)
  })

  test('smoothing none ignores smoothValue: an order without matches has precision 0', () => {
    const details = bleuDetails('a b', 'a c', { smoothMethod: 'none', smoothValue: 0.5 })
    expect(details.counts).toEqual([1, 0, 0, 0])
    expect(details.precisions).toEqual([0.5, 0, 0, 0])
    expect(details.score).toBe(0)
  })

  test('applies the brevity penalty to a short candidate', () => {
    const details = bleuDetails('the cat', 'the cat is here')
    close(details.bp, Math.exp(1 - 4 / 2))
    close(details.score, Math.exp(1 - 4 / 2))
  })

  test('an empty candidate scores 0 with brevity penalty 0', () => {
    const details = bleuDetails('', 'Sunset is at 19:42.')
    expect(details.score).toBe(0)
    expect(details.bp).toBe(0)
  })

  test('an empty candidate against an empty reference has brevity penalty 1 (it is not shorter)', () => {
    expect(bleuDetails('', '')).toMatchObject({ score: 0, bp: 1 })
  })

  test('an empty reference scores 0', () => {
    expect(bleu('Sunset', '')).toBe(0)
    expect(bleu('', '')).toBe(0)
  })

  test('reports precisions as fractions', () => {
    const details = bleuDetails('The cat sat on the mat.', 'The cat sat on a mat.')
    expect(details.precisions[0]).toBe(6 / 7)
  })

  test('rejects non-string inputs and an empty reference list with a TypeError', () => {
    expect(() => bleu(1 as unknown as string, 'x')).toThrow(/Failed to compute BLEU: the candidate must be a string/)
    expect(() => bleu('x', [])).toThrow(TypeError)
    expect(() => bleu('x', undefined as unknown as string)).toThrow(TypeError)
  })
})

// Expected values computed with sacrebleu 2.6.0: sacrebleu.sentence_bleu(candidate, references).
describe('bleu with several references', () => {
  test('clips each n-gram by its highest count in any one reference', () => {
    const details = bleuDetails('the the the the', ['the cat', 'the the dog'])
    expect(details.counts).toEqual([2, 1, 0, 0])
    expect(details.refLen).toBe(3)
    close(details.score, 0.31947155212313627)
  })

  test('takes n-grams from different references', () => {
    const details = bleuDetails('The cat sat on the mat.', ['The cat sat.', 'On the mat.'])
    expect(details.counts).toEqual([6, 4, 2, 0])
    close(details.score, 0.4111336169005196)
  })

  test('uses the reference length closest to the candidate length', () => {
    const details = bleuDetails('the cat', ['the cat sat on the mat', 'the cat is here'])
    expect(details.refLen).toBe(4)
    close(details.score, 0.3678794411714425)
  })

  test('breaks a length tie towards the shorter reference, whatever the order', () => {
    expect(bleuDetails('a b c', ['a b', 'a b c d']).refLen).toBe(2)
    expect(bleuDetails('a b c', ['a b c d', 'a b']).refLen).toBe(2)
  })

  test('a later reference farther in length is not taken, even when it is shorter', () => {
    expect(bleuDetails('a b c', ['a b c', 'a']).refLen).toBe(3)
  })

  test('one reference in an array is the same as the string', () => {
    expect(bleu('Platform 4 is closed', ['Platform 4 is shut'])).toBe(bleu('Platform 4 is closed', 'Platform 4 is shut'))
  })
})

describe('corpusBleu (sacrebleu corpus_bleu)', () => {
  test('sums the statistics of all segments (sacrebleu 2.6.0 value)', () => {
    const details = corpusBleuDetails(
      ['The cat sat on the mat.', 'Platform 4 is closed today'],
      [
        ['The cat sat on a mat.', 'A cat sat on the mat.'],
        ['Platform 4 is closed', 'Platform four is closed today'],
      ],
    )
    expect(details.counts).toEqual([12, 10, 8, 5])
    expect(details.totals).toEqual([12, 10, 8, 6])
    expect([details.sysLen, details.refLen]).toEqual([12, 12])
    close(details.score, 0.9554427922043672)
  })

  test('is not the mean of the sentence scores', () => {
    const candidates = ['The train leaves at nine.', 'Boil the water']
    const references = ['The train departs at nine.', 'Boil water']
    const mean = (bleu(candidates[0] as string, references[0] as string) + bleu(candidates[1] as string, references[1] as string)) / 2
    expect(Math.abs(corpusBleu(candidates, references) - mean)).toBeGreaterThan(0.01)
  })

  test('has no effective order: a corpus without 4-grams scores 0', () => {
    const details = corpusBleuDetails(['Boil', 'Platform 4'], ['Boil', 'Platform 4'])
    expect(details.counts).toEqual([3, 1, 0, 0])
    expect(details.totals).toEqual([3, 1, 0, 0])
    expect(details.effectiveOrder).toBe(4)
    expect(details.score).toBe(0)
  })

  test('a one-segment corpus of a long exact match scores 1', () => {
    expect(corpusBleu(['The comet will be visible after sunset.'], ['The comet will be visible after sunset.'])).toBe(1)
  })

  test('rejects mismatched lengths, an empty corpus and non-string entries', () => {
    expect(() => corpusBleu(['a', 'b'], ['a'])).toThrow(/2 candidates but 1 references/)
    expect(() => corpusBleu([], [])).toThrow(/nothing to score/)
    expect(() => corpusBleu(['a'], [3] as unknown as string[])).toThrow(/reference at index 0/)
    expect(() => corpusBleu('a' as unknown as string[], ['a'])).toThrow(/candidates must be an array/)
  })
})

const bleuText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .array(fc.constantFrom('the', 'cat', 'The', '2', '-', '3', '1,500', '.', ',', '&amp;', '-\n', '\n', ' ', '\u0085', '😀', '$', '€'), { maxLength: 16 })
    .map((parts) => parts.join(' ')),
)

describe('properties', () => {
  test('scores are in [0, 1] and nothing throws on any strings', () => {
    fc.assert(
      fc.property(bleuText, fc.array(bleuText, { minLength: 1, maxLength: 3 }), (candidate, references) => {
        for (const score of [bleu(candidate, references), bleu(candidate, references[0] as string)]) {
          expect(Number.isNaN(score)).toBe(false)
          expect(score).toBeGreaterThanOrEqual(0)
          expect(score).toBeLessThanOrEqual(1)
        }
      }),
    )
  })

  test('a text with at least one token scores 1 against itself; with none, 0', () => {
    fc.assert(
      fc.property(bleuText, (text) => {
        expect(bleu(text, text)).toBe(tokenize13a(text).length > 0 ? 1 : 0)
      }),
    )
  })

  test('adding the candidate itself as a reference gives 1', () => {
    fc.assert(
      fc.property(bleuText, bleuText, (candidate, other) => {
        fc.pre(tokenize13a(candidate).length > 0)
        expect(bleu(candidate, [other, candidate])).toBe(1)
      }),
    )
  })

  test('the statistics are consistent: counts <= totals, totals = max(0, tokens - n + 1)', () => {
    fc.assert(
      fc.property(bleuText, bleuText, (candidate, reference) => {
        const details = bleuDetails(candidate, reference)
        const length = tokenize13a(candidate).length
        expect(details.sysLen).toBe(length)
        expect(details.refLen).toBe(tokenize13a(reference).length)
        details.totals.forEach((total, i) => {
          expect(total).toBe(Math.max(0, length - i))
          expect(details.counts[i]).toBeLessThanOrEqual(total)
        })
      }),
    )
  })

  test('a one-candidate corpus has the same statistics as the sentence', () => {
    fc.assert(
      fc.property(bleuText, bleuText, (candidate, reference) => {
        const sentence = bleuDetails(candidate, reference)
        const corpus = corpusBleuDetails([candidate], [reference])
        expect(corpus.counts).toEqual(sentence.counts)
        expect(corpus.totals).toEqual(sentence.totals)
        expect(corpus.bp).toBe(sentence.bp)
        // Without effective order the corpus score equals the sentence score once all four orders exist.
        if (sentence.sysLen >= 4) expect(corpus.score).toBe(sentence.score)
      }),
    )
  })
})
