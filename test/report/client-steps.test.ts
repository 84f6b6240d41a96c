// The pure steps of the report page's script (src/report/client/steps.ts).
import { describe, expect, test } from 'vitest'
import { verdictChangesBetween } from '../../src/report/client/steps.js'

describe('verdictChangesBetween', () => {
  test('now failing first, then now passing, then added or removed, each by id; with the counts', () => {
    const ids = ['e', 'd', 'c', 'b', 'a', 'z']
    // e: p→f, d: f→p, c: -→p (added), b: p→- (removed), a: p→e, z: unchanged.
    expect(verdictChangesBetween(ids, 'pf-ppp', 'fpp-ep')).toEqual({
      changed: [
        { id: 'a', before: 'p', after: 'e' },
        { id: 'e', before: 'p', after: 'f' },
        { id: 'c', before: '-', after: 'p' },
        { id: 'd', before: 'f', after: 'p' },
        { id: 'b', before: 'p', after: '-' },
      ],
      nowFailing: 2,
      nowPassing: 1,
    })
  })

  test('a verdict string shorter than the ids reads as not in the run', () => {
    expect(verdictChangesBetween(['a', 'b'], 'p', 'pp').changed).toEqual([{ id: 'b', before: '-', after: 'p' }])
  })

  test('no change', () => {
    expect(verdictChangesBetween(['a'], 'p', 'p')).toEqual({ changed: [], nowFailing: 0, nowPassing: 0 })
  })
})
