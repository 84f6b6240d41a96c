// The OpenAI judge through the real openai SDK against a local OpenAI-compatible server on 127.0.0.1.
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { configure, resetConfig } from '../../src/config.js'
import { openAIJudge, type OpenAIJudgeOptions } from '../../src/judges/openai.js'
import { prepareJudgeCall, runJudge } from '../../src/judges/run.js'
import { failWith } from '../../src/errors.js'
import type { JudgeSpec } from '../../src/judges/types.js'
import { getLedger, resetLedger } from '../../src/ledger.js'
import { getReplaySession } from '../../src/replay/session.js'
import { withoutReplaySession } from '../helpers/without-replay.js'
import { chatRequests, clientFor, jsonVerdict, startOpenAIServer, wantsJsonSchema, type OpenAIServer } from '../helpers/model-server.js'

let server: OpenAIServer

beforeAll(async () => {
  server = await startOpenAIServer()
  // The server is this file's model, called live: its origin would otherwise join the replay hosts.
  configure({ replay: { allowedHosts: [server.origin, 'http://127.0.0.1:2'] } })
})
afterAll(async () => {
  resetConfig()
  await server.close()
})
afterEach(() => {
  server.reset()
  resetLedger()
})

function judgeWith(options: OpenAIJudgeOptions = {}, maxRetries = 0) {
  return openAIJudge({ model: 'judge-model', client: clientFor(server.baseURL, { maxRetries }), ...options })
}

function verdictOf(spec: JudgeSpec, output = 'You can ask for a refund within 30 days.') {
  return runJudge(prepareJudgeCall(spec, output, {}, failWith('run the judge')))
}

describe('openAIJudge request', () => {
  test('sends a chat completion at temperature 0 with a strict JSON schema of reasoning then score', async () => {
    server.setReply(() => jsonVerdict(1, 'ok'))
    await verdictOf({ criteria: 'Is polite', judge: judgeWith() })
    const body = chatRequests(server.requests)[0]?.body
    expect(body).toMatchObject({
      model: 'judge-model',
      temperature: 0,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'judge_verdict', strict: true, schema: { type: 'object', required: ['reasoning', 'score'], additionalProperties: false } },
      },
    })
    expect(Object.keys(body.response_format.json_schema.schema.properties)).toEqual(['reasoning', 'score'])
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user'])
  })

  test('asks the faithfulness judge for claims in its schema', async () => {
    server.setReply(() => ({ text: JSON.stringify({ claims: [], reasoning: 'none', score: 1 }) }))
    await verdictOf({ template: 'faithfulness', context: 'ctx', scale: '0-1', judge: judgeWith() })
    const schema = chatRequests(server.requests)[0]?.body.response_format.json_schema
    expect(schema.name).toBe('faithfulness_verdict')
    expect(schema.schema.required).toEqual(['claims', 'reasoning', 'score'])
  })

  test('records the token usage in the ledger', async () => {
    server.setReply(() => ({ ...jsonVerdict(1, 'ok'), usage: { input: 321, output: 12 } }))
    await verdictOf({ criteria: 'Is polite', judge: judgeWith() })
    expect(getLedger().byModel['judge-model']).toMatchObject({ calls: 1, inputTokens: 321, outputTokens: 12 })
  })
})

