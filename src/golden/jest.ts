/**
 * `describeGolden` and `compareGolden` bound to Jest (exported from `expect-llm/jest`). Jest has no
 * annotations: each case test logs one line with its scores, and failures carry them in the message.
 * Jest collects tests synchronously, so `dataset` must be a file path or an array (load an async
 * source with `await loadDataset(loader)` at the top level of an ESM test file first).
 *
 * @module
 */
import { jestRunner } from '../runners/jest.js'
import { callSite, compareGoldenWith, describeGoldenWith, type RunnerAdapter } from './register.js'
import type { CompareOptions, GoldenOptions, GoldenScorers } from './types.js'
import { fmtScore } from './report.js'

// Jest has no annotations: a case's scores go to a log line.
const adapter: RunnerAdapter<undefined> = {
  runner: jestRunner,
  async publishCase(_ctx, suite, result, { console: print }) {
    if (!print) return
    const scores = Object.entries(result.scores).map(([n, s]) => `${n} ${fmtScore(s.score)} ${s.pass ? '✓' : '✗'}`)
    const runs = result.runs.length > 1 ? ` · ${result.passes}/${result.runs.length} runs passed${result.flaky ? ' (flaky)' : ''}` : ''
    console.log(`golden › ${suite} › ${result.c.id}: ${result.pass ? 'pass' : 'FAIL'} · ${scores.join(' · ') || 'no scorer'}${runs}`)
  },
  print: (text) => console.log(text),
}

/**
 * Turns a golden dataset into Jest tests: one per case, titled `<id>: <input preview>`, then an
 * `aggregate` test that checks `thresholds`, the `baseline` and the `budget`, prints a summary and
 * writes a JSON report under `.expect-llm/reports/`.
 *
 * @example
 * ```js
 * import { describeGolden } from 'expect-llm/jest'
 *
 * describeGolden('support bot', {
 *   dataset: 'fixtures/golden/handbook.jsonl',
 *   task: (input) => bot.answer(input),
 *   scorers: { tokenF1: 0.5, keywords: true },
 *   thresholds: { passRate: 0.9 },
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
 * Compares two or more variants on the same golden cases under Jest (see the Vitest flavour for the
 * statistics).
 *
 * @example
 * ```js
 * import { compareGolden } from 'expect-llm/jest'
 *
 * compareGolden('prompt v1 vs v2', {
 *   dataset: 'fixtures/golden/handbook.jsonl',
 *   variants: { v1: answerV1, v2: answerV2 },
 *   scorers: { tokenF1: 0.5 },
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
