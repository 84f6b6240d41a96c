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
import { caseTitle, GoldenSuite } from './suite.js'
import { mutationCheckFailure } from '../mutation/run.js'
import type { TestRunner } from '../runners/types.js'
import type { CompareOptions, DatasetSource, GoldenCase, GoldenOptions } from './types.js'

/** What a binding provides: the runner (`src/runners/`) and how a case's scores are shown. `C` is the test context type. */
export interface RunnerAdapter<C = unknown> {
  runner: TestRunner<C>
  /** Publishes a case's scores (annotations and `task.meta` in Vitest, a log line in Jest). */
  publishCase(ctx: C, suite: string, result: CaseResult, options: { console: boolean; annotate: boolean }): Promise<void>
  /** Prints the console summary. */
  print(text: string): void
}

function loadCases(adapter: RunnerAdapter<any>, source: DatasetSource<any, any, any>): GoldenCase[] | Promise<GoldenCase[]> {
  if (typeof source === 'function') {
    if (!adapter.runner.asyncDescribe) {
      throw new TypeError(
        formatMessage(
          'Failed to load the golden dataset: Jest collects tests synchronously, so "dataset" cannot be a loader function. ' +
            'Load it first with `const cases = await loadDataset(loader)` at the top level of an ESM test file ' +
            '(or load a file path), and pass the cases.',
        ),
      )
    }
    return loadDataset(source)
  }
  return loadDatasetSync(source)
}

/**
 * The user's `describeGolden(...)` / `compareGolden(...)` call, captured when it is made, so that the
 * suite's failures point there (the runner's code frame shows the test file) rather than into this library.
 *
 * @example
 * ```ts
 * export function describeGolden(name, options) {
 *   describeGoldenWith(adapter, name, options, callSite(describeGolden))
 * }
 * ```
 */
export function callSite(fn: (...args: any[]) => unknown): Error {
  const site = new Error()
  // Stryker disable next-line OptionalChaining: equivalent on Node, which always has Error.captureStackTrace (the ?. guards other engines)
  Error.captureStackTrace?.(site, fn)
  return site
}

/** An error with `message` whose stack is the call site's (the user's describeGolden line first). */
function failureAt(message: string, site: Error | undefined): Error {
  const error = new Error(message)
  const frames = site?.stack?.split('\n').slice(1).join('\n')
  if (frames) error.stack = `${error.name}: ${message}\n${frames}`
  return error
}

/** What differs between `describeGolden` and `compareGolden` when their tests are registered. */
interface SuiteTests<C> {
  /** The suite (`GoldenSuite` or `CompareSuite`): `setCases` keeps the cases left after `filter`. */
  suite: {
    setCases(cases: GoldenCase[]): void
    readonly cases: readonly GoldenCase[]
    readonly concurrency: number
    readonly results: ReadonlyMap<string, unknown>
  }
  /** The body of one case's test. */
  runCase(c: GoldenCase, ctx: C): Promise<void>
  /** Registers more tests after the cases' and before the final one (the `mutation` block). */
  moreTests?(): void
  /** The final test's title (`aggregate`, `comparison`). */
  finalTitle: string
  /** Computes the outcome: its console summary and the final test's failure, if any. */
  finish(ctx?: C): { summary: string; failure: string | undefined }
}

/**
 * Registers a golden suite: a `describe` named after it, one test per case, then the final test that
 * prints the summary and checks the outcome; if that test was filtered out (`-t`), the summary of the
 * cases that ran is still produced after the suite.
 */
function registerSuite<C>(
  adapter: RunnerAdapter<C>,
  name: string,
  options: { dataset: DatasetSource<any, any, any>; timeout?: number; report?: GoldenOptions['report'] },
  tests: SuiteTests<C>,
  site: Error | undefined,
): void {
  const print = options.report === false || options.report?.console === false ? () => undefined : adapter.print
  const body = (cases: GoldenCase[]): void => {
    const { suite } = tests
    suite.setCases(cases)
    for (const c of suite.cases) {
      const run = (ctx: C) =>
        tests.runCase(c, ctx).catch((error: unknown) => {
          throw error instanceof CaseFailure ? failureAt(error.message, site) : error
        })
      adapter.runner.test(caseTitle(c), run, {
        concurrent: suite.concurrency > 1,
        ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      })
    }
    tests.moreTests?.()
    let finished = false
    adapter.runner.test(
      tests.finalTitle,
      async (ctx) => {
        finished = true
        const { summary, failure } = tests.finish(ctx)
        print(summary)
        if (failure) throw failureAt(failure, site)
      },
      { concurrent: false },
    )
    adapter.runner.afterAll(() => {
      // The final test was filtered out (-t): still report the cases that ran.
      if (finished || suite.results.size === 0) return
      print(tests.finish().summary)
    })
  }
  adapter.runner.describe(name, () => {
    const loaded = loadCases(adapter, options.dataset)
    if (loaded instanceof Promise) return loaded.then(body)
    body(loaded)
    return undefined
  })
}

