/**
 * The Vitest binding of {@link TestRunner}: loaded by the `expect-llm/vitest` setup entry and the golden
 * suites bound to Vitest, inside a Vitest worker.
 *
 * @module
 */
import { afterAll, afterEach, describe, expect, test, type TestContext } from 'vitest'
import { readExpectState, updateModeOf } from './state.js'
import type { EndedFile, RunCompleteness, TestRunner } from './types.js'

type Task = { type?: string; mode?: string; tasks?: unknown[]; result?: { state?: string; errors?: unknown[] }; file?: { filepath?: string } }
type FileTask = { tasks?: unknown[]; filepath?: string; file?: { filepath?: string } }

/** Finds the file/suite task among `afterAll` arguments (Vitest 4 passes `(suite)`, Vitest 5 `(context, suite)`). */
export function findSuite(args: readonly unknown[]): FileTask | undefined {
  return args.find((a) => a !== null && typeof a === 'object' && Array.isArray((a as { tasks?: unknown }).tasks)) as FileTask | undefined
}

/**
 * Whether a Vitest file ran completely and green: no test skipped, filtered out, `todo`, or failed.
 *
 * @example
 * ```ts
 * vitestCompleteness({ tasks: [{ type: 'test', mode: 'skip' }] }) // { complete: false, reason: 'filtered' }
 * ```
 */
export function vitestCompleteness(suite: { tasks?: unknown[] } | undefined): RunCompleteness {
  if (!suite) return { complete: false, reason: 'filtered' }
  let filtered = false
  let failed = false
  const walk = (tasks: unknown[]): void => {
    for (const t of tasks) {
      const task = t as Task
      if (task.mode && task.mode !== 'run' && task.mode !== 'queued') filtered = true
      if (task.result?.state === 'fail') failed = true
      if (task.type === 'suite') walk(task.tasks ?? [])
    }
  }
  walk(suite.tasks ?? [])
  return filtered ? { complete: false, reason: 'filtered' } : failed ? { complete: false, reason: 'failed' } : { complete: true }
}

const state = (ctx?: TestContext) => readExpectState(ctx?.expect ?? expect)

// Hooks are plain functions without declared parameters: Vitest 5 rejects a hook whose first parameter is
// not an object pattern, and Vitest 4 passes the suite first to afterAll while Vitest 5 passes it second.
export const vitestRunner: TestRunner<TestContext> = {
  name: 'vitest',
  asyncDescribe: true,
  describe: (name, fn) => describe(name, fn as () => void),
  test(title, fn, { concurrent, timeout }) {
    ;(concurrent ? test.concurrent : test)(title, (ctx) => fn(ctx), timeout)
  },
  afterEach(fn) {
    afterEach(function expectLlmAfterEach() {
      // eslint-disable-next-line prefer-rest-params
      const task = (arguments[0] as { task?: Task } | undefined)?.task
      return fn({ test: task, errors: task?.result?.errors })
    })
  },
  afterAll(fn) {
    afterAll(function expectLlmAfterAll() {
      // eslint-disable-next-line prefer-rest-params
      const suite = findSuite([...arguments])
      const ended: EndedFile = { testPath: state().testPath ?? suite?.filepath ?? suite?.file?.filepath, completeness: () => vitestCompleteness(suite) }
      return fn(ended)
    })
  },
  testPath: (ctx) => state(ctx).testPath ?? ctx?.task.file?.filepath,
  testName: () => state().currentTestName,
  updateMode: (ctx) => updateModeOf(state(ctx)),
  testOfMatcher: (matcherThis) => matcherThis.task,
  wrapsPromiseModifiers: true,
  async annotate(ctx, { key, meta, text, type }) {
    ;(ctx.task.meta as Record<string, unknown>)[key] = meta
    if (text !== undefined && typeof ctx.annotate === 'function') await ctx.annotate(text, type)
    return true
  },
  msw: { load: 'require', installHint: '', serverPerFile: false },
  recordCommand: (rel) => `npx vitest run ${rel}`,
}
