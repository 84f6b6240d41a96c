// The OpenAI embedder against local servers that answer embeddings as Ollama and LM Studio do
// (test/helpers/local-servers.ts): float arrays whatever encoding_format asks for, dimensions ignored.
import { afterEach, describe, expect, test, vi } from 'vitest'
import { resetConfig } from '../../src/config.js'
import { clearEmbeddingCache } from '../../src/embedders/batch.js'
import { openAIEmbedder } from '../../src/embedders/openai.js'
import { getLedger, resetLedger } from '../../src/ledger.js'
import { cosineSimilarity } from '../../src/metrics/cosine.js'
import { startLocalServer } from '../helpers/local-servers.js'
import { fakeEmbedding, startOpenAIServer } from '../helpers/openai-server.js'
import { callLocalServersLive, recordThenReplay } from '../helpers/record-then-replay.js'

// These tests call local servers live (the record/replay ones set their hosts explicitly).
callLocalServersLive()

afterEach(() => {
  vi.unstubAllEnvs()
  resetConfig()
  resetLedger()
  clearEmbeddingCache()
})

const texts = ['You can ask for a refund within 30 days.', 'Refunds are accepted for 30 days.']

describe('a server that answers float arrays to a base64 request (LM Studio, older Ollama)', () => {
  test('the vectors arrive whole, as the server sent them', async () => {
    const server = await startLocalServer('lmstudio')
    try {
      const vectors = await openAIEmbedder({
        baseURL: server.baseURL,
        apiKey: 'lm-studio',
        model: 'text-embedding-nomic-embed-text-v1.5',
        maxRetries: 0,
      }).embed(texts)
      expect(vectors).toEqual(texts.map(fakeEmbedding))
      // The request is the one the SDK always sent, so recordings made before stay valid.
      expect(server.requests[0]?.body).toMatchObject({ encoding_format: 'base64' })
    } finally {
      await server.close()
    }
  })

  test('records and replays with the server stopped, same vectors', async () => {
    const server = await startLocalServer('lmstudio')
    const { recorded, replayed } = await recordThenReplay(
      [server.origin],
      () => server.close(),
      () => openAIEmbedder({ baseURL: server.baseURL, apiKey: 'lm-studio', model: 'nomic-embed-text', maxRetries: 0 }).embed(texts),
    )
    expect(replayed).toEqual(recorded)
    expect(cosineSimilarity(replayed[0]!, replayed[1]!)).toBeCloseTo(cosineSimilarity(fakeEmbedding(texts[0]!), fakeEmbedding(texts[1]!)), 12)
  })

  test('base64 from a server that honours it decodes to the same vectors', async () => {
    const server = await startOpenAIServer()
    try {
      expect(await openAIEmbedder({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 }).embed(texts)).toEqual(texts.map(fakeEmbedding))
    } finally {
      await server.close()
    }
  })
})

describe('a server that ignores dimensions (Ollama before it supported them)', () => {
  test('fails with the width it got instead of comparing vectors of another size', async () => {
    const server = await startLocalServer('ollama')
    try {
      await expect(
        openAIEmbedder({ baseURL: server.baseURL, apiKey: 'ollama', model: 'nomic-embed-text', dimensions: 4, maxRetries: 0 }).embed(texts),
      ).rejects.toThrow(
        `[expect-llm] Failed to embed texts with "nomic-embed-text" at ${server.baseURL}: asked for 4 dimensions, the server returned 8. The model or server ignores "dimensions" (only some models shorten their embeddings): leave it out of configure({ embedder }).`,
      )
    } finally {
      await server.close()
    }
  })

  test("without dimensions, embeds at the model's width", async () => {
    const server = await startLocalServer('ollama')
    try {
      const vectors = await openAIEmbedder({ baseURL: server.baseURL, apiKey: 'ollama', model: 'nomic-embed-text', maxRetries: 0 }).embed(texts)
      expect(vectors.map((v) => v.length)).toEqual([8, 8])
    } finally {
      await server.close()
    }
  })
})

describe('a server that reports no usage', () => {
  test('the call is counted with an unknown cost', async () => {
    const server = await startOpenAIServer({ quirks: { omitUsage: true } })
    try {
      await openAIEmbedder({ baseURL: server.baseURL, apiKey: 'k', model: 'nomic-embed-text', maxRetries: 0 }).embed(texts)
      expect(getLedger()).toMatchObject({ calls: 1, callsWithoutUsage: 1, modelsWithoutUsage: ['nomic-embed-text'] })
    } finally {
      await server.close()
    }
  })
})
