import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { exactMatch, normalizeAnswer, squadTokens, tokenF1, tokenF1Details } from '../../src/metrics/squad.js'

/** Random text biased towards what SQuAD normalisation cares about. */
const squadText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .array(
      fc.constantFrom(
        'a',
        'an',
        'the',
        'The',
        'A',
        'Paris',
        'paris',
        'ñ',
        'Montaña',
        '\u0303',
        '\u0301',
        'İ',
        'Σ',
        '\u212a',
        ' ',
        '  ',
        '\t',
        '\n',
        '\u0085',
        '\u00a0',
        '\u200b',
        '\ufeff',
        '\u3000',
        "'",
        '’',
        '-',
        '–',
        '.',
        ',',
        '_',
        '!',
        '?',
        '€',
        '$',
        '😀',
        '👏🏽',
        '1',
        '500',
        '½',
        '４',
      ),
      { maxLength: 20 },
    )
    .map((parts) => parts.join('')),
)

describe('normalizeAnswer', () => {
  test('lower-cases, drops ASCII punctuation and articles, collapses whitespace', () => {
    expect(normalizeAnswer('  The  Eiffel\tTower!! ')).toBe('eiffel tower')
  })

  test('deletes ASCII punctuation without inserting a space', () => {
    expect(normalizeAnswer('sign-in')).toBe('signin')
    expect(normalizeAnswer("don't")).toBe('dont')
    expect(normalizeAnswer('1,500')).toBe('1500')
    expect(normalizeAnswer('1.500')).toBe('1500')
  })

  test('deletes all 32 characters of Python string.punctuation', () => {
    expect(normalizeAnswer('x!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~y')).toBe('xy')
  })

  test('keeps non-ASCII punctuation and symbols', () => {
    expect(normalizeAnswer('Don’t – ‑ … € ° ½')).toBe('don’t – ‑ … € ° ½')
  })

  test('removes the articles only as whole words', () => {
    expect(normalizeAnswer('an apple a day')).toBe('apple day')
    expect(normalizeAnswer('theatre anatomy')).toBe('theatre anatomy')
  })

  test('word boundaries are Unicode-aware: the final a of Montaña is kept', () => {
    expect(normalizeAnswer('Montaña')).toBe('montaña')
  })

  test('an article after a combining mark is removed (marks are not word characters)', () => {
    // NFD ñ = n + U+0303, so the final "a" of "piña" stands alone as a word.
    expect(normalizeAnswer('pin\u0303a colada')).toBe('pin\u0303 colada')
  })

  test('the article before a zero-width space is removed, and U+200B stays', () => {
    expect(normalizeAnswer('Refill the\u200bwater tank')).toBe('refill \u200bwater tank')
  })

  test('underscore is punctuation, so the_a becomes one word', () => {
    expect(normalizeAnswer('the_a')).toBe('thea')
  })

  test('splits on U+0085 and NBSP but keeps U+FEFF', () => {
    expect(normalizeAnswer('step one\u0085step\u00a0two')).toBe('step one step two')
    expect(normalizeAnswer('\ufeffRefill')).toBe('\ufeffrefill')
  })

  test('uses the full Unicode lowercase mapping', () => {
    expect(normalizeAnswer('İzmir')).toBe('i\u0307zmir')
    expect(normalizeAnswer('77 \u212a')).toBe('77 k')
    expect(normalizeAnswer('ΟΔΟΣ ΑΙΟΛΟΥ')).toBe('οδος αιολου')
  })

  test('article-only and punctuation-only answers normalise to the empty string', () => {
    expect(normalizeAnswer('The')).toBe('')
    expect(normalizeAnswer('?!')).toBe('')
    expect(normalizeAnswer('  \t ')).toBe('')
  })

  test('rejects non-strings with a TypeError', () => {
    expect(() => normalizeAnswer(42 as unknown as string)).toThrow(
      new TypeError('[expect-llm] Failed to normalize the answer: the text must be a string, got a number (42). Pass the text as a string.'),
    )
  })

  test('removes an article before U+0080, a control character (not a word character)', () => {
    expect(normalizeAnswer('the\u0080')).toBe('\u0080')
  })
})

describe('squadTokens', () => {
  test('is the normalised text split into words', () => {
    expect(squadTokens('The red, red Planet')).toEqual(['red', 'red', 'planet'])
  })

  test('is empty for text that normalises to nothing', () => {
    expect(squadTokens('An')).toEqual([])
  })

  test('rejects non-strings with a TypeError', () => {
    expect(() => squadTokens(42 as unknown as string)).toThrow(
      new TypeError('[expect-llm] Failed to tokenize the answer: the text must be a string, got a number (42). Pass the text as a string.'),
    )
  })
})

