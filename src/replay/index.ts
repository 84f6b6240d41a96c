/**
 * `expect-llm/replay`: record and replay model HTTP traffic through MSW, for users who run their own
 * `setupServer`. With `setupFiles: ['expect-llm/vitest']` none of this is needed: replay starts by itself.
 * @packageDocumentation
 */
import { bypass, http, passthrough } from 'msw'
import { ReplayEngine, type MswApi } from './engine.js'
import { createLlmReplay, type LlmReplay } from './handlers.js'
import type { ReplayOptions } from './types.js'

/**
 * Creates record/replay handlers for your own MSW server. Requests to the well-known model providers
 * (OpenAI, Azure OpenAI, Anthropic, Gemini, Vertex AI, Mistral, Groq, ...), to expect-llm's own judge and
 * embedder hosts and to the configured `hosts` are answered from fixtures (`replay`), recorded (`record`,
 * `rerecord`) or passed through (`live`); a miss in replay answers at once with a non-retryable 404 and is
 * kept as a problem so that `assertNoProblems()` fails the test even if the app swallowed the SDK error.
 * `networkGuard` (put it last) applies the CI network rule.
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
  return createLlmReplay({ http, bypass, passthrough } as unknown as MswApi, new ReplayEngine({ options }))
}

export { createLlmReplay, ReplayError } from './handlers.js'
export type { LlmReplay } from './handlers.js'
export { ReplayEngine } from './engine.js'
export { resolveMode, isCi, REPLAY_MODES } from './mode.js'
export { parseFixture, serializeFixture, FixtureError, SCHEMA_VERSION } from './fixture.js'
export { buildKey, endpointSlug, KEY_VERSION } from './key.js'
export { DEFAULT_HOSTS, PROVIDERS, isPlaceholderKey } from './hosts.js'
export type { Provider } from './hosts.js'
export { MISS_STATUS } from './engine.js'
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
