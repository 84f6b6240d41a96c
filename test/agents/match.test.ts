import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { argsCheck, isJsonSchemaArgs, matchSequence, repeatedCalls, type CallOrder, type ExtraCalls } from '../../src/agents/match.js'
import { jsonStringify } from '../../src/agents/format.js'
import type { ToolCallItem } from '../../src/agents/types.js'

/** Every way to pick `m` distinct indexes out of `n`, in order of the expected calls. */
function* injections(n: number, m: number, used: number[] = []): Generator<number[]> {
  if (used.length === m) {
    yield used
    return
  }
  for (let a = 0; a < n; a++) if (!used.includes(a)) yield* injections(n, m, [...used, a])
}

/** The definition of each mode, checked by brute force over every assignment. */
function oracle(n: number, m: number, matches: (a: number, e: number) => boolean, order: CallOrder, extra: ExtraCalls): boolean {
  if (extra === 'forbid' && n !== m) return false
  for (const assignment of injections(n, m)) {
    if (!assignment.every((a, e) => matches(a, e))) continue
    const increasing = assignment.every((a, e) => e === 0 || a > assignment[e - 1]!)
    const contiguous = assignment.every((a, e) => e === 0 || a === assignment[e - 1]! + 1)
    if (order === 'any' || (order === 'in-order' && increasing) || (order === 'strict' && contiguous)) return true
  }
  return false
}

describe('matchSequence', () => {
  test('agrees with the brute-force definition of every order and extra mode', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }),
        fc.constantFrom<CallOrder>('strict', 'in-order', 'any'),
        fc.constantFrom<ExtraCalls>('allow', 'forbid'),
        (n, m, cells, order, extra) => {
          const matches = (a: number, e: number): boolean => cells[a * 4 + e] ?? false
          const result = matchSequence(n, m, matches, order, extra)
          expect(result.pass).toBe(oracle(n, m, matches, order, extra))
          // Every expected and every actual call appears exactly once in the aligned rows.
          expect(
            result.rows
              .filter((r) => r.expected !== undefined)
              .map((r) => r.expected)
              .sort(),
          ).toEqual(Array.from({ length: m }, (_, e) => e))
          expect(result.rows.filter((r) => r.actual !== undefined).map((r) => r.actual)).toEqual(Array.from({ length: n }, (_, a) => a))
          expect(result.divergence === undefined).toBe(result.pass)
        },
      ),
      { numRuns: 3000 },
    )
  })

  test('in any order, a call taken by a looser expectation is handed over when a stricter one needs it', () => {
    // Expected: "lookupOrder with anything", then "lookupOrder for A1"; actual: lookupOrder(A1), lookupOrder(B2).
    const matches = (a: number, e: number): boolean => e === 0 || a === 0
    expect(matchSequence(2, 2, matches, 'any', 'forbid')).toMatchObject({ pass: true, assignment: [1, 0] })
  })

  test('in order, other calls between the expected ones are not errors unless extra calls are forbidden', () => {
    const matches = (a: number, e: number): boolean => (a === 0 && e === 0) || (a === 2 && e === 1)
    expect(matchSequence(3, 2, matches, 'in-order', 'allow').rows).toEqual([
      { expected: 0, actual: 0, status: 'match', error: false },
      { actual: 1, status: 'extra', error: false },
      { expected: 1, actual: 2, status: 'match', error: false },
    ])
    expect(matchSequence(3, 2, matches, 'in-order', 'forbid')).toMatchObject({ pass: false, divergence: 1 })
  })
})

describe('repeatedCalls', () => {
  const call = (name: string, args: unknown): ToolCallItem => ({ type: 'tool-call', name, arguments: args, step: 0 })

  test('groups identical calls, whatever the key order of their arguments', () => {
    expect(repeatedCalls([call('a', { x: 1, y: [1, { z: 2 }] }), call('b', {}), call('a', { y: [1, { z: 2 }], x: 1 })])).toEqual([[0, 2]])
  })

  test('calls with other arguments or another name are not repeats', () => {
    expect(repeatedCalls([call('a', { x: 1 }), call('a', { x: 2 }), call('b', { x: 1 }), call('a', { x: '1' })])).toEqual([])
  })
})

describe('argsCheck', () => {
  test('a JSON Schema is recognized by $schema, or by type "object" with properties', () => {
    expect(isJsonSchemaArgs({ type: 'object', properties: { a: { type: 'string' } } })).toBe(true)
    expect(isJsonSchemaArgs({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).toBe(true)
    expect(isJsonSchemaArgs({ type: 'object' })).toBe(false)
    expect(isJsonSchemaArgs({ properties: {} })).toBe(false)
  })

  test('expected values, even with an asymmetric matcher, are a partial match', () => {
    expect(argsCheck({ amount: expect.any(Number) }).kind).toBe('partial')
    expect(argsCheck(expect.objectContaining({ type: 'object', properties: {} })).kind).toBe('partial')
    expect(argsCheck(undefined).kind).toBe('any')
  })
})

describe('jsonStringify', () => {
  test('prints values on one line and asymmetric matchers as the runners do', () => {
    expect(jsonStringify({ id: 'A1', n: 2, tags: ['x'], nested: { ok: true, none: null } })).toBe(
      '{"id": "A1", "n": 2, "tags": ["x"], "nested": {"ok": true, "none": null}}',
    )
    expect(
      jsonStringify({ n: expect.any(Number), s: expect.stringMatching(/^A\d+$/), o: expect.objectContaining({ a: 1 }), c: expect.stringContaining('x') }),
    ).toBe('{"n": Any<Number>, "s": StringMatching /^A\\d+$/, "o": ObjectContaining {"a": 1}, "c": StringContaining "x"}')
    expect(jsonStringify(undefined)).toBe('undefined')
  })
})
