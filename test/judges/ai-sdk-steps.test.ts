// The pure steps of aiSdkJudge (src/judges/ai-sdk.ts): the settings of a call and the result of a reply.
import { describe, expect, test } from 'vitest'
import { callSettings, judgeResult } from '../../src/judges/ai-sdk.js'
import { SYSTEM_PROMPT } from '../../src/judges/capabilities.js'
import type { JudgeRequest } from '../../src/judges/types.js'

const request = { prompt: 'Rate it.', template: 'custom', scale: 'binary', output: 'x', sample: 0 } as JudgeRequest
const caps = { structured: true, temperature: true }

describe('callSettings', () => {
  test('system prompt, temperature 0 by default, the structured verdict', () => {
    expect(callSettings(request, caps, {})).toStrictEqual({ system: SYSTEM_PROMPT, prompt: 'Rate it.', temperature: 0, structured: true })
  })

  test('the limits when set; no temperature for a model that takes none', () => {
    expect(callSettings(request, { structured: false, temperature: false }, { temperature: 0.3, maxTokens: 200, maxRetries: 1, timeout: 5000 })).toEqual({
      system: SYSTEM_PROMPT,
      prompt: 'Rate it.',
      maxOutputTokens: 200,
      maxRetries: 1,
      timeout: 5000,
      structured: false,
    })
  })

  test('a verbatim prompt goes alone: no system prompt, no schema', () => {
    expect(callSettings({ ...request, verbatim: true }, caps, { temperature: 0.5 })).toStrictEqual({ prompt: 'Rate it.', temperature: 0.5, structured: false })
  })
})

describe('judgeResult', () => {
  test('the verdict, the raw reply, the model that answered and its finite token counts', () => {
    const reply = { text: '{"reasoning":"fine","verdict":"pass"}', modelId: 'm-2025', usage: { inputTokens: 12, outputTokens: Number.NaN } }
    const result = judgeResult(reply, request, 'm')
    expect(result).toMatchObject({ raw: reply.text, model: 'm-2025', usage: { model: 'm-2025', inputTokens: 12 } })
    expect(result.usage).not.toHaveProperty('outputTokens')
  })

  test('finite output tokens are counted; missing or non-finite input tokens are not', () => {
    const reply = { text: '{"reasoning":"fine","verdict":"pass"}', modelId: 'm-2025', usage: { inputTokens: Number.POSITIVE_INFINITY, outputTokens: 7 } }
    expect(judgeResult(reply, request, 'm').usage).toStrictEqual({ model: 'm-2025', outputTokens: 7 })
    expect(judgeResult({ ...reply, usage: { outputTokens: 3 } }, request, 'm').usage).toStrictEqual({ model: 'm-2025', outputTokens: 3 })
  })

  test('the configured model id when the reply names none', () => {
    expect(judgeResult({ text: '{"reasoning":"r","verdict":"fail"}', modelId: undefined, usage: undefined }, request, 'm').model).toBe('m')
  })
})
