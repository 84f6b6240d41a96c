// The provider configurations the README shows ("Judges and embedders"), exactly as written there, replayed
// from committed recordings with no server and no key: an Anthropic judge (the SDK client and an AI SDK
// model), a Google embedder, an Ollama judge. The clients call the real hosts (api.anthropic.com,
// generativelanguage.googleapis.com, Ollama's http://127.0.0.1:11434), so the fixtures are keyed like
// recordings of those services.
//
// Recorded against scripted local servers that speak each API (test/helpers) with
//   EXPECT_LLM_REPLAY=record npx vitest run test/judges/providers.replay.test.ts
// which starts the servers and sends the recorder's upstream requests to them (test/helpers/route-recording.ts).
import Anthropic from '@anthropic-ai/sdk'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as matchers from '../../matchers/index.js'
import { configure, resetConfig } from '../../src/config.js'
import { clearEmbeddingCache } from '../../src/embedders/batch.js'
import { resolveMode } from '../../src/replay/mode.js'
import { startGoogleServer } from '../helpers/google-server.js'
import { startLocalServer } from '../helpers/local-servers.js'
import { startOpenAIServer, type RecordedRequest } from '../helpers/model-server.js'
import { routeRecording } from '../helpers/route-recording.js'

expect.extend(matchers)

const recording = ['record', 'rerecord'].includes(resolveMode('replay').mode)
const question = 'How long do I have to ask for a refund?'
const reference = 'You can ask for a refund within 30 days of purchase.'
const right = 'You have 30 days from purchase to request a refund.'
const wrong = 'Wait 30 days after purchase before you can ask for a refund.'
const offTopic = 'Standard shipping costs $4.99.'
// Replay needs no key; the SDKs want one to build a request (README: "a placeholder key on replay").
const key = (name: string) => process.env[name] ?? 'replay-without-a-key'

/** The scripted grader behind every recorded judge: the reversed condition fails. */
function verdictFor(prompt: string): string {
  return JSON.stringify(
    prompt.includes(`<answer>\n${right}\n</answer>`)
      ? { reasoning: 'States the same 30-day window as the reference.', score: 1 }
      : { reasoning: 'Reverses the condition: the reference allows a refund within 30 days, the answer makes the customer wait 30 days.', score: 0 },
  )
}

/** Scripted embeddings: the two refund answers close together, shipping far from them. */
const vectors: Record<string, number[]> = { [reference]: [0.96, 0.28, 0, 0], [right]: [0.94, 0.34, 0, 0], [offTopic]: [0.1, 0, 0.99, 0] }

let stop = async (): Promise<void> => {}

beforeAll(async () => {
  configure({ replay: { hosts: ['https://api.anthropic.com', 'https://generativelanguage.googleapis.com', 'http://127.0.0.1:11434'] } })
  if (!recording) return
  const anthropic = await startOpenAIServer({ reply: (req: RecordedRequest) => ({ text: verdictFor(req.lastUserText), usage: { input: 412, output: 38 } }) })
  const google = await startGoogleServer((req) => ({ embeddings: req.texts.map((t) => vectors[t] ?? [0, 0, 0, 1]) }))
  const ollama = await startLocalServer('ollama', (req: RecordedRequest) => ({ text: verdictFor(req.lastUserText), usage: { input: 398, output: 41 } }))
  const unroute = routeRecording({
    'https://api.anthropic.com': anthropic.origin,
    'https://generativelanguage.googleapis.com': google.origin,
    'http://127.0.0.1:11434': ollama.origin,
  })
  stop = async () => {
    unroute()
    await Promise.all([anthropic.close(), google.close(), ollama.close()])
  }
})

afterAll(async () => {
  resetConfig()
  clearEmbeddingCache()
  await stop()
})

describe('an Anthropic judge', () => {
  test('through the Anthropic SDK: { client: new Anthropic(), model }', async () => {
    const judge = { client: new Anthropic({ apiKey: key('ANTHROPIC_API_KEY') }), model: 'claude-haiku-4-5' }
    await expect(right).toPassJudge({ reference, input: question, judge })
    await expect(wrong).not.toPassJudge({ reference, input: question, judge })
  })

  test('through the AI SDK: { model: anthropic(...) }', async () => {
    const anthropic = createAnthropic({ apiKey: key('ANTHROPIC_API_KEY') })
    const judge = { model: anthropic('claude-haiku-4-5') }
    await expect(right).toPassJudge({ reference, input: question, judge })
    await expect(wrong).not.toPassJudge({ reference, input: question, judge })
  })
})

describe('a Google embedder', () => {
  test('{ model: google.embeddingModel(...) }', async () => {
    const google = createGoogleGenerativeAI({ apiKey: key('GOOGLE_GENERATIVE_AI_API_KEY') })
    const embedder = { model: google.embeddingModel('gemini-embedding-001') }
    await expect(right).toBeSemanticallySimilar(reference, { embedder, threshold: 0.9 })
    await expect(offTopic).not.toBeSemanticallySimilar(reference, { embedder, threshold: 0.9 })
  })
})

describe('an Ollama judge', () => {
  test('through its OpenAI-compatible endpoint: { baseURL, apiKey, model }', async () => {
    const judge = { baseURL: 'http://127.0.0.1:11434/v1', apiKey: 'ollama', model: 'qwen3:8b' }
    await expect(right).toPassJudge({ reference, input: question, judge })
    await expect(wrong).not.toPassJudge({ reference, input: question, judge })
  })
})
