// The OpenAI judge, configured as users configure it for Ollama, vLLM and LM Studio, against local
// servers on 127.0.0.1 that behave as those servers do (test/helpers/local-servers.ts lists each
// difference and its source), recorded and then replayed with the server stopped.
import { describe, expect, test } from 'vitest'
import { resolveJudge } from '../../src/judges/resolve.js'
import type { JudgeOptions } from '../../src/judges/types.js'
import { getLedger } from '../../src/ledger.js'
import { startLocalServer } from '../helpers/local-servers.js'
import {
  chatRequests,
  jsonVerdict,
  startOpenAIServer,
  wantsJsonSchema,
  type OpenAIServer,
  type RecordedRequest,
  type ScriptedReply,
} from '../helpers/model-server.js'
import { good, graded, gradedVerdict, useProviderTestHooks, verdictOf, wrong } from '../helpers/provider-judging.js'
import { recordThenReplay } from '../helpers/record-then-replay.js'

const hooks = useProviderTestHooks()

/** The judge settings a user writes for a local server (a fresh object, hence a fresh judge, per call). */
const settings = (server: OpenAIServer, extra: JudgeOptions = {}): JudgeOptions => ({
  baseURL: server.baseURL,
  apiKey: 'ollama',
  model: 'qwen3:8b',
  maxRetries: 0,
  ...extra,
})

const judge = (options: JudgeOptions, output: string) => verdictOf(resolveJudge(options), output)

describe('Ollama (an install that ignores response_format, a model that thinks aloud)', () => {
  const freeText = (req: RecordedRequest): ScriptedReply => {
    const v = gradedVerdict(req.lastUserText)
    // A draft score inside the thinking must not count; the answer after it is a fenced JSON object.
    const draft = JSON.stringify({ reasoning: 'first impression', score: 1 - v.score })
    return { reasoning: `Draft: ${draft}. Let me compare with the reference again.`, text: `\`\`\`json\n${JSON.stringify(v)}\n\`\`\`` }
  }

  test('reads the verdict after the <think> block, whatever draft score the thinking holds', async () => {
    const server = await startLocalServer('ollama', freeText)
    try {
      const pass = await judge(settings(server), good)
      expect(pass).toMatchObject({ pass: true, score: 1, reason: 'Same facts as the reference.' })
      expect(pass.results[0]?.raw).toContain('<think>')
      expect(await judge(settings(server), wrong)).toMatchObject({ pass: false, score: 0 })
      expect(chatRequests(server.requests).every(wantsJsonSchema)).toBe(true) // asked; the server ignored it
    } finally {
      await server.close()
    }
  })

  test('records and replays with the server stopped, same verdicts', async () => {
    const server = await startLocalServer('ollama', freeText)
    const { recorded, replayed, fixtures } = await recordThenReplay(
      [server.origin],
      () => server.close(),
      async () => {
        const options = settings(server)
        return [(await judge(options, good)).pass, (await judge(options, wrong)).pass]
      },
    )
    expect(recorded).toEqual([true, false])
    expect(replayed).toEqual([true, false])
    expect(fixtures.map((f) => f.meta.endpoint)).toEqual(['chat-completions', 'chat-completions'])
  })
})

describe('vLLM (rejects the schema with a 400 in its older top-level error body)', () => {
  const structuredOrFree = (req: RecordedRequest): ScriptedReply => ({ text: graded(req.lastUserText) })

  test('falls back to free text once, says so once with the setting that skips the rejected request, and stays there', async () => {
    const server = await startLocalServer('vllm', structuredOrFree)
    try {
      const options = settings(server)
      expect(await judge(options, good)).toMatchObject({ pass: true })
      expect(await judge(options, wrong)).toMatchObject({ pass: false })
      expect(chatRequests(server.requests).map(wantsJsonSchema)).toEqual([true, false, false])
      expect(hooks.warn).toHaveBeenCalledTimes(1)
      expect(String(hooks.warn.mock.calls[0]?.[0])).toContain(
        `[expect-llm] The judge model "qwen3:8b" at ${server.baseURL} rejected structured output (400: The provided JSON schema contains features not supported by xgrammar.); it is asked in free text from now on`,
      )
      expect(String(hooks.warn.mock.calls[0]?.[0])).toContain('set configure({ judge: { structuredOutput: false } }) to skip it.')
    } finally {
      await server.close()
    }
  })

  test('with structuredOutput: false, records and replays with the server stopped', async () => {
    const server = await startLocalServer('vllm', structuredOrFree)
    const { recorded, replayed } = await recordThenReplay(
      [server.origin],
      () => server.close(),
      async () => {
        const options = settings(server, { structuredOutput: false })
        return [(await judge(options, good)).pass, (await judge(options, wrong)).pass]
      },
    )
    expect(recorded).toEqual([true, false])
    expect(replayed).toEqual([true, false])
  })

  test('reads the reply, not the reasoning_content beside it', async () => {
    const server = await startLocalServer('vllm', () => ({ ...jsonVerdict(1, 'ok'), reasoning: 'score: 0 would be wrong here' }))
    try {
      expect(await judge(settings(server, { structuredOutput: false }), good)).toMatchObject({ pass: true, score: 1 })
    } finally {
      await server.close()
    }
  })

  test('is not fooled by an error body the SDK cannot read: retried once without the schema, the first error reported if that fails too', async () => {
    // openai 6 reads vLLM's older top-level error body as "400 status code (no body)"; an empty body
    // does the same on openai 7.
    const server = await startOpenAIServer({ reply: () => ({ status: 400, errorBody: '' }) })
    try {
      await expect(judge(settings(server), good)).rejects.toThrow(
        `[expect-llm] Failed to call the judge model "qwen3:8b" at ${server.baseURL}: the server answered 400 (status code (no body)).`,
      )
      expect(chatRequests(server.requests).map(wantsJsonSchema)).toEqual([true, false])
      expect(hooks.warn).not.toHaveBeenCalled()
    } finally {
      await server.close()
    }
  })

  test('an unreadable 400 that free text fixes switches to free text', async () => {
    const server = await startOpenAIServer({ reply: (req) => (wantsJsonSchema(req) ? { status: 400, errorBody: '' } : jsonVerdict(1, 'ok')) })
    try {
      const options = settings(server)
      expect(await judge(options, good)).toMatchObject({ pass: true })
      expect(await judge(options, good)).toMatchObject({ pass: true })
      expect(chatRequests(server.requests).map(wantsJsonSchema)).toEqual([true, false, false])
    } finally {
      await server.close()
    }
  })
})

