/**
 * The Jest binding of {@link TestRunner}: Jest's globals are looked up when used (each test file has a
 * fresh global, and the CommonJS setup entry starts replay later than it registers the matchers), and
 * jest-circus's state gives the running test's errors and whether the file ran completely.
 *
 * @module
 */
import { formatMessage } from '../errors.js'
import { readExpectState, updateModeOf } from './state.js'
import type { RunCompleteness, TestRunner } from './types.js'

type Fn = (...args: any[]) => any

/** The globals Jest injects into a test file (`injectGlobals`, the default). */
export interface JestGlobals {
  expect: { extend: (matchers: object) => void; getState(): unknown }
  describe: (name: string, fn: () => void) => void
  test: Fn & { concurrent: Fn }
  afterEach: (fn: () => unknown) => void
  afterAll: (fn: () => unknown) => void
}

/**
 * Jest's global `expect` and hooks, for registering the matchers, or a clear error saying how to make
 * them available.
 *
 * @example
 * ```ts
 * jestGlobals().expect.extend(matchers)
 * ```
 */
export function jestGlobals(): JestGlobals {
  const g = globalThis as { expect?: { extend?: unknown } }
  if (typeof g.expect?.extend !== 'function') {
    throw new Error(
      formatMessage(
        'Failed to register matchers: no global "expect" found. List "expect-llm/jest" under setupFilesAfterEnv ' +
          '(not setupFiles) in your Jest config; with injectGlobals: false, call expect.extend(matchers) yourself with ' +
          "`import * as matchers from 'expect-llm/matchers'` and `import { expect } from '@jest/globals'`.",
      ),
    )
  }
  return g as unknown as JestGlobals
}

/** Jest's globals for defining tests (golden suites), or a clear error. */
function testGlobals(): JestGlobals {
  const g = globalThis as unknown as Partial<JestGlobals>
  if (typeof g.describe !== 'function' || typeof g.test !== 'function' || typeof g.expect?.getState !== 'function') {
    throw new Error(
      formatMessage(
        "Failed to define golden tests: Jest's globals (describe, test, expect) are not available. " +
          'Call describeGolden in a Jest test file, with injectGlobals enabled (the default).',
      ),
    )
  }
  return g as JestGlobals
}

interface CircusBlock {
  type?: string
  mode?: string
  status?: string
  errors?: unknown[]
  children?: unknown[]
}

/** jest-circus's state of the running file, if this is jest-circus. */
function circusState(): { rootDescribeBlock?: CircusBlock; currentlyRunningTest?: { errors?: unknown[] } } | undefined {
  const symbol = Object.getOwnPropertySymbols(globalThis).find((s) => s.description === 'JEST_STATE_SYMBOL')
  return symbol ? (globalThis as Record<symbol, ReturnType<typeof circusState>>)[symbol] : undefined
}

/** `true` unless the command line selects tests (`-t`, `--onlyChanged`, `--onlyFailures`, ...). */
export function jestArgvIsUnfiltered(argv: readonly string[] = process.argv): boolean {
  return !argv.some((a) => /^(?:-t|--testNamePattern|--onlyChanged|-o|--changedSince|--onlyFailures|-f|--lastCommit)(?:=|$)/.test(a))
}

/**
 * Whether a Jest file ran completely and green, from jest-circus's describe tree (the command line alone
 * when there is no tree).
 *
 * @example
 * ```ts
 * jestCompleteness({ children: [{ type: 'test', mode: 'skip' }] }, true) // { complete: false, reason: 'filtered' }
 * ```
 */
export function jestCompleteness(root: CircusBlock | undefined, unfiltered: boolean): RunCompleteness {
  if (!root) return unfiltered ? { complete: true } : { complete: false, reason: 'filtered' }
  let filtered = !unfiltered
  let failed = false
  const walk = (block: CircusBlock): void => {
    for (const child of block.children ?? []) {
      const c = child as CircusBlock
      if (c.type === 'describeBlock') {
        if (c.mode === 'skip' || c.mode === 'todo') filtered = true
        walk(c)
        continue
      }
      if (c.mode === 'skip' || c.mode === 'todo' || c.status === 'skip' || c.status === 'todo') filtered = true
      if ((c.errors?.length ?? 0) > 0) failed = true
    }
  }
  walk(root)
  return filtered ? { complete: false, reason: 'filtered' } : failed ? { complete: false, reason: 'failed' } : { complete: true }
}

const state = () => readExpectState((globalThis as { expect?: JestGlobals['expect'] }).expect)

// Hooks are plain functions without declared parameters: Jest treats a declared parameter as `done`.
export const jestRunner: TestRunner<undefined> = {
  name: 'jest',
  asyncDescribe: false,
  describe: (name, fn) => testGlobals().describe(name, fn as () => void),
  test(title, fn, { concurrent, timeout }) {
    const g = testGlobals()
    ;(concurrent ? g.test.concurrent : g.test)(title, () => fn(undefined), timeout)
  },
  afterEach(fn) {
    jestGlobals().afterEach(function expectLlmAfterEach() {
      return fn({ test: state().currentTestName, errors: circusState()?.currentlyRunningTest?.errors })
    })
  },
  afterAll(fn) {
    jestGlobals().afterAll(function expectLlmAfterAll() {
      return fn({ testPath: state().testPath, completeness: () => jestCompleteness(circusState()?.rootDescribeBlock, jestArgvIsUnfiltered()) })
    })
  },
  testPath: () => state().testPath,
  testName: () => state().currentTestName,
  updateMode: () => updateModeOf(state()),
  testOfMatcher: (matcherThis) => matcherThis.currentTestName,
  wrapsPromiseModifiers: false,
  annotate: async () => false,
  msw: {
    load: 'import',
    notLoadable:
      "msw is installed, but Jest runs test files in CommonJS mode and msw is ESM-only, so replay needs Jest's ESM mode. " +
      'Run Jest with NODE_OPTIONS=--experimental-vm-modules (Node >= 24.9 loads msw without it)',
    installHint: ' and run Jest in ESM mode (NODE_OPTIONS=--experimental-vm-modules)',
    serverPerFile: true,
  },
  recordCommand: (rel) => `npx jest ${rel}`,
}
