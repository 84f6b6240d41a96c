import type { OpenAIClientLike } from '../judges/types.js'

/** Any embedder: one method from texts to vectors (one vector per text, same order). */
export interface Embedder {
  /** A name for messages, e.g. the model name. */
  name?: string
  embed(texts: string[]): Promise<number[][]>
}

/** A plain function used as an embedder. */
export type EmbedderFunction = (texts: string[]) => number[][] | Promise<number[][]>

/**
 * An AI SDK embedding model, such as `google.embeddingModel('gemini-embedding-001')` from
 * `@ai-sdk/google` or `openai.embedding('text-embedding-3-small')` from `@ai-sdk/openai`. Typed by shape
 * (the provider's `EmbeddingModel` specification object), so that expect-llm's types do not depend on `ai`.
 */
export interface AiSdkEmbeddingModel {
  readonly specificationVersion: string
  readonly provider: string
  readonly modelId: string
  doEmbed(options: any): PromiseLike<unknown>
}

/**
 * Settings of the built-in embedders: with an AI SDK embedding model as `model`, the AI SDK embedder
 * (`aiSdkEmbedder`); otherwise the OpenAI embedder (`openAIEmbedder`), also for OpenAI-compatible servers.
 */
export interface EmbedderOptions {
  /** Embedding model: a name (default {@link DEFAULT_EMBEDDING_MODEL}, `'text-embedding-3-small'`), or an AI SDK embedding model. */
  model?: string | AiSdkEmbeddingModel
  /** OpenAI-compatible endpoint. Default: `OPENAI_BASE_URL`, then OpenAI. */
  baseURL?: string
  /** API key. Default: `OPENAI_API_KEY`. */
  apiKey?: string
  /** A ready `OpenAI` client. */
  client?: OpenAIClientLike
  /** Shorter vectors (text-embedding-3 models only). */
  dimensions?: number
  /** Retries by the SDK. Default: the SDK's (2). */
  maxRetries?: number
  /** Request timeout in ms. Default: the SDK's. */
  timeout?: number
  /** Most inputs per request. Default and maximum {@link MAX_EMBEDDING_BATCH} (the API's limit). */
  maxBatchSize?: number
}

/** Anything accepted where an embedder is expected. */
export type EmbedderLike = Embedder | EmbedderFunction | EmbedderOptions

/** Default embedding model. */
export const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small'

/** The OpenAI embeddings API accepts at most 2048 inputs per request. */
export const MAX_EMBEDDING_BATCH = 2048

/**
 * Default threshold of `toBeSemanticallySimilar`, chosen for OpenAI's `text-embedding-3-small`. Its
 * cosine similarities are spread wider than the older ada-002's (which put almost any two English
 * texts above 0.7): unrelated texts commonly score below 0.3, texts on the same topic that say
 * different things around 0.5 to 0.75, and paraphrases of the same statement from about 0.8 up. So 0.8
 * accepts a rewording and rejects text that is merely on topic. These are typical figures, not a
 * guarantee: embeddings measure closeness of meaning and topic, and a sentence with the same words
 * but the opposite condition ("wait 30 days before asking" vs "ask within 30 days") can still score
 * high; use `toPassJudge({ reference })` when correctness matters. Other models need other thresholds:
 * calibrate on pairs from your data.
 */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.8

/** The keys of {@link EmbedderOptions}. */
export const EMBEDDER_OPTION_KEYS = ['model', 'baseURL', 'apiKey', 'client', 'dimensions', 'maxRetries', 'timeout', 'maxBatchSize'] as const
