// Token usage and model of a recorded response, for every provider dialect the default hosts cover: the
// fixture meta and the golden suites' usage figures come from here.
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import type { Fixture } from '../../src/replay/types.js'
import { extractModelAndUsage, normalizeUsage, sseDataObjects, usageOf } from '../../src/replay/usage.js'

const fixture = (path: string) => JSON.parse(readFileSync(new URL(`../${path}`, import.meta.url), 'utf8')) as Fixture
const sse = (...events: object[]) => events.map((e) => `event: ${(e as { type?: string }).type ?? 'message'}\ndata: ${JSON.stringify(e)}\n\n`)

describe('OpenAI', () => {
  test('chat completions, with cached and reasoning tokens', () => {
    expect(
      normalizeUsage({
        prompt_tokens: 90,
        completion_tokens: 20,
        total_tokens: 110,
        prompt_tokens_details: { cached_tokens: 64 },
        completion_tokens_details: { reasoning_tokens: 12 },
      }),
    ).toEqual({
      inputTokens: 90,
      outputTokens: 20,
      totalTokens: 110,
      cachedInputTokens: 64,
      reasoningTokens: 12,
    })
  })

  test('a Responses API stream: the usage of response.completed', () => {
    const response = {
      sse: sse(
        { type: 'response.created', response: { model: 'gpt-4.1-mini', usage: null } },
        { type: 'response.completed', response: { model: 'gpt-4.1-mini', usage: { input_tokens: 12, output_tokens: 5, total_tokens: 17 } } },
      ),
    }
    expect(extractModelAndUsage(response as never)).toEqual({ model: 'gpt-4.1-mini', usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 } })
  })

  test('without cached or reasoning counts: no such keys (a key set to undefined would show in a spread or an `in` check)', () => {
    expect(normalizeUsage({ prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 })).toStrictEqual({ inputTokens: 9, outputTokens: 2, totalTokens: 11 })
  })
})

describe('Anthropic', () => {
  test('a Messages body: cache writes and reads count as input, reads as cached (Anthropic counts them apart)', () => {
    const body = {
      type: 'message',
      model: 'claude-haiku-4-5',
      usage: { input_tokens: 21, cache_creation_input_tokens: 188, cache_read_input_tokens: 1000, output_tokens: 393 },
    }
    expect(extractModelAndUsage({ status: 200, headers: {}, json: body } as never)).toEqual({
      model: 'claude-haiku-4-5',
      usage: { inputTokens: 1209, outputTokens: 393, totalTokens: 1602, cachedInputTokens: 1000 },
    })
  })

  test('a stream recorded from the Anthropic SDK: input from message_start, output from the last message_delta', () => {
    const recorded = fixture('agents/__llm_fixtures__/agent-loops.replay.test.ts/messages.45abb573ada219ec.json')
    expect(extractModelAndUsage(recorded.response!)).toEqual({ model: 'claude-scripted', usage: { inputTokens: 7, outputTokens: 8, totalTokens: 15 } })
  })

  test('a message_delta that also carries the input counts (newer API versions) replaces the start', () => {
    const response = {
      sse: sse(
        { type: 'message_start', message: { model: 'claude-sonnet-4-5', usage: { input_tokens: 50, output_tokens: 1 } } },
        { type: 'message_delta', usage: { input_tokens: 50, cache_read_input_tokens: 10, output_tokens: 30 } },
      ),
    }
    expect(extractModelAndUsage(response as never).usage).toEqual({ inputTokens: 60, outputTokens: 30, totalTokens: 90, cachedInputTokens: 10 })
  })

  test('a message_delta before any message_start has no usage (no input count to add its output to)', () => {
    expect(extractModelAndUsage({ sse: sse({ type: 'message_delta', usage: { output_tokens: 8 } }) } as never)).toStrictEqual({ model: null, usage: null })
  })

  test('an output count without input outside a message_delta is no usage (only message_delta is output-only)', () => {
    expect(usageOf({ type: 'message', usage: { output_tokens: 8 } })).toStrictEqual({ model: null, usage: null, outputOnly: false })
  })

  test('a message_delta whose usage has no output count is no output-only usage', () => {
    expect(usageOf({ type: 'message_delta', usage: {} })).toStrictEqual({ model: null, usage: null, outputOnly: false })
  })
})