/** A golden case's own failure (scores below threshold, errors), as opposed to an error of the runner. */
class CaseFailure extends Error {}

/** `describeGolden` for a runner; `site` is the user's call ({@link callSite}), where failures point. */
export function describeGoldenWith<C>(adapter: RunnerAdapter<C>, name: string, options: GoldenOptions<any, any, any>, site?: Error): void {
  const suite = new GoldenSuite(name, options)
  const publish = { console: options.report !== false && options.report?.console !== false, annotate: options.annotate !== false }
  registerSuite(
    adapter,
    name,
    options,
    {
      suite,
      async runCase(c, ctx) {
        const result = await suite.runCase(c)
        await adapter.publishCase(ctx, name, result, publish)
        const failure = suite.caseFailure(result)
        if (failure) throw new CaseFailure(failure)
      },
      moreTests: () => registerMutationTests(adapter, suite, options, site),
      finalTitle: 'aggregate',
      finish(ctx) {
        const { runner } = adapter
        const outcome = suite.finish({ runner: runner.name, testPath: runner.testPath(ctx), updateMode: runner.updateMode(ctx) })
        return { summary: outcome.summary, failure: GoldenSuite.failureMessage(name, outcome) }
      },
    },
    site,
  )
}

/**
 * With `mutate` (or `expect-llm mutate`): a `mutation` block after the cases: `score the mutants`, which
 * runs every check on every mutant, then one test per check, titled by its key, which fails when its check
 * errored on a mutant (a replay miss) or is below `minScore`.
 */
function registerMutationTests<C>(adapter: RunnerAdapter<C>, suite: GoldenSuite, options: GoldenOptions<any, any, any>, site: Error | undefined): void {
  if (!suite.mutation) return
  const { checks, skipped } = suite.mutationChecks()
  const timeout = { timeout: suite.mutationTimeout() }
  adapter.runner.describe('mutation', () => {
    if (checks.length === 0) {
      adapter.runner.test(
        'no mutants',
        async () => {
          const why =
            skipped.length > 0
              ? `the checks of its cases do not score outputs (${skipped.map((s) => `${s.check}: ${s.reason}`).join('; ')})`
              : 'no case has a reference answer or is unanswerable'
          throw failureAt(
            formatMessage(
              `Failed to run the mutation testing of "${suite.name}": ${why}. Give the cases an "expected" answer and the suite a check that scores it.`,
            ),
            site,
          )
        },
        { concurrent: false },
      )
      return
    }
    // The checks score every mutant here, so that what happens during the run (a replay miss fails the
    // test that is running) is this test's, not the first check's.
    adapter.runner.test('score the mutants', async (ctx) => void (await suite.runMutation(adapter.runner.testPath(ctx))), { concurrent: false, ...timeout })
    for (const key of checks) {
      adapter.runner.test(
        key,
        async (ctx) => {
          const report = await suite.runMutation(adapter.runner.testPath(ctx))
          const failure = mutationCheckFailure(report, key)
          if (failure) throw failureAt(failure, site)
        },
        { concurrent: false, ...timeout },
      )
    }
  })
}

/** `compareGolden` for a runner; `site` is the user's call ({@link callSite}), where failures point. */
export function compareGoldenWith<C>(adapter: RunnerAdapter<C>, name: string, options: CompareOptions<any, any, any>, site?: Error): void {
  const suite = new CompareSuite(name, options)
  registerSuite(
    adapter,
    name,
    options,
    {
      suite,
      async runCase(c) {
        const errors = suite.caseErrors(await suite.runCase(c))
        if (errors) throw new CaseFailure(errors)
      },
      finalTitle: 'comparison',
      finish(ctx) {
        const outcome = suite.finish({ runner: adapter.runner.name, testPath: adapter.runner.testPath(ctx) })
        return { summary: outcome.summary, failure: outcome.failure }
      },
    },
    site,
  )
}
