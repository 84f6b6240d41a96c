import { describe, expect, test } from 'vitest'
import { fmt, preview, tokenDiff, tokenList } from '../../matchers/utils.js'

describe('tokenDiff', () => {
  test('lists reference tokens missing from the output and output tokens not in the reference', () => {
    expect(tokenDiff(['wait', '30', 'days', 'refund'], ['refund', 'within', '30', 'days'])).toEqual({ missing: ['within'], extra: ['wait'] })
  })

  test('counts repeated tokens as a multiset', () => {
    expect(tokenDiff(['mix'], ['mix', 'well', 'mix', 'well'])).toEqual({ missing: ['mix', 'well', 'well'], extra: [] })
  })

  test('is empty for identical token lists', () => {
    expect(tokenDiff(['a', 'b'], ['b', 'a'])).toEqual({ missing: [], extra: [] })
  })
})

describe('tokenList', () => {
  test('quotes tokens and caps the list', () => {
    expect(tokenList('Missing', ['a', 'b', 'c'], 2)).toBe('Missing (3): "a", "b" … and 1 more')
  })

  test('says none for an empty list', () => {
    expect(tokenList('Missing', [])).toBe('Missing: none')
  })
})

describe('preview', () => {
  test('shows short texts whole, newlines as ⏎', () => {
    expect(preview('a\nb')).toBe('"a⏎b"')
  })

  test('cuts long texts in the middle and gives the length in characters', () => {
    const text = `${'a'.repeat(100)}${'z'.repeat(100)}`
    expect(preview(text, 10)).toBe('"aaaaaa" … "zzzz" (200 characters)')
  })

  test('never splits a surrogate pair', () => {
    expect(preview('🚆'.repeat(20), 10)).toBe(`"${'🚆'.repeat(6)}" … "${'🚆'.repeat(4)}" (20 characters)`)
  })
})

describe('fmt', () => {
  test('rounds to 4 decimals without trailing zeros', () => {
    expect([fmt(0.333333), fmt(0.5), fmt(1), fmt(1.0000000000000004)]).toEqual(['0.3333', '0.5', '1', '1'])
  })
})
