// evaluate's option checks and its mutation gate, and the mutation run of a GoldenSuite: its timeout, its
// single run shared by the mutation tests, its model calls kept out of the suite's usage, and its EXPECT_LLM_MUTATE_OUT line.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { resetConfig } from '../../src/config.js'
import { clearEmbeddingCache } from '../../src/embedders/batch.js'
import { getLedger, recordModelUsage, resetLedger } from '../../src/ledger.js'
import { validateCases } from '../../src/golden/dataset.js'
import { evaluate } from '../../src/golden/evaluate.js'
import { GoldenSuite } from '../../src/golden/suite.js'

beforeEach(() => {
  resetLedger()
  resetConfig()
})
afterEach(() => vi.unstubAllEnvs())

const cases = [{ id: 'refund', input: 'refund?', expected: 'You can ask for a refund within 30 days.' }]
const task = () => 'You can ask for a refund within 30 days.'

describe('evaluate', () => {
  test('options that are not an object, and each runner-bound option, are refused with the fix', async () => {
    await expect(evaluate(cases, null as never)).rejects.toThrow(
      new TypeError('[expect-llm] Failed to evaluate: the options must be an object, got null. Pass { task, scorers }.'),
    )
    await expect(evaluate(cases, 'x' as never)).rejects.toThrow('Failed to evaluate: the options must be an object, got a string ("x")')
    for (const key of ['annotate', 'timeout']) {
      await expect(evaluate(cases, { task, [key]: undefined } as never)).rejects.toThrow(
        `[expect-llm] Failed to evaluate: "${key}" is an option of describeGolden only. Leave it out.`,
      )
    }
    await expect(evaluate(cases, { task, baseline: false } as never)).rejects.toThrow(
      '[expect-llm] Failed to evaluate: "baseline" is an option of describeGolden only. Compare reports yourself, or run the suite with describeGolden for a baseline.',
    )
  })

  test('the report is named "evaluate" unless given a name, runs under the "evaluate" runner and writes no file by default', async () => {
    const report = await evaluate(cases, { task, scorers: { exact: true } })
    expect(report).toMatchObject({ suite: 'evaluate', runner: 'evaluate', file: null, ok: true, failures: [], baseline: null })
    expect((await evaluate(cases, { task, name: 'nightly' })).suite).toBe('nightly')
  })

  test('with mutate, the mutation section is in the report and a check below minScore is a failure', async () => {
    const weak = await evaluate(cases, { task, scorers: { rougeL: 0.1 }, mutate: { minScore: 1 } })
    expect(weak.mutation?.checks.map((c) => c.check)).toEqual(['rougeL'])
    expect(weak.ok).toBe(false)
    expect(weak.failures).toHaveLength(1)
    expect(weak.failures[0]).toMatch(/^\[expect-llm\] Mutation score of rougeL is 0\.\d+, below minScore 1: /)
    const strong = await evaluate(cases, { task, scorers: { exact: true }, mutate: { minScore: 1 } })
    expect(strong.mutation?.checks.map((c) => [c.check, c.score])).toEqual([['exact', 1]])
    expect(strong).toMatchObject({ ok: true, failures: [] })
  })

  test('case failures come first, then the gates', async () => {
    const report = await evaluate(cases, { task: () => 'no', scorers: { exact: true }, thresholds: { mean: { exact: 1 } } })
    expect(report.failures).toHaveLength(2)
    expect(report.failures[0]).toMatch(/^\[expect-llm\] Golden case "refund" failed\./)
    expect(report.failures[1]).toMatch(/^mean exact 0\.000 is below 1\./)
  })
})

