// The named step behind toCallTools' side-by-side view (callTable in src/agents/format.ts), on hand-made
// aligned rows with literal expected values.
import { describe, expect, test } from 'vitest'
import { callTable, MAX_EXPECTED_COLUMN } from '../../src/agents/format.js'
import { argsCheck, type CallPattern } from '../../src/agents/match.js'

const pattern = (name: string, args?: unknown): CallPattern => ({ name, args: args === undefined ? { kind: 'any' } : argsCheck(args) })
const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args })

describe('callTable', () => {
  test('matched, missing and extra rows; the divergence marked', () => {
    const table = callTable(
      {
        rows: [
          { expected: 0, actual: 0, status: 'match', error: false },
          { actual: 1, status: 'extra', error: true },
          { expected: 1, status: 'missing', error: true },
        ],
        divergence: 1,
      },
      [pattern('lookupOrder'), pattern('refundOrder', { amount: 30 })],
      [call('lookupOrder', { orderId: 'A17' }), call('sendEmail')],
    )
    expect(table).toEqual([
      '    expected                          actual',
      '    1  lookupOrder(…)                 1  lookupOrder({"orderId": "A17"})',
      '  >                                   2  sendEmail({})   (not expected)',
      '    2  refundOrder({"amount": 30})       (missing)',
    ])
  })

  test('a call between strictly ordered ones is noted; an allowed extra call is not', () => {
    const table = callTable(
      {
        rows: [
          { expected: 0, actual: 0, status: 'match', error: false },
          { actual: 1, status: 'extra', error: false, between: true },
          { actual: 2, status: 'extra', error: false },
        ],
        divergence: undefined,
      },
      [pattern('a')],
      [call('a'), call('b'), call('c')],
    )
    expect(table).toEqual([
      '    expected    actual',
      '    1  a(…)     1  a({})',
      "                2  b({})   (between expected calls: 'strict' allows none)",
      '                3  c({})',
    ])
  })

  test('numbers are right-aligned to the widest; long expected cells are cut to the column', () => {
    const patterns = Array.from({ length: 10 }, (_, i) => pattern(`tool${i}`))
    const rows = patterns.map((_, i) => ({ expected: i, status: 'missing' as const, error: true }))
    const table = callTable({ rows, divergence: 0 }, patterns, [])
    expect(table[1]).toBe('  >  1  tool0(…)        (missing)')
    expect(table[10]).toBe('    10  tool9(…)        (missing)')
    const long = callTable({ rows: [{ expected: 0, status: 'missing', error: true }], divergence: 0 }, [pattern('t', { text: 'x'.repeat(80) })], [])
    expect(MAX_EXPECTED_COLUMN).toBe(48)
    const cut = `t({"text": "${'x'.repeat(19)}…${'x'.repeat(10)}"})`
    expect(cut).toHaveLength(MAX_EXPECTED_COLUMN - 3)
    expect(long[1]).toBe(`  > 1  ${cut}       (missing)`)
  })
})
