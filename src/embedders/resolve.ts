import { getConfig } from '../config.js'
import { checkModelSettings } from '../config-check.js'
import { describeValue } from '../errors.js'
import { failWith, type Fail } from '../errors.js'
import { BATCHING, batchingEmbedder } from './batch.js'
import { isAiSdkEmbeddingModel, isAiSdkLanguageModel } from '../ai-sdk.js'
import { aiSdkEmbedder } from './ai-sdk.js'
import { openAIEmbedder } from './openai.js'
import type { AiSdkEmbeddingModel, Embedder, EmbedderFunction, EmbedderLike, EmbedderOptions } from './types.js'
import { processSlot } from '../process-state.js'

const fromFunction = new WeakMap<EmbedderFunction, Embedder>()
const fromOptions = new WeakMap<EmbedderOptions, Embedder>()
const fromObject = new WeakMap<Embedder, Embedder>()
let functionIds = 0

/**
 * Wraps a plain function as an {@link Embedder} with the same deduplication, caching and
 * micro-batching as the built-in one (cached per function).
 *
 * @example
 * ```ts
 * const embedder = functionEmbedder(async (texts) => (await ollama.embed({ model: 'nomic-embed-text', input: texts })).embeddings)
 * ```
 */
export function functionEmbedder(fn: EmbedderFunction): Embedder {
  let embedder = fromFunction.get(fn)
  if (!embedder) {
    embedder = batchingEmbedder(`function#${++functionIds}`, async (texts) => fn(texts), { name: fn.name || 'function embedder' })
    fromFunction.set(fn, embedder)
  }
  return embedder
}

/** The built-in embedder that settings describe: the AI SDK embedder for an AI SDK model, the OpenAI embedder otherwise. */
function embedderFromOptions(options: EmbedderOptions, fail: Fail): Embedder {
  const { model, client, ...rest } = options
  if (model === undefined || typeof model === 'string')
    return openAIEmbedder({ ...rest, ...(client !== undefined ? { client } : {}), ...(model !== undefined ? { model } : {}) })
  if (!isAiSdkEmbeddingModel(model)) {
    const hint = isAiSdkLanguageModel(model) ? 'an AI SDK language model (configure it as the judge)' : describeValue(model)
    fail(
      `"model" must be a model name or an AI SDK embedding model, got ${hint}`,
      "Pass for example { model: google.embeddingModel('gemini-embedding-001') } from @ai-sdk/google, or { model: 'text-embedding-3-small' }.",
    )
  }
  const misplaced = (['baseURL', 'apiKey', 'client', 'timeout'] as const).filter((k) => options[k] !== undefined)
  if (misplaced.length > 0) {
    fail(
      `${misplaced.map((k) => `"${k}"`).join(' and ')} cannot be combined with an AI SDK model`,
      'Set the endpoint and key on the AI SDK provider instead: createGoogleGenerativeAI({ baseURL, apiKey }).',
    )
  }
  return aiSdkEmbedder({ ...rest, model: model as AiSdkEmbeddingModel })
}

/**
 * Turns anything accepted as an embedder into an {@link Embedder} that deduplicates, caches and
 * micro-batches: a custom `Embedder` or a function is wrapped (cached per object), settings through
 * the built-in embedder they describe (`aiSdkEmbedder` for an AI SDK model, `openAIEmbedder` otherwise;
 * one instance per settings object). `undefined` means `configure({ embedder })`, and without that the default OpenAI embedder.
 *
 * @example
 * ```ts
 * const embedder = resolveEmbedder({ model: 'text-embedding-3-large' })
 * ```
 */
export function resolveEmbedder(like?: EmbedderLike, fail: Fail = failWith('use the embedder')): Embedder {
  const value: unknown = like ?? getConfig().embedder
  if (value === undefined) {
    return processSlot<Embedder>('default-embedder', () => openAIEmbedder())
  }
  if (typeof value === 'function') return functionEmbedder(value as EmbedderFunction)
  if (value !== null && typeof value === 'object' && typeof (value as { embed?: unknown }).embed === 'function') {
    const custom = value as Embedder
    if ((custom as unknown as { [BATCHING]?: boolean })[BATCHING]) return custom
    let embedder = fromObject.get(custom)
    if (!embedder) {
      embedder = batchingEmbedder(`embedder#${++functionIds}`, (texts) => custom.embed(texts), { name: custom.name ?? 'custom embedder' })
      fromObject.set(custom, embedder)
    }
    return embedder
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const problems = checkModelSettings(value as Record<string, unknown>, 'embedder')
    if (problems.length > 0) fail(problems.map((p) => p.reason).join('; '), problems[0]!.fix)
    const options = value as EmbedderOptions
    let embedder = fromOptions.get(options)
    if (!embedder) fromOptions.set(options, (embedder = embedderFromOptions(options, fail)))
    return embedder
  }
  return fail(
    `the embedder must be an Embedder, a function or embedder settings, got ${describeValue(value)}`,
    "Pass for example { model: 'text-embedding-3-small' }, or a function (texts) => vectors.",
  )
}
