/**
 * `expect-llm/replay`: record and replay model HTTP traffic through MSW, for users who run their own
 * `setupServer`. With `setupFiles: ['expect-llm/vitest']` none of this is needed: replay starts by itself.
 * @packageDocumentation
 */
import { bypass, http, passthrough } from 'msw'
import { checkReplayOptions, optionsError } from '../config-check.js'
import { formatMessage } from '../errors.js'
import { ReplayEngine, type MswApi } from '../replay/engine.js'
import { createLlmReplay, type LlmReplay } from '../replay/handlers.js'
import type { ReplayOptions } from '../replay/types.js'

/**
 * Creates record/replay handlers for your own MSW server. Requests to the well-known model providers
 * (OpenAI, Azure OpenAI, Anthropic, Gemini, Vertex AI, Mistral, Groq, ...), to expect-llm's own judge and
 * embedder hosts and to the configured `hosts` are answered from fixtures (`replay`), recorded (`record`,
 * `rerecord`) or passed through (`live`); a miss in replay answers at once with a non-retryable 404 and is
 * kept as a problem so that `assertNoProblems()` fails the test even if the app swallowed the SDK error.
 * `networkGuard` (put it last) applies the CI network rule. The options are checked as `configure({ replay })`
 * checks them: an unknown option or a wrong value throws a `TypeError` naming it.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node'
 * import { llmReplay } from 'expect-llm/replay'
 *
 * const replay = llmReplay({ hosts: ['http://127.0.0.1:11434'] })
 * const server = setupServer(...replay.handlers, ...myHandlers, replay.networkGuard)
 * server.listen() // at the top level, before any `new OpenAI()`
 * afterEach(() => replay.assertNoProblems())
 * afterAll(() => replay.printSummary())
 * ```
 */
export function llmReplay(options: ReplayOptions = {}): LlmReplay {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(
      formatMessage('Failed to create the replay handlers: the options must be an object. Call llmReplay({ ... }), or llmReplay() for the defaults.'),
    )
  }
  // Checked as configure({ replay }) checks them: a typo or a value such as maxAge: '30 days' fails here, not silently.
  const error = optionsError('create the replay handlers', checkReplayOptions(options as Record<string, unknown>), 'call llmReplay() again')
  if (error) throw error
  return createLlmReplay({ http, bypass, passthrough } as unknown as MswApi, new ReplayEngine({ options }))
}

export { ReplayError } from '../replay/handlers.js'
export type { LlmReplay } from '../replay/handlers.js'
export { DEFAULT_HOSTS, PROVIDERS } from '../replay/hosts.js'
export type { Provider } from '../replay/hosts.js'
export { MISS_STATUS } from '../replay/engine.js'
export { REPLAY_MODES } from '../replay/mode.js'
export { getReplaySession } from '../replay/session.js'
export type { ReplaySession } from '../replay/session.js'
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
} from '../replay/types.js'
