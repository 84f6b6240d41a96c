// The pure steps of the report page's charts and tables (src/report/client/steps.ts) that trendChart,
// dataGrid, casesTable and mutationSection of app.ts draw from. Coordinates are in the trend chart's SVG
// units: a 360 × 170 view box, margins left 34, right 12, top 14, bottom 30 (a 314 × 126 plot).
import { describe, expect, test } from 'vitest'
import {
  ariaSort,
  caseMatches,
  caseShowOptions,
  fmtScore,
  mutantsPassedText,
  mutationMeta,
  mutationSkippedText,
  nextSort,
  plural,
  suiteKeyOfHash,
  trendCaption,
  trendPath,
  trendTicks,
  trendX,
  trendY,
} from '../../src/report/client/steps.js'
import type { PageCase, PageGolden } from '../../src/report/page-types.js'

describe('fmtScore and plural', () => {
  test('no score, 1 and 0 bare, else two decimals', () => {
    expect([fmtScore(null), fmtScore(undefined), fmtScore(1), fmtScore(0), fmtScore(0.125)]).toEqual(['–', '–', '1', '0', '0.13'])
  })

  test('singular for one, thousands separators', () => {
    expect([plural(1, 'run'), plural(0, 'run'), plural(1200, 'error')]).toEqual(['1 run', '0 runs', '1,200 errors'])
  })
})

describe('trendX and trendY', () => {
  test('runs spread over the plot; a single run in its middle', () => {
    expect([trendX(0, 3), trendX(1, 3), trendX(2, 3)]).toEqual([34, 191, 348])
    expect(trendX(0, 1)).toBe(191)
  })

  test('scores from the bottom (0) to the top (1) of the plot, clamped', () => {
    expect([trendY(0), trendY(0.5), trendY(1)]).toEqual([140, 77, 14])
    expect([trendY(-0.2), trendY(1.5)]).toEqual([140, 14])
  })
})

describe('trendPath', () => {
  test('a run without a value breaks the line; the next value starts it again', () => {
    expect(trendPath([0.5, null, 1, 0], 4)).toBe('M34.0,77.0M243.3,14.0L348.0,140.0')
  })

  test('no values: an empty path', () => {
    expect(trendPath([null, null], 2)).toBe('')
  })
})

describe('trendTicks', () => {
  test('about six labels, always the last; the first anchored at its start and the last at its end', () => {
    const labels = Array.from({ length: 14 }, (_, i) => `r${i}`)
    expect(trendTicks(labels)).toEqual([
      { i: 0, label: 'r0', anchor: 'start' },
      { i: 3, label: 'r3', anchor: 'middle' },
      { i: 6, label: 'r6', anchor: 'middle' },
      { i: 9, label: 'r9', anchor: 'middle' },
      { i: 12, label: 'r12', anchor: 'middle' },
      { i: 13, label: 'r13', anchor: 'end' },
    ])
  })

  test('a single run is centred', () => {
    expect(trendTicks(['abc1234'])).toEqual([{ i: 0, label: 'abc1234', anchor: 'middle' }])
  })
})

describe('trendCaption', () => {
  test('one series: its value at the run shown, else its last value', () => {
    expect(trendCaption('pass rate', 3, [{ name: 'pass rate', values: [0.5, 1, null] }], [], 2)).toBe('pass rate over 3 runs: now 1.')
    expect(trendCaption('pass rate', 3, [{ name: 'pass rate', values: [0.5, 1, 0.75] }], [], 0)).toBe('pass rate over 3 runs: now 0.50.')
  })

  test('several series are named; reference lines follow; a series without values shows a dash', () => {
    const series = [
      { name: 'v1', values: [0.25] },
      { name: 'v2', values: [null] },
    ]
    const refs = [{ label: 'threshold 0.50', value: 0.5, kind: 'threshold' as const }]
    expect(trendCaption('mean rougeL', 1, series, refs, 0)).toBe('mean rougeL over 1 run: v1 now 0.25, v2 now –; threshold 0.50.')
  })
})

describe('nextSort and ariaSort', () => {
  test('the same column flips its direction; another column sorts ascending', () => {
    expect(nextSort({ key: 'id', dir: 1 }, 'id')).toEqual({ key: 'id', dir: -1 })
    expect(nextSort({ key: 'id', dir: -1 }, 'id')).toEqual({ key: 'id', dir: 1 })
    expect(nextSort({ key: 'id', dir: -1 }, 'latency')).toEqual({ key: 'latency', dir: 1 })
  })

  test('only the sorted column has a direction', () => {
    expect(ariaSort({ key: 'id', dir: 1 }, 'id')).toBe('ascending')
    expect(ariaSort({ key: 'id', dir: -1 }, 'id')).toBe('descending')
    expect(ariaSort({ key: 'id', dir: 1 }, 'latency')).toBe('none')
  })
})

