// The steps of a suite's end (CompareSuite.finish, GoldenSuite.finish): the scorers a comparison decides
// on, its failures and failure message, the usage totals it keeps, and the report saved to disk
// (src/golden/save.ts, the I/O edge, against a temporary folder).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test, vi } from 'vitest'
import type { ScorerPlan } from '../../src/checks/types.js'
import {
  compareFailures,
  comparisonFailure,
  decidingOptions,
  erroredCases,
  formatCompareSummary,
  scoredNames,
  usageTotalsOf,
  variantUsage,
} from '../../src/golden/compare.js'
import type { CompareReport, CompareRow } from '../../src/golden/report.js'
import type { CaseRun } from '../../src/golden/run.js'
import { saveSuiteReport } from '../../src/golden/save.js'

const plan = (key: string, name = key) => ({ key, name }) as ScorerPlan
const userPlan = (key: string) => ({ key, name: key, check: { name: key } }) as unknown as ScorerPlan

const row = (scores: CompareRow['scores']): CompareRow => ({ id: 'r', input: 'q', outputs: {}, pass: {}, scores })

describe('scoredNames', () => {
  test('every scorer that scored a variant of a row, once: built-in checks in their order, then the user checks as listed', () => {
    const rows = [row({ v1: { rougeL: 0.5 }, v2: { exact: 1, short: 1 } }), row({ v1: { tone: 0.2 }, v2: { rougeL: 0.7 } })]
    // Built-in order: exact, contains, tokenF1, rougeL...; `tone` and `short` are user checks, listed in that order.
    expect(scoredNames(rows, ['v1', 'v2'], [userPlan('tone'), userPlan('short')])).toEqual(['exact', 'rougeL', 'tone', 'short'])
  })

  test('a variant missing from a row adds nothing', () => {
    expect(scoredNames([row({ v1: { exact: 1 } })], ['v1', 'v2'], [plan('exact')])).toEqual(['exact'])
  })
})

describe('decidingOptions', () => {
  const options = { resamples: 100, seed: 7, confidence: 0.9 }

  test('expect without a scorer decides on the first scorer listed', () => {
    expect(decidingOptions({ ...options, expect: { better: 'v2' } }, [plan('tone'), plan('exact')])).toEqual({
      resamples: 100,
      seed: 7,
      confidence: 0.9,
      expect: { better: 'v2', scorer: 'tone' },
    })
  })

  test('a scorer named in expect is kept; no expect, nothing added', () => {
    expect(decidingOptions({ ...options, expect: { better: 'v2', scorer: 'exact', minDelta: 0.1 } }, [plan('tone')]).expect).toEqual({
      better: 'v2',
      scorer: 'exact',
      minDelta: 0.1,
    })
    expect(decidingOptions(options, [plan('tone')])).toEqual({ resamples: 100, seed: 7, confidence: 0.9 })
  })
})

describe('usageTotalsOf', () => {
  test('keeps the six totals, drops the breakdown by kind and the models', () => {
    const totals = { calls: 2, inputTokens: 30, outputTokens: 12, totalTokens: 42, costUsd: null, unpricedModels: ['m'] }
    const ledger = { ...totals, byKind: { judge: totals, embedding: totals }, models: { judge: ['m'], embedding: [] } }
    expect(usageTotalsOf(ledger)).toEqual({ calls: 2, inputTokens: 30, outputTokens: 12, totalTokens: 42, costUsd: null, unpricedModels: ['m'] })
  })
})

