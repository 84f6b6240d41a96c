// A deterministic golden suite and comparison driven in-process through the runner-agnostic core
// (GoldenSuite, CompareSuite), whole or as one shard (EXPECT_LLM_SHARD), for the report tests.
import { join } from 'node:path'
import { CompareSuite } from '../../src/golden/compare.js'
import { validateCases } from '../../src/golden/dataset.js'
import type { CompareReport, GoldenReport } from '../../src/golden/report.js'
import { GoldenSuite } from '../../src/golden/suite.js'
import type { CompareOptions, GoldenCaseInput, GoldenOptions } from '../../src/golden/types.js'

const topics = ['refunds', 'shipping', 'returns', 'accounts']

/** `n` cases: a reference answer, keywords on every third, a tag each. */
export function makeCases(n: number): GoldenCaseInput<string, string>[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `q-${String(i + 1).padStart(3, '0')}`,
    input: `Question ${i + 1} about ${topics[i % topics.length]}?`,
    expected: `The answer to question ${i + 1} is that ${topics[i % topics.length]} take ${(i % 7) + 1} days.`,
    ...(i % 3 === 0 ? { keywords: [`${(i % 7) + 1} days`] } : {}),
    tags: [topics[i % topics.length] as string],
  }))
}

/**
 * The app under test: right, half right or wrong by case number, and for every fifth case a different
 * answer on each call (flaky under repeat). Latency and usage are the task's own figures.
 */
export function makeTask() {
  const calls = new Map<string, number>()
  return (input: string, c: { id: string; expected?: unknown }) => {
    const k = (calls.get(c.id) ?? 0) + 1
    calls.set(c.id, k)
    const i = Number(c.id.slice(2))
    const expected = String(c.expected)
    const variant = i % 5 === 0 ? k % 2 : i % 4
    const output =
      variant === 0
        ? expected
        : variant === 1
          ? expected.split(' ').slice(0, 7).join(' ')
          : variant === 2
            ? `${expected} Anything else?`
            : `Sorry, ${input.toLowerCase()}`
    return { output, latencyMs: 80 + ((i * 37) % 400) + k, usage: { inputTokens: 20 + i, outputTokens: 10 + (i % 9), model: 'gpt-4o-mini' } }
  }
}

export const goldenOptions = (): Omit<GoldenOptions<string, string>, 'dataset'> => ({
  task: makeTask(),
  scorers: { rougeL: 0.5, tokenF1: null, exact: true },
  repeat: 2,
  passAt: 1,
  thresholds: { passRate: 0.3, mean: { rougeL: 0.5 }, min: { tokenF1: 0 } },
  budget: { p95LatencyMs: 1000, maxTokens: 1_000_000, maxCostUsd: 1 },
  baseline: { tolerance: 0.05 },
})

/** Runs a golden suite through the core; `shard` as `i/n` runs that shard's slice. */
export async function runGolden(opts: {
  dir: string
  testPath: string
  cases: GoldenCaseInput<string, string>[]
  shard?: string
  options?: Partial<GoldenOptions<string, string>>
}): Promise<{ report: GoldenReport; failures: string[]; summary: string; reportFile?: string }> {
  const before = process.env.EXPECT_LLM_SHARD
  if (opts.shard) process.env.EXPECT_LLM_SHARD = opts.shard
  else delete process.env.EXPECT_LLM_SHARD
  try {
    const suite = new GoldenSuite('support bot', {
      dataset: opts.cases,
      report: { dir: join(opts.dir, 'reports'), console: false },
      ...goldenOptions(),
      ...opts.options,
    } as GoldenOptions<any, any, any>)
    suite.setCases(validateCases(opts.cases))
    for (const c of suite.cases) await suite.runCase(c)
    const outcome = suite.finish({ runner: 'vitest', testPath: opts.testPath, updateMode: 'new', env: {} })
    return { report: outcome.report, failures: outcome.failures, summary: outcome.summary, ...(outcome.reportFile ? { reportFile: outcome.reportFile } : {}) }
  } finally {
    if (before === undefined) delete process.env.EXPECT_LLM_SHARD
    else process.env.EXPECT_LLM_SHARD = before
  }
}

/** Runs a comparison of two variants through the core. */
export async function runCompare(opts: {
  dir: string
  testPath: string
  cases: GoldenCaseInput<string, string>[]
  shard?: string
  options?: Partial<CompareOptions<string, string>>
}): Promise<{ report: CompareReport; failure?: string; reportFile?: string }> {
  const before = process.env.EXPECT_LLM_SHARD
  if (opts.shard) process.env.EXPECT_LLM_SHARD = opts.shard
  else delete process.env.EXPECT_LLM_SHARD
  try {
    const good = makeTask()
    const suite = new CompareSuite('v1 vs v2', {
      dataset: opts.cases,
      variants: { v1: (input: string, c) => `Sorry, ${input}` + (Number(c.id.slice(2)) % 3 === 0 ? ` ${String(c.expected)}` : ''), v2: good },
      scorers: { rougeL: 0.5, exact: true },
      expect: { better: 'v2', scorer: 'rougeL' },
      resamples: 2000,
      report: { dir: join(opts.dir, 'reports'), console: false },
      ...opts.options,
    } as CompareOptions<any, any, any>)
    suite.setCases(validateCases(opts.cases))
    for (const c of suite.cases) await suite.runCase(c)
    const outcome = suite.finish({ runner: 'vitest', testPath: opts.testPath })
    return {
      report: outcome.report,
      ...(outcome.failure ? { failure: outcome.failure } : {}),
      ...(outcome.reportFile ? { reportFile: outcome.reportFile } : {}),
    }
  } finally {
    if (before === undefined) delete process.env.EXPECT_LLM_SHARD
    else process.env.EXPECT_LLM_SHARD = before
  }
}
