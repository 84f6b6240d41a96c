// AI SDK embedding models as the embedder, through the real `ai` 7 and provider packages against local
// servers on 127.0.0.1 that speak each provider's wire format (Gemini, OpenAI), then replayed offline.
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { configure, resetConfig } from '../../src/config.js'
import { aiSdkEmbedder } from '../../src/embedders/ai-sdk.js'
import { clearEmbeddingCache, embedsPerCall } from '../../src/embedders/batch.js'
import { resolveEmbedder } from '../../src/embedders/resolve.js'
import { getLedger, resetLedger } from '../../src/ledger.js'
import { startGoogleServer, type GoogleServer } from '../helpers/google-server.js'
import { fakeEmbedding, startOpenAIServer } from '../helpers/openai-server.js'
import { callLocalServersLive, recordThenReplay, replayMode, replayProblems } from '../helpers/record-then-replay.js'

// These tests call local servers live (the record/replay ones set their hosts explicitly).
callLocalServersLive()

const texts = ['You can ask for a refund within 30 days.', 'Refunds are accepted for 30 days.']
// Assembled at run time so that secret scanners do not flag the repository.
const fakeKey = ['AIza', 'SyLocalTestKeyNotReal', '000000000000'].join('')

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
  resetConfig()
  resetLedger()
  clearEmbeddingCache()
})

const gemini = (server: GoogleServer) => createGoogleGenerativeAI({ baseURL: server.baseURL, apiKey: fakeKey })

describe('a Google embedding model', () => {
  test('embeds through batchEmbedContents, one vector per text', async () => {
    const server = await startGoogleServer()
    try {
      const vectors = await aiSdkEmbedder({ model: gemini(server).embeddingModel('gemini-embedding-001'), maxRetries: 0 }).embed(texts)
      expect(vectors).toEqual(texts.map(fakeEmbedding))
      expect(server.requests.map((r) => [r.model, r.action, r.texts])).toEqual([['gemini-embedding-001', 'batchEmbedContents', texts]])
    } finally {
      await server.close()
    }
  })

  test('passes dimensions as outputDimensionality and checks the width', async () => {
    const server = await startGoogleServer()
    try {
      const vectors = await aiSdkEmbedder({ model: gemini(server).embeddingModel('gemini-embedding-001'), dimensions: 6, maxRetries: 0 }).embed(texts)
      expect(vectors.map((v) => v.length)).toEqual([6, 6])
      expect(server.requests[0]?.body.requests[0].outputDimensionality).toBe(6)
    } finally {
      await server.close()
    }
  })

  test('fails when the vectors are not as wide as dimensions asks', async () => {
    const server = await startGoogleServer(() => ({
      embeddings: [
        [1, 0, 0],
        [0, 1, 0],
      ],
    }))
    try {
      await expect(aiSdkEmbedder({ model: gemini(server).embeddingModel('gemini-embedding-001'), dimensions: 6, maxRetries: 0 }).embed(texts)).rejects.toThrow(
        '[expect-llm] Failed to embed texts with "gemini-embedding-001" at AI SDK provider "google.generative-ai": asked for 6 dimensions, the server returned 3.',
      )
    } finally {
      await server.close()
    }
  })

  test('is counted in the ledger with an unknown cost: Gemini reports no token usage for embeddings', async () => {
    const server = await startGoogleServer()
    try {
      await aiSdkEmbedder({ model: gemini(server).embeddingModel('gemini-embedding-001'), maxRetries: 0 }).embed(texts)
      expect(getLedger()).toMatchObject({ calls: 1, callsWithoutUsage: 1, modelsWithoutUsage: ['gemini-embedding-001'], costUsd: 0 })
    } finally {
      await server.close()
    }
  })

  test('explains a refused key', async () => {
    const server = await startGoogleServer(() => ({ status: 403, errorMessage: 'API key not valid. Please pass a valid API key.' }))
    try {
      await expect(aiSdkEmbedder({ model: gemini(server).embeddingModel('gemini-embedding-001'), maxRetries: 0 }).embed(texts)).rejects.toThrow(
        `[expect-llm] Failed to call the embedder model "gemini-embedding-001" at ${server.baseURL}/models/gemini-embedding-001:batchEmbedContents: the server refused the API key (403: API key not valid. Please pass a valid API key.). Set the API key your AI SDK provider reads`,
      )
    } finally {
      await server.close()
    }
  })

  test('records and replays with the server stopped: same vectors, no key in the fixtures', async () => {
    const server = await startGoogleServer()
    const { recorded, replayed, fixtures } = await recordThenReplay(
      [server.origin],
      () => server.close(),
      async () => {
        const embedder = aiSdkEmbedder({ model: gemini(server).embeddingModel('gemini-embedding-001'), maxRetries: 0 })
        expect(embedsPerCall(embedder)).toBe(true) // one request per call under record/replay
        return embedder.embed(texts)
      },
    )
    expect(replayed).toEqual(recorded)
    expect(fixtures.map((f) => [f.key.path, f.meta.endpoint])).toEqual([
      ['/v1beta/models/gemini-embedding-001:batchEmbedContents', 'models-gemini-embedding-001_batchembedcontents'],
    ])
    expect(JSON.stringify(fixtures)).not.toContain(fakeKey)
  })

  test('a miss names the API and the model read from the path', async () => {
    const server = await startGoogleServer()
    await recordThenReplay(
      [server.origin],
      () => server.close(),
      () => aiSdkEmbedder({ model: gemini(server).embeddingModel('gemini-embedding-001'), maxRetries: 0 }).embed(texts),
    )
    replayMode('replay')
    await expect(aiSdkEmbedder({ model: gemini(server).embeddingModel('gemini-embedding-001'), maxRetries: 0 }).embed(['something else'])).rejects.toThrow(
      'Failed to replay POST /v1beta/models/gemini-embedding-001:embedContent (model gemini-embedding-001)',
    )
    expect(
      replayProblems()
        .map((p) => p.message)
        .join('\n'),
    ).toContain('Provider:      a Gemini-compatible server')
  })
})

