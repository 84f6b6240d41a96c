import { describe, expect, test } from 'vitest'
import { assertString, assertStringOrStrings, describeValue, failWith, formatMessage, isFiniteNumber, isWholeNumber } from '../src/errors.js'

describe('formatMessage', () => {
  test('prefixes the library name', () => {
    expect(formatMessage('Failed to x: y. Do z.')).toBe('[expect-llm] Failed to x: y. Do z.')
  })
})

describe('describeValue', () => {
  test.each([
    [null, 'null'],
    [undefined, 'undefined'],
    [42, 'a number (42)'],
    [Number.NaN, 'a number (NaN)'],
    [[1, 2], 'an array (length 2)'],
    [{}, 'an object'],
    [true, 'a boolean (true)'],
    ['hi', 'a string ("hi")'],
  ])('describes %o as %s', (value, text) => {
    expect(describeValue(value)).toBe(text)
  })

  test('points at a forgotten await for a Promise', () => {
    expect(describeValue(Promise.resolve('x'))).toBe('a Promise (did you forget to await it?)')
  })

  test('shortens long strings', () => {
    expect(describeValue('x'.repeat(100))).toBe(`a string ("${'x'.repeat(40)}…")`)
  })
})

describe('isWholeNumber and isFiniteNumber (type guards for option checks)', () => {
  test('isWholeNumber: integers only, never a numeric string, a fraction or Infinity', () => {
    expect([0, -3, 7, 2 ** 53].map(isWholeNumber)).toEqual([true, true, true, true])
    expect(['3', 2.5, Number.NaN, Number.POSITIVE_INFINITY, null, undefined, true, [1], 3n].map(isWholeNumber)).toEqual(Array(9).fill(false))
  })

  test('isFiniteNumber: finite numbers only, never a numeric string, NaN or Infinity', () => {
    expect([0, -0.5, 1e308].map(isFiniteNumber)).toEqual([true, true, true])
    expect(['0.5', Number.NaN, Number.NEGATIVE_INFINITY, null, undefined, false, [1], 1n].map(isFiniteNumber)).toEqual(Array(8).fill(false))
  })
})

describe('assertString', () => {
  test('accepts a string', () => {
    expect(() => assertString('', 'candidate', 'compute ROUGE')).not.toThrow()
  })

  test('throws a TypeError naming the value, the action and the fix', () => {
    expect(() => assertString(42, 'candidate', 'compute ROUGE')).toThrow(
      new TypeError('[expect-llm] Failed to compute ROUGE: the candidate must be a string, got a number (42). Pass the candidate as a string.'),
    )
  })
})

describe('assertStringOrStrings', () => {
  test('accepts a string or a non-empty list of strings', () => {
    expect(() => assertStringOrStrings('a', 'reference', 'x')).not.toThrow()
    expect(() => assertStringOrStrings(['a', 'b'], 'reference', 'x')).not.toThrow()
  })

  test('rejects an empty list', () => {
    expect(() => assertStringOrStrings([], 'reference', 'compute token F1')).toThrow('got an empty array')
  })

  test('rejects a list with a non-string in it', () => {
    expect(() => assertStringOrStrings(['a', 3], 'reference', 'compute token F1')).toThrow('got an array with a number (3) in it')
  })
})

describe('failWith', () => {
  test('throws a TypeError in the library shape, with the action, reason and fix', () => {
    expect(() => failWith('use the judge')('"model" must be a string', 'Pass a model name.')).toThrow(
      new TypeError('[expect-llm] Failed to use the judge: "model" must be a string. Pass a model name.'),
    )
  })
})
