/**
 * Replay control as the core entry (`expect-llm`) exports it. Its types name no msw, openai or Node type,
 * so that the core and runner entries compile for a project that installs neither msw nor `@types/node`
 * (even with `skipLibCheck: false`); `expect-llm/replay` exports the same functions with msw's types.
 *
 * @module
 */
import { resolveMode, type ResolvedMode } from './replay/mode.js'
import { getReplaySession as activeSession } from './replay/session.js'
import type { FixtureSummary, ReplayMode, ReplayProblem } from './replay/types.js'

/**
 * The replay session started by the `expect-llm/vitest` or `expect-llm/jest` setup file: its MSW `server`
 * and its `replay` controls. (From `expect-llm/replay`, the same session is typed with msw's handler types.)
 */
export interface ReplaySession {
  /** The record/replay controls. */
  replay: {
    /** MSW handlers (msw's `HttpHandler` objects). */
    handlers: readonly unknown[]
    /** The mode in effect now (after `EXPECT_LLM_REPLAY` and the CI guard). */
    mode(): ReplayMode
    /** Removes and returns the problems (misses, corrupt fixtures, refused writes) seen so far. */
    takeProblems(testPath?: string): ReplayProblem[]
    /** Throws one error listing every problem seen since the last call. */
    assertNoProblems(testPath?: string): void
    /** Waits for recordings of streams that are still being drained. */
    flush(): Promise<void>
    /** Used, new and unused fixtures per test file. */
    summary(testPath?: string): Promise<FixtureSummary[]>
    /** Prints the summary in one line per test file. */
    printSummary(testPath?: string): Promise<void>
    /** Resets sequence-mode call counters (between tests). */
    resetSequences(): void
  }
  /** The MSW server the setup file started (`setupServer` from `msw/node`). Add your own handlers with `server.use(...)`. */
  server: { use: (...handlers: any[]) => void; resetHandlers: (...handlers: any[]) => void; close: () => void; listHandlers: () => ReadonlyArray<unknown> }
  /** The installed msw version, for diagnostics. */
  mswVersion: string
}

/**
 * The active session started by the `expect-llm/vitest` or `expect-llm/jest` setup file, or `undefined`.
 * Use its `server` to add your own MSW handlers instead of starting a second server.
 *
 * @example
 * ```ts
 * import { http, HttpResponse } from 'msw'
 * import { getReplaySession } from 'expect-llm'
 * getReplaySession()?.server.use(http.get('https://example.com/x', () => HttpResponse.json({ ok: true })))
 * ```
 */
export const getReplaySession: () => ReplaySession | undefined = activeSession

/**
 * Resolves the replay mode: `EXPECT_LLM_REPLAY` wins over the `mode` option, which wins over the default
 * `replay`; with `CI` set, every mode but `replay` is refused unless `EXPECT_LLM_ALLOW_RECORD_IN_CI=1`.
 *
 * @example
 * ```ts
 * resolveReplayMode('record', { CI: 'true' }) // { mode: 'replay', refusedInCi: 'record', source: 'options' }
 * ```
 */
export const resolveReplayMode: (optionMode?: ReplayMode, env?: Record<string, string | undefined>) => ResolvedMode = resolveMode
