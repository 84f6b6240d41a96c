import { describe, expect, test } from 'vitest'
import { measureLength } from '../../src/metrics/length.js'

describe('measureLength', () => {
  test('counts whitespace-separated words, punctuation attached', () => {
    expect(measureLength('Yes, sir. It is done.').words).toBe(5)
  })

  test('counts any run of whitespace, line breaks included, as one separator', () => {
    expect(measureLength('  one\n\n two\t three  ').words).toBe(3)
  })

  test('splits on Python whitespace that JavaScript does not trim (U+0085, U+001F)', () => {
    expect(measureLength('a\u0085b\u001fc').words).toBe(3)
  })

  test('does not split on U+FEFF, which Python keeps as a character', () => {
    expect(measureLength('a\ufeffb').words).toBe(1)
  })

  test('counts no words in an empty or blank text', () => {
    expect([measureLength('').words, measureLength(' \n ').words]).toEqual([0, 0])
  })

  test('counts characters in code points, not UTF-16 units', () => {
    expect(measureLength('Ship 🚢').chars).toBe(6)
  })

  test('counts whitespace as characters', () => {
    expect(measureLength(' a ').chars).toBe(3)
  })

  test('throws a TypeError when the text is not a string', () => {
    expect(() => measureLength(undefined as unknown as string)).toThrow(
      new TypeError('[expect-llm] Failed to measure the length: the text must be a string, got undefined. Pass the text as a string.'),
    )
  })
})
