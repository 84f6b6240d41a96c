// The history store: one JSON Lines file per suite, an entry per run, pruned by count and age.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { resetLedger } from '../../src/ledger.js'
import {
  appendHistory,
  compareHistoryEntry,
  goldenHistoryEntry,
  historyPath,
  parseAge,
  pruneHistory,
  readHistory,
  selectKept,
  type GoldenHistoryEntry,
} from '../../src/report/history.js'
import { makeCases, runCompare, runGolden } from './helpers.js'

const dir = mkdtempSync(join(tmpdir(), 'report-history-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
beforeEach(() => resetLedger())

const at = (iso: string, entry: GoldenHistoryEntry): GoldenHistoryEntry => ({ ...entry, createdAt: iso })

describe('entries', () => {
  test("a golden run: commit, time, aggregates, usage, and every case's verdict and scores by column", async () => {
    const { report } = await runGolden({ dir, testPath: join(dir, 'a.test.ts'), cases: makeCases(12), options: { baseline: undefined } })
    const entry = goldenHistoryEntry(report)
    expect(entry).toMatchObject({
      v: 1,
      kind: 'golden',
      suite: 'support bot',
      createdAt: report.createdAt,
      git: report.git,
      summary: { ran: 12, passed: report.summary.passed },
    })
    expect(entry.scorers.rougeL).toEqual({
      mean: Math.round(report.scorers.rougeL!.mean * 1e6) / 1e6,
      count: report.scorers.rougeL!.count,
      passRate: expect.any(Number),
      threshold: 0.5,
      ci: [expect.any(Number), expect.any(Number)],
    })
    expect(entry.cases.ids).toEqual(report.cases.map((c) => c.id))
    expect(entry.cases.verdicts).toBe(report.cases.map((c) => (c.pass ? 'p' : 'f')).join(''))
    expect(entry.cases.scores.keywords).toEqual(report.cases.map((c) => (c.scores.keywords ? c.scores.keywords.score : null)))
    expect(entry.usage).toEqual({ totalTokens: report.usage.total.totalTokens, costUsd: report.usage.total.costUsd, p95LatencyMs: report.usage.latencyMs.p95 })
    expect(entry.checks.map((c) => c.name)).toEqual(['passRate', 'mean.rougeL', 'min.tokenF1', 'budget.p95LatencyMs', 'budget.maxTokens', 'budget.maxCostUsd'])
  })

  test('a comparison run: means per variant and the paired differences', async () => {
    const { report } = await runCompare({ dir, testPath: join(dir, 'c.test.ts'), cases: makeCases(9) })
    const entry = compareHistoryEntry(report)
    expect(entry).toMatchObject({ kind: 'compare', variants: ['v1', 'v2'], cases: 9, expectation: { ok: report.expectation!.ok } })
    expect(entry.scorers.rougeL!.pairs[0]).toMatchObject({ a: 'v1', b: 'v2', meanDiff: expect.any(Number), low: expect.any(Number), high: expect.any(Number) })
  })

  test('each golden run appends one line to .expect-llm/history beside the reports; a shard appends none', async () => {
    const root = join(dir, 'runs')
    const testPath = join(root, 'bot.test.ts')
    await runGolden({ dir: root, testPath, cases: makeCases(6), options: { baseline: undefined } })
    await runGolden({ dir: root, testPath, cases: makeCases(6), options: { baseline: undefined } })
    const file = historyPath(join(root, 'history'), testPath, 'support bot')
    expect(readHistory(file).entries).toHaveLength(2)
    const sharded = await runGolden({ dir: root, testPath, cases: makeCases(6), shard: '1/2', options: { baseline: undefined } })
    expect(readHistory(file).entries).toHaveLength(2)
    expect(sharded.summary).toContain('shard 1/2: ')
    const off = await runGolden({
      dir: root,
      testPath,
      cases: makeCases(6),
      options: { baseline: undefined, report: { dir: join(root, 'reports'), console: false, history: false } },
    })
    expect(off.summary).not.toContain('history:')
    expect(readHistory(file).entries).toHaveLength(2)
  })
})

describe('the file', () => {
  test('append, read back oldest first; a line cut off mid-write is skipped and listed, not fatal', async () => {
    const { report } = await runGolden({ dir, testPath: join(dir, 'b.test.ts'), cases: makeCases(3), options: { baseline: undefined } })
    const file = join(dir, 'h', 'x.jsonl')
    const e = goldenHistoryEntry(report)
    appendHistory(file, at('2026-01-02T00:00:00.000Z', e))
    appendHistory(file, at('2026-01-01T00:00:00.000Z', e))
    appendFileSync(file, '{"v":1,"kind":"golden","suite":"support bot","crea')
    const read = readHistory(file)
    expect(read.entries.map((x) => x.createdAt)).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z'])
    expect(read.skipped).toEqual([{ line: 3, reason: expect.stringMatching(/^invalid JSON/) }])
    expect(readHistory(join(dir, 'missing.jsonl'))).toEqual({ entries: [], skipped: [] })
    writeFileSync(join(dir, 'other.jsonl'), '{"v":2}\n')
    expect(readHistory(join(dir, 'other.jsonl')).skipped).toEqual([{ line: 1, reason: 'not a version 1 history entry' }])
  })

  test('prune by count, by age, by both; the file is rewritten whole, unreadable lines dropped', async () => {
    const { report } = await runGolden({ dir, testPath: join(dir, 'p.test.ts'), cases: makeCases(3), options: { baseline: undefined } })
    const e = goldenHistoryEntry(report)
    const days = [1, 2, 3, 4, 5].map((d) => at(`2026-03-0${d}T00:00:00.000Z`, e))
    const now = Date.parse('2026-03-05T12:00:00.000Z')
    expect(selectKept(days, { keep: 2 }).map((x) => x.createdAt.slice(8, 10))).toEqual(['04', '05'])
    expect(selectKept(days, { maxAgeMs: 2.5 * 86_400_000, now }).map((x) => x.createdAt.slice(8, 10))).toEqual(['03', '04', '05'])
    expect(selectKept(days, { keep: 1, maxAgeMs: 2.5 * 86_400_000, now }).map((x) => x.createdAt.slice(8, 10))).toEqual(['05'])
    const file = join(dir, 'prune', 'bot.jsonl')
    for (const d of days) appendHistory(file, d)
    appendFileSync(file, 'garbage\n')
    expect(pruneHistory(file, { keep: 3 })).toEqual({ removed: 2, kept: 3 })
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3)
    expect(readHistory(file).skipped).toEqual([])
    expect(pruneHistory(file, { keep: 10 })).toEqual({ removed: 0, kept: 3 })
  })

  test('report.history.keep prunes after each append', async () => {
    const root = join(dir, 'keep')
    const testPath = join(root, 'k.test.ts')
    for (let i = 0; i < 4; i++)
      await runGolden({
        dir: root,
        testPath,
        cases: makeCases(3),
        options: { baseline: undefined, report: { dir: join(root, 'reports'), console: false, history: { keep: 2 } } },
      })
    expect(readHistory(historyPath(join(root, 'history'), testPath, 'support bot')).entries).toHaveLength(2)
  })

  test('ages: units and plain milliseconds; anything else is not an age', () => {
    expect([parseAge('90d'), parseAge('12h'), parseAge('30m'), parseAge('45s'), parseAge('2w'), parseAge('500ms'), parseAge('1.5h'), parseAge(250)]).toEqual([
      90 * 86_400_000,
      12 * 3_600_000,
      1_800_000,
      45_000,
      14 * 86_400_000,
      500,
      5_400_000,
      250,
    ])
    expect([parseAge('soon'), parseAge('-1d'), parseAge(-5), parseAge(Number.NaN), parseAge('')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ])
  })
})
