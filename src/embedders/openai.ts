import { effectiveBaseURL, lazyClient, retriesOf, translateError } from '../openai-client.js'
import { formatMessage } from '../errors.js'
import { recordModelUsage } from '../ledger.js'
import { replayHandlesOrigin } from '../replay/session.js'
import { batchingEmbedder, checkWidths } from './batch.js'
import { DEFAULT_EMBEDDING_MODEL, MAX_EMBEDDING_BATCH, type Embedder, type EmbedderOptions } from './types.js'

/** Settings of {@link openAIEmbedder}: {@link EmbedderOptions} with a model name. */
export type OpenAIEmbedderOptions = Omit<EmbedderOptions, 'model'> & { model?: string }

/**
 * One embedding as the server sent it: a base64 string of little-endian float32 (what the request asks
 * for) or a plain array of numbers. Several OpenAI-compatible servers ignore `encoding_format` and send
 * arrays (LM Studio, lmstudio-ai/lmstudio-bug-tracker#756; Ollama behind LiteLLM, BerriAI/litellm#42426).
 * The openai SDK, when it picks base64 itself, decodes such an array as if it were base64 and returns a
 * vector a quarter of the real width (openai 6; pietheinstrengholt/rssmonster#276 on 7.10), which would
 * make every similarity wrong without an error. So the embedder asks for base64 itself, which leaves
 * the request on the wire unchanged, and decodes both forms here.
 */
function decodeEmbedding(value: unknown, index: number, model: string): number[] {
  if (Array.isArray(value)) return value as number[]
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'base64')
    if (bytes.byteLength % 4 === 0) return Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4))
  }
  throw new Error(
    formatMessage(
      `Failed to embed texts with "${model}": embedding ${index} of the response is neither an array of ` +
        `numbers nor base64-encoded float32. Check that the server speaks the OpenAI embeddings API.`,
    ),
  )
}

/**
 * An embedder backed by the OpenAI embeddings API (or an OpenAI-compatible server) through the `openai`
 * SDK, default model `text-embedding-3-small`. Texts are deduplicated and cached for the run (keyed by
 * base URL, model, dimensions and text), and concurrent calls are micro-batched into one request of up
 * to 2048 inputs (see `batchingEmbedder`); while record/replay handles its host, each call sends its own
 * request instead, so that recordings replay whatever ran before. Vectors are requested base64-encoded
 * and decoded here, also when a server sends plain arrays instead; their widths are checked (and
 * against `dimensions`); token usage goes to the run ledger.
 *
 * @example
 * ```ts
 * configure({ embedder: openAIEmbedder({ model: 'text-embedding-3-large', dimensions: 1024 }) })
 * ```
 */
export function openAIEmbedder(options: OpenAIEmbedderOptions = {}): Embedder {
  const model = options.model ?? DEFAULT_EMBEDDING_MODEL
  const maxBatch = Math.min(options.maxBatchSize ?? MAX_EMBEDDING_BATCH, MAX_EMBEDDING_BATCH)
  const baseURL = effectiveBaseURL(options)
  const client = lazyClient(options, 'embedder')

  const embedBatch = async (texts: string[]): Promise<number[][]> => {
    const sdk = await client()
    let response: { data: Array<{ embedding: unknown; index?: number }>; model?: string; usage?: { prompt_tokens: number } }
    try {
      response = await sdk.embeddings.create({
        model,
        input: texts,
        ...(options.dimensions !== undefined ? { dimensions: options.dimensions } : {}),
        encoding_format: 'base64',
      })
    } catch (error) {
      throw translateError(error, 'embedder', model, baseURL, retriesOf(sdk))
    }
    // Usage missing (some OpenAI-compatible servers): the call is counted with an unknown cost.
    recordModelUsage({
      kind: 'embedding',
      model: response.model || model,
      ...(response.usage ? { inputTokens: response.usage.prompt_tokens, outputTokens: 0 } : {}),
    })
    const vectors: number[][] = new Array<number[]>(texts.length)
    response.data.forEach((item, i) => {
      vectors[typeof item.index === 'number' ? item.index : i] = decodeEmbedding(item.embedding, i, model)
    })
    checkWidths(vectors.filter(Boolean), options.dimensions, model, baseURL)
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
