// The data the HTML page is drawn from (computed in Node, so the page only lays it out), and the file
// that carries it.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { resetLedger } from '../../src/ledger.js'
import { goldenHistoryEntry, type GoldenHistoryEntry } from '../../src/report/history.js'
import { readPageData, renderReportHtml } from '../../src/report/html.js'
import { buildPageData, comparePageSuite, goldenPageSuite, histogram, pageText } from '../../src/report/page-data.js'
import { repo } from '../golden/helpers.js'
import { makeCases, runCompare, runGolden } from './helpers.js'

const dir = mkdtempSync(join(tmpdir(), 'report-page-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
beforeEach(() => resetLedger())

const golden = () => runGolden({ dir, testPath: join(dir, 'bot.test.ts'), cases: makeCases(20), options: { baseline: undefined } }).then((r) => r.report)

describe('helpers', () => {
  test('histogram: ten bins over [0, 1], a decimal lands in its own bin, 1 in the last, outside values clamped', () => {
    expect(histogram([0, 0.05, 0.1, 0.3, 0.7, 0.99, 1, 1.5, -0.2])).toEqual([3, 1, 0, 1, 0, 0, 0, 1, 0, 3])
    expect(histogram([])).toEqual(new Array(10).fill(0))
  })

  test('pageText: strings as they are, values as indented JSON, long text cut with the count of what was left out', () => {
    expect(pageText('hi', 10)).toBe('hi')
    expect(pageText({ a: 1 }, 100)).toBe('{\n  "a": 1\n}')
    expect(pageText('x'.repeat(12_345), 10)).toBe(`${'x'.repeat(10)}… [12,335 more characters in the JSON report]`)
  })
})

describe('a golden suite', () => {
  test('summary, checks with their thresholds and distributions, budget figures and limits', async () => {
    const report = await golden()
    const page = goldenPageSuite(report, [])
    expect(page).toMatchObject({ kind: 'golden', name: 'support bot', file: join(dir, 'bot.test.ts'), ok: report.checks.every((c) => c.ok) })
    expect(page.summary).toEqual({ ...report.summary, regressed: 0 })
    const rouge = page.scorers.find((s) => s.name === 'rougeL')!
    expect(rouge).toMatchObject({ mean: report.scorers.rougeL!.mean, threshold: 0.5, meanThreshold: 0.5, count: 20, baseline: null })
    expect(rouge.bins.reduce((a, b) => a + b, 0)).toBe(20)
    expect(rouge.bins).toEqual(histogram(report.cases.map((c) => c.scores.rougeL!.score)))
    expect(page.scorers.find((s) => s.name === 'tokenF1')).toMatchObject({ threshold: null, meanThreshold: null })
    expect(page.budget).toMatchObject({
      p95LatencyMs: report.usage.latencyMs.p95,
      p95LatencyLimit: 1000,
      tokenLimit: 1_000_000,
      costLimit: 1,
      totalTokens: report.usage.total.totalTokens,
    })
    expect(page.tags).toEqual(['accounts', 'refunds', 'returns', 'shipping'])
    expect(page.checks).toEqual(report.checks)
  })

  test('each case: verdict, flaky runs, every score with threshold and detail, input, expected, output', async () => {
    const report = await golden()
    const page = goldenPageSuite(report, [])
    expect(page.cases.map((c) => c.id)).toEqual(report.cases.map((c) => c.id))
    page.cases.forEach((c, i) => {
      const r = report.cases[i]!
      expect(c).toMatchObject({
        status: r.pass ? 'pass' : 'fail',
        flaky: r.flaky,
        runs: 2,
        passes: r.passes,
        input: r.input,
        expected: r.expected,
        output: r.output,
        tags: r.tags,
      })
      expect(c.scores.rougeL).toEqual({ s: r.scores.rougeL!.score, t: 0.5, p: r.scores.rougeL!.pass })
    })
    expect(page.cases.some((c) => c.flaky)).toBe(true)
    const withKeywords = page.cases.find((c) => c.scores.keywords && !c.scores.keywords.p)
    if (withKeywords) expect(withKeywords.scores.keywords!.d).toBeTruthy()
  })

  test('history: earlier runs and this one, ids over every run, absent cases marked, regressions against the previous run', async () => {
    const report = await golden()
    const current = goldenHistoryEntry(report)
    const day = (d: number) => new Date(Date.parse(report.createdAt) - d * 86_400_000).toISOString()
    // Two days ago every case passed and an old case existed; yesterday q-001 failed.
    const older: GoldenHistoryEntry = {
      ...current,
      createdAt: day(2),
      git: { ...current.git, commit: 'a'.repeat(40) },
      cases: { ...current.cases, ids: [...current.cases.ids, 'q-old'], verdicts: 'p'.repeat(21) },
    }
    const yesterday: GoldenHistoryEntry = { ...current, createdAt: day(1), cases: { ...current.cases, verdicts: `f${'p'.repeat(19)}` } }
    const page = goldenPageSuite(report, [older, yesterday])
    const h = page.history!
    expect(h.runs.map((r) => [r.at, r.current])).toEqual([
      [day(2), false],
      [day(1), false],
      [report.createdAt, true],
    ])
    expect(h.ids).toEqual([...current.cases.ids, 'q-old'])
    expect(h.runs[0]!.verdicts).toBe('p'.repeat(21))
    expect(h.runs[2]!.verdicts).toBe(`${current.cases.verdicts}-`)
    expect(h.runs[0]!.commit).toBe('a'.repeat(40))
    expect(h.runs[2]!.means.rougeL).toBe(current.scorers.rougeL!.mean)
    expect(h.thresholds).toMatchObject({ rougeL: 0.5, tokenF1: null })
    // Regressed: failing now and passing in the run before this one (yesterday), not two days ago.
    const regressed = page.cases.filter((c) => c.regressed).map((c) => c.id)
    expect(regressed).toEqual(page.cases.filter((c) => c.status !== 'pass' && c.id !== 'q-001').map((c) => c.id))
    expect(page.summary.regressed).toBe(regressed.length)
    // The run already in the history is not drawn twice.
    expect(goldenPageSuite(report, [older, current]).history!.runs.map((r) => r.current)).toEqual([false, true])
  })
})

describe('a comparison', () => {
  test('means, paired differences with their intervals, every case side by side with the differing ones marked', async () => {
    const { report } = await runCompare({ dir, testPath: join(dir, 'cmp.test.ts'), cases: makeCases(12) })
    const page = comparePageSuite(report, [])
    const rouge = report.scorers.find((s) => s.scorer === 'rougeL')!
    expect(page.scorers.find((s) => s.name === 'rougeL')).toEqual({
      name: 'rougeL',
      means: rouge.means,
      pairs: rouge.pairs.map((p) => ({
        a: p.a,
        b: p.b,
        cases: p.cases,
        meanDiff: p.meanDiff,
        low: p.ci.low,
        high: p.ci.high,
        confidence: p.ci.confidence,
        wins: p.wins,
        ties: p.ties,
        losses: p.losses,
      })),
    })
    expect(page.rows).toHaveLength(12)
    expect(page.rows.filter((r) => r.differs).map((r) => r.id)).toEqual(report.differing.map((d) => d.id))
    expect(page.differingOnly).toBe(false)
    expect(page.expectation).toEqual(report.expectation)
    expect(page.history!.runs).toEqual([
      { at: report.createdAt, commit: report.git.commit, means: Object.fromEntries(report.scorers.map((s) => [s.scorer, s.means])), current: true },
    ])
    expect(Object.keys(page.history!.runs[0]!.means)).toContain('rougeL')
  })
})

describe('the page', () => {
  test('failing suites first; the data round-trips through the file, where no text can open a tag', async () => {
    const g = await golden()
    const tricky = { ...g, suite: '</script><script>alert(1)</script>', checks: [...g.checks, { name: 'passRate', ok: false, message: 'failed' }] }
    const data = buildPageData([g, tricky], { title: 'Nightly <evals>', now: new Date('2026-05-01T00:00:00Z') })
    expect(data.suites.map((s) => s.name)).toEqual(['</script><script>alert(1)</script>', 'support bot'])
    expect(data.generatedAt).toBe('2026-05-01T00:00:00.000Z')
    const html = renderReportHtml(data)
    expect(readPageData(html)).toEqual(data)
    expect(html).toContain('<title>Nightly &lt;evals&gt;</title>')
    expect(html.match(/<script/g)).toHaveLength(2)
    expect(html).toMatch(
      /content="default-src &#39;none&#39;; script-src &#39;sha256-[A-Za-z0-9+/=]+&#39;; style-src &#39;sha256-[A-Za-z0-9+/=]+&#39;; img-src data:; base-uri &#39;none&#39;; form-action &#39;none&#39;"/,
    )
  })

  test('the committed page script is the bundle of src/report/client/app.ts', () => {
    expect(() => execFileSync(process.execPath, ['src/report/client/build.mjs', '--check'], { cwd: repo, stdio: 'pipe' })).not.toThrow()
  })
})
