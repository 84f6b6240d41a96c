/**
 * `describeGolden` and `compareGolden` bound to Vitest (exported from `expect-llm/vitest`). Each case is
 * a test (`test.concurrent` when `concurrency` > 1); its scores go to a test annotation (shown by the
 * verbose, JUnit, GitHub Actions and TAP reporters) and to `task.meta.golden` (for custom reporters,
 * through `testCase.meta()`).
 *
 * @module
 */
import type { TestContext } from 'vitest'
import { vitestRunner } from '../runners/vitest.js'
import { fmtScore } from './report.js'
import { callSite, compareGoldenWith, describeGoldenWith, type RunnerAdapter } from './register.js'
import type { CaseResult } from './run.js'
import type { CompareOptions, GoldenOptions, GoldenScorers } from './types.js'

/** What `describeGolden` puts in `task.meta.golden` of each case test. */
export interface GoldenTaskMeta {
  suite: string
  id: string
  pass: boolean
  runs: number
  passes: number
  flaky: boolean
  scores: Record<string, { score: number; threshold: number | null; pass: boolean }>
  latencyMs: number
}

declare module 'vitest' {
  interface TaskMeta {
    /** Set by `describeGolden` on each case test. */
    golden?: GoldenTaskMeta
  }
}

/** One line: `rougeL 0.62 ✓ · semantic 0.71 ✗ (< 0.80)`. */
export function scoreLine(result: CaseResult): string {
  const parts = Object.entries(result.scores).map(
    ([name, s]) => `${name} ${fmtScore(s.score)} ${s.pass ? '✓' : `✗${s.threshold !== null ? ` (< ${fmtScore(s.threshold)})` : ''}`}`,
  )
  const runs = result.runs.length > 1 ? ` · ${result.passes}/${result.runs.length} runs passed${result.flaky ? ' (flaky)' : ''}` : ''
  return `${parts.join(' · ') || 'no scorer'}${runs}`
}

const adapter: RunnerAdapter<TestContext> = {
  runner: vitestRunner,
  async publishCase(ctx, suite, result, { annotate }) {
    const meta: GoldenTaskMeta = {
      suite,
      id: result.c.id,
      pass: result.pass,
      runs: result.runs.length,
      passes: result.passes,
      flaky: result.flaky,
      scores: Object.fromEntries(Object.entries(result.scores).map(([n, s]) => [n, { score: s.score, threshold: s.threshold, pass: s.pass }])),
      latencyMs: result.runs.reduce((s, r) => s + r.latencyMs, 0) / result.runs.length,
    }
    await vitestRunner.annotate(ctx, { key: 'golden', meta, type: 'golden', ...(annotate ? { text: scoreLine(result) } : {}) })
  },
  print: (text) => console.log(text),
}

/**
 * Turns a golden dataset into tests: one per case, titled `<id>: <input preview>`, then an `aggregate`
 * test that checks `thresholds`, the `baseline` and the `budget`, prints a summary and writes a JSON
 * report under `.expect-llm/reports/`. Call it at the top level of a test file or inside `describe`.
 *
 * @example
 * ```ts
 * import { describeGolden } from 'expect-llm/vitest'
 *
 * describeGolden('support bot', {
 *   dataset: 'fixtures/golden/handbook.jsonl',
 *   task: async (input) => bot.answer(input),
 *   scorers: { rougeL: 0.3, semantic: 0.8 },
 *   thresholds: { passRate: 0.9 },
 *   baseline: { tolerance: 0.05 },
 * })
 * ```
 */
export function describeGolden<I = unknown, E = unknown, M = Record<string, unknown>, S extends GoldenScorers = GoldenScorers>(
  name: string,
  options: GoldenOptions<I, E, M, S>,
): void {
  describeGoldenWith(adapter, name, options as GoldenOptions<any, any, any>, callSite(describeGolden))
}

/**
 * Runs two or more variants (prompt v1 vs v2, model A vs B) on the same golden cases and compares
 * them: per scorer each variant's mean, the mean paired difference with a seeded 95% paired-bootstrap
 * interval, wins/ties/losses, and McNemar's test on pass/fail. With `expect: { better }` the
 * `comparison` test fails unless the interval lies above `minDelta` (default 0).
 *
 * @example
 * ```ts
 * import { compareGolden } from 'expect-llm/vitest'
 *
 * compareGolden('prompt v1 vs v2', {
 *   dataset: 'fixtures/golden/handbook.jsonl',
 *   variants: { v1: (q) => answer(q, promptV1), v2: (q) => answer(q, promptV2) },
 *   scorers: { semantic: 0.8 },
 *   expect: { better: 'v2' },
 * })
 * ```
 */
export function compareGolden<I = unknown, E = unknown, M = Record<string, unknown>, S extends GoldenScorers = GoldenScorers>(
  name: string,
  options: CompareOptions<I, E, M, S>,
): void {
  compareGoldenWith(adapter, name, options as unknown as CompareOptions<any, any, any>, callSite(compareGolden))
}