describe('variantUsage', () => {
  const run = (usage: Partial<CaseRun['usage']>) => ({ usage: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, models: [], ...usage } }) as CaseRun
  const free = run({})

  test("each variant's calls and tokens summed over its cases, each model it called once", () => {
    const ran = [
      { c: { id: 'a', input: 'q' }, runs: { v1: run({ calls: 1, inputTokens: 10, outputTokens: 2, costUsd: 0.5, models: ['m'] }), v2: free } },
      { c: { id: 'b', input: 'q' }, runs: { v1: run({ calls: 2, inputTokens: 5, outputTokens: 1, costUsd: 0.25, models: ['m', 'n'] }), v2: free } },
    ]
    expect(variantUsage(ran, ['v1', 'v2'])).toEqual({
      appUsage: {
        v1: { calls: 3, inputTokens: 15, outputTokens: 3, totalTokens: 18, costUsd: 0.75, unpricedModels: [] },
        v2: { calls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, unpricedModels: [] },
      },
      appModels: { v1: ['m', 'n'], v2: [] },
    })
  })

  test('a run without a cost leaves the cost unknown even after priced runs, and lists each unpriced model once', () => {
    const local = run({ calls: 1, costUsd: undefined, models: ['local'] })
    const ran = [
      { c: { id: 'a', input: 'q' }, runs: { v1: local, v2: free } },
      { c: { id: 'b', input: 'q' }, runs: { v1: local, v2: free } },
      { c: { id: 'c', input: 'q' }, runs: { v1: run({ calls: 1, costUsd: 0.5, models: ['m'] }), v2: free } },
    ]
    const { appUsage, appModels } = variantUsage(ran, ['v1', 'v2'])
    expect(appUsage.v1).toMatchObject({ calls: 3, costUsd: null, unpricedModels: ['local'] })
    expect(appModels.v1).toEqual(['local', 'm'])
  })
})

describe('erroredCases', () => {
  const run = (output?: string) => ({ ...(output === undefined ? {} : { output }) }) as CaseRun
  test('cases where some variant produced no output', () => {
    const ran = [
      { c: { id: 'a', input: 'q' }, runs: { v1: run('x'), v2: run('y') } },
      { c: { id: 'b', input: 'q' }, runs: { v1: run(), v2: run('y') } },
      { c: { id: 'c', input: 'q' }, runs: { v1: run(), v2: run() } },
    ]
    expect(erroredCases(ran, ['v1', 'v2'])).toBe(2)
  })
})

describe('compareFailures', () => {
  const missed = { better: 'v2', scorer: 'exact', minDelta: 0, ok: false, message: 'expected v2 to beat v1 on exact' } as CompareReport['expectation']
  const met = { ...missed!, ok: true, message: 'v2 beats v1 on exact' }

  test('the expectation missed first, then the save failures, then the errored cases', () => {
    expect(compareFailures(missed, 1, false, ['history: disk full'])).toEqual([
      'expected v2 to beat v1 on exact',
      'history: disk full',
      '1 case errored for some variant and are left out of the comparison',
    ])
  })

  test('errored cases count only with an expectation; plural', () => {
    expect(compareFailures(met, 3, false, [])).toEqual(['3 cases errored for some variant and are left out of the comparison'])
    expect(compareFailures(null, 3, false, [])).toEqual([])
  })

  test('a shard decides nothing: only its save failures', () => {
    expect(compareFailures(missed, 2, true, ['write failed'])).toEqual(['write failed'])
  })
})

describe('comparisonFailure', () => {
  test('no failure: no message', () => {
    expect(comparisonFailure('v1 vs v2', [], 'summary')).toBeUndefined()
  })

  test('the failures listed, then the summary', () => {
    expect(comparisonFailure('v1 vs v2', ['a', 'b'], 'compare › v1 vs v2')).toBe(
      '[expect-llm] Golden comparison "v1 vs v2" failed:\n  - a\n  - b\n\ncompare › v1 vs v2',
    )
  })
})