describe('openAIJudge replies', () => {
  test('reads a structured reply', async () => {
    server.setReply(() => jsonVerdict(1, 'States the 30-day window.'))
    expect(await verdictOf({ criteria: 'x', judge: judgeWith() })).toMatchObject({
      pass: true,
      score: 1,
      reason: 'States the 30-day window.',
      judgeName: 'judge-model',
    })
  })

  test('reads a free-text reply with a verdict word', async () => {
    server.setReply(() => ({ text: 'The answer reverses the condition.\nVerdict: FAIL' }))
    expect(await verdictOf({ criteria: 'x', judge: judgeWith({ structuredOutput: false }) })).toMatchObject({
      pass: false,
      score: 0,
      reason: 'The answer reverses the condition.\nVerdict: FAIL',
    })
    expect(chatRequests(server.requests)[0]?.body.response_format).toBeUndefined()
  })

  test('falls back to free text when the server rejects structured output, and stays there', async () => {
    server.setReply((req) =>
      wantsJsonSchema(req)
        ? { status: 400, errorMessage: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model." }
        : { text: 'PASS - polite and complete.' },
    )
    const judge = judgeWith()
    expect(await verdictOf({ criteria: 'x', judge })).toMatchObject({ pass: true })
    expect(await verdictOf({ criteria: 'x', judge })).toMatchObject({ pass: true })
    expect(chatRequests(server.requests).map(wantsJsonSchema)).toEqual([true, false, false])
  })

  test('does not fall back on a 400 about something else', async () => {
    server.setReply(() => ({ status: 400, errorMessage: 'messages: too long' }))
    await expect(verdictOf({ criteria: 'x', judge: judgeWith() })).rejects.toThrow(
      '[expect-llm] Failed to call the judge model "judge-model" at http://127.0.0.1:',
    )
    expect(chatRequests(server.requests)).toHaveLength(1)
  })

  test('falls back on a 422 about the schema too, but not on another status that mentions it, nor when structuredOutput is true', async () => {
    const rejecting = (status: number) => (req: Parameters<Parameters<typeof server.setReply>[0]>[0]) =>
      wantsJsonSchema(req) ? { status, errorMessage: 'response_format json_schema is not supported' } : { text: 'PASS' }
    server.setReply(rejecting(422))
    expect(await verdictOf({ criteria: 'x', judge: judgeWith() })).toMatchObject({ pass: true })
    expect(chatRequests(server.requests).map(wantsJsonSchema)).toEqual([true, false])
    server.reset()
    server.setReply(rejecting(404))
    await expect(verdictOf({ criteria: 'x', judge: judgeWith() })).rejects.toThrow('Failed to call the judge model "judge-model"')
    expect(chatRequests(server.requests)).toHaveLength(1)
    server.reset()
    server.setReply(rejecting(400))
    await expect(verdictOf({ criteria: 'x', judge: judgeWith({ structuredOutput: true }) })).rejects.toThrow('Failed to call the judge model "judge-model"')
    expect(chatRequests(server.requests)).toHaveLength(1)
  })

  test('a reply without choices is an unparseable empty reply, not a crash', async () => {
    server.setReply(() => ({ json: { id: 'x', object: 'chat.completion', created: 0, model: 'judge-model', choices: [] } }))
    await expect(verdictOf({ criteria: 'x', judge: judgeWith() })).rejects.toThrow(`Failed to read the judge's reply: the reply is empty.`)
  })

  test('usage goes to the model the server names, or the configured model when it names none; a reply without usage is counted with unknown usage', async () => {
    const reply = (model: string, usage?: object) => ({
      json: {
        id: 'x',
        object: 'chat.completion',
        created: 0,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: '{"reasoning":"ok","score":1}' }, finish_reason: 'stop' }],
        ...(usage ? { usage } : {}),
      },
    })
    const usage = { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 }
    server.setReply(() => reply('judge-model-2025-01-01', usage))
    await verdictOf({ criteria: 'x', judge: judgeWith() })
    server.setReply(() => reply('', usage))
    await verdictOf({ criteria: 'x', judge: judgeWith() })
    server.setReply(() => reply('judge-model'))
    expect(await verdictOf({ criteria: 'x', judge: judgeWith() })).toMatchObject({ pass: true })
    expect(Object.keys(getLedger().byModel)).toEqual(['judge-model-2025-01-01', 'judge-model'])
    expect(getLedger().calls).toBe(3)
    expect(getLedger().callsWithoutUsage).toBe(1)
    expect(getLedger().modelsWithoutUsage).toEqual(['judge-model'])
  })

  test('rejects an unparseable reply and shows it', async () => {
    server.setReply(() => ({ text: 'Hard to say, it depends on the customer.' }))
    await expect(verdictOf({ criteria: 'x', judge: judgeWith() })).rejects.toThrow(
      `Failed to read the judge's reply: it holds no JSON score, no verdict word (PASS/FAIL, YES/NO, CORRECT/INCORRECT) and no number. Use a judge model that follows the JSON reply format (or supports structured output), or a custom judge.\nRaw reply: "Hard to say, it depends on the customer."`,
    )
  })

  test('clamps a score outside the scale and notes it', async () => {
    server.setReply(() => jsonVerdict(9, 'Excellent.'))
    expect(await verdictOf({ criteria: 'x', scale: '1-5', judge: judgeWith() })).toMatchObject({
      pass: true,
      score: 1,
      notes: ["the judge's score 9 is outside the 1-5 scale; clamped to 5"],
    })
  })
})