describe('exactMatch', () => {
  test('matches after normalisation', () => {
    expect(exactMatch('the Eiffel tower.', 'Eiffel Tower')).toBe(1)
  })

  test('two answers that both normalise to nothing match', () => {
    expect(exactMatch('', '')).toBe(1)
    expect(exactMatch('...', '?!')).toBe(1)
    expect(exactMatch('The', 'An')).toBe(1)
  })

  test('A Coruña matches Coruña (the article is removed)', () => {
    expect(exactMatch('Coruña', 'A Coruña')).toBe(1)
  })

  test('Montañ does not match Montaña', () => {
    expect(exactMatch('Montañ', 'Montaña')).toBe(0)
  })

  test('a typographic apostrophe is not deleted', () => {
    expect(exactMatch('Don’t crush the tablets.', "Don't crush the tablets.")).toBe(0)
  })

  test('NFC and NFD forms differ (no Unicode normalisation)', () => {
    expect(exactMatch('pin\u0303a colada', 'piña colada')).toBe(0)
  })

  test('a leading U+FEFF prevents the match; U+0085 and NBSP do not', () => {
    expect(exactMatch('Refill the water tank', '\ufeffRefill the water tank')).toBe(0)
    expect(exactMatch('step one step two', 'step one\u0085step two')).toBe(1)
    expect(exactMatch('platform 9', 'platform\u00a09')).toBe(1)
  })

  test('with several references, matches when any one does', () => {
    expect(exactMatch('Paris, France', ['London', 'paris france'])).toBe(1)
    expect(exactMatch('Lyon', ['London', 'paris france'])).toBe(0)
  })

  test('rejects a non-string candidate and an empty reference list', () => {
    expect(() => exactMatch(undefined as unknown as string, 'x')).toThrow(
      new TypeError('[expect-llm] Failed to compute exact match: the candidate must be a string, got undefined. Pass the candidate as a string.'),
    )
    expect(() => exactMatch('x', [])).toThrow(
      new TypeError(
        '[expect-llm] Failed to compute exact match: the reference must be a string or a non-empty array of strings, got an empty array. ' +
          'Pass the reference as a string, or several acceptable ones as an array.',
      ),
    )
    expect(() => exactMatch('x', ['a', 3] as unknown as string[])).toThrow(TypeError)
  })
})

describe('tokenF1', () => {
  test('is 1 for the same tokens in another order', () => {
    expect(tokenF1('green red', 'red green')).toBe(1)
  })

  test('is the harmonic mean of token precision and recall', () => {
    // candidate 3 tokens, reference 1 token, 1 common: P = 1/3, R = 1.
    expect(tokenF1('the capital is Paris', 'Paris')).toBeCloseTo(0.5, 15)
  })

  test('counts repeated tokens as a multiset', () => {
    // candidate very hot hot oven vs very very hot oven: common = very, hot, oven.
    expect(tokenF1('very hot hot oven', 'very very hot oven')).toBeCloseTo(0.75, 15)
  })

  test('is 0 when both sides normalise to nothing, although exact match is 1', () => {
    expect(tokenF1('', '')).toBe(0)
    expect(tokenF1('The', 'An')).toBe(0)
  })

  test('is 0 for an empty candidate against a real answer', () => {
    expect(tokenF1('', 'Sunset is at 19:42.')).toBe(0)
  })

  test('punctuation deletion joins words: sign-in vs sign in is 0', () => {
    expect(tokenF1('sign in', 'sign-in')).toBe(0)
  })

  test('2-3 drops vs 2 to 3 drops is 1/3', () => {
    expect(tokenF1('2 to 3 drops', '2-3 drops')).toBeCloseTo(1 / 3, 15)
  })

  test('a typographic apostrophe makes a different token', () => {
    expect(tokenF1('Don’t crush the tablets.', "Don't crush the tablets.")).toBeCloseTo(2 / 3, 15)
  })

  test('U+0085 splits words, as in Python', () => {
    expect(tokenF1('step one step two', 'step one\u0085step two')).toBe(1)
  })

  test('with several references, takes the maximum', () => {
    expect(tokenF1('Paris', ['London', 'Paris, France'])).toBeCloseTo(2 / 3, 15)
  })

  test('rejects a non-string candidate', () => {
    expect(() => tokenF1(7 as unknown as string, 'x')).toThrow(
      new TypeError('[expect-llm] Failed to compute token F1: the candidate must be a string, got a number (7). Pass the candidate as a string.'),
    )
  })

  test('rejects a non-string reference', () => {
    expect(() => tokenF1('x', null as unknown as string)).toThrow(
      new TypeError(
        '[expect-llm] Failed to compute token F1: the reference must be a string or a non-empty array of strings, got null. ' +
          'Pass the reference as a string, or several acceptable ones as an array.',
      ),
    )
  })
})

