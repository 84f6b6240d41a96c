// The README's "token usage in a fixture's meta is read from ... Anthropic Messages ..., streamed or not":
// two Anthropic calls, replayed from the fixtures `npm run test:consumers:record` wrote against a local
// scripted Messages API, and the usage recorded in each fixture's meta, read back from the files.
import { readdirSync, readFileSync } from 'node:fs'
import Anthropic from '@anthropic-ai/sdk'
import { expect, test } from 'vitest'

const client = new Anthropic({ apiKey: process.env.ANTHROPIC_API_KEY ?? 'replay-without-a-key', maxRetries: 0 })
const ask = (question: string) => ({
  model: 'claude-haiku-4-5',
  max_tokens: 200,
  messages: [{ role: 'user' as const, content: `Context:\n[shipping] Shipping: Standard shipping costs $4.99.\n\nQuestion: ${question}` }],
})

/** The `meta` of every Anthropic fixture this file recorded. */
function recordedMeta(): Array<{ usage?: unknown }> {
  const dir = new URL('./__llm_fixtures__/anthropic-usage.test.ts/', import.meta.url)
  return readdirSync(dir)
    .filter((f) => f.startsWith('messages.'))
    .map((f) => (JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as { meta: { usage?: unknown } }).meta)
}

const usage = (u: Anthropic.Messages.Usage) => ({ inputTokens: u.input_tokens, outputTokens: u.output_tokens, totalTokens: u.input_tokens + u.output_tokens })
const replies: Anthropic.Messages.Message[] = []

test('an Anthropic reply, JSON and streamed, carries its token usage', async () => {
  replies.push(await client.messages.create(ask('How much does shipping cost?')))
  replies.push(await client.messages.stream(ask('What does standard shipping cost?')).finalMessage())
  for (const reply of replies) expect(reply.usage.output_tokens).toBeGreaterThan(0)
})

// While recording, the fixtures are written after the file's tests; the committed ones are read on replay.
test.skipIf(process.env.EXPECT_LLM_REPLAY === 'record')('the same usage is in each fixture meta', () => {
  const metas = recordedMeta()
  expect(metas).toHaveLength(2)
  expect(replies).toHaveLength(2)
  for (const reply of replies) expect(metas).toContainEqual(expect.objectContaining({ usage: usage(reply.usage) }))
})