describe('an OpenAI embedding model through @ai-sdk/openai', () => {
  test('embeds, with the usage in the ledger', async () => {
    const server = await startOpenAIServer()
    try {
      const openai = createOpenAI({ baseURL: server.baseURL, apiKey: 'local-test-key' })
      expect(await aiSdkEmbedder({ model: openai.embedding('text-embedding-3-small'), maxRetries: 0 }).embed(texts)).toEqual(texts.map(fakeEmbedding))
      expect(getLedger().byModel['text-embedding-3-small']).toMatchObject({ calls: 1, callsWithoutUsage: 0 })
      expect(getLedger().byModel['text-embedding-3-small']!.inputTokens).toBeGreaterThan(0)
    } finally {
      await server.close()
    }
  })
})

describe('configured as settings', () => {
  test('{ model: <AI SDK embedding model> } makes the AI SDK embedder', async () => {
    const server = await startGoogleServer()
    try {
      configure({ embedder: { model: gemini(server).embeddingModel('gemini-embedding-001'), maxRetries: 0 } })
      expect(await resolveEmbedder().embed(texts)).toEqual(texts.map(fakeEmbedding))
    } finally {
      await server.close()
    }
  })

  test('rejects a language model, and OpenAI settings next to an AI SDK model', async () => {
    const google = createGoogleGenerativeAI({ apiKey: fakeKey })
    expect(() => resolveEmbedder({ model: google('gemini-2.5-flash') as never })).toThrow(
      '[expect-llm] Failed to use the embedder: "model" must be a model name or an AI SDK embedding model, got an AI SDK language model (configure it as the judge).',
    )
    expect(() => resolveEmbedder({ model: google.embeddingModel('gemini-embedding-001'), baseURL: 'http://127.0.0.1:1/v1' })).toThrow(
      '"baseURL" cannot be combined with an AI SDK model. Set the endpoint and key on the AI SDK provider instead',
    )
  })
})
