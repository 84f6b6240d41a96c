// Model-backed matchers against the scripted local OpenAI-compatible server (127.0.0.1), through the real
// openai SDK and Jest's standalone `expect` with the matchers registered:
//  (1) 200 concurrent toBeSemanticallySimilar assertions over 50 distinct texts: embedding requests
//      counted at the server, with batching and caching, against three hand-written clients, weakest to
//      strongest: one request per text; each assertion's two texts in one request; the same with repeated
//      texts memoised (the strongest client one writes without micro-batching across assertions: 50
//      requests, one per assertion that brings a new text). The ratios quoted are against the last;
//  (2) 100 toPassJudge assertions with 100 ms added server latency and concurrency 8: wall time vs the
//      ideal 100 x 100 ms / 8.
import { expect } from 'expect'
import OpenAI from 'openai'
import * as matchers from '../matchers/index.js'
import { configure, resetConfig } from '../src/config.js'
import { clearEmbeddingCache } from '../src/embedders/batch.js'
import { cosineSimilarity } from '../src/metrics/cosine.js'
import { fakeEmbedding, startOpenAIServer } from '../test/helpers/openai-server.js'
import { fmtNum, printTable } from './harness.js'

interface AsyncMatchers {
  toBeSemanticallySimilar(expected: string, options?: { threshold?: number }): Promise<void>
  toPassJudge(criteria: string): Promise<void>
}

expect.extend(matchers as unknown as Parameters<typeof expect.extend>[0])
const llmExpect = expect as unknown as (value: unknown) => AsyncMatchers

export async function run(): Promise<void> {
  const server = await startOpenAIServer()
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'bench', maxRetries: 0 })
  try {
    // (1) Embedding batching and caching.
    const texts = Array.from({ length: 50 }, (_, i) => `Support answer number ${i}: refunds, shipping and opening hours.`)
    const pairs = Array.from({ length: 200 }, (_, i) => [texts[i % 50] as string, texts[(i * 7 + 3) % 50] as string] as const)

    // Non-negative vectors, so every cosine is >= 0 and every assertion (threshold 0) passes.
    server.setReply((req) => (req.endpoint === 'embeddings' ? { embeddings: (req.body.input as string[]).map((t) => fakeEmbedding(t).map(Math.abs)) } : {}))
    clearEmbeddingCache()
    configure({ embedder: { client, model: 'text-embedding-3-small' } })
    server.reset()
    let start = performance.now()
    await Promise.all(pairs.map(([output, expected]) => llmExpect(output).toBeSemanticallySimilar(expected, { threshold: 0 })))
    const batchedMs = performance.now() - start
    const batchedRequests = server.requests.filter((r) => r.endpoint === 'embeddings').length
    const batchedInputs = server.requests.reduce((n, r) => n + (Array.isArray(r.body?.input) ? r.body.input.length : 0), 0)

    // The baselines, weakest to strongest. Each returns the assertions' cosines; the requests are counted.
    const embed = async (input: string[]) => (await client.embeddings.create({ model: 'text-embedding-3-small', input })).data.map((d) => d.embedding)
    const memo = new Map<string, Promise<number[]>>()
    const baselines: Array<{ variant: string; assertion: (output: string, expected: string) => Promise<number> }> = [
      {
        variant: 'one request per text, no cache',
        assertion: async (output, expected) => {
          const [[a], [b]] = await Promise.all([embed([output]), embed([expected])])
          return cosineSimilarity(a!, b!)
        },
      },
      {
        variant: 'both texts in one request, no cache',
        assertion: async (output, expected) => {
          const [a, b] = await embed([output, expected])
          return cosineSimilarity(a!, b!)
        },
      },
      {
        // The strongest naive client: one request per assertion for the texts not seen yet (in flight
        // or done), none when both are known.
        variant: 'both texts in one request, memoised',
        assertion: async (output, expected) => {
          const fresh = [...new Set([output, expected])].filter((t) => !memo.has(t))
          if (fresh.length > 0) {
            const request = embed(fresh)
            fresh.forEach((t, i) =>
              memo.set(
                t,
                request.then((vectors) => vectors[i]!),
              ),
            )
          }
          return cosineSimilarity(await memo.get(output)!, await memo.get(expected)!)
        },
      },
    ]
    const rows = [{ variant: 'expect-llm (batched + cached)', requests: batchedRequests, inputs: batchedInputs, ms: batchedMs }]
    for (const b of baselines) {
      server.reset()
      start = performance.now()
      await Promise.all(pairs.map(([output, expected]) => b.assertion(output, expected)))
      const ms = performance.now() - start
      const embeddings = server.requests.filter((r) => r.endpoint === 'embeddings')
      rows.push({ variant: b.variant, requests: embeddings.length, inputs: embeddings.reduce((n, r) => n + (r.body.input as string[]).length, 0), ms })
    }

    printTable(
      '200 concurrent toBeSemanticallySimilar over 50 distinct texts (requests counted at the server)',
      rows.map((r) => ({ variant: r.variant, requests: String(r.requests), inputs: String(r.inputs), 'wall ms': fmtNum(r.ms) })),
    )
    const strongest = rows.at(-1)!
    console.log(
      `requests: ${batchedRequests} vs ${strongest.requests} for the strongest naive client (${fmtNum(strongest.requests / batchedRequests)}x fewer), ` +
        `${rows[2]!.requests} without its memo, ${rows[1]!.requests} one text per request; wall time ${fmtNum(strongest.ms / batchedMs)}x faster than the strongest; ` +
        `target at most 2 requests: ${batchedRequests <= 2 ? 'met' : 'MISSED'}`,
    )

    // (2) Judge calls under the concurrency limit with 100 ms latency.
    resetConfig()
    configure({ concurrency: 8, judge: { client, model: 'judge-model' } })
    server.setReply(() => ({ text: JSON.stringify({ reasoning: 'ok', score: 1 }), latencyMs: 100 }))
    server.reset()
    const n = 100
    start = performance.now()
    await Promise.all(Array.from({ length: n }, (_, i) => llmExpect(`answer ${i}`).toPassJudge('Is polite')))
    const judgeMs = performance.now() - start
    const ideal = (n * 100) / 8
    printTable('100 toPassJudge assertions, 100 ms server latency, concurrency 8', [
      { 'wall ms': fmtNum(judgeMs), 'ideal ms (100 x 100 / 8)': fmtNum(ideal), ratio: fmtNum(judgeMs / ideal), requests: String(server.requests.length) },
    ])
    console.log(`judge wall time / ideal = ${fmtNum(judgeMs / ideal)}x; target at most 1.3x: ${judgeMs / ideal <= 1.3 ? 'met' : 'MISSED'}`)
  } finally {
    resetConfig()
    clearEmbeddingCache()
    await server.close()
  }
}
