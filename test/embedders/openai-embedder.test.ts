// The OpenAI embedder through the real openai SDK against a local OpenAI-compatible server on 127.0.0.1.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { configure, resetConfig } from '../../src/config.js'
import { clearEmbeddingCache } from '../../src/embedders/batch.js'
import { openAIEmbedder } from '../../src/embedders/openai.js'
import { getLedger, resetLedger } from '../../src/ledger.js'
import { clientFor, fakeEmbedding, startOpenAIServer, type OpenAIServer } from '../helpers/model-server.js'

let server: OpenAIServer

beforeAll(async () => {
  server = await startOpenAIServer()
  // The server is this file's model, called live: its origin would otherwise join the replay hosts.
  configure({ replay: { allowedHosts: [server.origin] } })
})
afterAll(async () => {
  resetConfig()
  await server.close()
})
afterEach(() => {
  server.reset()
  server.setReply(() => ({}))
  clearEmbeddingCache()
  resetLedger()
})

const embedder = (options: { maxBatchSize?: number; dimensions?: number } = {}) =>
  openAIEmbedder({ model: 'text-embedding-3-small', client: clientFor(server.baseURL), ...options })

describe('openAIEmbedder', () => {
  test('decodes the base64 vectors the SDK asks for by default', async () => {
    const vectors = await embedder().embed(['refund', 'parking'])
    expect(server.requests[0]?.body).toEqual({ model: 'text-embedding-3-small', input: ['refund', 'parking'], encoding_format: 'base64' })
    expect(vectors).toEqual([fakeEmbedding('refund'), fakeEmbedding('parking')])
  })

  test('puts vectors back in input order when the server answers out of order', async () => {
    server.setReply((req) => ({
      json: {
        object: 'list',
        model: 'text-embedding-3-small',
        data: (req.body.input as string[]).map((_, index) => ({ object: 'embedding', index, embedding: [index, 1] })).reverse(),
        usage: { prompt_tokens: 2, total_tokens: 2 },
      },
    }))
    expect(await embedder().embed(['a', 'b'])).toEqual([
      [0, 1],
      [1, 1],
    ])
  })

  test('sends concurrent calls as one request with the distinct texts', async () => {
    const e = embedder()
    await Promise.all([e.embed(['a', 'b']), e.embed(['b', 'c']), e.embed(['c'])])
    expect(server.requests.map((r) => r.body.input)).toEqual([['a', 'b', 'c']])
  })

  test('answers repeated texts from the cache', async () => {
    await embedder().embed(['a'])
    await embedder().embed(['a'])
    expect(server.requests).toHaveLength(1)
  })

  test('keys the cache by dimensions too', async () => {
    await embedder().embed(['a'])
    await embedder({ dimensions: 4 }).embed(['a'])
    expect(server.requests.map((r) => r.body.dimensions)).toEqual([undefined, 4])
  })

  test('keys the cache by model: the same text embedded by another model is requested again, with its own vector', async () => {
    server.setReply((req) => ({
      embeddings: (req.body.input as string[]).map(() => (req.body.model === 'text-embedding-3-large' ? [0, 0, 0, 1] : [1, 0, 0, 0])),
    }))
    const small = await embedder().embed(['a'])
    const large = await openAIEmbedder({ model: 'text-embedding-3-large', client: clientFor(server.baseURL) }).embed(['a'])
    expect(server.requests.map((r) => r.body.model)).toEqual(['text-embedding-3-small', 'text-embedding-3-large'])
    expect([small, large]).toEqual([[[1, 0, 0, 0]], [[0, 0, 0, 1]]])
  })

  test('splits requests at maxBatchSize inputs', async () => {
    await embedder({ maxBatchSize: 2 }).embed(['a', 'b', 'c'])
    expect(server.requests.map((r) => r.body.input)).toEqual([['a', 'b'], ['c']])
  })

  test('records the token usage in the ledger as embedding calls', async () => {
    server.setReply(() => ({ usage: { input: 40, output: 0 } }))
    await embedder().embed(['a', 'b'])
    expect(getLedger().byKind.embedding).toMatchObject({ calls: 1, inputTokens: 40, outputTokens: 0 })
  })

  test('explains a 401 and does not cache the failure', async () => {
    server.setReply(() => ({ status: 401, errorMessage: 'Incorrect API key provided.' }))
    await expect(embedder().embed(['a'])).rejects.toThrow(
      `[expect-llm] Failed to call the embedder model "text-embedding-3-small" at ${server.baseURL}: the server refused the API key (401: Incorrect API key provided.). Set OPENAI_API_KEY to a valid key, or pass it with configure({ embedder: { apiKey } }).`,
    )
    server.setReply(() => ({}))
    await expect(embedder().embed(['a'])).resolves.toEqual([fakeEmbedding('a')])
  })
})