describe('caseMatches', () => {
  const c = (over: Partial<PageCase>): PageCase => ({
    id: 'A17',
    tags: ['billing'],
    status: 'pass',
    flaky: false,
    regressed: false,
    runs: 1,
    passes: 1,
    input: 'Where is my Parcel?',
    output: 'In Transit',
    scores: {},
    latencyMs: 10,
    ...over,
  })
  const all = { show: 'all', tag: '', query: '' }

  test('each "show" choice', () => {
    expect(caseMatches(c({}), all)).toBe(true)
    expect(caseMatches(c({}), { ...all, show: 'failures' })).toBe(false)
    expect(caseMatches(c({ status: 'error' }), { ...all, show: 'failures' })).toBe(true)
    expect(caseMatches(c({ status: 'fail' }), { ...all, show: 'regressions' })).toBe(false)
    expect(caseMatches(c({ status: 'fail', regressed: true }), { ...all, show: 'regressions' })).toBe(true)
    expect(caseMatches(c({}), { ...all, show: 'flaky' })).toBe(false)
    expect(caseMatches(c({ flaky: true }), { ...all, show: 'flaky' })).toBe(true)
    expect(caseMatches(c({ status: 'fail' }), { ...all, show: 'errored' })).toBe(false)
    expect(caseMatches(c({ status: 'error' }), { ...all, show: 'errored' })).toBe(true)
  })

  test('a tag the case has', () => {
    expect(caseMatches(c({}), { ...all, tag: 'billing' })).toBe(true)
    expect(caseMatches(c({}), { ...all, tag: 'refunds' })).toBe(false)
  })

  test('a lower-case query in the id, the input or the output', () => {
    expect(['a17', 'parcel', 'transit', 'refund'].map((query) => caseMatches(c({}), { ...all, query }))).toEqual([true, true, true, false])
    expect(caseMatches(c({ output: null }), { ...all, query: 'transit' })).toBe(false)
  })
})

describe('caseShowOptions', () => {
  test('each choice with its count', () => {
    const suite = { cases: new Array(1200).fill(null), summary: { failed: 3, regressed: 1, flaky: 0, errored: 2 } } as unknown as PageGolden
    expect(caseShowOptions(suite)).toEqual([
      ['all', 'all (1,200)'],
      ['failures', 'failures (3)'],
      ['regressions', 'regressions (1)'],
      ['flaky', 'flaky (0)'],
      ['errored', 'errored (2)'],
    ])
  })
})

describe('mutation section steps', () => {
  const check = { name: 'rougeL', mutants: 1200, rejected: 1100, score: 0.92, blindTo: [], errors: 0, gate: true }

  test('the mutants a check let pass, with its errors', () => {
    expect(mutantsPassedText(check)).toBe('100 of 1,200')
    expect(mutantsPassedText({ ...check, errors: 1 })).toBe('100 of 1,200 (1 error)')
    expect(mutantsPassedText({ ...check, errors: 3 })).toBe('100 of 1,200 (3 errors)')
  })

  test('the settings line, with the minimum score when there is a gate', () => {
    expect(mutationMeta({ seed: 7, operators: ['negate', 'swap-numbers'], minScore: 0.8 })).toBe('seed 7 · operators negate, swap-numbers · minScore 0.80')
    expect(mutationMeta({ seed: 7, operators: ['negate'], minScore: null })).toBe('seed 7 · operators negate')
  })

  test('the checks skipped, with why; none skipped: no line', () => {
    expect(
      mutationSkippedText([
        { check: 'judge', reason: 'no model' },
        { check: 'semantic', reason: 'no embedder' },
      ]),
    ).toBe('Skipped: judge (no model); semantic (no embedder).')
    expect(mutationSkippedText([])).toBeNull()
  })
})

describe('suiteKeyOfHash', () => {
  test('the key a #suite= address names, decoded; none otherwise', () => {
    expect(suiteKeyOfHash('#suite=test%2Fbot.test.ts%23support')).toBe('test/bot.test.ts#support')
    expect(suiteKeyOfHash('#main')).toBe('')
    expect(suiteKeyOfHash('')).toBe('')
  })
})