describe('Gemini', () => {
  test('a generateContent body recorded from the AI SDK: usageMetadata and modelVersion', () => {
    const recorded = fixture('judges/__llm_fixtures__/ai-sdk-judge.test.ts/models-gemini-2_5-flash_generatecontent.dede0e0edf47dd81.json')
    expect(extractModelAndUsage(recorded.response!)).toEqual({ model: 'gemini-2.5-flash', usage: { inputTokens: 143, outputTokens: 3, totalTokens: 146 } })
  })

  test('thinking tokens are output (and reasoning), cached content is cached input', () => {
    expect(
      normalizeUsage({ promptTokenCount: 100, candidatesTokenCount: 20, thoughtsTokenCount: 30, cachedContentTokenCount: 40, totalTokenCount: 150 }),
    ).toEqual({
      inputTokens: 100,
      outputTokens: 50,
      totalTokens: 150,
      cachedInputTokens: 40,
      reasoningTokens: 30,
    })
  })

  test('without cached content or thinking counts: no such keys', () => {
    expect(normalizeUsage({ promptTokenCount: 143, candidatesTokenCount: 3, totalTokenCount: 146 })).toStrictEqual({
      inputTokens: 143,
      outputTokens: 3,
      totalTokens: 146,
    })
  })

  test('a stream (alt=sse) and a JSON array of chunks: the last usageMetadata', () => {
    const chunks = [
      { candidates: [{ content: { parts: [{ text: 'Hel' }] } }], usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 }, modelVersion: 'gemini-2.5-flash' },
      {
        candidates: [{ content: { parts: [{ text: 'lo' }] } }],
        usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 2, totalTokenCount: 10 },
        modelVersion: 'gemini-2.5-flash',
      },
    ]
    const expected = { model: 'gemini-2.5-flash', usage: { inputTokens: 8, outputTokens: 2, totalTokens: 10 } }
    expect(extractModelAndUsage({ sse: chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`) } as never)).toEqual(expected)
    expect(extractModelAndUsage({ json: chunks } as never)).toEqual(expected)
  })
})

test('a body without usage in any dialect has none (never zero)', () => {
  expect(extractModelAndUsage({ json: { id: 'x', choices: [] } } as never)).toEqual({ model: null, usage: null })
  expect(normalizeUsage({ tokens: 3 })).toBeNull()
  expect(extractModelAndUsage({ status: 204, headers: {} } as never)).toStrictEqual({ model: null, usage: null })
  expect(usageOf({ type: 'message_delta', usage: 5 })).toStrictEqual({ model: null, usage: null, outputOnly: false })
})

test('golden usage reads the response of an older recording whose meta has no usage', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const { readFixtureMeta } = await import('../../src/golden/capture.js')
  const root = mkdtempSync(join(tmpdir(), 'expect-llm-usage-'))
  const recorded = fixture('agents/__llm_fixtures__/agent-loops.replay.test.ts/messages.45abb573ada219ec.json')
  expect(recorded.meta.usage).toBeNull()
  writeFileSync(join(root, 'old.json'), JSON.stringify(recorded))
  expect(readFixtureMeta(root, 'old.json')).toEqual({ model: 'claude-scripted', usage: { inputTokens: 7, outputTokens: 8, totalTokens: 15 } })
})

describe('usage at its edges', () => {
  test('Gemini without totalTokenCount: input plus output (thinking included)', () => {
    expect(normalizeUsage({ promptTokenCount: 10, candidatesTokenCount: 4, thoughtsTokenCount: 3 })).toEqual({
      inputTokens: 10,
      outputTokens: 7,
      totalTokens: 17,
      reasoningTokens: 3,
    })
  })

  test('a count that is not a finite number (a string, NaN, Infinity) is no count', () => {
    for (const bad of ['9', Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(normalizeUsage({ prompt_tokens: bad, completion_tokens: 2 }), String(bad)).toBeNull()
      expect(normalizeUsage({ prompt_tokens: 9, completion_tokens: bad, total_tokens: bad }), String(bad)).toEqual({
        inputTokens: 9,
        outputTokens: 0,
        totalTokens: 9,
      })
    }
  })

  test('a value that is not an object carries no model and no usage', () => {
    expect(usageOf(null)).toEqual({ model: null, usage: null, outputOnly: false })
    expect(usageOf('data')).toEqual({ model: null, usage: null, outputOnly: false })
  })

  test('a usage that is not an object (null, a string, a number) normalizes to null', () => {
    expect(normalizeUsage(null)).toBeNull()
    expect(normalizeUsage('9')).toBeNull()
    expect(normalizeUsage(9)).toBeNull()
  })
})

describe('SSE data payloads', () => {
  test('events without JSON data are skipped: no data line, an empty data, [DONE], not JSON', () => {
    expect(sseDataObjects(['event: ping\n\n', 'data:\n\n', 'data: {"a":1}\n\n', 'data: [DONE]\n\n', 'data: oops\n\n'])).toStrictEqual([{ a: 1 }])
  })

  test('the space after data: is optional', () => {
    expect(sseDataObjects(['data:{"a":1}\n\n', 'data: {"b":2}\n\n'])).toStrictEqual([{ a: 1 }, { b: 2 }])
  })

  test('the data lines of one event join with a line feed, so a value split inside a token is no JSON', () => {
    expect(sseDataObjects(['data: {"a":\ndata: 1}\n\n'])).toStrictEqual([{ a: 1 }])
    expect(sseDataObjects(['data:[1\ndata:2]\n\n'])).toStrictEqual([])
  })
})
