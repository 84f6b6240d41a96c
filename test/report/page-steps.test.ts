// The named steps of goldenPageSuite and comparePageSuite (src/report/page-data.ts), on hand-made reports.
import { describe, expect, test } from 'vitest'
import type { CompareReport, GoldenReport, ReportCase } from '../../src/golden/report.js'
import { compareHistory, compareRow, pageBudget, pageCase } from '../../src/report/page-data.js'

const reportCase = (over: Partial<ReportCase> = {}): ReportCase => ({
  id: 'c1',
  input: 'q',
  output: 'a',
  pass: false,
  runs: 2,
  passes: 1,
  flaky: true,
  scores: { rougeL: { score: 0.4, threshold: 0.5, pass: false, detail: 'short' } },
  latencyMs: 12.6,
  usage: { inputTokens: 1, outputTokens: 1, costUsd: null },
  ...over,
})

describe('pageCase', () => {
  const ctx = { before: new Map<string, string>(), regressedIds: new Set<string>(), maxText: 1000 }

  test('status, texts, scores in short keys, latency rounded', () => {
    expect(pageCase(reportCase(), ctx)).toEqual({
      id: 'c1',
      tags: [],
      status: 'fail',
      flaky: true,
      regressed: false,
      runs: 2,
      passes: 1,
      input: 'q',
      output: 'a',
      scores: { rougeL: { s: 0.4, t: 0.5, p: false, d: 'short' } },
      latencyMs: 13,
    })
  })

  test('a failing case regressed when it passed in the previous run or the baseline lists it', () => {
    expect(pageCase(reportCase(), { ...ctx, before: new Map([['c1', 'p']]) }).regressed).toBe(true)
    expect(pageCase(reportCase(), { ...ctx, regressedIds: new Set(['c1']) }).regressed).toBe(true)
    expect(pageCase(reportCase({ pass: true, passes: 2, flaky: false, scores: {} }), { ...ctx, regressedIds: new Set(['c1']) }).regressed).toBe(false)
  })

  test('errors, assert error, expected and diagnosis', () => {
    const page = pageCase(reportCase({ error: 'boom', assertError: 'nope', expected: { a: 1 }, diagnosis: 'retrieval' }), ctx)
    expect(page).toMatchObject({ errors: ['boom'], assertError: 'nope', expected: '{\n  "a": 1\n}', diagnosis: 'retrieval missed the relevant documents' })
  })
})

describe('pageBudget', () => {
  test('the usage figures beside the limits the options set (null when unset)', () => {
    const totals = (costUsd: number | null) => ({ calls: 1, inputTokens: 5, outputTokens: 5, totalTokens: 10, costUsd, unpricedModels: [] })
    const report = {
      options: { budget: { maxTokens: 100 } },
      usage: { app: totals(0.1), evaluator: totals(0.2), total: totals(0.3), latencyMs: { p50: 1, p95: 2, p99: 3, sources: {} } },
    } as unknown as GoldenReport
    expect(pageBudget(report)).toEqual({
      p95LatencyMs: 2,
      p95LatencyLimit: null,
      totalTokens: 10,
      tokenLimit: 100,
      costUsd: 0.3,
      costLimit: null,
      appCostUsd: 0.1,
      evaluatorCostUsd: 0.2,
      unpricedModels: [],
    })
  })
})

describe('compare steps', () => {
  test('compareRow: outputs clipped, whether the variants differ', () => {
    const row = { id: 'r', input: 'q', tags: ['t'], outputs: { a: 'x', b: null }, pass: { a: true, b: false }, scores: { rougeL: { a: 1, b: 0 } } }
    expect(compareRow(row as never, new Set(['r']), 100)).toEqual({ ...row, details: {}, differs: true })
  })

  test('compareHistory: this run is added after the earlier ones when the history does not have it yet', () => {
    const report = {
      suite: 's',
      createdAt: '2026-01-02T00:00:00.000Z',
      git: { commit: 'c2' },
      scorers: [{ scorer: 'rougeL', means: { a: 0.5 } }],
    } as unknown as CompareReport
    const earlier = { kind: 'compare', suite: 's', createdAt: '2026-01-01T00:00:00.000Z', git: { commit: 'c1' }, scorers: { rougeL: { means: { a: 0.4 } } } }
    expect(compareHistory(report, [earlier as never])).toEqual({
      runs: [
        { at: earlier.createdAt, commit: 'c1', means: { rougeL: { a: 0.4 } }, current: false },
        { at: report.createdAt, commit: 'c2', means: { rougeL: { a: 0.5 } }, current: true },
      ],
    })
  })
})
