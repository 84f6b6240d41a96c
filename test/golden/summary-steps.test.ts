// The pure steps of a golden suite's console summary (src/golden/report.ts formatGoldenSummary): title,
// the lines of a case, the hidden cases, the scorer table, pass rate and flaky cases, usage, baseline.
import { describe, expect, test } from 'vitest'
import {
  baselineLines,
  caseSummaryLines,
  type GoldenReport,
  hiddenCasesLine,
  passRateLines,
  type ReportCase,
  type ReportScorer,
  scorerTableLines,
  summaryTitle,
  type UsageTotals,
  usageLines,
} from '../../src/golden/report.js'

const reportCase = (over: Partial<ReportCase> = {}): ReportCase => ({
  id: 'A17',
  input: 'Where is order A17?',
  output: 'In transit',
  pass: true,
  runs: 1,
  passes: 1,
  flaky: false,
  scores: {},
  latencyMs: 120,
  usage: { inputTokens: 10, outputTokens: 4, costUsd: 0.001 },
  ...over,
})

const summary = (over: Partial<GoldenReport['summary']> = {}): GoldenReport['summary'] => ({
  cases: 3,
  ran: 3,
  filteredOut: 0,
  passed: 2,
  failed: 1,
  errored: 0,
  passRate: 2 / 3,
  flaky: 0,
  ...over,
})

const report = (over: Partial<GoldenReport> = {}): GoldenReport =>
  ({ suite: 'support', summary: summary(), options: { repeat: 1, passAt: 1, concurrency: 1, scorers: {} }, cases: [], ...over }) as GoldenReport

describe('summaryTitle', () => {
  test('one case, nothing filtered, no repeat', () => {
    expect(summaryTitle(report({ summary: summary({ ran: 1 }) }))).toBe('golden › support (1 case)')
  })

  test('cases filtered out and repeats', () => {
    const r = report({ summary: summary({ filteredOut: 2 }), options: { repeat: 3, passAt: 2, concurrency: 1, scorers: {} } })
    expect(summaryTitle(r)).toBe('golden › support (3 cases, 2 filtered out, repeat 3, passAt 2)')
  })
})

describe('caseSummaryLines', () => {
  test('a passing case: mark, id, scores, input and output', () => {
    const c = reportCase({ expected: 'In transit', scores: { exact: { score: 1, threshold: 1, pass: true } } })
    expect(caseSummaryLines(c)).toEqual(['  ✓ A17  exact 1', '      input:    Where is order A17?', '      expected: In transit', '      actual:   In transit'])
  })

  test('a failing flaky case shows its threshold, the detail of the failed score and the diagnosis', () => {
    const c = reportCase({
      pass: false,
      flaky: true,
      runs: 3,
      passes: 1,
      diagnosis: 'generation',
      scores: {
        rougeL: { score: 0.25, threshold: 0.5, pass: false, detail: 'missing "transit"' },
        recorded: { score: 0.4, threshold: null, pass: false },
      },
    })
    expect(caseSummaryLines(c)).toEqual([
      '  ✗ A17 (flaky 1/3)  rougeL 0.25<0.50  recorded 0.40',
      '      input:    Where is order A17?',
      '      actual:   In transit',
      '      rougeL: missing "transit"',
      '      diagnosis: the relevant documents were retrieved; the answer misused them',
    ])
  })

  test('an errored case: "!" mark, no output, the errors and the assert message', () => {
    const c = reportCase({ pass: false, output: null, runs: 2, passes: 0, error: 'a\nb', errors: ['the task threw: boom'], assertError: 'expected x' })
    expect(caseSummaryLines(c)).toEqual([
      '  ! A17 (0/2)  ',
      '      input:    Where is order A17?',
      '      actual:   (no output)',
      '      error: the task threw: boom',
      '      assert: expected x',
    ])
  })

  test('without `errors` the one-line `error` is shown; a retrieval diagnosis', () => {
    const lines = caseSummaryLines(reportCase({ pass: false, error: 'scorer judge failed: 429', diagnosis: 'retrieval' }))
    expect(lines.slice(3)).toEqual(['      diagnosis: retrieval missed the relevant documents', '      error: scorer judge failed: 429'])
  })
})

describe('hiddenCasesLine', () => {
  const order = [reportCase({ pass: false }), reportCase(), reportCase({ pass: false }), reportCase()]

  test('all shown: no line', () => {
    expect(hiddenCasesLine(order, 4)).toEqual([])
  })

  test('hidden cases with failures among them', () => {
    expect(hiddenCasesLine(order, 1)).toEqual(['  … 3 more cases (1 failing): see the JSON report'])
  })

  test('one hidden case, passing', () => {
    expect(hiddenCasesLine(order, 3)).toEqual(['  … 1 more case (all passing): see the JSON report'])
  })
})

describe('scorerTableLines', () => {
  const scorer = (over: Partial<ReportScorer>): ReportScorer =>
    ({ count: 4, mean: 0.5, min: 0, max: 1, threshold: 0.5, passRate: 0.75, ...over }) as ReportScorer

  test('no scorers: no table', () => {
    expect(scorerTableLines({})).toEqual([])
  })

  test('a column as wide as the longest name (at least 7), a recorded threshold, passing counts', () => {
    expect(scorerTableLines({ exact: scorer({}), semanticSimilarity: scorer({ mean: 0.875, min: 0.5, threshold: null, passRate: 1 }) })).toEqual([
      '',
      '  scorer              mean  min   max   threshold  passing',
      '  exact               0.50  0     1     0.50       3/4',
      '  semanticSimilarity  0.88  0.50  1     record     4/4',
    ])
  })
})

