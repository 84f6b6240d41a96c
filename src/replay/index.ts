/**
 * `expect-llm/replay`: record and replay model HTTP traffic through MSW, for users who run their own
 * `setupServer`. With `setupFiles: ['expect-llm/vitest']` none of this is needed: replay starts by itself.
 * @packageDocumentation
 */
import { bypass, http, passthrough, type HttpHandler } from 'msw'
import { ReplayEngine, type MswApi } from './engine.js'
import { formatSummary } from './summary.js'
import type { FixtureSummary, ReplayMode, ReplayOptions, ReplayProblem } from './types.js'
import { formatMessage } from '../errors.js'

/** What {@link llmReplay} returns. */
export interface LlmReplay {
  /** MSW handlers to spread into your own `setupServer(...)` or `server.use(...)`. Put them first. */
  handlers: HttpHandler[]
  /** The mode in effect now (after `EXPECT_LLM_REPLAY` and the CI guard). */
  mode(): ReplayMode
  /** Removes and returns the problems (misses, corrupt fixtures, refused writes) seen so far. */
  takeProblems(testPath?: string): ReplayProblem[]
  /** Throws one error listing every problem seen since the last call; call it in `afterEach`. */
  assertNoProblems(testPath?: string): void
  /** Waits for recordings of streams that are still being drained. */
  flush(): Promise<void>
  /** Used, new and unused fixtures per test file. */
  summary(testPath?: string): Promise<FixtureSummary[]>
  /** Prints {@link LlmReplay.summary} in one line per test file (nothing when there is nothing to say). */
  printSummary(testPath?: string): Promise<void>
  /** Resets sequence-mode call counters (between tests). */
  resetSequences(): void
  /** The underlying engine (advanced use). */
  engine: ReplayEngine
}

/**
 * Creates record/replay handlers for your own MSW server. Requests to `https://api.openai.com` and to the
 * configured `hosts` are answered from fixtures (`replay`), recorded (`record`, `rerecord`) or passed
 * through (`live`); a miss in replay answers at once with a non-retryable 418 and is kept as a problem so
 * that `assertNoProblems()` fails the test even if the app swallowed the SDK error.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node'
 * import { llmReplay } from 'expect-llm/replay'
 *
 * const replay = llmReplay({ hosts: ['http://127.0.0.1:11434'] })
 * const server = setupServer(...replay.handlers, ...myHandlers)
 * server.listen() // at the top level, before any `new OpenAI()`
 * afterEach(() => replay.assertNoProblems())
 * afterAll(() => replay.printSummary())
 * ```
 */
export function llmReplay(options: ReplayOptions = {}): LlmReplay {
  return createLlmReplay({ http, bypass, passthrough } as unknown as MswApi, new ReplayEngine({ options }))
}

/**
 * Builds the {@link LlmReplay} object around an engine and an msw module (shared with `setupReplay`).
 * Use it to pass an msw module of your own, or an engine you configured yourself; otherwise call
 * {@link llmReplay}.
 *
 * @example
 * ```ts
 * import * as msw from 'msw'
 * import { createLlmReplay, ReplayEngine } from 'expect-llm/replay'
 *
 * const engine = new ReplayEngine({ options: { mode: 'replay' } })
 * const replay = createLlmReplay(msw as unknown as Parameters<typeof createLlmReplay>[0], engine)
 * server.use(...replay.handlers)
 * ```
 */
export function createLlmReplay(msw: MswApi, engine: ReplayEngine): LlmReplay {
  const handler = msw.http.all('*', async ({ request }) => engine.handle(request, msw))
  return {
    handlers: [handler as HttpHandler],
    mode: () => engine.mode(),
    takeProblems: (testPath) => engine.takeProblems(testPath),
    assertNoProblems(testPath) {
      const problems = engine.takeProblems(testPath)
      if (problems.length > 0) throw new ReplayError(problems)
    },
    flush: () => engine.flush(),
    summary: (testPath) => engine.summary(testPath),
    async printSummary(testPath) {
      const text = formatSummary(await engine.summary(testPath), engine.resolve().layout.rootDir)
      if (text) console.log(text)
    },
    resetSequences: () => engine.resetSequences(),
    engine,
  }
}

/**
 * The error a test fails with when replay saw problems (misses, corrupt fixtures, refused writes).
 * `problems` holds each one; with a single problem the message is that problem's message.
 *
 * @example
 * ```ts
 * import { ReplayError } from 'expect-llm/replay'
 *
 * afterEach(() => {
 *   const problems = replay.takeProblems()
 *   if (problems.length > 0) throw new ReplayError(problems) // what replay.assertNoProblems() does
 * })
 * ```
 */
export class ReplayError extends Error {
  readonly problems: ReplayProblem[]
  constructor(problems: ReplayProblem[]) {
    super(
      problems.length === 1
        ? problems[0]!.message
        : `${formatMessage(`Failed to replay ${problems.length} model requests in this test:`)}\n\n${problems.map((p) => p.message).join('\n\n')}`,
    )
    this.name = 'ReplayError'
    this.problems = problems
  }
}

export { ReplayEngine } from './engine.js'
export { resolveMode, isCi, REPLAY_MODES } from './mode.js'
export { parseFixture, serializeFixture, FixtureError, SCHEMA_VERSION } from './fixture.js'
export { buildKey, endpointSlug, KEY_VERSION } from './key.js'
export { scanForSecrets } from './secrets.js'
export { normalizeUsage } from './usage.js'
export { getReplaySession } from './session.js'
export type { ReplaySession } from './session.js'
export type {
  Fixture,
  FixtureMeta,
  FixtureSummary,
  KeyMaterial,
  NormalizedUsage,
  RecordedResponse,
  RedactInput,
  ReplayMode,
  ReplayOptions,
  ReplayProblem,
} from './types.js'
