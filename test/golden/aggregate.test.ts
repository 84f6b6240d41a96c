// The pure steps of GoldenSuite.finish (src/golden/aggregate.ts), each on hand-made case results.
import { describe, expect, test } from 'vitest'
import {
  aggregateScorers,
  baselineCases,
  baselineComparisonCheck,
  budgetChecks,
  failingList,
  reportCases,
  retrievalAverages,
  thresholdChecks,
  usageSummary,
  worstFirst,
} from '../../src/golden/aggregate.js'
import type { CaseResult, CaseRun } from '../../src/golden/run.js'
import type { ScoreResult } from '../../src/golden/scorers.js'
import { validateCases } from '../../src/golden/dataset.js'
import { GoldenSuite } from '../../src/golden/suite.js'

function run(output: string, latencyMs = 100, usage: Partial<CaseRun['usage']> = {}): CaseRun {
  return {
    output,
    scores: {},
    pass: true,
    latencyMs,
    latencySource: 'measured',
    usage: { calls: 1, inputTokens: 10, outputTokens: 5, costUsd: 0.001, models: ['m'], ...usage },
  }
}
function result(id: string, scores: Record<string, ScoreResult>, runs: CaseRun[] = [run(`out ${id}`)]): CaseResult {
  const pass = Object.values(scores).every((s) => s.pass)
  return { c: { id, input: `q ${id}` }, runs, passes: pass ? runs.length : 0, pass, flaky: false, scores, errored: false }
}
const s = (score: number, threshold: number | null = 0.5): ScoreResult => ({ score, threshold, pass: threshold === null || score >= threshold })

describe('aggregateScorers', () => {
  test('count, mean, min, max, threshold and pass rate per key, in the order given, skipping keys no case has', () => {
    const ran = [result('a', { rougeL: s(0.2), short: s(1, 1) }), result('b', { rougeL: s(0.8), short: s(0, 1) })]
    const out = aggregateScorers(ran, ['short', 'rougeL', 'semantic'])
    expect(Object.keys(out)).toEqual(['short', 'rougeL'])
    expect(out.rougeL).toMatchObject({ count: 2, mean: 0.5, min: 0.2, max: 0.8, threshold: 0.5, passRate: 0.5 })
    expect(out.short).toMatchObject({ count: 2, mean: 0.5, threshold: 1, passRate: 0.5 })
  })
})

describe('retrieval averages', () => {
  // Hand-computed: case 1 finds 2 of 3 relevant in its top 4, case 2 finds 1 of 1 in its top 2.
  // Micro: P = 3/6 = 0.5, R = 3/4 = 0.75, F1 = 2·0.5·0.75/1.25 = 0.6.
  // Macro: P = (2/4 + 1/2)/2 = 0.5, R = (2/3 + 1)/2 = 5/6, F1 = (F1(0.5, 2/3) + F1(0.5, 1))/2 = (4/7 + 2/3)/2 = 13/21.
  test('micro and macro precision, recall and F1 at k', () => {
    const r = retrievalAverages([
      { found: 2, k: 4, relevant: 3 },
      { found: 1, k: 2, relevant: 1 },
    ])
    expect(r.micro.precision).toBe(0.5)
    expect(r.micro.recall).toBe(0.75)
    expect(r.micro.f1).toBeCloseTo(0.6, 15)
    expect(r.macro.precision).toBe(0.5)
    expect(r.macro.recall).toBeCloseTo(5 / 6, 15)
    expect(r.macro.f1).toBeCloseTo(13 / 21, 15)
  })

  test('equal precision and recall give an F1 of that same value', () => {
    // One case finds 1 of 2 relevant in its top 2: P = R = 0.5, so F1 = 2·0.5·0.5/1 = 0.5.
    const r = retrievalAverages([{ found: 1, k: 2, relevant: 2 }])
    expect(r.micro.f1).toBe(0.5)
    expect(r.macro.f1).toBe(0.5)
  })

  test("a suite reports them for each retrieval instance, beside MRR as Wikipedia's worked example computes it", async () => {
    // Wikipedia, "Mean reciprocal rank": queries cat, torus and virus rank their first right answer 3rd, 2nd
    // and 1st, so MRR = (1/3 + 1/2 + 1)/3 = 11/18 ≈ 0.61.
    const retrieved: Record<string, string[]> = { cat: ['catten', 'cati', 'cats'], torus: ['torii', 'tori', 'toruses'], virus: ['viruses', 'virii', 'viri'] }
    const cases = validateCases([
      { id: 'cat', input: 'cat', relevant: ['cats'] },
      { id: 'torus', input: 'torus', relevant: ['tori'] },
      { id: 'virus', input: 'virus', relevant: ['viruses'] },
    ])
    const suite = new GoldenSuite('mrr', {
      dataset: [],
      task: (i: string) => ({ output: i, retrieved: retrieved[i]! }),
      scorers: { 'retrieval:mrr': { metric: 'mrr' }, 'retrieval:f1': { metric: 'f1', k: 2 } },
      report: false,
    })
    suite.setCases(cases as never)
    for (const c of suite.cases) await suite.runCase(c)
    const { report } = suite.finish({ runner: 'vitest', testPath: undefined, updateMode: 'none', env: {} })
    expect(report.scorers['retrieval:mrr']!.mean).toBeCloseTo(11 / 18, 15)
    // At k = 2: cat finds 0, torus 1, virus 1 of 1 relevant each, in 2 slots each.
    expect(report.scorers['retrieval:f1']!.retrieval).toEqual({
      micro: { precision: 2 / 6, recall: 2 / 3, f1: (2 * (1 / 3) * (2 / 3)) / 1 },
      macro: { precision: 1 / 3, recall: 2 / 3, f1: 4 / 9 },
    })
  })
})

