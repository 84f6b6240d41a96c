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
    configure({ embedder: { client, model: 'text-embedding-3-small' } })
    const embed = async (input: string[]) => (await client.embeddings.create({ model: 'text-embedding-3-small', input })).data.map((d) => d.embedding)
    // The variants, expect-llm first, then the hand-written clients from weakest to strongest. Each `reset` forgets
    // what the previous round embedded (expect-llm's cache, the memo), so every round starts cold.
    let memo = new Map<string, Promise<number[]>>()
    const variants: Array<{ variant: string; reset: () => void; assertion: (output: string, expected: string) => Promise<unknown> }> = [
      {
        variant: 'expect-llm (batched + cached)',
        reset: () => clearEmbeddingCache(),
        assertion: (output, expected) => llmExpect(output).toBeSemanticallySimilar(expected, { threshold: 0 }),
      },
      {
        variant: 'one request per text, no cache',
        reset: () => {},
        assertion: async (output, expected) => {
          const [[a], [b]] = await Promise.all([embed([output]), embed([expected])])
          return cosineSimilarity(a!, b!)
        },
      },
      {
        variant: 'both texts in one request, no cache',
        reset: () => {},
        assertion: async (output, expected) => {
          const [a, b] = await embed([output, expected])
          return cosineSimilarity(a!, b!)
        },
      },
      {
        // The strongest naive client: one request per assertion for the texts not seen yet (in flight
        // or done), none when both are known.
        variant: 'both texts in one request, memoised',
        reset: () => {
          memo = new Map()
        },
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
    // Warm-up, not counted: the first requests open the connection and compile the SDK's, the server's and the
    // matcher's code paths, which would otherwise fall on whichever variant runs first.
    for (const v of variants) {
      v.reset()
      await Promise.all(pairs.slice(0, 20).map(([output, expected]) => v.assertion(`warm-up ${output}`, `warm-up ${expected}`)))
    }
    // Rounds in rotating order (each variant runs first once in four rounds); the median wall time of each.
    const rounds = 8
    const times = variants.map(() => [] as number[])
    const counts = variants.map(() => ({ requests: 0, inputs: 0 }))
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < variants.length; k++) {
        const index = (round + k) % variants.length
        const v = variants[index]!
        v.reset()
        server.reset()
        const start = performance.now()
        await Promise.all(pairs.map(([output, expected]) => v.assertion(output, expected)))
        times[index]!.push(performance.now() - start)
        const embeddings = server.requests.filter((r) => r.endpoint === 'embeddings')
        counts[index] = { requests: embeddings.length, inputs: embeddings.reduce((n, r) => n + (r.body.input as string[]).length, 0) }
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
    const rows = variants.map((v, i) => ({ variant: v.variant, ...counts[i]!, ms: median(times[i]!) }))

    printTable(
      `200 concurrent toBeSemanticallySimilar over 50 distinct texts (requests counted at the server; median wall time of ${rounds} rounds, after a warm-up)`,
      rows.map((r) => ({ variant: r.variant, requests: String(r.requests), inputs: String(r.inputs), 'wall ms': fmtNum(r.ms) })),
    )
    const batched = rows[0]!
    const strongest = rows.at(-1)!
    console.log(
      `requests: ${batched.requests} vs ${strongest.requests} for the strongest naive client (${fmtNum(strongest.requests / batched.requests)}x fewer), ` +
        `${rows[2]!.requests} without its memo, ${rows[1]!.requests} one text per request; wall time ${fmtNum(batched.ms / strongest.ms)}x the strongest's; ` +
        `target at most 2 requests: ${batched.requests <= 2 ? 'met' : 'MISSED'}`,
    )

    // (2) Judge calls under the concurrency limit with 100 ms latency.
    resetConfig()
    configure({ concurrency: 8, judge: { client, model: 'judge-model' } })
    server.setReply(() => ({ text: JSON.stringify({ reasoning: 'ok', score: 1 }), latencyMs: 100 }))
    server.reset()
    const n = 100
    const start = performance.now()
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
