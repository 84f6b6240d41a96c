/**
 * OpenAI's moderation endpoint (`POST /v1/moderations`), called through the openai SDK like the judge
 * and the embedder, so that its requests are recorded and replayed like every model call.
 *
 * @module
 */
import { describeValue, formatMessage } from '../errors.js'
import type { OpenAIClientLike } from '../judges/types.js'
import { effectiveBaseURL, lazyClient, retriesOf, translateError } from '../openai-client.js'
import { limitModelCall } from '../limit.js'

/** Default moderation model. */
export const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest'

/** Options of {@link moderate} and `toPassModeration`. */
export interface ModerationOptions {
  /** Default `'omni-moderation-latest'`. */
  model?: string
  /** Only these categories count (`['harassment', 'violence']`). Default: every category. */
  categories?: string[]
  /** A category whose score is at least this fails, flagged or not. Default: the endpoint's own `flagged` decision. */
  threshold?: number
  apiKey?: string
  baseURL?: string
  client?: OpenAIClientLike
  maxRetries?: number
  timeout?: number
}

/** What the endpoint said about a text. */
export interface ModerationVerdict {
  /** Whether the text fails: a counted category flagged (or scored at least `threshold`). */
  flagged: boolean
  /** The counted categories that failed, worst first. */
  failed: Array<{ category: string; score: number }>
  /** The highest score among the counted categories (0 when none). */
  maxScore: number
  /** The model that answered. */
  model: string
}

export const MODERATION_OPTION_KEYS = ['model', 'categories', 'threshold', 'apiKey', 'baseURL', 'client', 'maxRetries', 'timeout'] as const

/** Checks moderation options before any call. */
export function checkModerationOptions(options: unknown, fail: (reason: string, fix: string) => never): ModerationOptions {
  if (options === undefined) return {}
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    fail(`the options must be an object, got ${describeValue(options)}`, `Pass any of: ${MODERATION_OPTION_KEYS.join(', ')}.`)
  const o = options as Record<string, unknown>
  const unknown = Object.keys(o).filter((k) => o[k] !== undefined && !(MODERATION_OPTION_KEYS as readonly string[]).includes(k))
  if (unknown.length > 0) fail(`unknown option ${unknown.map((k) => `"${k}"`).join(', ')}`, `Valid options are: ${MODERATION_OPTION_KEYS.join(', ')}.`)
  if (o.categories !== undefined && (!Array.isArray(o.categories) || o.categories.length === 0 || o.categories.some((c) => typeof c !== 'string'))) {
    fail(
      `categories must be a non-empty list of category names, got ${describeValue(o.categories)}`,
      "Pass for example { categories: ['harassment', 'hate'] }.",
    )
  }
  if (o.threshold !== undefined && (typeof o.threshold !== 'number' || Number.isNaN(o.threshold) || o.threshold < 0 || o.threshold > 1)) {
    fail(
      `threshold must be a number from 0 to 1, got ${describeValue(o.threshold)}`,
      'Pass for example { threshold: 0.5 }: a category score at or above it fails.',
    )
  }
  if (o.model !== undefined && (typeof o.model !== 'string' || o.model === ''))
    fail(`model must be a non-empty string, got ${describeValue(o.model)}`, `Pass for example { model: '${DEFAULT_MODERATION_MODEL}' }.`)
  return o as ModerationOptions
}

interface ModerationResponse {
  model?: string
  results?: Array<{ flagged?: boolean; categories?: Record<string, boolean | null>; category_scores?: Record<string, number> }>
}

const clients = new Map<string, () => Promise<{ moderations: { create: (body: unknown) => Promise<unknown> } }>>()

/**
 * Asks OpenAI's moderation endpoint about a text.
 *
 * @example
 * ```ts
 * const verdict = await moderate('I will find you.', { categories: ['harassment', 'violence'] })
 * verdict.flagged // true
 * ```
 */
export async function moderate(text: string, options: ModerationOptions = {}): Promise<ModerationVerdict> {
  const model = options.model ?? DEFAULT_MODERATION_MODEL
  const settings = {
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    ...(options.client ? { client: options.client } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
  }
  const baseURL = effectiveBaseURL(settings)
  const cacheKey = options.client ? '' : JSON.stringify(settings)
  let client = options.client ? undefined : clients.get(cacheKey)
  if (!client) {
    client = lazyClient(settings, 'moderation') as unknown as NonNullable<typeof client>
    if (!options.client) clients.set(cacheKey, client)
  }
  const sdk = await client()
  let response: ModerationResponse
  try {
    response = (await limitModelCall(() => sdk.moderations.create({ model, input: text }))) as ModerationResponse
  } catch (error) {
    throw translateError(error, 'moderation', model, baseURL, retriesOf(sdk as never))
  }
  const result = response.results?.[0]
  if (!result || typeof result.category_scores !== 'object' || result.category_scores === null) {
    throw new Error(
      formatMessage(
        `Failed to read the moderation reply of "${model}" at ${baseURL}: it has no results[0].category_scores. ` +
          'Check that the server implements POST /v1/moderations.',
      ),
    )
  }
  const scores = result.category_scores
  const counted = Object.keys(scores).filter((c) => options.categories === undefined || options.categories.includes(c))
  const failed = counted
    .filter((c) => (options.threshold !== undefined ? (scores[c] as number) >= options.threshold : result.categories?.[c] === true))
    .map((c) => ({ category: c, score: scores[c] as number }))
    .sort((a, b) => b.score - a.score)
  return { flagged: failed.length > 0, failed, maxScore: Math.max(0, ...counted.map((c) => scores[c] as number)), model: response.model ?? model }
}
