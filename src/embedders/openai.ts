import type { OpenAI } from 'openai'
import { effectiveBaseURL, lazyClient, retriesOf, translateError } from '../openai-client.js'
import { recordModelUsage } from '../ledger.js'
import { replayHandlesOrigin } from '../replay/session.js'
import { batchingEmbedder } from './batch.js'
import { DEFAULT_EMBEDDING_MODEL, MAX_EMBEDDING_BATCH, type Embedder, type EmbedderOptions } from './types.js'

/**
 * An embedder backed by the OpenAI embeddings API (or an OpenAI-compatible server) through the `openai`
 * SDK, default model `text-embedding-3-small`. Texts are deduplicated and cached for the run (keyed by
 * base URL, model, dimensions and text), and concurrent calls are micro-batched into one request of up
 * to 2048 inputs (see `batchingEmbedder`); while record/replay handles its host, each call sends its own
 * request instead, so that recordings replay whatever ran before. The SDK requests base64-encoded vectors by default and
 * decodes them; token usage goes to the run ledger.
 *
 * @example
 * ```ts
 * configure({ embedder: openAIEmbedder({ model: 'text-embedding-3-large', dimensions: 1024 }) })
 * ```
 */
export function openAIEmbedder(options: EmbedderOptions = {}): Embedder {
  const model = options.model ?? DEFAULT_EMBEDDING_MODEL
  const maxBatch = Math.min(options.maxBatchSize ?? MAX_EMBEDDING_BATCH, MAX_EMBEDDING_BATCH)
  const baseURL = effectiveBaseURL(options)
  const client = lazyClient(options, 'embedder')

  const embedBatch = async (texts: string[]): Promise<number[][]> => {
    const sdk = await client()
    let response: Awaited<ReturnType<OpenAI['embeddings']['create']>>
    try {
      response = await sdk.embeddings.create({ model, input: texts, ...(options.dimensions !== undefined ? { dimensions: options.dimensions } : {}) })
    } catch (error) {
      throw translateError(error, 'embedder', model, baseURL, retriesOf(sdk))
    }
    if (response.usage) recordModelUsage({ kind: 'embedding', model: response.model || model, inputTokens: response.usage.prompt_tokens, outputTokens: 0 })
    const vectors: number[][] = new Array<number[]>(texts.length)
    for (const item of response.data) vectors[item.index] = item.embedding
    return vectors
  }

  const origin = new URL(baseURL).origin
  return batchingEmbedder(`openai\u0000${baseURL}\u0000${model}\u0000${options.dimensions ?? ''}`, embedBatch, {
    maxBatch,
    name: model,
    // Recorded requests must not depend on timing or on earlier tests: one request per call then.
    perCall: () => replayHandlesOrigin(origin),
  })
}
