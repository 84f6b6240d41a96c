// The Anthropic judge through the real @anthropic-ai/sdk against a local server on 127.0.0.1 that speaks
// the Messages API (test/helpers/anthropic-server.ts), then recorded and replayed with the server stopped.
import Anthropic from '@anthropic-ai/sdk'
import { describe, expect, test } from 'vitest'
import { anthropicJudge, type AnthropicJudgeOptions } from '../../src/judges/anthropic.js'
import { resolveJudge } from '../../src/judges/resolve.js'
import { getLedger } from '../../src/ledger.js'
import { startOpenAIServer, type OpenAIServer, type RecordedRequest, type ScriptedReply } from '../helpers/openai-server.js'
import { fakeAnthropicKey, good, graded, useProviderTestHooks, verdictOf, wrong } from '../helpers/provider-judging.js'
import { recordThenReplay, replayMode, replayProblems } from '../helpers/record-then-replay.js'

const hooks = useProviderTestHooks()

const client = (server: OpenAIServer) => new Anthropic({ baseURL: server.origin, apiKey: fakeAnthropicKey, maxRetries: 0 })
const judgeWith = (server: OpenAIServer, options: Partial<AnthropicJudgeOptions> = {}) => anthropicJudge({ client: client(server), ...options })

/** A Claude that grades the answer in the prompt, in JSON. */
const grader = (req: RecordedRequest): ScriptedReply => ({ text: graded(req.lastUserText) })

describe('anthropicJudge request', () => {
  test('sends a Messages request with the verdict schema as structured output, temperature 0 and max_tokens', async () => {
    const server = await startOpenAIServer({ reply: grader })
    try {
      await verdictOf(judgeWith(server))
      const req = server.requests[0]!
      expect(req.path).toBe('/v1/messages')
      expect(req.body).toMatchObject({
        model: 'claude-haiku-4-5',
        max_tokens: 4096,
        temperature: 0,
        messages: [{ role: 'user' }],
        output_config: { format: { type: 'json_schema', schema: { type: 'object', required: ['reasoning', 'score'], additionalProperties: false } } },
      })
      expect(req.body.system).toContain('impartial evaluator')
      expect(`${req.headers.authorization ?? ''} ${req.headers['x-api-key'] ?? ''}`).toContain(fakeAnthropicKey) // the key reaches the server...
    } finally {
      await server.close()
    }
  })

  test('sends no temperature to a Claude model that accepts none', async () => {
    const server = await startOpenAIServer({ reply: grader })
    try {
      await verdictOf(judgeWith(server, { model: 'claude-sonnet-5-5' }))
      expect(server.requests[0]?.body.temperature).toBeUndefined()
    } finally {
      await server.close()
    }
  })

  test('records the usage in the ledger, priced as Claude Haiku 4.5', async () => {
    const server = await startOpenAIServer({ reply: (req) => ({ ...grader(req), usage: { input: 1_000_000, output: 100_000 } }) })
    try {
      await verdictOf(judgeWith(server))
      expect(getLedger()).toMatchObject({ calls: 1, inputTokens: 1_000_000, outputTokens: 100_000, costUsd: 1.5, unpricedModels: [] })
    } finally {
      await server.close()
    }
  })
})

describe('anthropicJudge replies', () => {
  test('reads the structured reply', async () => {
    const server = await startOpenAIServer({ reply: grader })
    try {
      expect(await verdictOf(judgeWith(server), good)).toMatchObject({
        pass: true,
        score: 1,
        reason: 'Same facts as the reference.',
        judgeName: 'claude-haiku-4-5',
      })
      expect(await verdictOf(judgeWith(server), wrong)).toMatchObject({ pass: false, score: 0 })
    } finally {
      await server.close()
    }
  })

  test('skips thinking blocks: a draft score in them does not count', async () => {
    const server = await startOpenAIServer({ reply: (req) => ({ ...grader(req), reasoning: '{"reasoning": "draft", "score": 0}' }) })
    try {
      expect(await verdictOf(judgeWith(server, { model: 'claude-opus-5-5' }), good)).toMatchObject({ pass: true, score: 1 })
    } finally {
      await server.close()
    }
  })

  test('falls back to free text once when the model rejects output_config.format, and says how to skip the rejected request', async () => {
    const server = await startOpenAIServer({
      reply: (req) =>
        req.body?.output_config
          ? { status: 400, errorMessage: 'output_config.format: structured outputs are not supported for the model claude-3-haiku-20240307.' }
          : { text: 'The answer states the same window.\nVerdict: PASS' },
    })
    try {
      const judge = judgeWith(server, { model: 'claude-3-haiku-20240307' })
      expect(await verdictOf(judge)).toMatchObject({ pass: true, score: 1 })
      expect(await verdictOf(judge)).toMatchObject({ pass: true })
      expect(server.requests.map((r) => r.body.output_config !== undefined)).toEqual([true, false, false])
      expect(hooks.warn).toHaveBeenCalledTimes(1)
      expect(String(hooks.warn.mock.calls[0]?.[0])).toContain(
        `[expect-llm] The judge model "claude-3-haiku-20240307" at ${server.origin} rejected structured output (400: output_config.format: structured outputs are not supported for the model claude-3-haiku-20240307.)`,
      )
    } finally {
      await server.close()
    }
  })

  test('drops a temperature that an unlisted model rejects', async () => {
    const server = await startOpenAIServer({
      reply: (req) => (req.body?.temperature !== undefined ? { status: 400, errorMessage: '`temperature` is not supported for this model.' } : grader(req)),
    })
    try {
      expect(await verdictOf(judgeWith(server, { model: 'claude-nova-6' }))).toMatchObject({ pass: true })
      expect(server.requests.map((r) => r.body.temperature)).toEqual([0, undefined])
    } finally {
      await server.close()
    }
  })

  test('says so when the model spent every output token thinking', async () => {
    const server = await startOpenAIServer({ reply: () => ({ text: '', reasoning: 'Let me think about refunds...', stopReason: 'max_tokens' }) })
    try {
      await expect(verdictOf(judgeWith(server, { maxTokens: 64 }))).rejects.toThrow(
        '[expect-llm] Failed to read the judge\'s reply: the judge model "claude-haiku-4-5" used all 64 output tokens before answering (thinking counts against them). Raise configure({ judge: { maxTokens } }).',
      )
    } finally {
      await server.close()
    }
  })
})

