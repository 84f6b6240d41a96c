// The pure steps of the report page's script (src/report/client/steps.ts).
import { describe, expect, test } from 'vitest'
import type { PageCompare } from '../../src/report/page-types.js'
import { compareRowMatches, mcnemarLine, pageWindow, pairIntervalRows, scoreDelta, sortedRows, verdictChangesBetween } from '../../src/report/client/steps.js'

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

type Row = PageCompare['rows'][number]
const row = (over: Partial<Row> = {}): Row => ({
  id: 'Q-7',
  input: 'Where is my Parcel?',
  tags: [],
  outputs: { v1: 'In Transit', v2: null },
  pass: { v1: true, v2: false },
  scores: { v1: { rougeL: 0.25 }, v2: { rougeL: 0.75, exact: 1 } },
  details: {},
  differs: false,
  ...over,
})

describe('scoreDelta', () => {
  test("the second variant's score minus the first's", () => {
    expect(scoreDelta(row(), 'v1', 'v2', 'rougeL')).toBe(0.5)
  })

  test('null when either variant has no score for the check', () => {
    expect(scoreDelta(row(), 'v1', 'v2', 'exact')).toBeNull()
    expect(scoreDelta(row(), 'v2', 'v1', 'exact')).toBeNull()
  })
})

describe('compareRowMatches', () => {
  test('everything with no query and no differing filter', () => {
    expect(compareRowMatches(row(), '', false)).toBe(true)
  })

  test('only the cases that differ when asked', () => {
    expect(compareRowMatches(row(), '', true)).toBe(false)
    expect(compareRowMatches(row({ differs: true }), '', true)).toBe(true)
  })

  test('a (lower-case) query found in the id, the input or an output', () => {
    expect(compareRowMatches(row(), 'q-7', false)).toBe(true)
    expect(compareRowMatches(row(), 'parcel', false)).toBe(true)
    expect(compareRowMatches(row(), 'transit', false)).toBe(true)
    expect(compareRowMatches(row(), 'refund', false)).toBe(false)
  })
})

describe('pairIntervalRows', () => {
  test("each check's paired difference against one variant; checks without that pair are left out", () => {
    const pair = { a: 'v1', b: 'v2', cases: 3, meanDiff: 0.1, low: -0.05, high: 0.2, confidence: 0.95, wins: 2, ties: 0, losses: 1 }
    const scorers = [
      { name: 'rougeL', means: {}, pairs: [pair] },
      { name: 'exact', means: {}, pairs: [{ ...pair, b: 'v3' }] },
    ]
    expect(pairIntervalRows(scorers, 'v2')).toEqual([{ label: 'rougeL', diff: 0.1, low: -0.05, high: 0.2 }])
  })
})

describe('mcnemarLine', () => {
  test('exact binomial with a fixed-point p-value', () => {
    expect(mcnemarLine({ a: 'v1', b: 'v2', aOnly: 1, bOnly: 4, pValue: 0.375, method: 'exact' })).toBe(
      'McNemar v2 vs v1: 5 discordant (v1 only 1, v2 only 4), p = 0.3750 (exact binomial)',
    )
  })

  test('chi-square with a tiny p-value in exponent form', () => {
    expect(mcnemarLine({ a: 'v1', b: 'v2', aOnly: 3, bOnly: 60, pValue: 0.00001234, method: 'chi-square', statistic: 49.8 })).toBe(
      'McNemar v2 vs v1: 63 discordant (v1 only 3, v2 only 60), p = 1.23e-5 (chi-square)',
    )
  })
})

describe('sortedRows', () => {
  const rows = [
    { id: 'a', n: 2 },
    { id: 'b', n: 1 },
    { id: 'c', n: 2 },
    { id: 'd', n: 0 },
  ]
  test('ascending, equal keys in their original order', () => {
    expect(sortedRows(rows, (r) => r.n, 1).map((r) => r.id)).toEqual(['d', 'b', 'a', 'c'])
  })

  test('descending, equal keys still in their original order', () => {
    expect(sortedRows(rows, (r) => r.n, -1).map((r) => r.id)).toEqual(['a', 'c', 'b', 'd'])
  })

  test('string keys; the input is left as it was', () => {
    expect(sortedRows(rows, (r) => r.id, -1).map((r) => r.id)).toEqual(['d', 'c', 'b', 'a'])
    expect(rows.map((r) => r.id)).toEqual(['a', 'b', 'c', 'd'])
  })
})

describe('pageWindow', () => {
  test('the page asked for, its first row and its end', () => {
    expect(pageWindow(120, 1, 50)).toEqual({ pages: 3, page: 1, start: 50, end: 100 })
  })

  test('a page past the last (after filtering) becomes the last', () => {
    expect(pageWindow(120, 7, 50)).toEqual({ pages: 3, page: 2, start: 100, end: 150 })
  })

  test('no rows: one empty page', () => {
    expect(pageWindow(0, 3, 25)).toEqual({ pages: 1, page: 0, start: 0, end: 25 })
  })
})
