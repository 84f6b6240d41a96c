import type { EmbedderLike } from './embedders/types.js'
import { formatMessage } from './errors.js'
import type { JudgeLike } from './judges/types.js'
import type { ModelPrice } from './ledger.js'
import type { ReplayOptions } from './replay/types.js'

/**
 * Library-wide settings, set with {@link configure}. Unknown keys are rejected so that a typo fails
 * loudly instead of being ignored.
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

const KEYS = ['judge', 'embedder', 'replay', 'pricing', 'concurrency'] as const
const STATE_KEY = Symbol.for('expect-llm.config')

type GlobalWithConfig = typeof globalThis & { [STATE_KEY]?: ExpectLlmConfig }

/**
 * Returns the current configuration. State lives on `globalThis` under `Symbol.for('expect-llm.config')`
 * so that the ESM and CommonJS builds (and every bundled entry point) share one object.
 *
 * @example
 * ```ts
 * import { getConfig } from 'expect-llm'
 * getConfig().concurrency // undefined until configure({ concurrency }) is called
 * ```
 */
export function getConfig(): ExpectLlmConfig {
  const g = globalThis as GlobalWithConfig
  g[STATE_KEY] ??= {}
  return g[STATE_KEY]
}

/**
 * Sets library-wide options. Later calls merge over earlier ones (top-level keys are replaced).
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
  const unknown = Object.keys(options).filter((k) => !(KEYS as readonly string[]).includes(k))
  if (unknown.length > 0) {
    throw new TypeError(
      formatMessage(`Failed to configure expect-llm: unknown option ${unknown.map((k) => `"${k}"`).join(', ')}. Valid options are ${KEYS.join(', ')}.`),
    )
  }
  if (options.concurrency !== undefined && !(Number.isInteger(options.concurrency) && options.concurrency >= 1)) {
    throw new TypeError(formatMessage(`Failed to configure expect-llm: "concurrency" must be a whole number >= 1, got ${String(options.concurrency)}. Pass for example { concurrency: 4 }.`))
  }
  const state = getConfig()
  for (const key of KEYS) {
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
