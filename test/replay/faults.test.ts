// Faults while recording: a broken upstream body reaches the app as it would live, and a request the server
// refuses (the structured-output fallback of the judge) is recorded, so the fallback replays.
import { describe, expect, test, vi } from 'vitest'
import { failWith } from '../../src/errors.js'
import { openAIJudge } from '../../src/judges/openai.js'
import { prepareJudgeCall, runJudge } from '../../src/judges/run.js'
import { jsonVerdict, wantsJsonSchema } from '../helpers/model-server.js'
import { client, fixtureFiles, optionsFor, startReplay, useReplaySandbox } from './helpers.js'

const sandbox = useReplaySandbox()

/** What the app sees: the text it got, or the error it failed with. */
async function outcome(call: () => Promise<unknown>): Promise<{ value?: unknown; error?: { name: string; message: string } }> {
  try {
    return { value: await call() }
  } catch (error) {
    return { error: { name: (error as Error).name, message: (error as Error).message } }
  }
}

const streamChat = () => async () => {
  const stream = await client(sandbox.server.baseURL, { maxRetries: 0 }).chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'Tell me a long story' }],
    stream: true,
  })
  let text = ''
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
  return text
}
const download = () => async () => (await fetch(`${sandbox.server.origin}/v1/files/file-1/content`, { method: 'POST', body: '{}' })).text()

describe('a broken upstream body while recording', () => {
  test.each([
    ['a chat completions stream', { text: 'one two three four five six', breakAfter: 3 }, streamChat],
    ['a JSON body', { raw: { body: '{"id":"file-1","content":"a long body"}', headers: { 'content-type': 'application/json' } }, breakAfter: 0 }, download],
  ] as const)('%s fails for the app as it does live, and nothing is written', async (_what, reply, call) => {
    sandbox.server.setReply(() => reply)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const live = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'live'))
    const liveOutcome = await outcome(call()).finally(() => live.close())
    const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    const recordOutcome = await outcome(call()).finally(async () => {
      await rec.replay.flush()
      rec.close()
    })
    expect(liveOutcome.error).toMatchObject({ name: 'TypeError', message: 'terminated' })
    expect(recordOutcome).toEqual(liveOutcome)
    expect(rec.replay.takeProblems()).toEqual([])
    expect(await fixtureFiles(sandbox.root)).toEqual([])
    expect(warn.mock.calls.map((c) => String(c[0])).find((m) => m.includes('broke before it completed'))).toMatch(
      /^\[expect-llm\] Failed to record POST \/v1\/[a-z/0-9-]+: the response body broke before it completed \(terminated\)\. The app got the same error as it would live; nothing was written\. Run again to record it\.$/,
    )
    warn.mockRestore()
  })
})

describe("the judge's structured-output fallback", () => {
  test('a server that rejects response_format: the refused request and the free-text retry are both recorded, and both replay', async () => {
    sandbox.server.setReply((req) =>
      wantsJsonSchema(req)
        ? { status: 400, errorMessage: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model." }
        : { text: 'The answer is polite. Verdict: PASS' },
    )
    const verdict = () =>
      runJudge(
        prepareJudgeCall(
          { criteria: 'is polite', judge: openAIJudge({ model: 'small-local-model', baseURL: sandbox.server.baseURL, apiKey: 'local', maxRetries: 0 }) },
          'Thank you, happy to help.',
          {},
          failWith('run the judge'),
        ),
      )
    const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    const recorded = await verdict().finally(() => rec.close())
    expect(recorded).toMatchObject({ pass: true })
    expect(sandbox.server.requests.map((r) => (wantsJsonSchema(r) ? 'structured' : 'free text'))).toEqual(['structured', 'free text'])
    expect(await fixtureFiles(sandbox.root)).toHaveLength(2)
    await sandbox.server.close()
    const rep = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay'))
    try {
      expect(await verdict()).toEqual(recorded)
      rep.replay.assertNoProblems()
      expect(rep.replay.engine.handled).toBe(2)
    } finally {
      rep.close()
    }
  })

  test('transient errors (429, 5xx) and credential errors (401) are still not recorded without recordErrors', async () => {
    sandbox.server.setReply(() => jsonVerdict(1, 'ok'))
    for (const status of [401, 429, 503]) {
      sandbox.server.setReply(() => ({ status }))
      const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
      await client(sandbox.server.baseURL, { maxRetries: 0 })
        .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: `status ${status}` }] })
        .catch(() => undefined)
      rec.close()
    }
    expect(await fixtureFiles(sandbox.root)).toEqual([])
  })
})
