// The record/replay handler factory and its error, without importing msw: the runner setup files
// (expect-llm/vitest, expect-llm/jest) load msw lazily and pass it in, so that msw stays optional.
import type { HttpHandler } from 'msw'
import { ReplayEngine, type MswApi } from './engine.js'
import { formatSummary } from './summary.js'
import type { FixtureSummary, ReplayMode, ReplayProblem } from './types.js'
import { formatMessage } from '../errors.js'

/** What {@link llmReplay} returns. */
export interface LlmReplay {
  /** MSW handlers to spread into your own `setupServer(...)` or `server.use(...)`. Put them first. */
  handlers: HttpHandler[]
  /**
   * The CI network rule as a handler: in `replay` mode with `CI` set, it fails every request to a host that is
   * neither a replay host, nor loopback, nor in `allowedHosts`. Put it last, after your own handlers.
   */
  networkGuard: HttpHandler
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
 * // and, after your own handlers, the CI network rule: setupServer(...replay.handlers, ...mine, replay.networkGuard)
 * ```
 */
export function createLlmReplay(msw: MswApi, engine: ReplayEngine): LlmReplay {
  const handler = msw.http.all('*', async ({ request }) => engine.handle(request, msw))
  const guard = msw.http.all('*', ({ request }) => engine.guard(request))
  return {
    handlers: [handler as HttpHandler],
    networkGuard: guard as HttpHandler,
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
    // A client's retries repeat one problem: say it once, with the count.
    const counts = new Map<string, number>()
    for (const p of problems) counts.set(p.message, (counts.get(p.message) ?? 0) + 1)
    const distinct = [...counts].map(([message, n]) => (n > 1 ? `${message}\n  (${n} times: the client retried)` : message))
    super(
      problems.length === 1 ? distinct[0]! : `${formatMessage(`Failed to replay ${problems.length} model requests in this test:`)}\n\n${distinct.join('\n\n')}`,
    )
    this.name = 'ReplayError'
    this.problems = problems
  }
}
