// The pure steps that build a golden report's summary, options, ledger slice and shard latencies
// (the other steps of the suite's end are in aggregate.test.ts).
import { describe, expect, test } from 'vitest'
import { consoleSummary, reportCases, reportOptions, reportSummary, runLatencies, suiteLedgerEntries, usageSummary } from '../../src/golden/aggregate.js'
import { formatGoldenSummary, type GoldenReport } from '../../src/golden/report.js'
import type { CaseResult, CaseRun } from '../../src/golden/run.js'

function run(output: string | undefined, latencyMs = 100): CaseRun {
  return {
    ...(output === undefined ? { error: 'boom' } : { output }),
    scores: {},
    pass: output !== undefined,
    latencyMs,
    latencySource: 'measured',
    usage: { calls: 1, inputTokens: 10, outputTokens: 5, costUsd: 0.001, models: ['m'] },
  } as CaseRun
}
function result(id: string, over: Partial<CaseResult> = {}): CaseResult {
  return { c: { id, input: `q ${id}` }, runs: [run(`out ${id}`)], passes: 1, pass: true, flaky: false, scores: {}, errored: false, ...over }
}

describe('suiteLedgerEntries', () => {
  test('keeps the entries from the start on, without the range of the mutation run', () => {
    expect(suiteLedgerEntries(['a', 'b', 'c', 'd', 'e', 'f'], 1, [2, 4])).toEqual(['b', 'e', 'f'])
  })

  test('without a mutation run keeps everything from the start', () => {
    expect(suiteLedgerEntries(['a', 'b', 'c'], 2, undefined)).toEqual(['c'])
  })
})

describe('reportSummary', () => {
  test('counts passed, failed, errored and flaky cases, and the cases filtered out', () => {
    const ran = [result('a'), result('b', { pass: false, flaky: true }), result('c', { pass: false, errored: true })]
    expect(reportSummary(ran, 4, 6, 4)).toEqual({ cases: 4, ran: 3, filteredOut: 2, passed: 1, failed: 2, errored: 1, passRate: 1 / 3, flaky: 1 })
  })

  test('the pass rate of a suite where nothing ran is null, not 0', () => {
    expect(reportSummary([], 0, 0, 0).passRate).toBeNull()
  })
})

describe('reportOptions', () => {
  const run = { repeat: 3, passAt: 2, concurrency: 4, thresholds: { rougeL: 0.5, judge: null } }

  test('records how the suite ran and leaves out the aggregate options it was not given', () => {
    expect(reportOptions({}, run)).toEqual({ repeat: 3, passAt: 2, concurrency: 4, scorers: { rougeL: 0.5, judge: null } })
  })

  test('writes baseline: true out with its default tolerance, and keeps a given tolerance', () => {
    expect(reportOptions({ baseline: true }, run).baseline).toEqual({ tolerance: 0.05 })
    expect(reportOptions({ baseline: { tolerance: 0.1 } }, run).baseline).toEqual({ tolerance: 0.1 })
    expect(reportOptions({ baseline: false }, run)).not.toHaveProperty('baseline')
  })

  test('keeps thresholds and budget as given', () => {
    const out = reportOptions({ thresholds: { passRate: 0.9 }, budget: { maxCostUsd: 1 } }, run)
    expect(out.thresholds).toEqual({ passRate: 0.9 })
    expect(out.budget).toEqual({ maxCostUsd: 1 })
  })
})

test('runLatencies keeps, per case, the latency of each run that produced an output', () => {
  const ran = [result('a', { runs: [run('x', 10), run(undefined, 99), run('y', 30)] }), result('b', { runs: [run(undefined, 5)] })]
  expect(runLatencies(ran)).toEqual([[10, 30], []])
})

describe('consoleSummary', () => {
  const base = reportSummary([], 0, 0, 0)
  const report = {
    suite: 'qa',
    summary: base,
    options: reportOptions({}, { repeat: 1, passAt: 1, concurrency: 1, thresholds: {} }),
    cases: [],
    scorers: {},
    checks: [],
    baseline: null,
    usage: (() => {
      const { app, evaluator, total, latency } = usageSummary([], [])
      return { app, evaluator, total, latencyMs: latency }
    })(),
  } as unknown as GoldenReport

  test('is the report summary followed by the history lines', () => {
    const text = consoleSummary(report, undefined, undefined, ['history: run 3'])
    expect(text.split('\n')[0]).toBe('golden › qa (0 cases)')
    expect(text.endsWith('\nhistory: run 3')).toBe(true)
    expect(text.startsWith(formatGoldenSummary(report))).toBe(true)
  })

  test('shows at most maxCases cases and counts the others', () => {
    const withCases = { ...report, cases: reportCases([result('a'), result('b')]) }
    const text = consoleSummary(withCases, 1, undefined, [])
    expect(text).toBe(formatGoldenSummary(withCases, { maxCases: 1 }))
    expect(text).toContain('\n  … 1 more case (all passing): see the JSON report\n')
  })

  test('names the report file when one was written', () => {
    expect(consoleSummary(report, undefined, 'r/qa.json', [])).toBe(formatGoldenSummary(report, { reportFile: 'r/qa.json' }))
  })
})
