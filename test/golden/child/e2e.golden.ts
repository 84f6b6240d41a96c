// A golden suite whose task calls a chat model through the real openai SDK, scored with rougeL and
// semantic similarity (embeddings from the same server). Run by test/golden/replay-e2e.test.ts in a
// child Vitest: once recording against a local OpenAI-compatible server, once replaying with it stopped.
import OpenAI from 'openai'
import { configure } from '../../../src/config.js'
import { describeGolden } from '../../../src/entries/vitest.js'

configure({
  replay: { hosts: [process.env.CHILD_ORIGIN as string], rootDir: process.cwd() },
  embedder: { baseURL: process.env.CHILD_BASE_URL as string, apiKey: 'test-key-local', maxRetries: 0 },
})

const client = new OpenAI({ baseURL: process.env.CHILD_BASE_URL, apiKey: 'test-key-local', maxRetries: 0 })

describeGolden('support bot e2e', {
  dataset: [
    { id: 'refund', input: 'refund window', expected: 'Refunds are accepted within 30 days of purchase.' },
    { id: 'shipping', input: 'shipping cost', expected: 'Shipping is free on orders over $50.' },
    { id: 'canada', input: 'ship to canada', expected: 'We ship to Canada in 5 to 7 business days.' },
  ],
  task: async (input: string) => {
    const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: input }] })
    return reply.choices[0]?.message.content ?? ''
  },
  scorers: { rougeL: 0.5, semantic: null },
  concurrency: 3,
  budget: { p95LatencyMs: 5000, maxTokens: 10_000 },
})