describe('saveSuiteReport', () => {
  const dir = mkdtempSync(join(tmpdir(), 'expect-llm-save-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const report = { schemaVersion: 1, kind: 'golden', suite: 'Support bot', cases: [] } as never

  test('report: false writes nothing', () => {
    expect(saveSuiteReport(report, false, { suite: 'Support bot', testPath: undefined, shard: undefined })).toEqual({ failures: [], historyLines: [] })
  })

  test("writes the report at the test file's path and the suite's slug, with the shard's suffix", () => {
    const testPath = join(process.cwd(), 'test/bot.test.ts')
    const shard = { index: 2, count: 3, total: 9, positions: [] } as never
    const saved = saveSuiteReport(report, { dir: join(dir, 'r'), history: false }, { suite: 'Support bot', testPath, shard })
    expect(saved).toEqual({ reportFile: join(dir, 'r/test/bot.test.ts/support-bot.shard-2-of-3.json'), failures: [], historyLines: [] })
    expect(JSON.parse(readFileSync(saved.reportFile!, 'utf8'))).toEqual({ schemaVersion: 1, kind: 'golden', suite: 'Support bot', cases: [] })
  })

  test('without a dir, under .expect-llm/reports of the working directory', () => {
    const cwd = join(dir, 'cwd')
    const spy = vi.spyOn(process, 'cwd').mockReturnValue(cwd)
    try {
      const saved = saveSuiteReport(report, { history: false }, { suite: 'Support bot', testPath: undefined, shard: undefined })
      expect(saved.reportFile).toBe(join(cwd, '.expect-llm/reports/unknown-file/support-bot.json'))
      expect(existsSync(saved.reportFile!)).toBe(true)
    } finally {
      spy.mockRestore()
    }
  })

  test('a report that cannot be written is a failure with its fix, and nothing is recorded', () => {
    writeFileSync(join(dir, 'file'), '')
    const saved = saveSuiteReport(
      report,
      { dir: join(dir, 'file'), history: false },
      { suite: 'S', testPath: undefined, shard: undefined },
      'Check the folder.',
    )
    expect(saved.reportFile).toBeUndefined()
    expect(saved.historyLines).toEqual([])
    expect(saved.failures).toEqual([
      expect.stringMatching(/^the JSON report could not be written to .*\/file\/unknown-file\/s\.json: ENOTDIR: .*\. Check the folder\.$/),
    ])
  })

  test('without a fix, the failure ends with the error message', () => {
    writeFileSync(join(dir, 'file'), '')
    const saved = saveSuiteReport(report, { dir: join(dir, 'file'), history: false }, { suite: 'S', testPath: undefined, shard: undefined })
    expect(saved.failures).toEqual([
      expect.stringMatching(
        /^the JSON report could not be written to .*\/file\/unknown-file\/s\.json: ENOTDIR: not a directory, mkdir '.*\/file\/unknown-file'$/,
      ),
    ])
  })
})

describe('formatCompareSummary', () => {
  const report = {
    suite: 'cmp',
    cases: 40,
    variants: ['v1', 'v2'],
    scorers: [
      {
        scorer: 'rougeL',
        means: { v1: 0.5, v2: 0.25 },
        pairs: [
          {
            a: 'v1',
            b: 'v2',
            cases: 40,
            meanDiff: -0.25,
            ci: { low: -0.5, high: 0, confidence: 0.95, resamples: 100, seed: 42 },
            wins: 5,
            ties: 15,
            losses: 20,
          },
        ],
      },
    ],
    passRates: { v1: 0.5, v2: 0.125 },
    // 25 discordant pairs: chi-square with continuity correction, (|20 − 5| − 1)² / 25 = 7.84, p = erfc(√(7.84 / 2)) = 0.0051103.
    mcnemar: [{ a: 'v1', b: 'v2', aOnly: 20, bOnly: 5, pValue: 0.005110260660855864, method: 'chi-square', statistic: 7.84 }],
    expectation: null,
    differing: [],
  } as unknown as CompareReport

  test('each difference with its sign: minus below zero, plus from zero on', () => {
    expect(formatCompareSummary(report).split('\n')[2]).toBe('  rougeL   0.50   0.25   -0.250      [-0.500, +0.000]  5/15/20')
  })

  test('without scorers: no score table, only the pass rates and the differing cases', () => {
    expect(formatCompareSummary({ ...report, scorers: [], mcnemar: [] })).toBe(
      'compare › cmp (40 cases; variants v1, v2)\n  pass rate: v1 50.0%, v2 12.5%\n  differing cases: 0 of 40',
    )
  })

  test("the table's header gives the interval's confidence", () => {
    const pair = { ...report.scorers[0]!.pairs[0]!, ci: { ...report.scorers[0]!.pairs[0]!.ci, confidence: 0.9 } }
    const lines = formatCompareSummary({ ...report, scorers: [{ ...report.scorers[0]!, pairs: [pair] }] }).split('\n')
    expect(lines[1]).toBe('  scorer   v1     v2     Δ v2−v1     90% CI              W/T/L')
  })

  test('with three variants, each table shows its own variant against the first', () => {
    const [v2] = report.scorers[0]!.pairs
    const v3 = { ...v2!, b: 'v3', meanDiff: 0.25, ci: { ...v2!.ci, low: 0, high: 0.5 }, wins: 20, losses: 5 }
    const three = {
      ...report,
      variants: ['v1', 'v2', 'v3'],
      scorers: [{ scorer: 'rougeL', means: { v1: 0.5, v2: 0.25, v3: 0.75 }, pairs: [v2!, v3] }],
      passRates: { v1: 0.5, v2: 0.125, v3: 0.75 },
      mcnemar: [],
    } as unknown as CompareReport
    expect(formatCompareSummary(three).split('\n').slice(3, 5)).toEqual([
      '  scorer   v1     v2     v3     Δ v3−v1     95% CI              W/T/L',
      '  rougeL   0.50   0.25   0.75   +0.250      [+0.000, +0.500]  20/15/5',
    ])
  })

  test("McNemar's p-value: exponent notation below 0.0001, four decimals from 0.0001 on", () => {
    const line = (pValue: number) =>
      formatCompareSummary({ ...report, mcnemar: [{ a: 'v1', b: 'v2', aOnly: 20, bOnly: 0, pValue, method: 'exact' }] })
        .split('\n')
        .find((l) => l.startsWith('  McNemar'))
    expect(line(2 * 0.5 ** 20)).toBe('  McNemar v2 vs v1: 20 discordant (v1 only 20, v2 only 0), p = 1.91e-6 (exact binomial)')
    expect(line(0.0001)).toBe('  McNemar v2 vs v1: 20 discordant (v1 only 20, v2 only 0), p = 0.0001 (exact binomial)')
  })

  test('the expectation, met or not, before the differing cases', () => {
    const expectation = { better: 'v2', scorer: 'rougeL', minDelta: 0, ok: true, message: 'v2 is better: it is' }
    const lines = (ok: boolean) =>
      formatCompareSummary({ ...report, expectation: { ...expectation, ok } })
        .split('\n')
        .slice(-2)
    expect(lines(true)).toEqual(['  ✓ v2 is better: it is', '  differing cases: 0 of 40'])
    expect(lines(false)).toEqual(['  ✗ v2 is better: it is', '  differing cases: 0 of 40'])
  })

  const differing: CompareReport['differing'] = [
    { id: 'c1', input: 'What is 2+2?', outputs: { v1: '4', v2: null }, pass: { v1: true, v2: false }, scores: { v1: { exact: 1, rougeL: 0.5 }, v2: {} } },
    { id: 'c2', input: 'And 3+3?', outputs: { v1: '6', v2: '5' }, pass: { v1: true, v2: false }, scores: { v1: { exact: 1 }, v2: { exact: 0 } } },
  ]

  test("a differing case: its input, then each variant's verdict, scores and output ((no output) for none)", () => {
    expect(
      formatCompareSummary({ ...report, differing: differing.slice(0, 1) })
        .split('\n')
        .slice(-4),
    ).toEqual([
      '  differing cases: 1 of 40',
      '    c1  What is 2+2?',
      '      ✓ v1       exact 1 rougeL 0.50          4',
      '      ✗ v2                                    (no output)',
    ])
  })

  test('at most maxCases differing cases, then how many more', () => {
    const lines = formatCompareSummary({ ...report, differing }, 1).split('\n')
    expect(lines.slice(-5)).toEqual([
      '  differing cases: 2 of 40',
      '    c1  What is 2+2?',
      '      ✓ v1       exact 1 rougeL 0.50          4',
      '      ✗ v2                                    (no output)',
      '    … 1 more: see the JSON report',
    ])
  })

  test('exactly maxCases differing cases: no "more" line', () => {
    expect(
      formatCompareSummary({ ...report, differing: differing.slice(0, 1) }, 1)
        .split('\n')
        .at(-1),
    ).toBe('      ✗ v2                                    (no output)')
  })

  test('the report file last, relative to the working directory', () => {
    expect(formatCompareSummary(report, 30, join(process.cwd(), '.expect-llm/reports/x/cmp.json')).split('\n').at(-1)).toBe(
      '  report: .expect-llm/reports/x/cmp.json',
    )
  })

  test("McNemar's chi-square line gives the statistic", () => {
    expect(formatCompareSummary(report).split('\n')).toContain(
      '  McNemar v2 vs v1: 25 discordant (v1 only 20, v2 only 5), p = 0.0051 (chi-square with continuity correction, χ² = 7.84)',
    )
  })
})
