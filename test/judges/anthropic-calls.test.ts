// anthropicJudge (src/judges/anthropic.ts) with the client it is given: what it passes to
// `client.messages.create` (the body and the request options), which host it makes a replay host, and the
// retries its error messages count, through the real @anthropic-ai/sdk with a `fetch` that answers in the
// process. The HTTP side against a local server is covered by anthropic-judge.test.ts.
import Anthropic from '@anthropic-ai/sdk'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { anthropicJudge, type AnthropicJudgeOptions } from '../../src/judges/anthropic.js'
import { resetFallbackNotices } from '../../src/judges/capabilities.js'
import type { AnthropicClientLike, JudgeRequest } from '../../src/judges/types.js'
import { clearLibraryHosts, libraryHosts, registerLibraryHost } from '../../src/replay/hosts.js'
import { asyncFailureMessage } from '../helpers/model-fakes.js'

const request = { prompt: 'Is the answer right?', template: 'custom', scale: 'binary', output: 'x', sample: 0 } as JudgeRequest
const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '')
const verdict = { content: [{ type: 'text', text: '{"reasoning": "Right.", "score": 1}' }], model: 'claude-haiku-4-5', stop_reason: 'end_turn' }

/** A client as the judge sees it, recording what each `messages.create` call is given. */
function recordingClient(extra: Partial<AnthropicClientLike> = {}) {
  const calls: Array<{ body: Record<string, unknown>; options: unknown }> = []
  const client: AnthropicClientLike = {
    baseURL: 'http://127.0.0.1:9',
    ...extra,
    messages: {
      create: async (body: Record<string, unknown>, options: unknown) => {
        calls.push({ body, options })
        return verdict
      },
    },
  }
  return { client, calls }
}

let savedHosts: string[] = []
beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  resetFallbackNotices()
  savedHosts = libraryHosts()
  clearLibraryHosts()
})
afterEach(() => {
  vi.restoreAllMocks()
  clearLibraryHosts()
  for (const host of savedHosts) registerLibraryHost(host)
})

describe('what anthropicJudge passes to the client', () => {
  test('the judge maxRetries and timeout as request options, and none when they are not set', async () => {
    const { client, calls } = recordingClient()
    await anthropicJudge({ client, maxRetries: 0, timeout: 5000 }).evaluate(request)
    await anthropicJudge({ client }).evaluate(request)
    expect(calls.map((c) => c.options)).toStrictEqual([{ maxRetries: 0, timeout: 5000 }, {}])
  })

  test('a temperature the user set is sent even to a model that takes none by default', async () => {
    const { client, calls } = recordingClient()
    await anthropicJudge({ client, model: 'claude-sonnet-5-5', temperature: 0.2 }).evaluate(request)
    expect(calls[0]?.body.temperature).toBe(0.2)
  })

  test('temperature: null sends no temperature', async () => {
    const { client, calls } = recordingClient()
    await anthropicJudge({ client, temperature: null }).evaluate(request)
    expect(calls[0]?.body).not.toHaveProperty('temperature')
  })

  test('structuredOutput: false asks in free text', async () => {
    const { client, calls } = recordingClient()
    await anthropicJudge({ client, structuredOutput: false }).evaluate(request)
    expect(calls[0]?.body).not.toHaveProperty('output_config')
  })
})

describe('by default', () => {
  test('the verdict schema and temperature 0, except to a model that takes no temperature', async () => {
    const { client, calls } = recordingClient()
    await anthropicJudge({ client }).evaluate(request)
    await anthropicJudge({ client, model: 'claude-sonnet-5-5' }).evaluate(request)
    expect(calls[0]?.body).toMatchObject({ temperature: 0, output_config: { format: { type: 'json_schema' } } })
    expect(calls[1]?.body).not.toHaveProperty('temperature')
    expect(calls[1]?.body).toHaveProperty('output_config')
  })

  test('a rejected structured output is asked again in free text, with a notice naming the model and the host', async () => {
    const calls: Array<Record<string, unknown>> = []
    const client: AnthropicClientLike = {
      baseURL: 'http://127.0.0.1:9',
      messages: {
        create: async (body: Record<string, unknown>) => {
          calls.push(body)
          if (body.output_config) throw Object.assign(new Error('400 output_config.format is not supported'), { status: 400 })
          return { content: [{ type: 'text', text: 'Verdict: PASS' }] }
        },
      },
    }
    expect(await anthropicJudge({ client, model: 'claude-3-haiku-20240307' }).evaluate(request)).toMatchObject({ score: 1 })
    expect(calls.map((b) => 'output_config' in b)).toEqual([true, false])
    expect(strip(String(vi.mocked(console.warn).mock.calls[0]?.[0]))).toContain(
      '[expect-llm] The judge model "claude-3-haiku-20240307" at http://127.0.0.1:9 rejected structured output (400: output_config.format is not supported)',
    )
  })

  test('an empty reply cut off by max_tokens names the maxTokens of the judge, or the default', async () => {
    const cutOff = { content: [], stop_reason: 'max_tokens' }
    const client: AnthropicClientLike = { baseURL: 'http://127.0.0.1:9', messages: { create: async () => cutOff } }
    expect(await asyncFailureMessage(anthropicJudge({ client, maxTokens: 64 }).evaluate(request))).toContain('used all 64 output tokens')
    expect(await asyncFailureMessage(anthropicJudge({ client }).evaluate(request))).toContain('used all 4096 output tokens')
  })
})