describe('passRateLines', () => {
  test('pass rate with its percentage and errored cases', () => {
    expect(passRateLines(report({ summary: summary({ errored: 1 }) }))).toEqual(['', '  pass rate: 2/3 (66.7%), 1 errored'])
  })

  test('no pass rate when nothing ran', () => {
    expect(passRateLines(report({ summary: summary({ ran: 0, passed: 0, passRate: null }) }))).toEqual(['', '  pass rate: 0/0'])
  })

  test('the first 20 flaky cases', () => {
    const cases = Array.from({ length: 22 }, (_, i) => reportCase({ id: `c${i}`, flaky: true, runs: 3, passes: 2 }))
    const [, , flaky] = passRateLines(report({ cases }))
    expect(flaky).toBe(
      '  flaky: c0 (2/3), c1 (2/3), c2 (2/3), c3 (2/3), c4 (2/3), c5 (2/3), c6 (2/3), c7 (2/3), c8 (2/3), c9 (2/3), c10 (2/3), ' +
        'c11 (2/3), c12 (2/3), c13 (2/3), c14 (2/3), c15 (2/3), c16 (2/3), c17 (2/3), c18 (2/3), c19 (2/3), … 2 more',
    )
  })

  test('exactly 20 flaky cases: all listed, no "more"', () => {
    const cases = Array.from({ length: 20 }, (_, i) => reportCase({ id: `c${i}`, flaky: true, runs: 3, passes: 2 }))
    const [, , flaky] = passRateLines(report({ cases }))
    expect(flaky).toBe(`  flaky: ${cases.map((c) => `${c.id} (2/3)`).join(', ')}`)
  })
})

describe('usageLines', () => {
  const totals = (over: Partial<UsageTotals>): UsageTotals => ({
    calls: 1,
    inputTokens: 1000,
    outputTokens: 234,
    totalTokens: 1234,
    costUsd: 0.5,
    unpricedModels: [],
    ...over,
  })

  test('latency percentiles with their sources, then app, evaluator and total', () => {
    const usage = {
      latencyMs: { p50: 120, p95: 12_500, p99: null, sources: { recorded: 2, measured: 1 } },
      app: totals({}),
      evaluator: totals({ inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0 }),
      total: totals({ costUsd: null, unpricedModels: ['my-model', 'other-model'] }),
    } as unknown as GoldenReport['usage']
    expect(usageLines(usage)).toEqual([
      '  latency: P50 120 ms · P95 12.5 s · P99 n/a (recorded 2, measured 1)',
      '  app:       1,234 tokens (in 1,000 / out 234), $0.50',
      '  evaluator: 0 tokens (in 0 / out 0), $0',
      '  total:     1,234 tokens (in 1,000 / out 234), unknown (no price for my-model, other-model)',
    ])
  })
})

describe('baselineLines', () => {
  test('no baseline: no line', () => {
    expect(baselineLines(null, '/repo')).toEqual([])
  })

  test('created: its status and its path relative to the working directory', () => {
    expect(baselineLines({ status: 'created', path: '/repo/test/__golden__/support.json' }, '/repo')).toEqual([
      '  baseline: created test/__golden__/support.json',
    ])
  })

  test('compared: each scorer against it, then the regressed and improved cases (15 listed)', () => {
    const regressed = Array.from({ length: 16 }, (_, i) => ({ id: `r${i}`, scorer: 'exact', baseline: 1, current: 0 }))
    const baseline = {
      status: 'compared' as const,
      path: '/repo/b.json',
      comparison: {
        scorers: [
          { scorer: 'exact', current: 0.5, baseline: 0.75, delta: -0.25 },
          { scorer: 'rougeL', current: 0.8, baseline: 0.7, delta: 0.1 },
        ],
        regressedCases: regressed,
        improvedCases: [{ id: 'i1', scorer: 'rougeL', baseline: 0.25, current: 0.5 }],
      },
    } as unknown as GoldenReport['baseline']
    expect(baselineLines(baseline, '/repo')).toEqual([
      '  baseline: exact 0.50 vs 0.75 (-0.250), rougeL 0.80 vs 0.70 (+0.100)',
      '    regressed: r0 exact 1→0, r1 exact 1→0, r2 exact 1→0, r3 exact 1→0, r4 exact 1→0, r5 exact 1→0, r6 exact 1→0, r7 exact 1→0, ' +
        'r8 exact 1→0, r9 exact 1→0, r10 exact 1→0, r11 exact 1→0, r12 exact 1→0, r13 exact 1→0, r14 exact 1→0, … 1 more',
      '    improved: i1 rougeL 0.25→0.50',
    ])
  })

  test('compared: an unchanged mean is "+0.000"; exactly 15 changed cases are all listed, no "more"', () => {
    const improved = Array.from({ length: 15 }, (_, i) => ({ id: `i${i}`, scorer: 'exact', baseline: 0, current: 1 }))
    const baseline = {
      status: 'compared',
      path: '/repo/b.json',
      comparison: { scorers: [{ scorer: 'exact', current: 0.5, baseline: 0.5, delta: 0 }], regressedCases: [], improvedCases: improved },
    }
    expect(baselineLines(baseline as unknown as GoldenReport['baseline'], '/repo')).toEqual([
      '  baseline: exact 0.50 vs 0.50 (+0.000)',
      `    improved: ${improved.map((c) => `${c.id} exact 0→1`).join(', ')}`,
    ])
  })

  test('compared with no common scorer', () => {
    const baseline = { status: 'compared', path: '/repo/b.json', comparison: { scorers: [], regressedCases: [], improvedCases: [] } }
    expect(baselineLines(baseline as unknown as GoldenReport['baseline'], '/repo')).toEqual(['  baseline: no common scores'])
  })
})
