// describeGolden under Jest 30 in ESM mode, against the built package (dist/, as users get it), in a
// child process: the test list, the exit code, the per-case score lines, the report and the baseline.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { copyInto, repo, runGoldenJest, writeGoldenJestConfig } from './helpers.js'

// GOLDEN_DIST lets a developer point at a build outside dist/ (CI builds dist/ before the tests).
const dist = process.env.GOLDEN_DIST ?? join(repo, 'dist')
const dir = mkdtempSync(join(tmpdir(), 'golden-jest-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('one test per case and an aggregate under Jest ESM, scores in the output, report and baseline written', async () => {
  copyInto(dir, join(repo, 'test/golden/child/basic.golden.test.mjs'))
  writeGoldenJestConfig(dir, dist)
  const run = await runGoldenJest(dir, { GOLDEN_DATASET: join(repo, 'fixtures/golden/handbook.jsonl') })
  expect(run.code, run.output).toBe(0)
  expect(run.json.testResults[0]!.assertionResults.map((r) => [r.title, r.status])).toEqual([
    ['refund-window: How long do I have to ask for a refund?', 'passed'],
    ['shipping-cost: How much is shipping?', 'passed'],
    ["ceo-address: What is the CEO's home address?", 'passed'],
    ['case-b2784616: Do you ship to Canada?', 'passed'],
    ['aggregate', 'passed'],
  ])
  expect(run.output).toContain('golden › handbook bot under jest › shipping-cost: FAIL · tokenF1 0.20 ✗')
  expect(run.output).toContain('golden › handbook bot under jest › ceo-address: FAIL · refusal 0 ✗')
  expect(run.output).toContain('pass rate: 2/4 (50.0%)')
  const report = JSON.parse(readFileSync(join(dir, '.expect-llm/reports/basic.golden.test.mjs/handbook-bot-under-jest.json'), 'utf8'))
  expect(report).toMatchObject({ runner: 'jest', summary: { ran: 4, passed: 2 }, baseline: { status: 'created' } })
  expect(existsSync(join(dir, '__golden__/basic.golden.test.mjs/handbook-bot-under-jest.json'))).toBe(true)
}, 60_000)

test('EXPECT_LLM_SHARD under Jest: each shard runs its slice of the cases, expect-llm report --merge puts them back together', async () => {
  // Runs after the test above, in the same folder: its whole-run report and baseline are there.
  const { runReportCli } = await import('../../src/report/cli.js')
  const titles: string[][] = []
  for (const shard of ['1/2', '2/2']) {
    const run = await runGoldenJest(dir, { GOLDEN_DATASET: join(repo, 'fixtures/golden/handbook.jsonl'), EXPECT_LLM_SHARD: shard })
    expect(run.code, run.output).toBe(0)
    titles.push(run.json.testResults[0]!.assertionResults.map((r) => r.title).filter((t) => t !== 'aggregate'))
  }
  expect(titles[0]!.length + titles[1]!.length).toBe(4)
  expect(titles[0]!.filter((t) => titles[1]!.includes(t))).toEqual([])
  const lines: string[] = []
  const code = await runReportCli(['--merge', join(dir, '.expect-llm/reports'), '--root', dir, '--out', join(dir, 'merged.html')], {
    out: (l) => lines.push(l),
    err: (l) => lines.push(l),
  })
  expect(lines[0]).toBe('✓ handbook bot under jest (basic.golden.test.mjs): merged from 2 shards, 4 cases, pass rate 50.0%')
  expect(code, lines.join('\n')).toBe(0)
}, 60_000)
