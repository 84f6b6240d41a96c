// The pure steps of anthropicJudge (src/judges/anthropic.ts): the body of a call and the result of a message.
import { describe, expect, test } from 'vitest'
import { DEFAULT_ANTHROPIC_MAX_TOKENS, messageParams, messageResult } from '../../src/judges/anthropic.js'
import { SYSTEM_PROMPT, verdictSchema } from '../../src/judges/capabilities.js'
import { JudgeReplyError } from '../../src/judges/parse.js'
import type { JudgeRequest } from '../../src/judges/types.js'

const request = { prompt: 'Rate it.', template: 'custom', scale: 'binary', output: 'x', sample: 0 } as JudgeRequest
const caps = { structured: true, temperature: true }
const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '')

describe('messageParams', () => {
  test('system prompt, the default max_tokens, temperature 0 by default, the verdict schema', () => {
    expect(messageParams(request, caps, 'claude-haiku-4-5', {})).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: DEFAULT_ANTHROPIC_MAX_TOKENS,
      system: SYSTEM_PROMPT,
      messages: [{ role: 'user', content: 'Rate it.' }],
      temperature: 0,
      output_config: { format: { type: 'json_schema', schema: verdictSchema(request) } },
    })
  })

  test('the set limits; no temperature and no schema where the capabilities rule them out', () => {
    expect(messageParams(request, { structured: false, temperature: false }, 'm', { temperature: 0.3, maxTokens: 200 })).toEqual({
      model: 'm',
      max_tokens: 200,
      system: SYSTEM_PROMPT,
      messages: [{ role: 'user', content: 'Rate it.' }],
    })
  })

  test('a verbatim prompt goes alone: no system prompt, no schema', () => {
    expect(messageParams({ ...request, verbatim: true }, caps, 'm', { temperature: 0.5 })).toEqual({
      model: 'm',
      max_tokens: DEFAULT_ANTHROPIC_MAX_TOKENS,
      messages: [{ role: 'user', content: 'Rate it.' }],
      temperature: 0.5,
    })
  })
})

describe('messageResult', () => {
  test('the text blocks as the verdict (thinking skipped), the model that answered and its token counts', () => {
    const message = {
      content: [
        { type: 'thinking', text: 'hmm' },
        { type: 'text', text: '{"reasoning":"fine",' },
        { type: 'text', text: '"verdict":"pass"}' },
      ],
      model: 'claude-haiku-4-5-20251001',
      usage: { input_tokens: 12, output_tokens: 7 },
    }
    expect(messageResult(message, request, 'claude-haiku-4-5', 4096)).toMatchObject({
      score: 1,
      raw: '{"reasoning":"fine","verdict":"pass"}',
      model: 'claude-haiku-4-5-20251001',
      usage: { model: 'claude-haiku-4-5-20251001', inputTokens: 12, outputTokens: 7 },
    })
  })

  test('the configured model when the message names none; no token counts it does not give', () => {
    const result = messageResult({ content: [{ type: 'text', text: '{"reasoning":"r","verdict":"fail"}' }] }, request, 'm', 4096)
    expect(result).toMatchObject({ score: 0, model: 'm' })
    expect(result.usage).toEqual({ model: 'm' })
  })

  test('an empty reply cut off by max_tokens says to raise maxTokens', () => {
    const message = { content: [{ type: 'thinking', text: 'long thought' }], stop_reason: 'max_tokens' }
    let error: Error | undefined
    try {
      messageResult(message, request, 'm', 300)
    } catch (e) {
      error = e as Error
    }
    expect(strip(error?.message ?? '')).toMatchInlineSnapshot(
      `"[expect-llm] Failed to read the judge's reply: the judge model "m" used all 300 output tokens before answering (thinking counts against them). Raise configure({ judge: { maxTokens } })."`,
    )
  })

  test('an empty reply that was not cut off is read as a reply (and fails to parse there)', () => {
    expect(() => messageResult({ content: [], stop_reason: 'end_turn' }, request, 'm', 300)).toThrow(/judge/)
  })

  test('an empty reply that was not cut off is a JudgeReplyError that says the reply is empty', () => {
    expect(() => messageResult({ content: [], stop_reason: 'end_turn' }, request, 'm', 300)).toThrow(JudgeReplyError)
    expect(() => messageResult({ content: [], stop_reason: 'end_turn' }, request, 'm', 300)).toThrow("Failed to read the judge's reply: the reply is empty.")
  })

  test('a reply of whitespace cut off by max_tokens is an empty reply too', () => {
    expect(() => messageResult({ content: [{ type: 'text', text: ' \n' }], stop_reason: 'max_tokens' }, request, 'm', 300)).toThrow(
      'used all 300 output tokens before answering',
    )
  })

  test('a verdict that was cut off by max_tokens after it is still read', () => {
    const message = { content: [{ type: 'text', text: 'Verdict: PASS. The dates' }], stop_reason: 'max_tokens' }
    expect(messageResult(message, request, 'm', 300)).toMatchObject({ score: 1, parsedFrom: 'verdict' })
  })

  test('a text block whose text is not a string is skipped', () => {
    const message = {
      content: [
        { type: 'text', text: 7 as unknown as string },
        { type: 'text', text: 'Verdict: FAIL' },
      ],
    }
    expect(messageResult(message, request, 'm', 300)).toMatchObject({ score: 0, raw: 'Verdict: FAIL' })
  })
})
