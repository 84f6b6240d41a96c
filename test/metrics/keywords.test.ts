import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { findKeywords } from '../../src/metrics/keywords.js'

describe('findKeywords', () => {
  test('reports found and missing keywords in the order given', () => {
    expect(findKeywords('Paris is the capital of France.', ['France', 'Berlin', 'Paris'])).toEqual({ found: ['France', 'Paris'], missing: ['Berlin'] })
  })

  test('ignores case', () => {
    expect(findKeywords('THE EIFFEL TOWER', ['eiffel tower']).found).toEqual(['eiffel tower'])
  })

  test('ignores case outside ASCII', () => {
    expect(findKeywords('ÉCOLE NORMALE', ['école']).found).toEqual(['école'])
  })

  test('matches whole words only', () => {
    expect(findKeywords('We threw a party.', ['art']).missing).toEqual(['art'])
  })

  test('does not match inside a word that goes on with a letter of another script', () => {
    expect(findKeywords('Zürichsee', ['Zürich']).missing).toEqual(['Zürich'])
  })

  test('matches next to punctuation', () => {
    expect(findKeywords('It is in (Zürich).', ['Zürich']).found).toEqual(['Zürich'])
  })

  test('treats digits and underscores as word characters', () => {
    expect(findKeywords('version 2024 and snake_case', ['202', 'snake']).missing).toEqual(['202', 'snake'])
  })

  test('does not match a prefix of a word that continues with a combining mark', () => {
    expect(findKeywords('cafe\u0301', ['cafe']).missing).toEqual(['cafe'])
  })

  test('compares texts in NFC, so composed and decomposed accents match', () => {
    expect(findKeywords('un cafe\u0301 noir', ['café']).found).toEqual(['café'])
  })

  test('matches a multi-word keyword across any run of whitespace', () => {
    expect(findKeywords('born in New\n   York', ['new york']).found).toEqual(['new york'])
  })

  test('matches a multi-word keyword given with irregular spacing', () => {
    expect(findKeywords('born in New York', ['  New \t York ']).found).toEqual(['  New \t York '])
  })

  test('takes "C++" literally, with a boundary before the C only', () => {
    expect(findKeywords('Written in C++, not C.', ['C++'])).toEqual({ found: ['C++'], missing: [] })
  })

  test('does not find "C++" inside "ABC++"', () => {
    expect(findKeywords('ABC++', ['C++']).missing).toEqual(['C++'])
  })

  test('takes "$7.80" literally', () => {
    expect(findKeywords('It costs $7.80 a month.', ['$7.80']).found).toEqual(['$7.80'])
  })

  test('does not find "$7.80" in "$7.805" or "$7x80"', () => {
    expect(findKeywords('$7.805 and $7x80', ['$7.80']).missing).toEqual(['$7.80'])
  })

  test('takes every other regex metacharacter literally', () => {
    const keyword = 'a.b*c?(d)[e]{f}|g^h\\i/j-k'
    expect(findKeywords(`x ${keyword} y`, [keyword]).found).toEqual([keyword])
  })

  test('finds any keyword, whatever characters it holds, when it stands between spaces', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1 }), (keyword) => {
        fc.pre(keyword.trim() !== '')
        return findKeywords(`x ${keyword} y`, [keyword]).found.length === 1
      }),
      { numRuns: 500 },
    )
  })

  test('never throws on any text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => Array.isArray(findKeywords(text, ['C++', '$7.80', 'new york']).missing)))
  })

  test('reports an exact duplicate keyword once', () => {
    expect(findKeywords('Paris', ['Paris', 'Paris', 'Rome', 'Rome'])).toEqual({ found: ['Paris'], missing: ['Rome'] })
  })

  test('returns nothing for an empty keyword list', () => {
    expect(findKeywords('anything', [])).toEqual({ found: [], missing: [] })
  })

  test('finds nothing in an empty text', () => {
    expect(findKeywords('', ['Paris']).missing).toEqual(['Paris'])
  })

  test('throws a RangeError for an empty keyword, which would match any text', () => {
    expect(() => findKeywords('text', ['ok', '  '])).toThrow(
      new RangeError(
        '[expect-llm] Failed to find keywords: the keyword "  " is empty, so it would be found in any text. Remove it, or give the word you mean.',
      ),
    )
  })

  test('throws a TypeError when the text is not a string', () => {
    expect(() => findKeywords(42 as unknown as string, ['a'])).toThrow(
      new TypeError('[expect-llm] Failed to find keywords: the text must be a string, got a number (42). Pass the text as a string.'),
    )
  })

  test('throws a TypeError when the keywords are not an array', () => {
    expect(() => findKeywords('text', 'Paris' as unknown as string[])).toThrow(
      new TypeError(
        `[expect-llm] Failed to find keywords: the keywords must be an array of strings, got a string ("Paris"). Pass them as an array, e.g. ['Paris', 'Eiffel Tower'].`,
      ),
    )
  })

  test('throws a TypeError when a keyword is not a string', () => {
    expect(() => findKeywords('text', [1 as unknown as string])).toThrow(
      new TypeError('[expect-llm] Failed to find keywords: every keyword must be a string, got a number (1). Pass the keywords as strings.'),
    )
  })
})
