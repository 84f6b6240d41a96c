// The named steps of TER's shift search (src/metrics/ter.ts bestShift): the alignment of a trace and Tercom's ranking.
import { describe, expect, test } from 'vitest'
import { ranksAbove, traceErrors } from '../../src/metrics/ter.js'

// Trace operations, as BeamEditDistance writes them: 0 match, 1 substitution, 2 deletion (a hypothesis
// word), 3 insertion (a reference word).
describe('traceErrors', () => {
  test('matches align, a substitution marks both sides, deletion and insertion swap roles', () => {
    // hyp: a X b c   ref: a Y b d c   trace: match, sub, match, insert (ref d), match ... then an extra hyp word.
    const { align, refErr, hypErr } = traceErrors([0, 1, 0, 3, 0, 2], 5, 5)
    expect([...align]).toEqual([0, 1, 2, 2, 3])
    expect([...refErr]).toEqual([0, 1, 0, 1, 0])
    expect([...hypErr]).toEqual([0, 1, 0, 0, 1])
  })
})

describe('ranksAbove', () => {
  const shift = (delta: number, length: number, start: number, idx: number) => ({ delta, length, start, idx })

  test('most edits saved, then longest, then earliest start, then earliest target', () => {
    expect(ranksAbove(shift(2, 1, 5, 5), shift(1, 9, 0, 0))).toBe(true)
    expect(ranksAbove(shift(1, 3, 5, 5), shift(1, 2, 0, 0))).toBe(true)
    expect(ranksAbove(shift(1, 2, 1, 9), shift(1, 2, 2, 0))).toBe(true)
    expect(ranksAbove(shift(1, 2, 1, 3), shift(1, 2, 1, 4))).toBe(true)
  })

  test('an equal shift does not replace the one found first', () => {
    expect(ranksAbove(shift(1, 2, 1, 3), shift(1, 2, 1, 3))).toBe(false)
  })
})
