import type { EmbedderLike } from './embedders/types.js'
import { CONFIG_KEYS, checkConfig, optionsError } from './config-check.js'
import { formatMessage } from './errors.js'
import type { JudgeLike } from './judges/types.js'
import type { ModelPrice } from './pricing.js'
import type { ReplayOptions } from './replay/types.js'
import { processSlot } from './process-state.js'

/**
 * Library-wide settings, set with {@link configure}. Unknown keys, nested ones included (`replay.host`,
 * `judge.baseUrl`), are rejected with a did-you-mean so that a typo fails loudly instead of being ignored.
 */
export interface ExpectLlmConfig {
  /**
   * The judge of the model-backed matchers: judge settings (`{ model, baseURL, apiKey, client,
   * temperature, ... }`, where `model` may be an AI SDK model and `client` an OpenAI or Anthropic
   * client), a `Judge` implementation, or a plain function. Default: the OpenAI judge (`gpt-4.1-mini`,
   * `OPENAI_API_KEY`, `OPENAI_BASE_URL`).
   */
  judge?: JudgeLike
  /**
   * The embedder of `toBeSemanticallySimilar`: embedder settings (`{ model, baseURL, apiKey, client,
   * dimensions, ... }`, where `model` may be an AI SDK embedding model), an `Embedder` implementation,
   * or a plain function. Default: OpenAI `text-embedding-3-small`.
   */
  embedder?: EmbedderLike
  /** Record/replay settings (mode, hosts, ignoreBodyFields, redact, dir, maxAge, ...); read on every request. */
  replay?: ReplayOptions
  /** USD per million tokens by model, merged over the defaults (`DEFAULT_PRICING`), for the ledger, reports and budgets. */
  pricing?: Record<string, ModelPrice>
  /** Maximum number of judge and embedding calls in flight from this library (default 4). */
  concurrency?: number
}

/**
 * Returns the current configuration. State lives in the process-wide `config` slot (see
 * process-state.ts) so that the ESM and CommonJS builds (and every bundled entry point) share one object.
 *
 * @example
 * ```ts
 * import { getConfig } from 'expect-llm'
 * getConfig().concurrency // undefined until configure({ concurrency }) is called
 * ```
 */
export function getConfig(): ExpectLlmConfig {
  return processSlot<ExpectLlmConfig>('config', () => ({}))
}

/**
 * Sets library-wide options. Later calls merge over earlier ones (top-level keys are replaced). Every key
 * and value, nested ones included, is checked first: a misspelled or mistyped option throws at the call,
 * naming it with a did-you-mean (`replay.host` → `replay.hosts`), and nothing is stored.
 *
 * @example
 * ```ts
 * // vitest.setup.ts
 * import { configure } from 'expect-llm'
 * configure({ concurrency: 4, replay: { hosts: ['http://127.0.0.1:11434'] } })
 * ```
 */
export function configure(options: ExpectLlmConfig): ExpectLlmConfig {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(formatMessage('Failed to configure expect-llm: the options must be an object. Call configure({ ... }) with an options object.'))
  }
  // Every key, nested ones included, is checked before anything is stored: a typo fails here, at the call.
  const error = optionsError('configure expect-llm', checkConfig(options as Record<string, unknown>), 'call configure() again')
  if (error) throw error
  const state = getConfig()
  for (const key of CONFIG_KEYS) {
    if (key in options) (state as Record<string, unknown>)[key] = options[key]
  }
  return state
}

/**
 * Clears every setting made with `configure()`. Meant for test isolation.
 *
 * @example
 * ```ts
 * afterEach(() => resetConfig())
 * ```
 */
export function resetConfig(): void {
  const state = getConfig() as Record<string, unknown>
  for (const key of Object.keys(state)) delete state[key]
}
