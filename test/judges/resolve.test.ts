// Turning what users pass as a judge into a Judge: plain functions (numbers on the request's scale,
// booleans, { score, reason, claims }), Judge objects (whose results are checked), settings, mistakes.
import { MockEmbeddingModelV4, MockLanguageModelV4 } from 'ai/test'
import { afterEach, describe, expect, test } from 'vitest'
import { configure, resetConfig } from '../../src/config.js'
import { checkJudgeResult, functionJudge, resolveJudge } from '../../src/judges/resolve.js'
import type { Judge, JudgeRequest, JudgeScale } from '../../src/judges/types.js'

afterEach(() => resetConfig())

const request = (scale: JudgeScale): JudgeRequest => ({ prompt: 'p', template: 'custom', scale, output: 'out', sample: 0 })

describe('functionJudge', () => {
  test('reads a number on the request scale and normalizes it', async () => {
    const judge = functionJudge(() => 4)
    expect(await judge.evaluate(request('1-5'))).toEqual({ score: 0.75, scaleValue: 4, reason: '', raw: '', parsedFrom: 'function' })
    expect(await judge.evaluate(request('0-5'))).toMatchObject({ score: 0.8, scaleValue: 4 })
  })

  test('reads true and false as the top and the bottom of the scale', async () => {
    expect(await functionJudge(() => true).evaluate(request('1-5'))).toMatchObject({ score: 1, scaleValue: 5 })
    expect(await functionJudge(() => false).evaluate(request('1-5'))).toMatchObject({ score: 0, scaleValue: 1 })
  })

  test('keeps the reason and the claims of an object result, and nothing else from it', async () => {
    const claims = [{ claim: 'Refunds take 30 days.', supported: true }]
    const result = await functionJudge(() => ({ score: 1, reason: 'fine', claims })).evaluate(request('binary'))
    expect(result).toEqual({ score: 1, scaleValue: 1, reason: 'fine', raw: '', parsedFrom: 'function', claims })
    const plain = await functionJudge(() => ({ score: 0 })).evaluate(request('binary'))
    expect(plain).toEqual({ score: 0, scaleValue: 0, reason: '', raw: '', parsedFrom: 'function' })
    const notAList = await functionJudge((() => ({ score: 1, claims: 'all of them' })) as never).evaluate(request('binary'))
    expect(notAList).not.toHaveProperty('claims')
  })

  test('a score off the scale, not finite or not a number fails with the function name and the scale', async () => {
    const off = async function offScale() {
      return 6
    }
    await expect(functionJudge(off).evaluate(request('1-5'))).rejects.toThrow(
      '[expect-llm] Failed to use the judge: the judge function "offScale" returned a number (6), which is not a score on the 1-5 scale (1 to 5). Return a number from 1 to 5, true/false, or { score, reason }.',
    )
    await expect(functionJudge(() => 0).evaluate(request('1-5'))).rejects.toThrow('returned a number (0), which is not a score on the 1-5 scale (1 to 5)')
    await expect(functionJudge(() => Number.NaN).evaluate(request('binary'))).rejects.toThrow('returned a number (NaN)')
    await expect(functionJudge((() => '1') as never).evaluate(request('binary'))).rejects.toThrow('the judge function (anonymous) returned a string ("1")')
    await expect(functionJudge((() => null) as never).evaluate(request('binary'))).rejects.toThrow('returned null')
  })

  test('accepts both ends of the scale', async () => {
    expect(await functionJudge(() => 1).evaluate(request('1-5'))).toMatchObject({ score: 0 })
    expect(await functionJudge(() => 5).evaluate(request('1-5'))).toMatchObject({ score: 1 })
  })
})

describe('checkJudgeResult', () => {
  test('fills scaleValue, reason and raw when a custom judge leaves them out', () => {
    expect(checkJudgeResult({ score: 0.5 }, 'mine')).toEqual({ score: 0.5, scaleValue: 0.5, reason: '', raw: '' })
    expect(checkJudgeResult({ score: 1, scaleValue: 5, reason: 'ok', raw: '{"score":5}', parsedFrom: 'json' }, 'mine')).toEqual({
      score: 1,
      scaleValue: 5,
      reason: 'ok',
      raw: '{"score":5}',
      parsedFrom: 'json',
    })
    expect(checkJudgeResult({ score: 0, reason: 3, raw: null }, 'mine')).toEqual({ score: 0, scaleValue: 0, reason: '', raw: '' })
  })

  test('refuses anything but a score in [0, 1], naming the judge and what it returned', () => {
    const fix = 'A Judge must resolve to { score, scaleValue, reason, raw } with score normalized to [0, 1].'
    expect(() => checkJudgeResult(null, 'mine')).toThrow(`[expect-llm] Failed to use the judge: the judge mine returned null. ${fix}`)
    expect(() => checkJudgeResult(0.5, 'mine')).toThrow('the judge mine returned a number (0.5)')
    // An evaluate() that forgets to return resolves to undefined: the message says so rather than a TypeError.
    expect(() => checkJudgeResult(undefined, 'mine')).toThrow(`[expect-llm] Failed to use the judge: the judge mine returned undefined. ${fix}`)
    expect(() => checkJudgeResult({ score: '1' }, 'mine')).toThrow('the judge mine returned a result with score a string ("1")')
    expect(() => checkJudgeResult({ score: Number.POSITIVE_INFINITY }, 'mine')).toThrow('returned a result with score a number (Infinity)')
    expect(() => checkJudgeResult({ score: -0.1 }, 'mine')).toThrow('returned a result with score a number (-0.1)')
    expect(() => checkJudgeResult({ score: 1.1 }, 'mine')).toThrow('returned a result with score a number (1.1)')
    expect(checkJudgeResult({ score: 0 }, 'mine').score).toBe(0)
    expect(checkJudgeResult({ score: 1 }, 'mine').score).toBe(1)
  })
})

