// describeGolden and compareGolden registered in this test file, in this process, the way a user's test
// file does: one test per case plus the final test, task.meta on each case test, the report written.
// The failing paths (a case or a threshold failing its test, baselines, Jest) need a run whose tests are
// allowed to fail: test/golden/vitest-runner.test.ts and jest-runner.test.ts run those in child processes.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test, type RunnerTestCase } from 'vitest'
import { compareGolden, describeGolden } from '../../src/golden/vitest.js'

const dir = mkdtempSync(join(tmpdir(), 'golden-in-process-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const answers: Record<string, string> = {
  'refund window?': 'You can ask for a refund within 30 days.',
  'ship to canada?': 'Yes, we ship to Canada in 5 to 7 business days.',
}
const dataset = [
  { id: 'refund', input: 'refund window?', expected: 'You can ask for a refund within 30 days.' },
  { id: 'canada', input: 'ship to canada?', expected: 'Yes, we ship to Canada in 5 to 7 business days.', keywords: ['Canada'] },
]
const tasks: RunnerTestCase[] = []

describeGolden('in-process bot', {
  dataset,
  task: (input: string) => ({ output: answers[input] ?? '', latencyMs: 40 }),
  scorers: { rougeL: 0.5, exact: true },
  thresholds: { passRate: 1, mean: { rougeL: 0.9 } },
  baseline: false,
  report: { dir, console: false },
})

compareGolden('in-process compare', {
  dataset,
  variants: { terse: () => 'Yes.', full: (input: string) => answers[input] ?? '' },
  scorers: { rougeL: null },
  report: { dir, console: false },
})

// Runs after the suites above (tests of a file run in order); reads what they left.
test('each case is a test with its scores in task.meta, the final test passed, and the reports hold every case', ({ task }) => {
  for (const t of task.file.tasks) if (t !== task) collect(t)
  const names = tasks.map((t) => t.name)
  expect(names).toEqual(['refund: refund window?', 'canada: ship to canada?', 'aggregate', 'refund: refund window?', 'canada: ship to canada?', 'comparison'])
  expect(tasks.every((t) => t.result?.state === 'pass')).toBe(true)
  expect(tasks[0]!.meta.golden).toEqual({
    suite: 'in-process bot',
    id: 'refund',
    pass: true,
    runs: 1,
    passes: 1,
    flaky: false,
    scores: { exact: { score: 1, threshold: 1, pass: true }, rougeL: { score: 1, threshold: 0.5, pass: true } },
    latencyMs: 40,
  })
  expect(tasks[1]!.meta.golden?.scores.keywords).toEqual({ score: 1, threshold: 1, pass: true })

  const files = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.json'))
    .sort()
  expect(files.map((f) => f.split('/').at(-1))).toEqual(['in-process-bot.json', 'in-process-compare.json'])
  const report = JSON.parse(readFileSync(join(dir, files.find((f) => f.endsWith('in-process-bot.json'))!), 'utf8'))
  expect(report.summary).toMatchObject({ cases: 2, ran: 2, passed: 2, failed: 0, passRate: 1 })
  expect(report.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok])).toEqual([
    ['passRate', true],
    ['mean.rougeL', true],
  ])
  const comparison = JSON.parse(readFileSync(join(dir, files.find((f) => f.endsWith('in-process-compare.json'))!), 'utf8'))
  expect(comparison.variants).toEqual(['terse', 'full'])
  expect(comparison.scorers[0].means.full).toBe(1)
})

function collect(t: RunnerTestCase | { type: string; tasks?: unknown[] }): void {
  if (t.type === 'test') tasks.push(t as RunnerTestCase)
  else for (const child of (t as { tasks: Array<RunnerTestCase> }).tasks ?? []) collect(child)
}
