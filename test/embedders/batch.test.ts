import { afterEach, describe, expect, test } from 'vitest'
import { configure, resetConfig } from '../../src/config.js'
import { batchingEmbedder, clearEmbeddingCache } from '../../src/embedders/batch.js'
import { resolveEmbedder } from '../../src/embedders/resolve.js'

afterEach(() => {
  clearEmbeddingCache()
  resetConfig()
})

/** A fake embedding API: one request = one call, vectors derived from the text length. */
function fakeApi() {
  const calls: string[][] = []
  const embed = async (texts: string[]) => {
    calls.push([...texts])
    return texts.map((t) => [t.length, 1])
  }
  return { calls, embed }
}

describe('batchingEmbedder', () => {
  test('returns one vector per text in order', async () => {
    const api = fakeApi()
    const embedder = batchingEmbedder('m1', api.embed)
    expect(await embedder.embed(['a', 'bbb'])).toEqual([
      [1, 1],
      [3, 1],
    ])
  })

  test('sends concurrent calls as one request with each distinct text once', async () => {
    const api = fakeApi()
    const embedder = batchingEmbedder('m2', api.embed)
    await Promise.all([embedder.embed(['a', 'b']), embedder.embed(['b', 'c']), embedder.embed(['a', 'a'])])
    expect(api.calls).toEqual([['a', 'b', 'c']])
  })

  test('answers a text already embedded from the cache without a request', async () => {
    const api = fakeApi()
    const embedder = batchingEmbedder('m3', api.embed)
    await embedder.embed(['a'])
    await embedder.embed(['a'])
    expect(api.calls).toEqual([['a']])
  })

  test('shares the cache between embedders with the same id but not across ids', async () => {
    const api = fakeApi()
    await batchingEmbedder('same', api.embed).embed(['a'])
    await batchingEmbedder('same', api.embed).embed(['a'])
    await batchingEmbedder('other', api.embed).embed(['a'])
    expect(api.calls).toEqual([['a'], ['a']])
  })

  test('splits a large queue into requests of at most maxBatch inputs', async () => {
    const api = fakeApi()
    const embedder = batchingEmbedder('m4', api.embed, { maxBatch: 2 })
    await embedder.embed(['a', 'b', 'c', 'd', 'e'])
    expect(api.calls).toEqual([['a', 'b'], ['c', 'd'], ['e']])
  })

  test('does not cache a failed request, so the next call asks again', async () => {
    let fail = true
    const calls: string[][] = []
    const embedder = batchingEmbedder('m5', async (texts) => {
      calls.push(texts)
      if (fail) throw new Error('boom')
      return texts.map(() => [1])
    })
    await expect(embedder.embed(['a'])).rejects.toThrow('boom')
    fail = false
    await expect(embedder.embed(['a'])).resolves.toEqual([[1]])
    expect(calls).toEqual([['a'], ['a']])
  })

  test('rejects a response with the wrong number of vectors', async () => {
    const embedder = batchingEmbedder('m6', async () => [[1]], { name: 'broken' })
    await expect(embedder.embed(['a', 'b'])).rejects.toThrow(
      '[expect-llm] Failed to embed texts with broken: it returned 1 vectors for 2 texts. An embedder must return one array of finite numbers per text, in the same order.',
    )
  })

  test('rejects a vector with a non-finite component', async () => {
    const embedder = batchingEmbedder('m7', async () => [[1, Number.NaN]], { name: 'nan' })
    await expect(embedder.embed(['a'])).rejects.toThrow('vector 0 is empty or has a non-finite component')
  })
})

describe('resolveEmbedder', () => {
  test('wraps a plain function with batching and caching', async () => {
    const api = fakeApi()
    const embedder = resolveEmbedder(api.embed)
    await Promise.all([embedder.embed(['x']), resolveEmbedder(api.embed).embed(['x', 'y'])])
    expect(api.calls).toEqual([['x', 'y']])
  })

  test('uses the configured embedder when none is passed', async () => {
    const api = fakeApi()
    configure({ embedder: api.embed })
    await resolveEmbedder().embed(['q'])
    expect(api.calls).toEqual([['q']])
  })

  test('wraps a custom Embedder object with batching and caching', async () => {
    const api = fakeApi()
    const custom = { name: 'custom', embed: api.embed }
    await Promise.all([resolveEmbedder(custom).embed(['a']), resolveEmbedder(custom).embed(['a', 'b'])])
    expect(api.calls).toEqual([['a', 'b']])
  })

  test('rejects an unknown settings key', () => {
    expect(() => resolveEmbedder({ modle: 'x' } as never)).toThrow(
      '[expect-llm] Failed to use the embedder: unknown option "embedder.modle" (did you mean "embedder.model"?). Valid embedder settings (or pass an object with embed(), or a function): model, baseURL, apiKey, client, dimensions, maxRetries, timeout, maxBatchSize.',
    )
  })
})
