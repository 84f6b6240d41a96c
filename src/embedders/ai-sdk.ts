import { aiSdkModelLabel, loadAiSdk, registerAiSdkHost, unwrapAiSdkError } from '../ai-sdk.js'
import { recordModelUsage } from '../ledger.js'
import { translateError } from '../openai-client.js'
import { getReplaySession } from '../replay/session.js'
import { batchingEmbedder, checkWidths } from './batch.js'
import { MAX_EMBEDDING_BATCH, type AiSdkEmbeddingModel, type Embedder, type EmbedderOptions } from './types.js'

/** Settings of {@link aiSdkEmbedder}: an AI SDK embedding model and the embedder settings that apply to it. */
export type AiSdkEmbedderOptions = Pick<EmbedderOptions, 'dimensions' | 'maxRetries' | 'maxBatchSize'> & {
  /** The model, e.g. `google.embeddingModel('gemini-embedding-001')` or `openai.embedding('text-embedding-3-small')`. */
  model: AiSdkEmbeddingModel
}

/** Whether the replay session records or replays (any host): then each call is its own request. */
function replayActive(): boolean {
  try {
    const mode = getReplaySession()?.replay.mode()
    return mode !== undefined && mode !== 'live'
  } catch {
    return false
  }
}

/**
 * An embedder backed by any AI SDK embedding model (`ai` 7's `embedMany`, which splits requests at the
 * provider's limit and retries): Google, OpenAI, Mistral, Cohere, a local server through
 * `@ai-sdk/openai-compatible`, ... Deduplicated, cached and micro-batched like the OpenAI embedder
 * (`batchingEmbedder`); while record/replay is active, each call sends its own request, so recordings do
 * not depend on timing or on earlier tests. `dimensions` goes to the provider (Gemini's
 * `outputDimensionality`) and the returned widths are checked against it. Token usage goes to the
 * ledger; a provider that reports none (Gemini's embedding endpoints) is counted with an unknown cost.
 * `ai` is loaded on the first call.
 *
 * @example
 * ```ts
 * import { google } from '@ai-sdk/google'
 * configure({ embedder: { model: google.embeddingModel('gemini-embedding-001') } })
 * // or: configure({ embedder: aiSdkEmbedder({ model: openai.embedding('text-embedding-3-small') }) })
 * ```
 */
export function aiSdkEmbedder(options: AiSdkEmbedderOptions): Embedder {
  const { model, dimensions } = options
  // The model's host is recorded and replayed without the user listing it.
  registerAiSdkHost(model)
  const where = `AI SDK provider "${model.provider}"`
  const embedBatch = async (texts: string[]): Promise<number[][]> => {
    const ai = await loadAiSdk('embedder')
    let result: { embeddings: number[][]; usage?: { tokens?: number } }
    try {
      result = await ai.embedMany({
        // Typed by shape on our side; the provider's own spec object at run time.
        model: model as unknown as Parameters<typeof ai.embedMany>[0]['model'],
        values: texts,
        ...(dimensions !== undefined ? { dimensions } : {}),
        ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
      })
    } catch (caught) {
      const { error, retries } = unwrapAiSdkError(caught)
      const url = (error as { url?: unknown } | null)?.url
      throw translateError(error, 'embedder', model.modelId, typeof url === 'string' ? url : where, retries, {
        key:
          'Set the API key your AI SDK provider reads (for example GOOGLE_GENERATIVE_AI_API_KEY or ' +
          'OPENAI_API_KEY), or pass apiKey when you create the provider.',
        notFound: `Check the model id passed to the provider (${aiSdkModelLabel(model)}) and the provider's baseURL.`,
      })
    }
    const tokens = result.usage?.tokens
    recordModelUsage({
      kind: 'embedding',
      model: model.modelId,
      ...(typeof tokens === 'number' && Number.isFinite(tokens) ? { inputTokens: tokens, outputTokens: 0 } : {}),
    })
    checkWidths(result.embeddings, dimensions, model.modelId, where)
    return result.embeddings
  }
  return batchingEmbedder(`ai-sdk\u0000${aiSdkModelLabel(model)}\u0000${dimensions ?? ''}`, embedBatch, {
    maxBatch: Math.min(options.maxBatchSize ?? MAX_EMBEDDING_BATCH, MAX_EMBEDDING_BATCH),
    name: model.modelId,
    perCall: replayActive,
  })
}
