// Shards merged by `expect-llm report --merge` give what one machine gives: the same suite is run whole
// and as three shards (EXPECT_LLM_SHARD) in this test, and every aggregate, gate, interval, the P95
// latency, the usage and the baseline check of the merged report equal the single run's. Missing
// shards, shards of another commit and failed gates make the merge fail.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { resetConfig } from '../../src/config.js'
import { resetLedger } from '../../src/ledger.js'
import type { CompareReport, GoldenReport } from '../../src/golden/report.js'
import { mergeCompareShards, mergeGoldenShards, type LoadedReport } from '../../src/report/merge.js'
import { runReportCli } from '../../src/report/cli.js'
import { readPageData } from '../../src/report/html.js'
import { readHistory } from '../../src/report/history.js'
import { makeCases, runCompare, runGolden } from './helpers.js'

const dir = mkdtempSync(join(tmpdir(), 'report-merge-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
beforeEach(() => {
  resetLedger()
  resetConfig()
})

const cases = makeCases(60)
/** What must not differ between one machine and the merged shards (time, duration and file names may). */
const comparable = (r: GoldenReport) => ({
  summary: r.summary,
  scorers: r.scorers,
  checks: r.checks,
  usage: r.usage,
  cases: r.cases,
  baseline: r.baseline,
  models: r.models,
  options: r.options,
})

async function shards<R>(n: number, run: (shard: string) => Promise<{ report: R; reportFile?: string }>): Promise<Array<LoadedReport<R>>> {
  const out: Array<LoadedReport<R>> = []
  for (let i = 1; i <= n; i++) {
    const { report, reportFile } = await run(`${i}/${n}`)
    out.push({ path: reportFile!, report })
  }
  return out
}

describe('golden suites', () => {
  const testPath = join(dir, 'support.test.ts')
  let single: Awaited<ReturnType<typeof runGolden>>
  let parts: Array<LoadedReport<GoldenReport>>

  test('a shard runs its slice, leaves the aggregate checks to the merge, and writes a report named after it', async () => {
    // First run writes the baseline, so that both runs below compare against it.
    await runGolden({ dir: join(dir, 'setup'), testPath, cases })
    single = await runGolden({ dir: join(dir, 'single'), testPath, cases })
    expect(single.report.baseline?.status).toBe('compared')
    parts = await shards(3, (shard) => runGolden({ dir: join(dir, 'shards'), testPath, cases, shard }))
    const sizes = parts.map((p) => p.report.cases.length)
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(60)
    expect(Math.min(...sizes)).toBeGreaterThan(5)
    const first = parts[0]!.report
    expect(first.shard).toMatchObject({
      index: 1,
      count: 3,
      source: 'env',
      total: 60,
      deferred: ['passRate', 'mean.rougeL', 'min.tokenF1', 'budget.p95LatencyMs', 'budget.maxTokens', 'budget.maxCostUsd', 'baseline'],
    })
    expect(first.checks).toEqual([])
    expect(first.baseline).toBeNull()
    expect(first.summary).toMatchObject({ cases: sizes[0], ran: sizes[0], filteredOut: 0 })
    expect(parts.map((p) => p.path.split('/').at(-1))).toEqual([
      'support-bot.shard-1-of-3.json',
      'support-bot.shard-2-of-3.json',
      'support-bot.shard-3-of-3.json',
    ])
  })

  test('the merged report equals the single-machine run: aggregates, intervals, gates, P95, usage, baseline', () => {
    const { report, failures, complete } = mergeGoldenShards(parts, { root: '/' })
    expect(complete).toBe(true)
    expect(comparable(report)).toEqual(comparable(single.report))
    expect(report.merged).toEqual({ shards: 3, files: parts.map((p) => p.path) })
    expect(report.shard).toBeUndefined()
    expect(failures).toEqual(single.failures)
    // Sanity: the suite has failing and flaky cases, and each check has a real interval.
    expect(report.summary.failed).toBeGreaterThan(0)
    expect(report.summary.flaky).toBeGreaterThan(0)
    expect(report.scorers.rougeL!.ci.high).toBeGreaterThan(report.scorers.rougeL!.ci.low)
  })

  test("not an average of the shards' averages", () => {
    const { report } = mergeGoldenShards(parts, { root: '/' })
    const averaged = parts.reduce((s, p) => s + p.report.scorers.rougeL!.mean, 0) / parts.length
    expect(Math.abs(averaged - report.scorers.rougeL!.mean)).toBeGreaterThan(1e-6)
  })

  test('a gate fails over the merged cases with the failing cases listed', async () => {
    const strict = await shards(2, (shard) => runGolden({ dir: join(dir, 'strict'), testPath, cases, shard, options: { thresholds: { passRate: 0.95 } } }))
    expect(strict.every((p) => p.report.checks.length === 0)).toBe(true)
    const { report, failures } = mergeGoldenShards(strict, { root: '/' })
    expect(report.checks.find((c) => c.name === 'passRate')).toMatchObject({ ok: false })
    expect(failures[0]).toMatch(/^pass rate \d+\/60 = [\d.]+% is below 95\.0%\. Failing cases, worst first:\n {2}- q-/)
  })

  test('a missing shard, a shard twice and shards of different commits are failures, not a smaller suite', () => {
    expect(mergeGoldenShards([parts[0]!, parts[2]!], { root: '/' })).toMatchObject({
      complete: false,
      failures: [expect.stringMatching(/^suite "support bot" \(.*support\.test\.ts\): no report from shard 2\/3, so its cases never ran here\./)],
    })
    expect(mergeGoldenShards([parts[0]!, parts[0]!, parts[1]!, parts[2]!], { root: '/' }).failures[0]).toMatch(/shard 1\/3 appears twice/)
    const other = { ...parts[1]!, report: { ...parts[1]!.report, git: { commit: 'f'.repeat(40), branch: 'x' } } }
    expect(mergeGoldenShards([parts[0]!, other, parts[2]!], { root: '/' }).failures[0]).toMatch(/the shards ran different commits/)
  })
})

describe('comparisons', () => {
  test("paired bootstrap, wins/ties/losses, McNemar and the expectation recomputed over the merged pairs equal one machine's", async () => {
    const testPath = join(dir, 'compare.test.ts')
    const single = await runCompare({ dir: join(dir, 'cmp-single'), testPath, cases })
    const parts = await shards(3, (shard) => runCompare({ dir: join(dir, 'cmp-shards'), testPath, cases, shard }))
    expect(parts[0]!.report.shard).toMatchObject({ index: 1, count: 3, deferred: ['expectation'] })
    const { report, failures, complete } = mergeCompareShards(parts)
    expect(complete).toBe(true)
    const pick = (r: CompareReport) => ({
      scorers: r.scorers,
      mcnemar: r.mcnemar,
      passRates: r.passRates,
      expectation: r.expectation,
      differing: r.differing,
      rows: r.rows,
      cases: r.cases,
      usage: r.usage,
      options: r.options,
    })
    expect(pick(report)).toEqual(pick(single.report))
    expect(single.report.expectation?.ok).toBe(true)
    expect(failures).toEqual([])
  })
})

describe('expect-llm report --merge', () => {
  test('writes the merged reports, one history entry per suite, the HTML page; exits 1 when a gate fails', async () => {
    const root = join(dir, 'cli')
    const testPath = join(root, 'bot.test.ts')
    for (const shard of ['1/2', '2/2']) await runGolden({ dir: join(root, 'artifacts'), testPath, cases, shard, options: { baseline: undefined } })
    // A whole run left in the same folder (run locally before the sharded one) is not one of the shards.
    await runGolden({ dir: join(root, 'artifacts'), testPath, cases, options: { baseline: undefined } })
    const lines: string[] = []
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) }
    const code = await runReportCli(['--merge', join(root, 'artifacts'), '--root', root], io)
    expect(code, lines.join('\n')).toBe(0)
    expect(lines[0]).toMatch(/^✓ support bot \(.*bot\.test\.ts\): merged from 2 shards, 60 cases, pass rate [\d.]+%$/)
    const merged = JSON.parse(readFileSync(join(root, '.expect-llm/reports', testPath.replace(/^\//, ''), 'support-bot.json'), 'utf8')) as GoldenReport
    expect(merged.merged?.shards).toBe(2)
    const historyFile = join(root, '.expect-llm/history', testPath.replace(/^\//, ''), 'support-bot.jsonl')
    expect(readHistory(historyFile).entries).toHaveLength(1)
    expect(readPageData(readFileSync(join(root, '.expect-llm/report.html'), 'utf8')).suites).toMatchObject([
      { name: 'support bot', shards: 2, summary: { ran: 60 } },
    ])
    // Merging again (the merged report now sits beside its shards) adds no second entry for the same run.
    expect(await runReportCli(['--merge', join(root, 'artifacts'), '--root', root], io)).toBe(0)
    expect(readHistory(historyFile).entries).toHaveLength(1)

    for (const shard of ['1/2', '2/2'])
      await runGolden({ dir: join(root, 'strict'), testPath, cases, shard, options: { baseline: undefined, thresholds: { passRate: 0.99 } } })
    lines.length = 0
    expect(await runReportCli(['--merge', join(root, 'strict'), '--root', root], io)).toBe(1)
    expect(lines.join('\n')).toContain('✗ pass rate')
    expect(lines.at(-1)).toBe(
      '[expect-llm] Failed to pass the merged golden suites: 1 of 1 have a failing check or a missing shard (listed above). Fix the cases or the shards, then merge again.',
    )

    const shard2 = readdirSync(join(root, 'artifacts'), { recursive: true, encoding: 'utf8' }).find((f) => f.endsWith('support-bot.shard-2-of-2.json'))!
    rmSync(join(root, 'artifacts', shard2))
    lines.length = 0
    expect(await runReportCli(['--merge', join(root, 'artifacts'), '--root', root], io)).toBe(1)
    expect(lines.join('\n')).toContain('no report from shard 2/2')
  })
})
