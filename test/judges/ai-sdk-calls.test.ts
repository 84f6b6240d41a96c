// aiSdkJudge (src/judges/ai-sdk.ts) through the real `ai` 7 generateText, with the AI SDK's own mock
// language model (`ai/test`) as the provider: what each call asks the model for, how a reply that does not
// fit the schema is read, and the errors a provider throws. No request leaves the process; the HTTP side of
// real providers is covered by ai-sdk-judge.test.ts against local servers.
import { createAnthropic } from '@ai-sdk/anthropic'
import { APICallError } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { afterEach, beforeEach, describe, expect, test, vi, type MockInstance } from 'vitest'
import { aiSdkJudge, type AiSdkJudgeOptions } from '../../src/judges/ai-sdk.js'
import { resetFallbackNotices } from '../../src/judges/capabilities.js'
import type { JudgeRequest } from '../../src/judges/types.js'
import { clearLibraryHosts, libraryHosts, registerLibraryHost } from '../../src/replay/hosts.js'
import { asyncFailureMessage } from '../helpers/model-fakes.js'

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>

const request = { prompt: 'Is the answer right?', template: 'custom', scale: 'binary', output: 'x', sample: 0 } as JudgeRequest
const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '')

/** A reply of the model: its text, the model id it names and its token counts. */
function reply(text: string | undefined, modelId = 'mock-judge-2025'): GenerateResult {
  return {
    content: text === undefined ? [] : [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 7, text: 7, reasoning: undefined },
    },
    response: { modelId },
    warnings: [],
  }
}

/** A mock model whose calls answer (or throw) in turn. */
function mockModel(...answers: Array<GenerateResult | (() => never)>) {
  let n = 0
  return new MockLanguageModelV4({
    provider: 'mock-provider',
    modelId: 'mock-judge',
    doGenerate: async () => {
      const answer = answers[Math.min(n++, answers.length - 1)]!
      return typeof answer === 'function' ? answer() : answer
    },
  })
}

const judgeOf = (model: MockLanguageModelV4, options: Omit<AiSdkJudgeOptions, 'model'> = {}) =>
  aiSdkJudge({ model: model as unknown as AiSdkJudgeOptions['model'], ...options })

/** An API error as a provider package throws it. */
function apiError(statusCode: number, message: string, extra: Partial<ConstructorParameters<typeof APICallError>[0]> = {}) {
  return () => {
    throw new APICallError({
      message,
      url: 'http://127.0.0.1:9/v1/generate',
      requestBodyValues: {},
      statusCode,
      responseBody: JSON.stringify({ error: { message } }),
      ...extra,
    })
  }
}

let warn: MockInstance
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  resetFallbackNotices()
})
afterEach(() => {
  vi.restoreAllMocks()
})

describe('what aiSdkJudge asks the model for', () => {
  test('the verdict schema as structured output, temperature 0, and the reply read with the usage of the model that answered', async () => {
    const model = mockModel(reply('{"reasoning": "Right.", "score": 1}'))
    expect(await judgeOf(model).evaluate(request)).toMatchObject({
      score: 1,
      reason: 'Right.',
      model: 'mock-judge-2025',
      usage: { model: 'mock-judge-2025', inputTokens: 12, outputTokens: 7 },
    })
    expect(model.doGenerateCalls[0]).toMatchObject({ temperature: 0, responseFormat: { type: 'json', schema: { required: ['reasoning', 'score'] } } })
  })

  test('structuredOutput: false asks in free text', async () => {
    const model = mockModel(reply('Verdict: PASS'))
    expect(await judgeOf(model, { structuredOutput: false }).evaluate(request)).toMatchObject({ score: 1, parsedFrom: 'verdict' })
    expect(model.doGenerateCalls[0]?.responseFormat?.type).not.toBe('json')
  })

  test('temperature: null sends no temperature', async () => {
    const model = mockModel(reply('{"reasoning": "Right.", "score": 1}'))
    await judgeOf(model, { temperature: null }).evaluate(request)
    expect(model.doGenerateCalls[0]?.temperature).toBeUndefined()
  })

  test("the model's host becomes a replay host without the user listing it", () => {
    const saved = libraryHosts()
    clearLibraryHosts()
    try {
      aiSdkJudge({ model: createAnthropic({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'local' })('claude-haiku-4-5') })
      expect(libraryHosts()).toEqual(['http://127.0.0.1:9'])
    } finally {
      clearLibraryHosts()
      for (const host of saved) registerLibraryHost(host)
    }
  })
})

describe('a reply that does not fit the verdict schema', () => {
  test('is read as free text, with the model that answered and its usage', async () => {
    const model = mockModel(reply('The dates match.\nVerdict: PASS'))
    expect(await judgeOf(model).evaluate(request)).toMatchObject({
      score: 1,
      parsedFrom: 'verdict',
      raw: 'The dates match.\nVerdict: PASS',
      model: 'mock-judge-2025',
      usage: { model: 'mock-judge-2025', inputTokens: 12, outputTokens: 7 },
    })
  })

  test('an empty one says the reply is empty', async () => {
    expect(await asyncFailureMessage(judgeOf(mockModel(reply(undefined))).evaluate(request))).toContain("Failed to read the judge's reply: the reply is empty.")
  })
})