describe('resolveJudge', () => {
  const judge: Judge = { name: 'mine', evaluate: async () => ({ score: 1, scaleValue: 1, reason: '', raw: '' }) }

  test('a Judge is used as is; a function is wrapped once; configure({ judge }) is the default', () => {
    expect(resolveJudge(judge)).toBe(judge)
    const fn = () => true
    const wrapped = resolveJudge(fn)
    expect(wrapped).not.toBe(fn)
    expect(resolveJudge(fn)).toBe(wrapped)
    configure({ judge })
    expect(resolveJudge()).toBe(judge)
  })

  test('settings become one OpenAI judge per settings object', () => {
    const settings = { model: 'gpt-4o-mini', apiKey: 'local-test-key', baseURL: 'http://127.0.0.1:9/v1' }
    const a = resolveJudge(settings)
    expect(a).toBe(resolveJudge(settings))
    expect(a).not.toBe(resolveJudge({ ...settings }))
    expect(typeof a.evaluate).toBe('function')
  })

  test('unknown settings and values that are no judge fail with what was passed', () => {
    expect(() => resolveJudge({ modle: 'x', temprature: 0 } as never)).toThrow(
      '[expect-llm] Failed to use the judge: unknown option "judge.modle" (did you mean "judge.model"?); unknown option "judge.temprature" (did you mean "judge.temperature"?). Valid judge settings (or pass an object with evaluate(), or a function): model, baseURL, apiKey, client, temperature, maxRetries, timeout, structuredOutput, maxTokens.',
    )
    expect(() => resolveJudge('gpt-4o' as never)).toThrow(
      '[expect-llm] Failed to use the judge: the judge must be a Judge, a function or judge settings, got a string ("gpt-4o"). Pass for example { model: "gpt-4.1-mini" }, or a function (request) => score.',
    )
    expect(() => resolveJudge([] as never)).toThrow('the judge must be a Judge, a function or judge settings, got an array')
    expect(resolveJudge(null as never)).toBe(resolveJudge()) // null, like undefined: the default judge
    expect(() => resolveJudge({ evaluate: 'no' } as never)).toThrow('unknown option "judge.evaluate"')
  })
})

describe('what a mistake in the judge is', () => {
  test('a function judge off the scale and a broken Judge result are TypeErrors', async () => {
    await expect(functionJudge(() => 7).evaluate(request('binary'))).rejects.toBeInstanceOf(TypeError)
    expect(() => checkJudgeResult(null, 'mine')).toThrow(TypeError)
  })

  test('a value that is neither a Judge, a function nor settings fails', () => {
    expect(() => resolveJudge(5 as never)).toThrow('the judge must be a Judge, a function or judge settings, got a number (5)')
  })
})

describe('which built-in judge settings make', () => {
  const create = async () => ({})
  const aiSdkModel = new MockLanguageModelV4({ provider: 'mock-provider', modelId: 'mock-judge' }) as never

  test('a client with both chat.completions and messages is an OpenAI client; one with messages but no create is not Anthropic', () => {
    const defaultOpenAIModel = resolveJudge({ client: { chat: { completions: { create } } } as never }).name
    expect(resolveJudge({ client: { chat: { completions: { create } }, messages: { create } } as never }).name).toBe(defaultOpenAIModel)
    expect(resolveJudge({ client: { messages: {} } as never }).name).toBe(defaultOpenAIModel)
    expect(resolveJudge({ client: { messages: { create } } as never }).name).toBe('claude-haiku-4-5')
  })

  test('the model named next to an Anthropic client is the one it asks', () => {
    expect(resolveJudge({ client: { messages: { create } } as never, model: 'claude-opus-4-1' }).name).toBe('claude-opus-4-1')
  })

  test('settings that belong to another judge are named, all of them, with where to set them', () => {
    expect(() => resolveJudge({ model: aiSdkModel, baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k' })).toThrow(
      '[expect-llm] Failed to use the judge: "baseURL" and "apiKey" cannot be combined with an AI SDK model. ' +
        'Set the endpoint and key on the AI SDK provider instead: createAnthropic({ baseURL, apiKey }).',
    )
    expect(() => resolveJudge({ model: aiSdkModel, client: { messages: { create } } as never })).toThrow('"client" cannot be combined with an AI SDK model.')
    expect(() => resolveJudge({ client: { messages: { create } } as never, apiKey: 'k' })).toThrow(
      '[expect-llm] Failed to use the judge: "apiKey" cannot be combined with an Anthropic client. Set them on the client instead: new Anthropic({ baseURL, apiKey }).',
    )
  })

  test('an AI SDK embedding model as the judge says what to pass', () => {
    expect(() => resolveJudge({ model: new MockEmbeddingModelV4({ provider: 'mock-provider', modelId: 'mock-embedder' }) as never })).toThrow(
      "must be a model name or an AI SDK language model, got an AI SDK embedding model (configure it as the embedder). Pass for example { model: anthropic('claude-haiku-4-5') } from @ai-sdk/anthropic, or { model: 'gpt-4.1-mini' }.",
    )
  })
})
