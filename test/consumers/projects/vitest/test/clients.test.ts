// Apps built on other clients than openai: the Vercel AI SDK, LangChain and the Anthropic SDK, tested with
// expect-llm's matchers. Their requests (to api.openai.com and api.anthropic.com) replay from
// __llm_fixtures__ like the judge's, so this runs with no key and no network.
import { createOpenAI } from '@ai-sdk/openai'
import Anthropic from '@anthropic-ai/sdk'
import { ChatOpenAI } from '@langchain/openai'
import { generateText } from 'ai'
import { describe, expect, test } from 'vitest'

// Any placeholder works in replay; recording needs the real keys.
const openaiKey = process.env.OPENAI_API_KEY ?? 'replay-without-a-key'
const anthropicKey = process.env.ANTHROPIC_API_KEY ?? 'replay-without-a-key'

const system = [
  'You are the customer support assistant of an online shop.',
  "Answer the customer's question using only the handbook excerpts in the context. Be brief: one to three sentences.",
  'If the context does not contain the answer, say "I don\'t know" and suggest contacting the support team. Never guess.',
].join('\n')
const question = 'How long do I have to ask for a refund?'
const context = '[refunds] Refunds: You can ask for a refund within 30 days of delivery. Refunds go back to the original payment method.'
const user = `Context:\n${context}\n\nQuestion: ${question}`
const reference = 'You can ask for a refund within 30 days of delivery.'

describe('apps on other clients, replayed', () => {
  test('Vercel AI SDK: generateText', async () => {
    const { text } = await generateText({ model: createOpenAI({ apiKey: openaiKey }).chat('gpt-4.1-mini'), system, prompt: user, temperature: 0 })
    expect(text).toContainKeywords(['30 days', 'refund'])
    await expect(text).toPassJudge({ reference, input: question })
  })

  test('LangChain: ChatOpenAI.invoke', async () => {
    const reply = await new ChatOpenAI({ model: 'gpt-4.1-mini', temperature: 0, apiKey: openaiKey }).invoke([
      ['system', system],
      ['human', user],
    ])
    expect(String(reply.content)).toContainKeywords(['30 days'])
    await expect(String(reply.content)).toBeFaithfulTo(context)
  })

  test('Anthropic SDK: messages.create', async () => {
    const message = await new Anthropic({ apiKey: anthropicKey }).messages.create({ model: 'claude-3-5-haiku-20241022', max_tokens: 200, system, messages: [{ role: 'user', content: user }] })
    const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('')
    expect(text).toHaveRougeLAbove(reference, 0.5)
    await expect(text).toBeSemanticallySimilar(reference, { threshold: 0.5 })
  })
})
