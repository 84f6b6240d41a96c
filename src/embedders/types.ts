import type { OpenAI } from 'openai'

/** Any embedder: one method from texts to vectors (one vector per text, same order). */
export interface Embedder {
  /** A name for messages, e.g. the model name. */
  name?: string
  embed(texts: string[]): Promise<number[][]>
}

/** A plain function used as an embedder. */
export type EmbedderFunction = (texts: string[]) => number[][] | Promise<number[][]>

/** Settings of the built-in OpenAI embedder (see `openAIEmbedder`). */
export interface EmbedderOptions {
  /** Embedding model. Default {@link DEFAULT_EMBEDDING_MODEL} (`'text-embedding-3-small'`). */
  model?: string
  /** OpenAI-compatible endpoint. Default: `OPENAI_BASE_URL`, then OpenAI. */
  baseURL?: string
  /** API key. Default: `OPENAI_API_KEY`. */
  apiKey?: string
  /** A ready `OpenAI` client. */
  client?: OpenAI
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
