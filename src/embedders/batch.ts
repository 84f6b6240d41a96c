/**
 * Deduplication, caching and micro-batching for embedders.
 *
 * Every text is looked up in a process-wide cache keyed by the embedder's identity (for OpenAI: base
 * URL + model + dimensions) and the text; the cache holds the promise, so a text requested again while
 * its first request is in flight waits for that request. Texts not in the cache are queued, and the
 * queue is flushed once per turn of the event loop (`setImmediate`, i.e. after every synchronous call
 * and pending microtask), in requests of at most `maxBatch` inputs. So 200 assertions started together
 * over 50 distinct texts make one request of 50 inputs. A failed request is not cached: the next call
 * asks again. Under record/replay (`perCall`), each call sends its own distinct texts instead, so that
 * recorded requests do not depend on timing or on which tests ran before.
 *
 * @module
 */
import { describeValue, formatMessage, isFiniteNumber } from '../errors.js'
import { limitModelCall } from '../limit.js'
import type { Embedder } from './types.js'
import { processSlot, sharedMark } from '../process-state.js'

export interface Pending {
  text: string
  resolve: (vector: number[]) => void
  reject: (error: unknown) => void
}

/** Marks embedders that already batch and cache, so they are not wrapped twice. */
export const BATCHING = sharedMark('batching-embedder')
/** On a batching embedder: whether it currently sends one request per call (under record/replay). */
export const PER_CALL = sharedMark('embedder-per-call')

/**
 * Whether `embedder` currently sends one request per `embed()` call, with no cross-call batching or
 * caching (an OpenAI embedder whose requests go through record/replay). Embedders of your own: `false`.
 *
 * @example
 * ```ts
 * embedsPerCall(openAIEmbedder()) // true while the expect-llm/vitest setup file replays api.openai.com
 * ```
 */
export function embedsPerCall(embedder: Embedder): boolean {
  const flag = (embedder as unknown as { [PER_CALL]?: () => boolean })[PER_CALL]
  return typeof flag === 'function' && flag()
}

function cache(): Map<string, Promise<number[]>> {
  return processSlot('embedding-cache', () => new Map<string, Promise<number[]>>())
}

/**
 * Forgets every cached embedding (of every embedder). The cache lives for the process otherwise.
 *
 * @example
 * ```ts
 * afterEach(() => clearEmbeddingCache())
 * ```
 */
export function clearEmbeddingCache(): void {
  cache().clear()
}

/** Number of texts in the embedding cache (for diagnostics). */
export function embeddingCacheSize(): number {
  return cache().size
}

function checkVectors(vectors: unknown, count: number, name: string): number[][] {
  const fail = (reason: string): never => {
    throw new Error(
      formatMessage(`Failed to embed texts with ${name}: ${reason}. An embedder must return one array of finite numbers per text, in the same order.`),
    )
  }
  if (!Array.isArray(vectors)) return fail(`it returned ${describeValue(vectors)} instead of an array of vectors`)
  if (vectors.length !== count) return fail(`it returned ${vectors.length} vectors for ${count} texts`)
  return vectors.map((v: unknown, i) => {
    if (!Array.isArray(v) && !ArrayBuffer.isView(v)) return fail(`vector ${i} is ${describeValue(v)}`)
    const arr = Array.from(v as ArrayLike<number>)
    if (arr.length === 0 || arr.some((x) => !isFiniteNumber(x))) return fail(`vector ${i} is empty or has a non-finite component`)
    return arr
  })
}

/**
 * Checks the widths of a response's vectors: all equal, and equal to `dimensions` when it is set. A
 * server that ignores `dimensions` (a model without shortened embeddings) would otherwise be compared
 * against vectors of another width, or cached under the wrong settings.
 */
export function checkWidths(vectors: number[][], dimensions: number | undefined, model: string, where: string): void {
  const widths = [...new Set(vectors.map((v) => v.length))]
  if (widths.length > 1) {
    throw new Error(
      formatMessage(
        `Failed to embed texts with "${model}" at ${where}: the response holds vectors of different widths ` +
          `(${widths.join(', ')}). Check the server's embedding model.`,
      ),
    )
  }
  if (dimensions !== undefined && widths[0] !== undefined && widths[0] !== dimensions) {
    throw new Error(
      formatMessage(
        `Failed to embed texts with "${model}" at ${where}: asked for ${dimensions} dimensions, the server ` +
          `returned ${widths[0]}. The model or server ignores "dimensions" (only some models shorten their ` +
          `embeddings): leave it out of configure({ embedder }).`,
      ),
    )
  }
}

