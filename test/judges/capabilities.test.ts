// What every model judge shares (src/judges/capabilities.ts): which server errors count as a rejection of
// structured output or of temperature 0, and the fallbacks they trigger. The errors are shaped as the
// SDKs shape them (openai and @anthropic-ai/sdk: status, message "<status> <text>", parsed body in
// `error`; the AI SDK: statusCode and the raw responseBody), with the wording the servers use (sources in
// the module's comment). test/judges/local-servers.test.ts runs the same fallbacks end to end.
import { afterEach, describe, expect, test, vi } from 'vitest'
import {
  callWithFallbacks,
  type FallbackPolicy,
  type JudgeCapabilities,
  rejectionOf,
  resetFallbackNotices,
  verdictSchemaName,
} from '../../src/judges/capabilities.js'
import type { JudgeRequest } from '../../src/judges/types.js'

/** An openai / @anthropic-ai/sdk APIError: the message starts with the status, the body is parsed. */
const sdkError = (status: number, text: string, body: unknown = { error: { message: text } }) =>
  Object.assign(new Error(`${status} ${text}`), { status, error: body })
/** An AI SDK APICallError: statusCode, and the raw body as text. */
const aiSdkError = (statusCode: number, responseBody: string) => Object.assign(new Error('Bad Request'), { statusCode, responseBody })

describe('rejectionOf', () => {
  test.each([
    ['LM Studio', 400, "'response_format.type' must be 'json_schema' or 'text'"],
    ['vLLM (xgrammar)', 400, 'The provided JSON schema contains features not supported by xgrammar.'],
    ['an Anthropic model without structured outputs', 400, 'output_config.format: Extra inputs are not permitted'],
    ['the Anthropic beta parameter', 400, 'output_format: Extra inputs are not permitted'],
    ['a server naming json_schema', 422, 'json_schema is not a valid format'],
    ['a server naming structured output', 400, 'This model does not do Structured Output'],
    ['a grammar error', 400, 'failed to build the grammar'],
  ])('%s: structured output rejected', (_server, status, text) => {
    expect(rejectionOf(sdkError(status, text))).toBe('structured')
  })

  test.each([
    ['responseSchema', '{"error":{"code":400,"message":"Invalid JSON payload: unknown field responseSchema"}}'],
    ['responseJsonSchema', '{"error":{"code":400,"message":"responseJsonSchema is not supported for this model"}}'],
  ])('Gemini through the AI SDK (%s, statusCode and a raw body): structured output rejected', (_field, body) => {
    expect(rejectionOf(aiSdkError(400, body))).toBe('structured')
  })

  test('a 500 is a rejection of structured output only when it names the grammar or the JSON schema', () => {
    expect(rejectionOf(sdkError(500, 'Failed to compile the grammar'))).toBe('structured')
    expect(rejectionOf(sdkError(500, 'invalid JSON Schema for guided decoding'))).toBe('structured')
    // A 500 that mentions a schema in other words, or nothing of the kind, is an ordinary server error.
    expect(rejectionOf(sdkError(500, 'response_format handler crashed'))).toBeUndefined()
    expect(rejectionOf(sdkError(500, 'Internal server error'))).toBeUndefined()
  })

  test.each([
    ['an OpenAI reasoning model', "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported."],
    ['a Claude model without sampling parameters', 'temperature is not supported for this model'],
    ['"unsupported"', 'Unsupported parameter: temperature'],
    ['"only the default"', 'temperature: only the default value is accepted'],
    ['"not allowed"', 'setting temperature is not allowed'],
    ['"is deprecated"', 'temperature is deprecated for this model'],
  ])('%s: temperature rejected', (_server, text) => {
    expect(rejectionOf(sdkError(400, text))).toBe('temperature')
  })

  test('temperature wins over structured output when a message names both, and a 500 can reject temperature too', () => {
    expect(rejectionOf(sdkError(400, 'temperature does not support 0 with response_format json_schema'))).toBe('temperature')
    expect(rejectionOf(sdkError(500, 'temperature is not supported'))).toBe('temperature')
  })

  test('temperature named without a refusal, or a refusal of something else, is not a temperature rejection', () => {
    expect(rejectionOf(sdkError(400, 'temperature must be at most 2'))).toBeUndefined()
    expect(rejectionOf(sdkError(400, 'logprobs are not supported'))).toBeUndefined()
  })

  test('a 400 whose body the openai SDK could not read (vLLM, older versions) is unreadable', () => {
    expect(rejectionOf(Object.assign(new Error('400 status code (no body)'), { status: 400 }))).toBe('unreadable')
    expect(rejectionOf(Object.assign(new Error('422 '), { status: 422 }))).toBe('unreadable')
    expect(rejectionOf(Object.assign(new Error(''), { status: 400 }))).toBe('unreadable')
    expect(rejectionOf(Object.assign(new Error('400'), { status: 400 }))).toBe('unreadable')
  })

  test('a status followed by other text is not an unreadable body', () => {
    expect(rejectionOf(Object.assign(new Error('400x'), { status: 400 }))).toBeUndefined()
    expect(rejectionOf(Object.assign(new Error('400 Bad'), { status: 400 }))).toBeUndefined()
  })

  test('other statuses, other 400s and errors without a status are no rejection', () => {
    for (const status of [401, 403, 404, 429, 502, 503]) {
      expect(rejectionOf(sdkError(status, 'response_format json_schema temperature is not supported'))).toBeUndefined()
    }
    expect(rejectionOf(sdkError(400, 'max_tokens is too large: 999999'))).toBeUndefined()
    expect(rejectionOf(new Error('fetch failed: response_format'))).toBeUndefined()
    expect(rejectionOf(null)).toBeUndefined()
  })
})