describe('thresholdChecks', () => {
  const ran = [result('a', { rougeL: s(0.2) }), result('b', { rougeL: s(0.8) })]
  const scorers = aggregateScorers(ran, ['rougeL'])
  test('pass rate, mean and min, each a check with its failure paragraph', () => {
    const out = thresholdChecks(ran, scorers, { passRate: 0.9, mean: { rougeL: 0.4 }, min: { rougeL: 0.3 } })
    expect(out.map((l) => l.check)).toEqual([
      { name: 'passRate', ok: false, message: 'pass rate 1/2 = 50.0% < 90.0%' },
      { name: 'mean.rougeL', ok: true, message: 'mean rougeL 0.50 >= 0.40' },
      { name: 'min.rougeL', ok: false, message: 'min rougeL 0.20 < 0.30' },
    ])
    expect(out[1]!.failure).toBeUndefined()
    expect(out[2]!.failure).toBe('1 case scored rougeL below 0.3, worst first:\n  - a: rougeL 0.20  q a')
  })

  test('a gate on a key no case was scored by fails', () => {
    expect(thresholdChecks(ran, scorers, { mean: { short: 0.5 } })[0]).toEqual({
      check: { name: 'mean.short', ok: false, message: 'mean short: no case was scored by "short"' },
      failure: 'thresholds.mean.short is set but no case was scored by "short". List it in "scorers" (or give the cases what it needs).',
    })
  })
})

describe('worstFirst and failingList', () => {
  test('the largest shortfall first', () => {
    const ran = [result('small', { x: s(0.45) }), result('large', { x: s(0.1) }), result('ok', { x: s(0.9) })]
    expect(worstFirst(ran).map((r) => r.c.id)).toEqual(['large', 'small', 'ok'])
    expect(failingList(ran.slice(0, 2))).toBe('  - large: x 0.10<0.50  q large\n  - small: x 0.45<0.50  q small')
  })
  test('a case lists each failed score, and a failed score without a threshold has no bound', () => {
    const ran = [result('a', { x: s(0.1), mod: { score: 0.2, threshold: null, pass: false } })]
    expect(failingList(ran)).toBe('  - a: x 0.10<0.50, mod 0.20  q a')
  })
})