/**
 * `items` in consecutive chunks of at most `size`.
 *
 * @example
 * ```ts
 * chunked(['a', 'b', 'c'], 2) // [['a', 'b'], ['c']]
 * ```
 */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size))
  return out
}

/** A batch function with its checks: one limited request, whose vectors are checked against the texts. */
type CheckedBatch = (texts: string[]) => Promise<number[][]>

/**
 * Sends the queued texts, at most `maxBatch` per request, and settles each pending promise with its
 * vector or its request's error.
 */
export function sendQueued(queue: readonly Pending[], maxBatch: number, send: CheckedBatch): void {
  for (const chunk of chunked(queue, maxBatch)) {
    send(chunk.map((p) => p.text)).then(
      (vectors) => chunk.forEach((p, i) => p.resolve(vectors[i] as number[])),
      (error: unknown) => {
        for (const p of chunk) p.reject(error)
      },
    )
  }
}

/**
 * The vectors of `texts`, from one request (or one per `maxBatch` texts) with exactly their distinct
 * texts, in order: what record/replay needs, since each call is then its own recorded request.
 *
 * @example
 * ```ts
 * await embedDistinct(['a', 'b', 'a'], 2048, send) // one request with ['a', 'b']
 * ```
 */
export async function embedDistinct(texts: readonly string[], maxBatch: number, send: CheckedBatch): Promise<number[][]> {
  const vectors = new Map<string, number[]>()
  for (const chunk of chunked([...new Set(texts)], maxBatch)) {
    const checked = await send(chunk)
    chunk.forEach((text, i) => vectors.set(text, checked[i] as number[]))
  }
  return texts.map((text) => vectors.get(text) as number[])
}

/**
 * Wraps a batch function (texts → vectors, one request) into an {@link Embedder} that deduplicates,
 * caches and micro-batches. `id` must identify the model and its settings: texts are cached under it.
 *
 * @example
 * ```ts
 * const embedder = batchingEmbedder('my-model@local', async (texts) => (await myApi.embed(texts)).vectors)
 * await Promise.all([embedder.embed(['a', 'b']), embedder.embed(['b', 'c'])]) // one call with ['a', 'b', 'c']
 * ```
 */
export function batchingEmbedder(
  id: string,
  embedBatch: (texts: string[]) => Promise<number[][]>,
  options: { maxBatch?: number; name?: string; perCall?: () => boolean } = {},
): Embedder & { [BATCHING]: true; [PER_CALL]: () => boolean } {
  const maxBatch = options.maxBatch ?? 2048
  const name = options.name ?? id
  const perCall = options.perCall ?? (() => false)
  const send: CheckedBatch = async (texts) => checkVectors(await limitModelCall(() => embedBatch(texts)), texts.length, name)
  let queue: Pending[] = []
  let scheduled = false
  const flush = (): void => {
    scheduled = false
    const batch = queue
    queue = []
    sendQueued(batch, maxBatch, send)
  }
  /** The cached (or now queued) vector of one text. */
  const vectorOf = (store: Map<string, Promise<number[]>>, text: string): Promise<number[]> => {
    const key = `${id}\u0000${text}`
    const known = store.get(key)
    if (known) return known
    const promise = new Promise<number[]>((resolve, reject) => queue.push({ text, resolve, reject }))
    store.set(key, promise)
    promise.catch(() => {
      if (store.get(key) === promise) store.delete(key)
    })
    if (!scheduled) {
      scheduled = true
      setImmediate(flush)
    }
    return promise
  }

  return {
    name,
    [BATCHING]: true,
    [PER_CALL]: perCall,
    embed(texts: string[]): Promise<number[][]> {
      // Under record/replay every call is its own request: a request merged with other calls, or
      // trimmed by the cache, would depend on which tests ran before or alongside, and would miss its
      // recording when a test runs alone.
      if (perCall()) return embedDistinct(texts, maxBatch, send)
      const store = cache()
      return Promise.all(texts.map((text) => vectorOf(store, text)))
    },
  }
}