describe('verdictSchemaName', () => {
  test('faithfulness has its own verdict schema, every other template the judge verdict', () => {
    const request = (template: string) => ({ template }) as JudgeRequest
    expect(verdictSchemaName(request('faithfulness'))).toBe('faithfulness_verdict')
    expect(verdictSchemaName(request('correctness'))).toBe('judge_verdict')
    expect(verdictSchemaName(request('custom'))).toBe('judge_verdict')
  })
})

describe('callWithFallbacks', () => {
  const policy: FallbackPolicy = { structuredOutput: 'auto', temperatureExplicit: false, who: 'the judge model "m" at http://127.0.0.1:1/v1' }
  const temperatureError = sdkError(400, "Unsupported value: 'temperature' does not support 0 with this model.")
  const structuredError = sdkError(400, "'response_format.type' must be 'json_schema' or 'text'")
  const unreadableError = Object.assign(new Error('400 status code (no body)'), { status: 400 })

  /** A call that throws the given errors in turn (undefined: answers 'ok'), recording the capabilities of each attempt. */
  function scripted(...errors: Array<Error | undefined>) {
    const seen: JudgeCapabilities[] = []
    const call = async (caps: JudgeCapabilities) => {
      seen.push({ ...caps })
      const error = errors[seen.length - 1]
      if (error !== undefined) throw error
      return 'ok'
    }
    return { call, seen }
  }
  const warnings = () => vi.spyOn(console, 'warn').mockImplementation(() => {})

  afterEach(() => {
    resetFallbackNotices()
    vi.restoreAllMocks()
  })

  test('returns the first answer as it is, asking with everything on and printing nothing', async () => {
    const warn = warnings()
    const caps = { structured: true, temperature: true }
    const { call, seen } = scripted(undefined)
    await expect(callWithFallbacks(caps, policy, call)).resolves.toBe('ok')
    expect(seen).toEqual([{ structured: true, temperature: true }])
    expect(warn).not.toHaveBeenCalled()
  })

  test('a rejected temperature: asked again without it, kept off, and said once with the setting that skips it', async () => {
    const warn = warnings()
    const caps = { structured: true, temperature: true }
    const { call, seen } = scripted(temperatureError, undefined)
    await expect(callWithFallbacks(caps, policy, call)).resolves.toBe('ok')
    expect(seen).toEqual([
      { structured: true, temperature: true },
      { structured: true, temperature: false },
    ])
    expect(caps).toEqual({ structured: true, temperature: false })
    expect(warn.mock.calls).toEqual([
      [
        '[expect-llm] the judge model "m" at http://127.0.0.1:1/v1 rejected temperature 0 (400: ' +
          "Unsupported value: 'temperature' does not support 0 with this model.); it is asked with the model's " +
          'default temperature from now on. The rejected request is not recorded, so replay would miss it: set ' +
          'configure({ judge: { temperature: null } }) to skip it.',
      ],
    ])
    // A second judge with the same name falls back silently: the notice is printed once per judge.
    await callWithFallbacks({ structured: true, temperature: true }, policy, scripted(temperatureError, undefined).call)
    expect(warn).toHaveBeenCalledTimes(1)
  })

  test('a temperature the user set is not dropped: the rejection is thrown', async () => {
    const warn = warnings()
    const caps = { structured: true, temperature: true }
    const { call, seen } = scripted(temperatureError, undefined)
    await expect(callWithFallbacks(caps, { ...policy, temperatureExplicit: true }, call)).rejects.toBe(temperatureError)
    expect(seen).toHaveLength(1)
    expect(caps).toEqual({ structured: true, temperature: true })
    expect(warn).not.toHaveBeenCalled()
  })

  test('a rejected schema in auto mode: asked again in free text, kept off, and said once', async () => {
    const warn = warnings()
    const caps = { structured: true, temperature: true }
    const { call, seen } = scripted(structuredError, undefined)
    await expect(callWithFallbacks(caps, policy, call)).resolves.toBe('ok')
    expect(seen.map((c) => c.structured)).toEqual([true, false])
    expect(caps.structured).toBe(false)
    expect(warn.mock.calls).toEqual([
      [
        '[expect-llm] the judge model "m" at http://127.0.0.1:1/v1 rejected structured output (400: ' +
          "'response_format.type' must be 'json_schema' or 'text'); it is asked in free text from now on and its " +
          'replies are read defensively. The rejected request is not recorded, so replay would miss it: set ' +
          'configure({ judge: { structuredOutput: false } }) to skip it.',
      ],
    ])
  })

  test("the notice quotes at most 200 characters of the server's message", async () => {
    const warn = warnings()
    const long = "'response_format' is not supported by this model: " + 'the schema given was '.repeat(20)
    const { call } = scripted(sdkError(400, long), undefined)
    await expect(callWithFallbacks({ structured: true, temperature: true }, policy, call)).resolves.toBe('ok')
    expect(warn.mock.calls[0]?.[0]).toContain(`rejected structured output (400: ${long.slice(0, 200)}); it is asked in free text`)
  })

  test('with structuredOutput: true, a rejected schema is thrown, not worked around', async () => {
    const caps = { structured: true, temperature: true }
    const { call, seen } = scripted(structuredError, undefined)
    await expect(callWithFallbacks(caps, { ...policy, structuredOutput: true }, call)).rejects.toBe(structuredError)
    expect(seen).toHaveLength(1)
    expect(caps.structured).toBe(true)
  })

  test('both rejected in turn: three calls, the last one with neither', async () => {
    warnings()
    const caps = { structured: true, temperature: true }
    const { call, seen } = scripted(temperatureError, structuredError, undefined)
    await expect(callWithFallbacks(caps, policy, call)).resolves.toBe('ok')
    expect(seen).toEqual([
      { structured: true, temperature: true },
      { structured: true, temperature: false },
      { structured: false, temperature: false },
    ])
  })

  test('a rejected schema, then a rejected temperature: three calls, the last one with neither', async () => {
    warnings()
    const caps = { structured: true, temperature: true }
    const { call, seen } = scripted(structuredError, temperatureError, undefined)
    await expect(callWithFallbacks(caps, policy, call)).resolves.toBe('ok')
    expect(seen).toEqual([
      { structured: true, temperature: true },
      { structured: false, temperature: true },
      { structured: false, temperature: false },
    ])
  })

  test('a rejection repeated after its fallback is thrown (nothing left to switch off)', async () => {
    warnings()
    const { call, seen } = scripted(temperatureError, temperatureError)
    await expect(callWithFallbacks({ structured: true, temperature: true }, policy, call)).rejects.toBe(temperatureError)
    expect(seen).toHaveLength(2)
    const again = scripted(structuredError, structuredError)
    await expect(callWithFallbacks({ structured: true, temperature: true }, policy, again.call)).rejects.toBe(structuredError)
    expect(again.seen).toHaveLength(2)
  })

  test('an unreadable 400 that free text fixes: structured output stays off, with the notice', async () => {
    const warn = warnings()
    const caps = { structured: true, temperature: true }
    const { call, seen } = scripted(unreadableError, undefined)
    await expect(callWithFallbacks(caps, policy, call)).resolves.toBe('ok')
    expect(seen.map((c) => c.structured)).toEqual([true, false])
    expect(caps.structured).toBe(false)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[0]).toContain('rejected structured output (400: status code (no body))')
  })

  test('an unreadable 400 that free text does not fix: the first error, structured output back on, no notice', async () => {
    const warn = warnings()
    const caps = { structured: true, temperature: true }
    const second = sdkError(400, 'something else went wrong')
    const { call, seen } = scripted(unreadableError, second)
    await expect(callWithFallbacks(caps, policy, call)).rejects.toBe(unreadableError)
    expect(seen.map((c) => c.structured)).toEqual([true, false])
    expect(caps.structured).toBe(true)
    expect(warn).not.toHaveBeenCalled()
  })

  test('an unreadable 400 is not retried without structured output unless it is on and auto', async () => {
    for (const [caps, structuredOutput] of [
      [{ structured: false, temperature: true }, 'auto'],
      [{ structured: true, temperature: true }, false],
    ] as const) {
      const { call, seen } = scripted(unreadableError, undefined)
      await expect(callWithFallbacks({ ...caps }, { ...policy, structuredOutput }, call)).rejects.toBe(unreadableError)
      expect(seen).toHaveLength(1)
    }
  })

  test('errors that are no rejection are thrown at once', async () => {
    const notFound = sdkError(404, 'model not found')
    const { call, seen } = scripted(notFound, undefined)
    await expect(callWithFallbacks({ structured: true, temperature: true }, policy, call)).rejects.toBe(notFound)
    expect(seen).toHaveLength(1)
  })
})
