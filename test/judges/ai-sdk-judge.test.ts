// AI SDK language models as the judge, through the real `ai` 7 and provider packages against local
// servers on 127.0.0.1 that speak each provider's wire format (Anthropic Messages, Gemini, and the
// OpenAI-compatible API of Ollama and LM Studio), then recorded and replayed with the servers stopped.
import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { describe, expect, test } from 'vitest'
import * as matchers from '../../matchers/index.js'
import { configure } from '../../src/config.js'
import { aiSdkJudge } from '../../src/judges/ai-sdk.js'
import { resolveJudge } from '../../src/judges/resolve.js'
import type { Judge } from '../../src/judges/types.js'
import { getLedger } from '../../src/ledger.js'
import { startGoogleServer, type GoogleServer } from '../helpers/google-server.js'
import { startLocalServer } from '../helpers/local-servers.js'
import { chatRequests, startOpenAIServer, type OpenAIServer } from '../helpers/model-server.js'
import { fakeAnthropicKey, good, graded, reference, useProviderTestHooks, verdictOf, wrong } from '../helpers/provider-judging.js'
import { recordThenReplay, replayMode, replayProblems } from '../helpers/record-then-replay.js'

expect.extend(matchers)

const hooks = useProviderTestHooks()

const anthropicModel = (server: OpenAIServer, id = 'claude-haiku-4-5') => createAnthropic({ baseURL: server.baseURL, apiKey: fakeAnthropicKey })(id)
const geminiModel = (server: GoogleServer) => createGoogleGenerativeAI({ baseURL: server.baseURL, apiKey: 'local-gemini-key' })('gemini-2.5-flash')
const ollamaModel = (server: OpenAIServer, supportsStructuredOutputs = true) =>
  createOpenAICompatible({ name: 'ollama', baseURL: server.baseURL, supportsStructuredOutputs }).chatModel('qwen3:8b')
const both = async (judge: () => Judge) => [(await verdictOf(judge(), good)).pass, (await verdictOf(judge(), wrong)).pass]

describe('an Anthropic model (@ai-sdk/anthropic)', () => {
  test('asks with output_config.format on a model with structured outputs, and reads the verdict', async () => {
    const server = await startOpenAIServer({ reply: (req) => ({ text: graded(req.lastUserText) }) })
    try {
      expect(await verdictOf(aiSdkJudge({ model: anthropicModel(server) }), good)).toMatchObject({
        pass: true,
        score: 1,
        reason: 'Same facts as the reference.',
        judgeName: 'claude-haiku-4-5',
      })
      expect(await verdictOf(aiSdkJudge({ model: anthropicModel(server) }), wrong)).toMatchObject({ pass: false })
      expect(server.requests[0]?.body).toMatchObject({ model: 'claude-haiku-4-5', temperature: 0, output_config: { format: { type: 'json_schema' } } })
      expect(getLedger()).toMatchObject({ calls: 2, unpricedModels: [], callsWithoutUsage: 0 })
      expect(getLedger().costUsd).toBeGreaterThan(0)
    } finally {
      await server.close()
    }
  })

  test('on a model without structured outputs, the AI SDK forces its JSON tool and the verdict is read from it', async () => {
    // A Claude that answers a forced tool with the tool call, as the Messages API does.
    const server = await startOpenAIServer({
      reply: (req) => (req.body?.tool_choice ? { toolCalls: [{ name: 'json', arguments: graded(req.lastUserText) }] } : { text: graded(req.lastUserText) }),
    })
    try {
      expect(await verdictOf(aiSdkJudge({ model: anthropicModel(server, 'claude-3-haiku-20240307') }), good)).toMatchObject({ pass: true, score: 1 })
      expect(server.requests[0]?.body).toMatchObject({ tools: [{ name: 'json' }], tool_choice: { type: 'any' } })
      expect(server.requests[0]?.body.output_config).toBeUndefined()
    } finally {
      await server.close()
    }
  })

  test("shows expect-llm's own message when replay has no recording, not the provider's reading of it", async () => {
    replayMode('replay')
    configure({ replay: { hosts: ['http://127.0.0.1:2'] } })
    const model = createAnthropic({ baseURL: 'http://127.0.0.1:2/v1', apiKey: fakeAnthropicKey })('claude-haiku-4-5')
    await expect(verdictOf(aiSdkJudge({ model, maxRetries: 0 }))).rejects.toThrow(
      /^\[expect-llm\] Failed to replay POST \/v1\/messages \(model claude-haiku-4-5\)/,
    )
    expect(replayProblems()).toHaveLength(1)
  })

  test('records and replays with the server stopped, same verdicts', async () => {
    const server = await startOpenAIServer({ reply: (req) => ({ text: graded(req.lastUserText) }) })
    const { recorded, replayed, fixtures } = await recordThenReplay(
      [server.origin],
      () => server.close(),
      () => both(() => aiSdkJudge({ model: anthropicModel(server) })),
    )
    expect(recorded).toEqual([true, false])
    expect(replayed).toEqual([true, false])
    expect(fixtures.map((f) => f.meta.endpoint)).toEqual(['messages', 'messages'])
    expect(JSON.stringify(fixtures)).not.toContain(fakeAnthropicKey)
  })
})

