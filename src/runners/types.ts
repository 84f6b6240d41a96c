/**
 * What expect-llm needs from a test runner, in one interface: replay, golden suites and the await
 * tracking of async matchers talk to Vitest and Jest only through a {@link TestRunner}
 * (`src/runners/vitest.ts`, `src/runners/jest.ts`), so that no other module branches on the runner.
 *
 * @module
 */

/** The runners expect-llm binds to. */
export type RunnerName = 'vitest' | 'jest'

/** How snapshot-style files (golden baselines) may be written: the runner's `-u` / CI setting. */
export type UpdateMode = 'all' | 'new' | 'none'

/** Whether a test file's run can tell which fixtures are unused: complete (every test ran) and green. */
export type RunCompleteness = { complete: true } | { complete: false; reason: 'filtered' | 'failed' }

/** What the runner's `expect.getState()` tells about the running test (all fields optional outside a test). */
export interface ExpectState {
  testPath?: string | undefined
  currentTestName?: string | undefined
  snapshotState?: { _updateSnapshot?: UpdateMode; snapshotUpdateState?: UpdateMode } | undefined
}

/** The test that just ended, as an `afterEach` hook sees it. */
export interface EndedTest {
  /** The key of the test, the same one {@link TestRunner.testOfMatcher} gives (Vitest: the task; Jest: the name). */
  test: unknown
  /** The errors the test failed with so far, as the runner's own mutable list (`undefined` when unknown). */
  errors: unknown[] | undefined
}

/** The test file that just ended, as an `afterAll` hook sees it. */
export interface EndedFile {
  /** Its path (from `expect.getState()`, or the file task the runner passes to the hook). */
  testPath: string | undefined
  /** Whether every test of the file ran (no filter, skip, `only` or `todo`) and passed. */
  completeness(): RunCompleteness
}

/** What a matcher's `this` tells about the running test. */
export interface MatcherThisLike {
  /** Vitest >= 4.1: the running test. */
  task?: unknown
  /** Jest: the running test's name. */
  currentTestName?: string
}

/** How the runner loads msw (an optional, ESM-only peer) and what to say when it cannot. */
export interface MswLoading {
  /**
   * `'require'`: synchronously with Node's `require` (Vitest: the server is listening when the setup file's
   * call returns); `'import'`: with a dynamic `import()`, which goes through the runner's module registry (Jest).
   */
  load: 'require' | 'import'
  /** Why msw, installed, could not be loaded under this runner (Jest's CommonJS mode), if the runner knows. */
  notLoadable?: string
  /** What to add to "Install it with `npm i -D msw`". */
  installHint: string
  /**
   * The runner gives each test file a fresh global in the same process (Jest): the MSW server of a file is
   * closed after it, so that its patches of Node's modules do not outlive it.
   */
  serverPerFile: boolean
}

/**
 * One test runner, as expect-llm's setup entries, replay, golden suites and await checks use it. `C` is
 * the type of the context a test function receives (Vitest's `TestContext`; nothing under Jest).
 */
export interface TestRunner<C = unknown> {
  readonly name: RunnerName
  /** Whether `describe` may be async (Vitest: yes; Jest collects tests synchronously). */
  readonly asyncDescribe: boolean
  describe(name: string, fn: () => void | Promise<void>): void
  test(title: string, fn: (ctx: C) => Promise<void>, options: { concurrent: boolean; timeout?: number }): void
  /** Registers a hook after each test of the current file. */
  afterEach(fn: (ended: EndedTest) => unknown): void
  /** Registers a hook after the current file (or `describe`, when called inside one). */
  afterAll(fn: (ended: EndedFile) => unknown): void
  /** The running test file (the context's own `expect` for concurrent tests, when given). */
  testPath(ctx?: C): string | undefined
  /** The running test's full name. */
  testName(): string | undefined
  /** Whether snapshot-style files may be written or updated (`-u`, CI). */
  updateMode(ctx?: C): UpdateMode
  /** The key of the running test as a matcher's `this` shows it (see {@link EndedTest.test}). */
  testOfMatcher(matcherThis: MatcherThisLike): unknown
  /**
   * `true` when what `expect(x).resolves.toX()` returns can be wrapped (Vitest, through chai): the await
   * tracking then watches that promise; otherwise it watches the matcher's own promise, which only tells
   * whether it was still running at the end of the test.
   */
  readonly wrapsPromiseModifiers: boolean
  /** Attaches a line and data to the test's result (Vitest: an annotation and `task.meta[key]`); `false` when the runner has none. */
  annotate(ctx: C, note: { key: string; meta: unknown; text?: string; type: string }): Promise<boolean>
  readonly msw: MswLoading
  /** The command that re-runs one test file (shown to record a missing fixture). */
  recordCommand(relativeTestPath: string): string
}
