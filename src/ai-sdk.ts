/**
 * The Vercel AI SDK (`ai`) as an optional peer: recognising its model objects, and loading `ai` only
 * when such a model is configured, so that nothing else ever imports it.
 *
 * @module
 */
import { formatMessage } from './errors.js'
import { registerLibraryHost } from './replay/hosts.js'

/** A model object of an `@ai-sdk/*` provider: a language model (`doGenerate`) or an embedding model (`doEmbed`). */
interface AiSdkModelShape {
  specificationVersion: unknown
  provider: unknown
  modelId: unknown
}

function isModelObject(value: unknown): value is AiSdkModelShape {
  if (value === null || typeof value !== 'object') return false
  const v = value as Partial<AiSdkModelShape>
  return typeof v.specificationVersion === 'string' && typeof v.provider === 'string' && typeof v.modelId === 'string'
}

/** `true` for an AI SDK language model such as `anthropic('claude-haiku-4-5')` (the provider's spec object). */
export function isAiSdkLanguageModel(value: unknown): boolean {
  return isModelObject(value) && typeof (value as { doGenerate?: unknown }).doGenerate === 'function'
}

/** `true` for an AI SDK embedding model such as `google.textEmbeddingModel('gemini-embedding-001')`. */
export function isAiSdkEmbeddingModel(value: unknown): boolean {
  return isModelObject(value) && typeof (value as { doEmbed?: unknown }).doEmbed === 'function'
}

/** `anthropic.messages:claude-haiku-4-5`, for cache keys and messages. */
export function aiSdkModelLabel(model: { provider: string; modelId: string }): string {
  return `${model.provider}:${model.modelId}`
}

/**
 * The base URL an AI SDK model sends its requests to, where its provider exposes it (`config.baseURL` for
 * Anthropic and Google, `config.url()` for OpenAI and OpenAI-compatible providers); `undefined` otherwise.
 * The provider's configuration is not a public API of the AI SDK, so this is best effort.
 *
 * @example
 * ```ts
 * aiSdkBaseURL(createOpenAICompatible({ name: 'ollama', baseURL: 'http://127.0.0.1:11434/v1' }).chatModel('qwen3:8b'))
 * // 'http://127.0.0.1:11434/v1'
 * ```
 */
export function aiSdkBaseURL(model: unknown): string | undefined {
  const config = (model as { config?: { baseURL?: unknown; url?: unknown } } | null)?.config
  if (typeof config?.baseURL === 'string') return config.baseURL
  if (typeof config?.url === 'function') {
    try {
      const url = (config.url as (o: { path: string; modelId: unknown }) => unknown)({ path: '', modelId: (model as { modelId?: unknown }).modelId })
      if (typeof url === 'string') return url
    } catch {
      // not the shape we know
    }
  }
  return undefined
}

/** Makes the host of an AI SDK judge's or embedder's model a replay host (see `registerLibraryHost`). */
export function registerAiSdkHost(model: unknown): void {
  registerLibraryHost(aiSdkBaseURL(model))
}

/**
 * Loads `ai`. It is ESM-only: the CommonJS build requires it, which Node >= 22.12 supports for ES
 * modules (Jest's CommonJS mode does not, but there the `@ai-sdk/*` provider that made the model could
 * not have been loaded either). ESM (and Vitest, which runs the source as ESM) imports it.
 */
export async function loadAiSdk(role: 'judge' | 'embedder'): Promise<typeof import('ai')> {
  try {
    if (typeof module !== 'undefined' && typeof module?.require === 'function') return module.require('ai') as typeof import('ai')
    return await import('ai')
  } catch (error) {
    throw new Error(
      formatMessage(
        `Failed to use the AI SDK ${role}: the "ai" package could not be loaded (${(error as Error).message}). ` +
          'Install it next to your @ai-sdk provider with `npm install -D ai` (version 7), ' +
          `or configure({ ${role} }) with settings for the built-in OpenAI ${role}.`,
      ),
      { cause: error },
    )
  }
}

/**
 * The error behind an AI SDK `RetryError` (retries exhausted), which is the last attempt's, and the
 * number of retries made before it (0 for an error that was not retried).
 */
export function unwrapAiSdkError(error: unknown): { error: unknown; retries: number } {
  const e = error as { name?: unknown; lastError?: unknown; errors?: unknown } | null
  if (e?.name !== 'AI_RetryError' || e.lastError === undefined) return { error, retries: 0 }
  return { error: e.lastError, retries: Array.isArray(e.errors) ? Math.max(0, e.errors.length - 1) : 0 }
}
