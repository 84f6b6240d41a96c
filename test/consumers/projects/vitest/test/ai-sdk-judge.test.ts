// A judge from the Vercel AI SDK, and an embedder on a server that answers float arrays, as users
// configure them for local servers (README, "Judges and embedders"): replayed from __llm_fixtures__
// (recorded against scripted stand-ins of Ollama and LM Studio), with no server running.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { configure } from 'expect-llm'
import { describe, expect, test } from 'vitest'

const ollama = createOpenAICompatible({ name: 'ollama', baseURL: 'http://127.0.0.1:11434/v1', supportsStructuredOutputs: true })

configure({
  judge: { model: ollama.chatModel('qwen3:8b') },
  embedder: { baseURL: 'http://127.0.0.1:1234/v1', apiKey: 'lm-studio', model: 'text-embedding-nomic-embed-text-v1.5' },
  pricing: { 'qwen3:8b': { inputPerMTok: 0, outputPerMTok: 0 }, 'text-embedding-nomic-embed-text-v1.5': { inputPerMTok: 0, outputPerMTok: 0 } },
  replay: { hosts: ['http://127.0.0.1:11434', 'http://127.0.0.1:1234'] },
})

const question = 'How long do I have to ask for a refund?'
const reference = 'You can ask for a refund within 30 days of delivery.'
const right = 'You have 30 days from delivery to request a refund.'
const wrong = 'Wait 30 days after delivery before you can ask for a refund.'

describe('local models, replayed', () => {
  test('an AI SDK judge (Ollama through @ai-sdk/openai-compatible) tells the right answer from the reversed one', async () => {
    await expect(right).toPassJudge({ reference, input: question })
    await expect(wrong).not.toPassJudge({ reference, input: question })
  })

  test('embeddings from a server that ignores encoding_format arrive whole (LM Studio)', async () => {
    await expect(right).toBeSemanticallySimilar(reference, { threshold: 0.9 })
    await expect('Standard shipping costs $4.99.').not.toBeSemanticallySimilar(reference, { threshold: 0.5 })
  })
})