describe('LM Studio (json_schema only, errors as a string)', () => {
  test("accepts the judge's json_schema request as it is", async () => {
    const server = await startLocalServer('lmstudio', (req) => ({ text: graded(req.lastUserText) }))
    try {
      expect(await judge(settings(server, { model: 'lmstudio-community/qwen3-8b' }), good)).toMatchObject({ pass: true, score: 1 })
      expect(chatRequests(server.requests)[0]?.body.response_format.type).toBe('json_schema')
    } finally {
      await server.close()
    }
  })

  test("shows the server's own words when it refuses a request", async () => {
    const server = await startLocalServer('lmstudio', () => ({ status: 404, errorMessage: 'No models loaded. Please load a model in the developer page.' }))
    try {
      await expect(judge(settings(server), good)).rejects.toThrow(
        'the model or endpoint was not found (404: No models loaded. Please load a model in the developer page.)',
      )
    } finally {
      await server.close()
    }
  })
})

describe('a model that accepts no temperature but the default', () => {
  const reasoningModel = (req: RecordedRequest): ScriptedReply =>
    req.body?.temperature !== undefined
      ? { status: 400, errorMessage: "Unsupported value: 'temperature' does not support this value with this model. Only the default (1) value is supported." }
      : jsonVerdict(1, 'ok')

  test('is asked again without temperature, once, with a notice naming temperature: null', async () => {
    const server = await startOpenAIServer({ reply: reasoningModel })
    try {
      const options = settings(server, { model: 'gpt-5-mini' })
      expect(await judge(options, good)).toMatchObject({ pass: true })
      expect(await judge(options, good)).toMatchObject({ pass: true })
      expect(chatRequests(server.requests).map((r) => r.body.temperature)).toEqual([0, undefined, undefined])
      expect(String(hooks.warn.mock.calls[0]?.[0])).toContain('rejected temperature 0')
      expect(String(hooks.warn.mock.calls[0]?.[0])).toContain('set configure({ judge: { temperature: null } }) to skip it.')
    } finally {
      await server.close()
    }
  })

  test('with temperature: null, sends none from the start', async () => {
    const server = await startOpenAIServer({ reply: reasoningModel })
    try {
      expect(await judge(settings(server, { model: 'gpt-5-mini', temperature: null }), good)).toMatchObject({ pass: true })
      expect(chatRequests(server.requests)).toHaveLength(1)
    } finally {
      await server.close()
    }
  })

  test('an explicit temperature the model rejects is an error, not silently dropped', async () => {
    const server = await startOpenAIServer({ reply: reasoningModel })
    try {
      await expect(judge(settings(server, { model: 'gpt-5-mini', temperature: 0.2 }), good)).rejects.toThrow(
        "the server answered 400 (Unsupported value: 'temperature' does not support this value with this model.",
      )
    } finally {
      await server.close()
    }
  })
})

describe('a server that reports no token usage', () => {
  test('the judge call is counted in the ledger with an unknown cost', async () => {
    const server = await startOpenAIServer({ reply: () => jsonVerdict(1, 'ok'), quirks: { omitUsage: true } })
    try {
      await judge(settings(server, { model: 'llama3.1' }), good)
      expect(getLedger()).toMatchObject({ calls: 1, callsWithoutUsage: 1, modelsWithoutUsage: ['llama3.1'], unpricedModels: [] })
    } finally {
      await server.close()
    }
  })
})