describe('anthropicJudge errors', () => {
  test('explains a refused key with ANTHROPIC_API_KEY', async () => {
    const server = await startOpenAIServer({ reply: () => ({ status: 401, errorMessage: 'invalid x-api-key' }) })
    try {
      await expect(verdictOf(judgeWith(server))).rejects.toThrow(
        `[expect-llm] Failed to call the judge model "claude-haiku-4-5" at ${server.origin}: the server refused the API key (401: invalid x-api-key). Set ANTHROPIC_API_KEY to a valid key, or pass it to the client: new Anthropic({ apiKey }).`,
      )
    } finally {
      await server.close()
    }
  })

  test('explains an unknown model', async () => {
    const server = await startOpenAIServer({ reply: () => ({ status: 404, errorMessage: 'model: claude-haiku-9' }) })
    try {
      await expect(verdictOf(judgeWith(server, { model: 'claude-haiku-9' }))).rejects.toThrow(
        'the model or endpoint was not found (404: model: claude-haiku-9). Check the model name in configure({ judge: { model } }) (Anthropic model ids look like claude-haiku-4-5)',
      )
    } finally {
      await server.close()
    }
  })
})

describe('configured as settings', () => {
  test('{ client: new Anthropic(), model } makes the Anthropic judge', async () => {
    const server = await startOpenAIServer({ reply: grader })
    try {
      const judge = resolveJudge({ client: client(server), model: 'claude-haiku-4-5' })
      expect(judge.name).toBe('claude-haiku-4-5')
      expect(await verdictOf(judge)).toMatchObject({ pass: true })
      expect(server.requests).toHaveLength(1)
    } finally {
      await server.close()
    }
  })

  test('rejects OpenAI settings next to an Anthropic client', () => {
    expect(() => resolveJudge({ client: new Anthropic({ apiKey: fakeAnthropicKey }), baseURL: 'http://127.0.0.1:1/v1' })).toThrow(
      '[expect-llm] Failed to use the judge: "baseURL" cannot be combined with an Anthropic client. Set them on the client instead: new Anthropic({ baseURL, apiKey }).',
    )
  })
})

describe('record and replay', () => {
  test('records the Messages calls and replays them with the server stopped: same verdicts, no key in the fixtures', async () => {
    const server = await startOpenAIServer({ reply: grader })
    const { recorded, replayed, fixtures } = await recordThenReplay(
      [server.origin],
      () => server.close(),
      async () => {
        const judge = judgeWith(server)
        return [(await verdictOf(judge, good)).pass, (await verdictOf(judge, wrong)).pass]
      },
    )
    expect(recorded).toEqual([true, false])
    expect(replayed).toEqual([true, false])
    expect(fixtures.map((f) => [f.meta.endpoint, f.meta.model])).toEqual([
      ['messages', 'claude-haiku-4-5'],
      ['messages', 'claude-haiku-4-5'],
    ])
    expect(fixtures.map((f) => f.meta.usage)).toEqual([
      expect.objectContaining({ inputTokens: expect.any(Number) }),
      expect.objectContaining({ inputTokens: expect.any(Number) }),
    ])
    expect(JSON.stringify(fixtures)).not.toContain(fakeAnthropicKey)
  })

  test('a changed prompt misses, and the miss names the provider and the model', async () => {
    const server = await startOpenAIServer({ reply: grader })
    await recordThenReplay(
      [server.origin],
      () => server.close(),
      async () => (await verdictOf(judgeWith(server), good)).pass,
    )
    // The replay root was removed with the helper; a fresh replay of another prompt has no fixture at all.
    replayMode('replay')
    await expect(verdictOf(judgeWith(server), 'Refunds are possible for a month.')).rejects.toThrow(
      /Failed to replay POST \/v1\/messages \(model claude-haiku-4-5\)/,
    )
    const missMessage = replayProblems()
      .map((p) => p.message)
      .join('\n')
    expect(missMessage).toContain('Provider:      an Anthropic Messages-compatible server')
  })
})
