import { describe, expect, test } from 'vitest'
import { closestName, didYouMean } from '../src/suggest.js'

describe('closestName', () => {
  test('the same name in another case', () => expect(closestName('baseUrl', ['model', 'baseURL'])).toBe('baseURL'))
  test('one edit away', () => expect(closestName('host', ['mode', 'hosts'])).toBe('hosts'))
  test('two edits away (a swap of two letters)', () => expect(closestName('inptu', ['id', 'input', 'expected'])).toBe('input'))
  test('the nearest of several', () => expect(closestName('treshold', ['threshold', 'thresholds'])).toBe('threshold'))
  test('a prefix of a longer name', () => expect(closestName('ignoreBody', ['ignoreBodyFields', 'mode'])).toBe('ignoreBodyFields'))
  test('nothing close', () => expect(closestName('colour', ['mode', 'hosts'])).toBeUndefined())
  test('short names allow one edit only', () => expect(closestName('ab', ['id'])).toBeUndefined())
})

describe('didYouMean', () => {
  test('names the suggestion with its prefix', () => expect(didYouMean('host', ['hosts'], 'replay.')).toBe(' (did you mean "replay.hosts"?)'))
  test('is empty without one', () => expect(didYouMean('zzz', ['hosts'])).toBe(''))
})