describe('a Google model (@ai-sdk/google)', () => {
  test('asks for JSON with the verdict schema and reads it, with the usage priced', async () => {
    const server = await startGoogleServer((req) => ({ text: graded(req.lastUserText) }))
    try {
      expect(await verdictOf(aiSdkJudge({ model: geminiModel(server) }), good)).toMatchObject({ pass: true, score: 1, judgeName: 'gemini-2.5-flash' })
      expect(server.requests[0]).toMatchObject({ model: 'gemini-2.5-flash', action: 'generateContent' })
      expect(server.requests[0]?.body.generationConfig).toMatchObject({
        temperature: 0,
        responseMimeType: 'application/json',
        responseJsonSchema: { required: ['reasoning', 'score'] },
      })
      expect(getLedger().byModel['gemini-2.5-flash']).toMatchObject({ calls: 1, unpricedCalls: 0 })
    } finally {
      await server.close()
    }
  })

  test('records and replays with the server stopped, same verdicts', async () => {
    const server = await startGoogleServer((req) => ({ text: graded(req.lastUserText) }))
    const { recorded, replayed, fixtures } = await recordThenReplay(
      [server.origin],
      () => server.close(),
      () => both(() => aiSdkJudge({ model: geminiModel(server) })),
    )
    expect(recorded).toEqual([true, false])
    expect(replayed).toEqual([true, false])
    expect(fixtures.map((f) => f.key.path)).toEqual(['/v1beta/models/gemini-2.5-flash:generateContent', '/v1beta/models/gemini-2.5-flash:generateContent'])
  })
})

describe('a local model through @ai-sdk/openai-compatible', () => {
  test('Ollama: a reply that ignores the schema (fenced JSON after <think>) is still read', async () => {
    const server = await startLocalServer('ollama', (req) => ({ reasoning: 'Draft: {"score": 0}', text: `\`\`\`json\n${graded(req.lastUserText)}\n\`\`\`` }))
    try {
      expect(await verdictOf(aiSdkJudge({ model: ollamaModel(server) }), good)).toMatchObject({ pass: true, score: 1 })
      expect(chatRequests(server.requests)[0]?.body.response_format).toMatchObject({ type: 'json_schema' })
    } finally {
      await server.close()
    }
  })

  test('Ollama: records and replays with the server stopped', async () => {
    const server = await startLocalServer('ollama', (req) => ({ text: graded(req.lastUserText) }))
    const { recorded, replayed } = await recordThenReplay(
      [server.origin],
      () => server.close(),
      () => both(() => aiSdkJudge({ model: ollamaModel(server) })),
    )
    expect(recorded).toEqual([true, false])
    expect(replayed).toEqual([true, false])
  })

  test("LM Studio: the provider's default json_object is rejected, so the judge falls back to free text once", async () => {
    const server = await startLocalServer('lmstudio', (req) => ({ text: graded(req.lastUserText) }))
    try {
      const judge = aiSdkJudge({ model: ollamaModel(server, false) })
      expect(await verdictOf(judge, good)).toMatchObject({ pass: true })
      expect(await verdictOf(judge, wrong)).toMatchObject({ pass: false })
      expect(chatRequests(server.requests).map((r) => r.body.response_format?.type)).toEqual(['json_object', undefined, undefined])
      expect(String(hooks.warn.mock.calls.find((c: unknown[]) => String(c[0]).includes('rejected structured output'))?.[0])).toContain(
        "(400: 'response_format.type' must be 'json_schema' or 'text')",
      )
    } finally {
      await server.close()
    }
  })

  test('LM Studio with supportsStructuredOutputs: true gets json_schema, which it accepts', async () => {
    const server = await startLocalServer('lmstudio', (req) => ({ text: graded(req.lastUserText) }))
    try {
      expect(await verdictOf(aiSdkJudge({ model: ollamaModel(server, true) }), good)).toMatchObject({ pass: true })
      expect(chatRequests(server.requests)).toHaveLength(1)
    } finally {
      await server.close()
    }
  })
})

describe('configured as settings', () => {
  test('configure({ judge: { model: anthropic(...) } }) judges toPassJudge', async () => {
    const server = await startOpenAIServer({ reply: (req) => ({ text: graded(req.lastUserText) }) })
    try {
      configure({ judge: { model: anthropicModel(server) } })
      await expect(good).toPassJudge({ reference })
      await expect(wrong).not.toPassJudge({ reference })
    } finally {
      await server.close()
    }
  })

  test('rejects an embedding model as the judge, and a baseURL next to an AI SDK model', () => {
    const google = createGoogleGenerativeAI({ apiKey: 'k' })
    expect(() => resolveJudge({ model: google.embeddingModel('gemini-embedding-001') as never })).toThrow(
      '[expect-llm] Failed to use the judge: "model" must be a model name or an AI SDK language model, got an AI SDK embedding model (configure it as the embedder).',
    )
    expect(() => resolveJudge({ model: google('gemini-2.5-flash'), baseURL: 'http://127.0.0.1:1/v1' })).toThrow(
      '"baseURL" cannot be combined with an AI SDK model.',
    )
  })
})
