// Canonical JSON (src/replay/canonical.ts): the text a request key is hashed over. Two bodies that differ only
// in key order must give the same text; anything else (array order, values, nesting) must not.
import { describe, expect, test } from 'vitest'
import { canonicalJson, sortKeysDeep } from '../../src/replay/canonical.js'

describe('sortKeysDeep', () => {
  test('sorts object keys at every depth, inside arrays too, and keeps array order', () => {
    const sorted = sortKeysDeep({ b: 1, a: { d: [{ z: 1, y: 2 }, 3], c: null } })
    expect(JSON.stringify(sorted)).toBe('{"a":{"c":null,"d":[{"y":2,"z":1},3]},"b":1}')
  })

  test('drops undefined members of objects and turns undefined array items into null, as JSON does', () => {
    expect(sortKeysDeep({ a: undefined, b: [undefined, 1] })).toStrictEqual({ b: [null, 1] })
  })

  test('returns a copy: the input keeps its key order', () => {
    const input = { b: { y: 1, x: 2 }, a: 1 }
    sortKeysDeep(input)
    expect(Object.keys(input)).toEqual(['b', 'a'])
    expect(Object.keys(input.b)).toEqual(['y', 'x'])
  })

  test('primitives and null come back as they are', () => {
    for (const v of ['text', 0, false, null]) expect(sortKeysDeep(v)).toBe(v)
  })
})

describe('canonicalJson', () => {
  test('key order does not change the text; array order and values do', () => {
    const a = canonicalJson({ model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 0 })
    const b = canonicalJson({ temperature: 0, messages: [{ content: 'hi', role: 'user' }], model: 'm' })
    expect(a).toBe(b)
    expect(a).toBe('{"messages":[{"content":"hi","role":"user"}],"model":"m","temperature":0}')
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]))
  })
})
