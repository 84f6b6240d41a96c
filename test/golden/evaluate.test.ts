// evaluate(): the checks of a golden suite over a dataset, outside a test runner.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { defineCheck } from '../../src/checks/define.js'
import { evaluate } from '../../src/golden/evaluate.js'

const dir = mkdtempSync(join(tmpdir(), 'evaluate-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const concise = defineCheck({ name: 'concise', threshold: 1, run: (output, c) => (output.length < 2 * String(c.expected).length ? 1 : 0) })
const cases = [
  { id: 'a', input: 'refund?', expected: 'Within 30 days.' },
  { id: 'b', input: 'shipping?', expected: 'Free over $50.' },
]
const answers: Record<string, string> = { 'refund?': 'Within 30 days.', 'shipping?': 'Shipping is free on every order over fifty dollars, anywhere.' }

describe('evaluate', () => {
  test('returns the report: per-scorer aggregates, cases, checks, and ok with the failures', async () => {
    const report = await evaluate(cases, {
      task: (q: string) => answers[q]!,
      scorers: { concise, rougeL: null },
      thresholds: { passRate: 0.5, mean: { concise: 0.9 } },
    })
    expect(report.runner).toBe('evaluate')
    expect(report.suite).toBe('evaluate')
    expect(report.scorers.concise).toMatchObject({ count: 2, mean: 0.5 })
    expect(report.scorers.rougeL!.count).toBe(2)
    expect(report.cases.map((c) => [c.id, c.pass])).toEqual([
      ['a', true],
      ['b', false],
    ])
    expect(report.checks.map((c) => [c.name, c.ok])).toEqual([
      ['passRate', true],
      ['mean.concise', false],
    ])
    expect(report.ok).toBe(false)
    expect(report.failures).toEqual(['mean concise 0.500 is below 0.9. Cases below 0.9, worst first:\n  - b: concise 0  shipping?'])
  })

  test('without thresholds, a failing case is a failure', async () => {
    const report = await evaluate(cases, { task: (q: string) => answers[q]!, scorers: { concise } })
    expect(report.ok).toBe(false)
    expect(report.failures[0]).toContain('Golden case "b" failed.')
  })

  test('all good: ok and no failures; a dataset file loads like describeGolden loads it', async () => {
    const file = join(dir, 'cases.jsonl')
    writeFileSync(file, cases.map((c) => JSON.stringify(c)).join('\n'))
    const report = await evaluate(file, { task: (q: string) => answers[q]!.slice(0, 20), scorers: { concise } })
    expect([report.ok, report.failures, report.summary.passed]).toEqual([true, [], 2])
  })

  test('writes no file unless report.dir asks', async () => {
    await evaluate(cases, { task: () => 'x', scorers: { concise }, report: { dir } })
    expect(readdirSync(dir, { recursive: true }).some((f) => String(f).endsWith('.json'))).toBe(true)
  })

  test('runner-bound options are refused', async () => {
    await expect(evaluate(cases, { task: () => 'x', baseline: true } as never)).rejects.toThrow(
      'Failed to evaluate: "baseline" is an option of describeGolden only.',
    )
  })
})
