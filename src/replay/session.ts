import type { LlmReplay } from './handlers.js'
import { matchesHost } from './hosts.js'
import { peekProcessSlot, setProcessSlot } from '../process-state.js'

/** The replay session started by `setupReplay()`: one MSW server per worker, shared through `globalThis`. */
export interface ReplaySession {
  /** The record/replay handlers and controls. */
  replay: LlmReplay
  /** The MSW server `setupReplay()` started (`setupServer` from `msw/node`). Add your own handlers with `server.use(...)`. */
  server: { use: (...handlers: any[]) => void; resetHandlers: (...handlers: any[]) => void; close: () => void; listHandlers: () => ReadonlyArray<unknown> }
  /** The installed msw version, for diagnostics. */
  mswVersion: string
}

/**
 * The active session started by the `expect-llm/vitest` or `expect-llm/jest` setup file, or `undefined`.
 * Use its `server` to add your own MSW handlers instead of starting a second server (two listening
 * servers do not compose: only the last one's handlers are consulted).
 *
 * @example
 * ```ts
 * import { http, HttpResponse } from 'msw'
 * import { getReplaySession } from 'expect-llm/replay'
 * getReplaySession()?.server.use(http.get('https://example.com/x', () => HttpResponse.json({ ok: true })))
 * ```
 */
export function getReplaySession(): ReplaySession | undefined {
  return peekProcessSlot<ReplaySession>('replay-session')
}

/** Stores (or clears) the active session. */
export function setReplaySession(session: ReplaySession | undefined): void {
  setProcessSlot('replay-session', session)
}

/**
 * Whether the active session records or replays requests to `origin` (the session's mode is not `live`
 * and `origin` is one of its hosts). Model clients use it to keep their requests deterministic.
 *
 * @example
 * ```ts
 * replayHandlesOrigin('https://api.openai.com') // true under the expect-llm/vitest setup file in replay mode
 * ```
 */
export function replayHandlesOrigin(origin: string): boolean {
  const session = getReplaySession()
  // Stryker disable next-line ConditionalExpression: equivalent when false, session.replay then throws in the try, which returns false
  if (!session) return false
  try {
    const resolved = session.replay.engine.resolve()
    return resolved.resolvedMode.mode !== 'live' && matchesHost(resolved.hosts, origin)
  } catch {
    return false
  }
}
