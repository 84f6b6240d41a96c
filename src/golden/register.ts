/**
 * Registers golden suites with a test runner through a small adapter, so that the Vitest and Jest
 * bindings share everything but the runner calls: one test per case (`<id>: <input preview>`), then
 * one aggregate test; the report is written by the aggregate test, or after the suite when that test
 * was filtered out.
 *
 * @module
 */
import { formatMessage } from '../errors.js'
import { CompareSuite } from './compare.js'
import { loadDataset, loadDatasetSync } from './dataset.js'
import type { CaseResult } from './run.js'
import { caseTitle, GoldenSuite, type UpdateMode } from './suite.js'
import type { CompareOptions, DatasetSource, GoldenCase, GoldenOptions } from './types.js'

/** The runner calls a binding provides. `C` is the test context type. */
export interface RunnerAdapter<C = unknown> {
  runner: 'vitest' | 'jest'
  describe(name: string, fn: () => void | Promise<void>): void
  test(title: string, fn: (ctx: C) => Promise<void>, options: { concurrent: boolean; timeout?: number }): void
  afterAll(fn: () => void | Promise<void>): void
  /** Whether `describe` may be async (Vitest: yes; Jest: no). */
  asyncDescribe: boolean
  testPath(ctx?: C): string | undefined
  updateMode(ctx?: C): UpdateMode
  /** Publishes a case's scores (annotations and `task.meta` in Vitest, a log line in Jest). */
  publishCase(ctx: C, suite: string, result: CaseResult, options: { console: boolean; annotate: boolean }): Promise<void>
  /** Prints the console summary. */
  print(text: string): void
}

function loadCases(adapter: RunnerAdapter<any>, source: DatasetSource<any, any, any>): GoldenCase[] | Promise<GoldenCase[]> {
  if (typeof source === 'function') {
    if (!adapter.asyncDescribe) {
      throw new TypeError(
        formatMessage(
          'Failed to load the golden dataset: Jest collects tests synchronously, so "dataset" cannot be a loader function. Load it first with `const cases = await loadDataset(loader)` at the top level of an ESM test file (or load a file path), and pass the cases.',
        ),
      )
    }
    return loadDataset(source)
  }
  return loadDatasetSync(source)
}

function register(adapter: RunnerAdapter<any>, name: string, body: (cases: GoldenCase[]) => void, source: DatasetSource<any, any, any>): void {
  adapter.describe(name, () => {
    const loaded = loadCases(adapter, source)
    if (loaded instanceof Promise) return loaded.then(body)
    body(loaded)
    return undefined
  })
}

/** `describeGolden` for a runner. */
export function describeGoldenWith(adapter: RunnerAdapter<any>, name: string, options: GoldenOptions<any, any, any>): void {
  const suite = new GoldenSuite(name, options)
  const print = options.report === false || options.report?.console === false ? () => undefined : adapter.print
  register(
    adapter,
    name,
    (cases) => {
      suite.setCases(cases)
      for (const c of suite.cases) {
        adapter.test(
          caseTitle(c),
          async (ctx) => {
            const result = await suite.runCase(c)
            await adapter.publishCase(ctx, name, result, { console: options.report !== false && options.report?.console !== false, annotate: options.annotate !== false })
            const failure = suite.caseFailure(result)
            if (failure) throw new Error(failure)
          },
          { concurrent: suite.concurrency > 1, ...(options.timeout !== undefined ? { timeout: options.timeout } : {}) },
        )
      }
      let finished = false
      adapter.test(
        'aggregate',
        async (ctx) => {
          finished = true
          const outcome = suite.finish({ runner: adapter.runner, testPath: adapter.testPath(ctx), updateMode: adapter.updateMode(ctx) })
          print(outcome.summary)
          const message = GoldenSuite.failureMessage(name, outcome)
          if (message) throw new Error(message)
        },
        { concurrent: false },
      )
      adapter.afterAll(() => {
        // The aggregate test was filtered out (-t): still write the report of the cases that ran.
        if (finished || suite.results.size === 0) return
        const outcome = suite.finish({ runner: adapter.runner, testPath: adapter.testPath(), updateMode: adapter.updateMode() })
        print(outcome.summary)
      })
    },
    options.dataset,
  )
}

/** `compareGolden` for a runner. */
export function compareGoldenWith(adapter: RunnerAdapter<any>, name: string, options: CompareOptions<any, any, any>): void {
  const suite = new CompareSuite(name, options)
  const print = options.report === false || options.report?.console === false ? () => undefined : adapter.print
  register(
    adapter,
    name,
    (cases) => {
      suite.setCases(cases)
      for (const c of suite.cases) {
        adapter.test(
          caseTitle(c),
          async () => {
            const result = await suite.runCase(c)
            const errors = suite.caseErrors(result)
            if (errors) throw new Error(errors)
          },
          { concurrent: suite.concurrency > 1, ...(options.timeout !== undefined ? { timeout: options.timeout } : {}) },
        )
      }
      let finished = false
      adapter.test(
        'comparison',
        async (ctx) => {
          finished = true
          const outcome = suite.finish({ runner: adapter.runner, testPath: adapter.testPath(ctx) })
          print(outcome.summary)
          if (outcome.failure) throw new Error(outcome.failure)
        },
        { concurrent: false },
      )
      adapter.afterAll(() => {
        if (finished || suite.results.size === 0) return
        print(suite.finish({ runner: adapter.runner, testPath: adapter.testPath() }).summary)
      })
    },
    options.dataset,
  )
}