describe('openAIJudge errors', () => {
  test('names the judge and configure({ judge }) when no API key is set (and no replay session serves it)', async () => {
    vi.stubEnv('OPENAI_API_KEY', '')
    try {
      // Without the setup file's replay session, which would stand in a placeholder key.
      await withoutReplaySession(async () => {
        expect(getReplaySession()).toBeUndefined()
        await expect(verdictOf({ criteria: 'x', judge: openAIJudge({ baseURL: server.baseURL }) })).rejects.toThrow(
          '[expect-llm] Failed to create the OpenAI judge: no API key. Set OPENAI_API_KEY, or call configure({ judge: { apiKey, model, baseURL } }) ' +
            'in a setup file (any non-empty key for local servers), or configure({ judge }) with your own Judge or function.',
        )
      })
    } finally {
      vi.unstubAllEnvs()
    }
  })

  test('explains a 401', async () => {
    server.setReply(() => ({ status: 401, errorMessage: 'Incorrect API key provided.' }))
    await expect(verdictOf({ criteria: 'x', judge: judgeWith() })).rejects.toThrow(
      `[expect-llm] Failed to call the judge model "judge-model" at ${server.baseURL}: the server refused the API key (401: Incorrect API key provided.). Set OPENAI_API_KEY to a valid key, or pass it with configure({ judge: { apiKey } }).`,
    )
  })

  test('explains a 404', async () => {
    server.setReply(() => ({ status: 404, errorMessage: 'The model `judge-model` does not exist.' }))
    await expect(verdictOf({ criteria: 'x', judge: judgeWith() })).rejects.toThrow(
      'the model or endpoint was not found (404: The model `judge-model` does not exist.). Check the model name in configure({ judge: { model } })',
    )
  })

  test('retries a 429 with the SDK and explains it when retries run out', async () => {
    server.setReply(() => ({ status: 429, errorMessage: 'Rate limit reached.', headers: { 'retry-after-ms': '10' } }))
    await expect(verdictOf({ criteria: 'x', judge: judgeWith({}, 2) })).rejects.toThrow(
      `Failed to call the judge model "judge-model" at ${server.baseURL}: rate limited (429: Rate limit reached.) after 2 retries. Lower configure({ concurrency }), raise configure({ judge: { maxRetries } }), or check the account's quota.`,
    )
    expect(chatRequests(server.requests)).toHaveLength(3)
  })

  test('succeeds when a 429 clears within the retries', async () => {
    server.setReply((_req, index) => (index === 0 ? { status: 429, headers: { 'retry-after-ms': '10' } } : jsonVerdict(1, 'ok')))
    expect(await verdictOf({ criteria: 'x', judge: judgeWith({}, 2) })).toMatchObject({ pass: true })
  })

  test('explains an unreachable server', async () => {
    const judge = openAIJudge({ model: 'm', baseURL: 'http://127.0.0.1:2/v1', apiKey: 'k', maxRetries: 0 })
    await expect(verdictOf({ criteria: 'x', judge })).rejects.toThrow(
      '[expect-llm] Failed to call the judge model "m" at http://127.0.0.1:2/v1: Connection error (connect ECONNREFUSED 127.0.0.1:2). Check that the server is reachable at the baseURL.',
    )
  })
})