describe('error messages', () => {
  const failing = (status: number, message: string): AnthropicClientLike => ({
    baseURL: 'http://127.0.0.1:9',
    messages: {
      create: async () => {
        throw Object.assign(new Error(`${status} ${message}`), { status })
      },
    },
  })

  test('a refused key says to set ANTHROPIC_API_KEY', async () => {
    expect(await asyncFailureMessage(anthropicJudge({ client: failing(401, 'invalid x-api-key') }).evaluate(request))).toBe(
      '[expect-llm] Failed to call the judge model "claude-haiku-4-5" at http://127.0.0.1:9: the server refused the API key (401: invalid x-api-key). ' +
        'Set ANTHROPIC_API_KEY to a valid key, or pass it to the client: new Anthropic({ apiKey }).',
    )
  })

  test('an unknown model says what Anthropic model ids look like', async () => {
    expect(await asyncFailureMessage(anthropicJudge({ client: failing(404, 'model: claude-haiku-9'), model: 'claude-haiku-9' }).evaluate(request))).toBe(
      '[expect-llm] Failed to call the judge model "claude-haiku-9" at http://127.0.0.1:9: the model or endpoint was not found (404: model: claude-haiku-9). ' +
        "Check the model name in configure({ judge: { model } }) (Anthropic model ids look like claude-haiku-4-5) and the client's baseURL.",
    )
  })
})

describe('the host of the client', () => {
  test("the client's baseURL becomes a replay host", () => {
    anthropicJudge({ client: recordingClient().client })
    expect(libraryHosts()).toEqual(['http://127.0.0.1:9'])
  })

  test("a client that does not say its baseURL is Anthropic's API, in the replay hosts and in messages", async () => {
    const client: AnthropicClientLike = {
      messages: {
        create: async () => {
          throw Object.assign(new Error('401 invalid x-api-key'), { status: 401 })
        },
      },
    }
    const judge = anthropicJudge({ client })
    expect(libraryHosts()).toEqual(['https://api.anthropic.com'])
    expect(await asyncFailureMessage(judge.evaluate(request))).toMatch(
      /^\[expect-llm\] Failed to call the judge model "claude-haiku-4-5" at https:\/\/api\.anthropic\.com: the server refused the API key/,
    )
  })
})

describe('the retries an error message counts', () => {
  /** A real Anthropic client whose every request is rate limited, with the number of requests it made. */
  function rateLimitedClient(maxRetries: number) {
    let requests = 0
    const client = new Anthropic({
      apiKey: ['local', 'test', 'key'].join('-'),
      baseURL: 'http://127.0.0.1:9',
      maxRetries,
      fetch: async () => {
        requests++
        return new Response(JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }), {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after-ms': '1' },
        })
      },
    })
    return { client, requests: () => requests }
  }
  const run = (options: AnthropicJudgeOptions) => asyncFailureMessage(anthropicJudge(options).evaluate(request))

  test("the judge's maxRetries, which the client then makes", async () => {
    const { client, requests } = rateLimitedClient(3)
    expect(await run({ client, maxRetries: 1 })).toContain('rate limited (429: slow down) after 1 retry.')
    expect(requests()).toBe(2)
  })

  test("the client's maxRetries when the judge sets none", async () => {
    const { client, requests } = rateLimitedClient(1)
    expect(await run({ client })).toContain('rate limited (429: slow down) after 1 retry.')
    expect(requests()).toBe(2)
  })

  test("the SDK's default 2 for a client that does not say its maxRetries", async () => {
    const client: AnthropicClientLike = {
      messages: {
        create: async () => {
          throw Object.assign(new Error('429 slow down'), { status: 429, error: { type: 'error', error: { message: 'slow down' } } })
        },
      },
    }
    expect(await run({ client })).toContain('rate limited (429: slow down) after 2 retries.')
  })
})