describe('fallbacks', () => {
  test('a rejected default temperature is dropped, and the notice names the model and the provider', async () => {
    const model = mockModel(apiError(400, 'temperature is not supported for this model'), reply('{"reasoning": "Right.", "score": 1}'))
    expect(await judgeOf(model).evaluate(request)).toMatchObject({ score: 1 })
    expect(model.doGenerateCalls.map((c) => c.temperature)).toEqual([0, undefined])
    expect(strip(String(warn.mock.calls[0]?.[0]))).toContain(
      '[expect-llm] The judge model "mock-judge" (AI SDK provider "mock-provider") rejected temperature 0 (400: temperature is not supported for this model)',
    )
  })

  test('by default a rejected structured output is asked again in free text, once', async () => {
    const model = mockModel(apiError(400, 'response_format json_schema is not supported'), reply('Verdict: PASS'))
    expect(await judgeOf(model).evaluate(request)).toMatchObject({ score: 1, parsedFrom: 'verdict' })
    expect(model.doGenerateCalls.map((c) => c.responseFormat?.type)).toEqual(['json', undefined])
    expect(strip(String(warn.mock.calls[0]?.[0]))).toContain(
      'The judge model "mock-judge" (AI SDK provider "mock-provider") rejected structured output (400: response_format json_schema is not supported)',
    )
  })

  test('a temperature the user set is not dropped: the rejection is the error', async () => {
    const model = mockModel(apiError(400, 'temperature is not supported for this model'), reply('{"reasoning": "Right.", "score": 1}'))
    expect(await asyncFailureMessage(judgeOf(model, { temperature: 0.3 }).evaluate(request))).toContain(
      'the server answered 400 (temperature is not supported for this model)',
    )
    expect(model.doGenerateCalls).toHaveLength(1)
  })
})

describe('errors', () => {
  test('a refused key names the variables AI SDK providers read', async () => {
    expect(await asyncFailureMessage(judgeOf(mockModel(apiError(401, 'invalid x-api-key')), { maxRetries: 0 }).evaluate(request))).toBe(
      '[expect-llm] Failed to call the judge model "mock-judge" at http://127.0.0.1:9/v1/generate: the server refused the API key (401: invalid x-api-key). ' +
        'Set the API key your AI SDK provider reads (for example ANTHROPIC_API_KEY or GOOGLE_GENERATIVE_AI_API_KEY), ' +
        'or pass apiKey when you create the provider (createAnthropic({ apiKey })).',
    )
  })

  test('an unknown model names the provider and the model id', async () => {
    expect(await asyncFailureMessage(judgeOf(mockModel(apiError(404, 'model not found')), { maxRetries: 0 }).evaluate(request))).toBe(
      '[expect-llm] Failed to call the judge model "mock-judge" at http://127.0.0.1:9/v1/generate: the model or endpoint was not found (404: model not found). ' +
        "Check the model id passed to the provider (mock-provider:mock-judge) and the provider's baseURL.",
    )
  })

  test('the retries made before a rate limit are counted', async () => {
    const limited = apiError(429, 'slow down', { isRetryable: true, responseHeaders: { 'retry-after-ms': '1' } })
    expect(await asyncFailureMessage(judgeOf(mockModel(limited), { maxRetries: 1 }).evaluate(request))).toContain(
      'rate limited (429: slow down) after 1 retry.',
    )
  })

  test('an error without a URL names the provider instead', async () => {
    const offline = () => {
      throw new TypeError('fetch failed')
    }
    expect(await asyncFailureMessage(judgeOf(mockModel(offline), { maxRetries: 0 }).evaluate(request))).toMatch(
      /^\[expect-llm\] Failed to call the judge model "mock-judge" at AI SDK provider "mock-provider": fetch failed/,
    )
  })

  test('a provider that throws null still gets the message', async () => {
    const odd = () => {
      throw null as unknown as Error
    }
    expect(await asyncFailureMessage(judgeOf(mockModel(odd), { maxRetries: 0 }).evaluate(request))).toBe(
      '[expect-llm] Failed to call the judge model "mock-judge" at AI SDK provider "mock-provider": null. Check that the server is reachable at the baseURL.',
    )
  })

  test('without the "ai" package, the error names the judge (not the embedder) and both fixes', async () => {
    // Only this test's dynamic import of `ai` (in loadAiSdk) fails; the mock is removed before any other test runs.
    vi.doMock('ai', () => {
      throw new Error('Cannot find package "ai"')
    })
    try {
      const message = strip(await asyncFailureMessage(judgeOf(mockModel(reply('{"verdict":"yes"}')), { maxRetries: 0 }).evaluate(request)))
      expect(message).toMatch(
        /^\[expect-llm\] Failed to use the AI SDK judge: the "ai" package could not be loaded \(.+\)\. Install it next to your @ai-sdk provider/,
      )
      expect(message).toContain('or configure({ judge }) with settings for the built-in OpenAI judge.')
    } finally {
      vi.doUnmock('ai')
    }
    // The real package loads again.
    expect(await judgeOf(mockModel(reply('{"verdict":"yes","reason":"ok"}'))).evaluate(request)).toBeDefined()
  })

  test('a provider that throws a value that is not an object still gets the message', async () => {
    const odd = () => {
      throw 'connection reset' as unknown as Error
    }
    expect(await asyncFailureMessage(judgeOf(mockModel(odd), { maxRetries: 0 }).evaluate(request))).toBe(
      '[expect-llm] Failed to call the judge model "mock-judge" at AI SDK provider "mock-provider": connection reset. Check that the server is reachable at the baseURL.',
    )
  })
})