describe('tokenF1Details', () => {
  test('explains the best reference with common, missing and extra tokens', () => {
    const details = tokenF1Details('It was built in 1889 by Eiffel', ['1889', 'in 1889'])
    expect(details.bestReference).toBe('in 1889')
    expect(details.bestReferenceIndex).toBe(1)
    expect(details.referenceTokens).toEqual(['in', '1889'])
    expect(details.common).toEqual(['in', '1889'])
    expect(details.missing).toEqual([])
    expect(details.extra).toEqual(['it', 'was', 'built', 'by', 'eiffel'])
    expect(details.precision).toBeCloseTo(2 / 7, 15)
    expect(details.recall).toBe(1)
    expect(details.f1).toBe(tokenF1('It was built in 1889 by Eiffel', ['1889', 'in 1889']))
  })

  test('lists missing reference tokens with multiplicity', () => {
    const details = tokenF1Details('stir', 'stir stir stir')
    expect(details.common).toEqual(['stir'])
    expect(details.missing).toEqual(['stir', 'stir'])
    expect(details.extra).toEqual([])
  })

  test('keeps the first reference on ties', () => {
    expect(tokenF1Details('x', ['a b', 'c d']).bestReferenceIndex).toBe(0)
  })

  test('rejects a non-string candidate or reference', () => {
    expect(() => tokenF1Details(7 as unknown as string, 'x')).toThrow(
      new TypeError('[expect-llm] Failed to compute token F1: the candidate must be a string, got a number (7). Pass the candidate as a string.'),
    )
    expect(() => tokenF1Details('x', null as unknown as string)).toThrow(
      new TypeError(
        '[expect-llm] Failed to compute token F1: the reference must be a string or a non-empty array of strings, got null. ' +
          'Pass the reference as a string, or several acceptable ones as an array.',
      ),
    )
  })

  test('has zero precision and recall when nothing is common', () => {
    const details = tokenF1Details('abc', 'xyz')
    expect([details.f1, details.precision, details.recall]).toEqual([0, 0, 0])
    expect(details.common).toEqual([])
  })
})

describe('properties', () => {
  test('scores are in range and nothing throws on any strings', () => {
    fc.assert(
      fc.property(squadText, squadText, (a, b) => {
        const f1 = tokenF1(a, b)
        expect(f1).toBeGreaterThanOrEqual(0)
        expect(f1).toBeLessThanOrEqual(1)
        expect([0, 1]).toContain(exactMatch(a, b))
      }),
    )
  })

  test('a text matches itself; its F1 with itself is 1 unless it has no tokens', () => {
    fc.assert(
      fc.property(squadText, (s) => {
        expect(exactMatch(s, s)).toBe(1)
        expect(tokenF1(s, s)).toBe(squadTokens(s).length > 0 ? 1 : 0)
      }),
    )
  })

  test('token F1 is symmetric for one reference', () => {
    fc.assert(
      fc.property(squadText, squadText, (a, b) => {
        expect(tokenF1(a, b)).toBe(tokenF1(b, a))
      }),
    )
  })

  test('a text matches its own normalisation, with F1 1 unless it has no tokens', () => {
    fc.assert(
      fc.property(squadText, (a) => {
        const b = normalizeAnswer(a)
        expect(exactMatch(a, b)).toBe(1)
        expect(tokenF1(a, b)).toBe(squadTokens(a).length > 0 ? 1 : 0)
      }),
    )
  })

  test('several references score the maximum over them', () => {
    fc.assert(
      fc.property(squadText, fc.array(squadText, { minLength: 1, maxLength: 4 }), (c, refs) => {
        expect(tokenF1(c, refs)).toBe(Math.max(...refs.map((r) => tokenF1(c, r))))
        expect(exactMatch(c, refs)).toBe(Math.max(...refs.map((r) => exactMatch(c, r))))
        expect(tokenF1Details(c, refs).f1).toBe(tokenF1(c, refs))
      }),
    )
  })

  test('the normalised text is its tokens joined by single spaces, and normalising is idempotent', () => {
    fc.assert(
      fc.property(squadText, (s) => {
        const normalized = normalizeAnswer(s)
        expect(normalized).toBe(squadTokens(s).join(' '))
        expect(normalizeAnswer(normalized)).toBe(normalized)
      }),
    )
  })

  test('the details partition the tokens: common + extra = candidate, common + missing = reference', () => {
    const sorted = (xs: string[]) => [...xs].sort()
    fc.assert(
      fc.property(squadText, squadText, (c, r) => {
        const d = tokenF1Details(c, r)
        expect(sorted([...d.common, ...d.extra])).toEqual(sorted(d.candidateTokens))
        expect(sorted([...d.common, ...d.missing])).toEqual(sorted(d.referenceTokens))
      }),
    )
  })
})