describe('usageSummary and budgetChecks', () => {
  const ran = [result('a', {}, [run('x', 100)]), result('b', {}, [run('y', 300, { costUsd: undefined, models: ['unpriced'] })])]
  const usage = usageSummary(ran, [{ kind: 'judge', model: 'gpt-4o-mini', inputTokens: 1000, outputTokens: 100 } as never])
  test('app and evaluator totals, latency percentiles', () => {
    expect(usage.app).toMatchObject({ calls: 2, inputTokens: 20, outputTokens: 10, totalTokens: 30, costUsd: null, unpricedModels: ['unpriced'] })
    expect(usage.evaluator).toMatchObject({ calls: 1, inputTokens: 1000, outputTokens: 100 })
    expect(usage.total.totalTokens).toBe(1130)
    expect(usage.latency.p50).toBe(200)
  })

  test('the app models, each once, in the order the runs first name them', () => {
    const runs = [run('x'), run('y', 100, { models: ['unpriced', 'm'] })]
    expect(usageSummary([result('a', {}, runs)], []).appModels).toEqual(['m', 'unpriced'])
  })

  test("an unpriced evaluator model is named in its kind's totals too", () => {
    const evaluator = usageSummary([], [{ kind: 'judge', model: 'no-price-model', inputTokens: 1, outputTokens: 1 } as never]).evaluator
    expect(evaluator.unpricedModels).toEqual(['no-price-model'])
    expect(evaluator.byKind.judge.unpricedModels).toEqual(['no-price-model'])
  })

  test('budget checks over tokens, latency and an unknown cost', () => {
    const out = budgetChecks({ p95LatencyMs: 250, maxTokens: 2000, maxCostUsd: 1 }, ran, usage)
    expect(out.map((l) => [l.check.name, l.check.ok])).toEqual([
      ['budget.p95LatencyMs', false],
      ['budget.maxTokens', true],
      ['budget.maxCostUsd', false],
    ])
    expect(out[2]!.check.message).toBe('cost unknown: no price for unpriced')
  })
})

describe('baseline steps', () => {
  test('baselineCases keeps the scores of cases that ran, rounded', () => {
    expect(baselineCases([result('a', { x: s(1 / 3) })])).toEqual({ a: { pass: false, scores: { x: 0.333333 } } })
  })

  test('a comparison without regressions passes and lists the deltas', () => {
    const comparison = {
      scorers: [{ scorer: 'x', baseline: 0.5, current: 0.6, delta: 0.1, tolerance: 0.05, cases: 2 }],
      regressions: [],
      regressedCases: [],
      improvedCases: [],
      newCases: [],
    }
    expect(baselineComparisonCheck('b.json', comparison as never, false)).toEqual({
      check: { name: 'baseline', ok: true, message: 'baseline: no scorer mean dropped by more than its tolerance (x +0.100)' },
    })
  })
})

describe('baselineComparisonCheck', () => {
  const d = (scorer: string, baseline: number, current: number) => ({ scorer, baseline, current, delta: current - baseline, tolerance: 0.05, cases: 1 })
  const comparison = (
    scorers: ReturnType<typeof d>[],
    regressions: ReturnType<typeof d>[],
    regressedCases: { id: string; scorer: string; baseline: number; current: number }[] = [],
  ) => ({ scorers, regressions, regressedCases, improvedCases: [], newCases: [] }) as never

  test('an unchanged mean is listed as +0.000, each scorer after a comma', () => {
    expect(baselineComparisonCheck('b.json', comparison([d('x', 0.5, 0.5), d('y', 0.5, 0.75)], []), false).check.message).toBe(
      'baseline: no scorer mean dropped by more than its tolerance (x +0.000, y +0.250)',
    )
  })

  test('two regressions: both in the message after a comma, each on its own line of the failure', () => {
    const out = baselineComparisonCheck('b.json', comparison([d('x', 0.5, 0.25), d('y', 1, 0.5)], [d('x', 0.5, 0.25), d('y', 1, 0.5)]), false)
    expect(out.check.message).toBe('baseline: x mean 0.25 vs 0.50, y mean 0.50 vs 1')
    expect(out.failure).toBe(
      [
        'scores regressed against the baseline b.json:',
        '  x: mean 0.250 vs 0.500 (-0.250, tolerance 0.05) over 1 case',
        '  y: mean 0.500 vs 1.000 (-0.500, tolerance 0.05) over 1 case',
        'If the change is intended, update the baseline with -u.',
      ].join('\n'),
    )
  })

  test('exactly 20 moved cases are all listed, with no "more" line', () => {
    const moved = Array.from({ length: 20 }, (_, i) => ({ id: `c${i}`, scorer: 'x', baseline: 1, current: 0 }))
    const lines = baselineComparisonCheck('b.json', comparison([d('x', 1, 0)], [d('x', 1, 0)], moved), false).failure!.split('\n')
    expect(lines.filter((l) => l.startsWith('  - c'))).toHaveLength(20)
    expect(lines.at(-2)).toBe('  - c19: x 1 → 0')
  })
})

describe('reportCases', () => {
  test('one entry per case with its first output, scores, latency and usage', () => {
    expect(reportCases([result('a', { x: s(1) })])[0]).toMatchObject({
      id: 'a',
      input: 'q a',
      output: 'out a',
      pass: true,
      runs: 1,
      scores: { x: s(1) },
      latencyMs: 100,
      usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.001 },
    })
  })
})