describe('the mutation run of a suite', () => {
  function suite(options: Record<string, unknown> = {}) {
    const s = new GoldenSuite('bot', { dataset: [], task, scorers: { exact: true }, mutate: true, report: false, ...options })
    s.setCases(validateCases(cases))
    return s
  }

  test('without mutate there is no mutation run, and asking for one is refused', async () => {
    const s = new GoldenSuite('bot', { dataset: [], task, report: false })
    expect(s.mutation).toBeUndefined()
    expect(s.mutationTimeout()).toBe(0)
    await expect(s.runMutation()).rejects.toThrow('the suite runs without mutate')
  })

  test('EXPECT_LLM_MUTATE=1 turns it on without the option', () => {
    vi.stubEnv('EXPECT_LLM_MUTATE', '1')
    expect(new GoldenSuite('bot', { dataset: [], task, report: false }).mutation).toMatchObject({ source: 'env' })
  })

  test('its timeout: the per-case timeout (30 s by default) for each mutant, shared among the concurrency slots', () => {
    const one = suite()
    const mutants = one.mutationTimeout() / 30_000
    expect(Number.isInteger(mutants)).toBe(true)
    expect(mutants).toBeGreaterThan(1)
    expect(suite({ timeout: 1000 }).mutationTimeout()).toBe(1000 * mutants)
    expect(suite({ timeout: 1000, concurrency: 2 }).mutationTimeout()).toBe(1000 * Math.ceil(mutants / 2))
    expect(suite({ timeout: 1000, concurrency: 10_000 }).mutationTimeout()).toBe(1000)
  })

  test('its timeout counts only the mutants of the chosen operators', () => {
    const all = suite({ timeout: 1000 }).mutationTimeout()
    const number = suite({ timeout: 1000, mutate: { operators: ['number'] } }).mutationTimeout()
    expect(number).toBeGreaterThan(0)
    expect(number).toBeLessThan(all)
  })

  test('with no case to mutate, the timeout is one per-case timeout', () => {
    const s = new GoldenSuite('bot', { dataset: [], task, scorers: { exact: true }, mutate: true, report: false, timeout: 700 })
    s.setCases(validateCases([{ id: 'q', input: 'no reference' }]))
    expect(s.mutationTimeout()).toBe(700)
  })

  test("a mutation run before any case: the semantic check's warm-up embeds the suite's references", async () => {
    clearEmbeddingCache()
    const embedded: string[][] = []
    const embedder = (texts: string[]) => {
      embedded.push(texts)
      return texts.map((t) => (t.includes('30 days') ? [1, 0] : [0, 1]))
    }
    const s = suite({ scorers: { semantic: { embedder } } })
    await s.runMutation()
    expect(embedded[0]).toEqual(['You can ask for a refund within 30 days.'])
  })

  test('a mutation run before any case starts the suite: earlier model calls stay out of its usage', async () => {
    recordModelUsage({ kind: 'judge', model: 'gpt-4o-mini', inputTokens: 100, outputTokens: 10 })
    const s = suite()
    await s.runMutation()
    const { report } = s.finish({ runner: 'vitest', testPath: undefined, updateMode: 'none' })
    expect(report.usage.evaluator.calls).toBe(0)
    expect(report.usage.total.totalTokens).toBe(0)
  })

  test('EXPECT_LLM_MUTATE_OUT: the run appends the suite, its test file (relative) and its section as one JSON line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mutate-out-'))
    try {
      const out = join(dir, 'out.jsonl')
      vi.stubEnv('EXPECT_LLM_MUTATE_OUT', out)
      const report = await suite().runMutation(join(process.cwd(), 'test', 'bot.test.ts'))
      expect(readFileSync(out, 'utf8')).toBe(`${JSON.stringify({ suite: 'bot', file: 'test/bot.test.ts', mutation: report })}\n`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('runs once for every test that asks; its judge calls are in its own usage, not in the suite budget', async () => {
    let scored = 0
    const s = suite({
      scorers: {
        judge: {
          criteria: 'Correct.',
          judge: () => {
            scored++
            recordModelUsage({ kind: 'judge', model: 'gpt-4o-mini', inputTokens: 100, outputTokens: 10 })
            return { score: 1, reasoning: 'ok' }
          },
        },
      },
      budget: { maxTokens: 0 },
    })
    await s.runCase(s.cases[0]!)
    const afterCase = getLedger().entries.length
    const [first, second] = await Promise.all([s.runMutation(), s.runMutation()])
    expect(second).toBe(first)
    expect(scored).toBeGreaterThan(1)
    const mutationCalls = getLedger().entries.length - afterCase
    expect(first.usage).toMatchObject({ calls: mutationCalls, inputTokens: 100 * mutationCalls, outputTokens: 10 * mutationCalls })
    const outcome = s.finish({ runner: 'vitest', testPath: undefined, updateMode: 'none' })
    expect(outcome.report.usage.evaluator.calls).toBe(afterCase)
    expect(outcome.report.mutation).toBe(first)
  })
})
