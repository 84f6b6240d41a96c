import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { codePointLength, codePoints, isPyWhitespace, pyRstrip, pySplit } from '../../src/metrics/text.js'

// Python's str.isspace() set, written out independently of the implementation (reference README 4.1).
const PYTHON_WHITESPACE = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008,
  0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]

describe('isPyWhitespace', () => {
  test('is true for exactly the 29 characters of Python str.isspace() in the BMP', () => {
    const found: number[] = []
    for (let unit = 0; unit <= 0xffff; unit++) if (isPyWhitespace(String.fromCharCode(unit))) found.push(unit)
    expect(found).toEqual(PYTHON_WHITESPACE)
  })

  test('U+001C..U+001F and U+0085 are whitespace, unlike in JavaScript \\s', () => {
    for (const char of ['\u001c', '\u001f', '\u0085']) {
      expect(isPyWhitespace(char)).toBe(true)
      expect(/\s/.test(char)).toBe(false)
    }
  })

  test('U+FEFF and U+200B are not whitespace', () => {
    expect(isPyWhitespace('\uFEFF')).toBe(false)
    expect(isPyWhitespace('\u200B')).toBe(false)
  })

  test('is false for strings that are not one character', () => {
    expect(isPyWhitespace('')).toBe(false)
    expect(isPyWhitespace('  ')).toBe(false)
  })
})

describe('pySplit', () => {
  test('the empty string gives no tokens (JavaScript split gives [""])', () => {
    expect(pySplit('')).toEqual([])
  })

  test('whitespace only gives no tokens', () => {
    expect(pySplit(' \t\r\n\u00a0\u3000')).toEqual([])
  })

  test('splits on runs and drops leading and trailing whitespace', () => {
    expect(pySplit('  one \t two\n\nthree  ')).toEqual(['one', 'two', 'three'])
  })

  test('splits on U+0085 (NEL) and U+001E', () => {
    expect(pySplit('a\u0085b\u001ec')).toEqual(['a', 'b', 'c'])
  })

  test('keeps U+FEFF and U+200B inside tokens', () => {
    expect(pySplit('\uFEFFRefill the\u200Bkettle')).toEqual(['\uFEFFRefill', 'the\u200Bkettle'])
  })

  test('keeps astral characters whole', () => {
    expect(pySplit('🚆 👏🏽')).toEqual(['🚆', '👏🏽'])
  })

  test('agrees with a character-by-character reference split on random strings', () => {
    const alphabet = fc.constantFrom('a', 'b', ' ', '\t', '\u0085', '\u00a0', '\u200b', '\ufeff', '\u3000', '😀', '\u001c')
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 30 }), (chars) => {
        const tokens: string[] = []
        let current = ''
        for (const char of chars) {
          if (PYTHON_WHITESPACE.includes(char.codePointAt(0) as number)) {
            if (current !== '') tokens.push(current)
            current = ''
          } else current += char
        }
        if (current !== '') tokens.push(current)
        expect(pySplit(chars.join(''))).toEqual(tokens)
      }),
    )
  })
})

describe('pyRstrip', () => {
  test('strips trailing Python whitespace including U+0085', () => {
    expect(pyRstrip('Done.\u0085 \n\t')).toBe('Done.')
  })

  test('keeps leading whitespace', () => {
    expect(pyRstrip('  x  ')).toBe('  x')
  })

  test('keeps a trailing U+FEFF', () => {
    expect(pyRstrip('Done.\uFEFF')).toBe('Done.\uFEFF')
  })

  test('whitespace only becomes empty', () => {
    expect(pyRstrip(' \u3000 ')).toBe('')
  })

  // Quadratic regex backtracking would take minutes on this input; the test's timeout catches it.
  test('handles a long whitespace run that is not at the end (no regex backtracking)', { timeout: 5000 }, () => {
    const text = `${' '.repeat(200_000)}b`
    expect(pyRstrip(text)).toBe(text)
  })
})

describe('codePoints and codePointLength', () => {
  test('an emoji is one code point but two UTF-16 units', () => {
    expect('🚆'.length).toBe(2)
    expect(codePoints('🚆')).toEqual(['🚆'])
    expect(codePointLength('🚆')).toBe(1)
  })

  test('a skin-tone emoji is two code points', () => {
    expect(codePointLength('👏🏽')).toBe(2)
  })

  test('a lone surrogate counts as one code point', () => {
    expect(codePointLength('a\ud800b')).toBe(3)
    expect(codePointLength('\udc00\ud800')).toBe(2)
  })

  test('codePointLength equals codePoints().length on random strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(codePointLength(s)).toBe(codePoints(s).length)
      }),
    )
  })
})

describe('codePointLength with lone surrogates (Python len counts each as one)', () => {
  test('only a high surrogate followed by a low one makes one code point', () => {
    expect(codePointLength('\ud800\udc00')).toBe(1)
    expect(codePointLength('a\udc00')).toBe(2)
    expect(codePointLength('\udc00\udc00')).toBe(2)
    expect(codePointLength('\ud800\ud800')).toBe(2)
    expect(codePointLength('\udbff\udfff')).toBe(1)
    expect(codePointLength('\ud800\ue000')).toBe(2) // U+E000 lies just above the low surrogates
  })
})
