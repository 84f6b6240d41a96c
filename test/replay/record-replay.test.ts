import { readFile } from 'node:fs/promises'
import { describe, expect, test } from 'vitest'
import { client, fixtureFiles, optionsFor, startReplay, useReplaySandbox } from './helpers.js'

const sandbox = useReplaySandbox()

/** Runs `call` in record mode, stops the server, then runs it again in replay mode. */
async function recordThenReplay<T>(call: (c: ReturnType<typeof client>) => Promise<T>): Promise<{ recorded: T; replayed: T; requestsWhileReplaying: number }> {
  const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
  let recorded: T
  try {
    recorded = await call(client(sandbox.server.baseURL))
    await rec.replay.flush()
    rec.replay.assertNoProblems()
  } finally {
    rec.close()
  }
  const before = sandbox.server.requests.length
  await sandbox.server.close()
  const rep = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay'))
  try {
    const replayed = await call(client(sandbox.server.baseURL))
    rep.replay.assertNoProblems()
    return { recorded, replayed, requestsWhileReplaying: sandbox.server.requests.length - before }
  } finally {
    rep.close()
  }
}

describe('record, stop the server, replay', () => {
  test('chat completion replays the identical completion with zero requests to the server', async () => {
    const { recorded, replayed, requestsWhileReplaying } = await recordThenReplay((c) =>
      c.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Capital of France?' }], temperature: 0 }),
    )
    expect(recorded.choices[0]?.message.content).toBe('echo: Capital of France?')
    expect(replayed).toEqual(recorded)
    expect(requestsWhileReplaying).toBe(0)
    expect(sandbox.server.requests).toHaveLength(1)
  })

  test('streaming chat replays the same chunks, including the usage chunk', async () => {
    const { recorded, replayed, requestsWhileReplaying } = await recordThenReplay(async (c) => {
      const stream = await c.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Name three colours please' }],
        stream: true,
        stream_options: { include_usage: true },
      })
      const chunks: unknown[] = []
      for await (const chunk of stream) chunks.push(chunk)
      return chunks
    })
    expect(recorded.length).toBeGreaterThan(4)
    expect(recorded.at(-1)).toMatchObject({ choices: [], usage: { total_tokens: expect.any(Number) } })
    expect(replayed).toEqual(recorded)
    expect(requestsWhileReplaying).toBe(0)
  })

  test('Responses API stream replays the same events and final text', async () => {
    const { recorded, replayed, requestsWhileReplaying } = await recordThenReplay(async (c) => {
      const stream = c.responses.stream({ model: 'gpt-4.1-mini', input: 'Say hello to the tests' })
      const events: unknown[] = []
      for await (const event of stream) events.push(event)
      const final = await stream.finalResponse()
      return { events, text: final.output_text }
    })
    expect(recorded.text).toBe('echo: Say hello to the tests')
    expect(recorded.events.length).toBeGreaterThanOrEqual(9)
    expect(replayed).toEqual(recorded)
    expect(requestsWhileReplaying).toBe(0)
  })

  test('embeddings with the default base64 encoding decode to the same vectors', async () => {
    const { recorded, replayed, requestsWhileReplaying } = await recordThenReplay((c) =>
      c.embeddings.create({ model: 'text-embedding-3-small', input: ['hello', 'world'] }),
    )
    expect(sandbox.server.requests[0]?.body.encoding_format).toBe('base64')
    expect(recorded.data.map((d) => d.embedding)).toHaveLength(2)
    expect(Array.isArray(recorded.data[0]?.embedding)).toBe(true)
    expect(replayed).toEqual(recorded)
    expect(requestsWhileReplaying).toBe(0)
  })

  test('the fixture is pretty-printed, schema-versioned, with key material, usage and the SDK user agent', async () => {
    sandbox.server.setReply(() => ({ text: 'Four.', usage: { input: 11, output: 7 } }))
    await recordThenReplay((c) => c.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Two plus two?' }] }))
    const [file, ...rest] = await fixtureFiles(sandbox.root)
    expect(rest).toHaveLength(0)
    expect(file).toMatch(/test\/__llm_fixtures__\/example\.test\.ts\/chat-completions\.[0-9a-f]{16}\.json$/)
    const text = await readFile(file!, 'utf8')
    expect(text).toMatch(/^\{\n {2}"hash"/)
    const fixture = JSON.parse(text)
    expect(fixture.schemaVersion).toBe(1)
    expect(fixture.key).toMatchObject({ method: 'POST', origin: sandbox.server.origin, path: '/v1/chat/completions', body: { model: 'gpt-4o-mini' } })
    expect(fixture.meta).toMatchObject({
      model: 'gpt-4o-mini',
      usage: { inputTokens: 11, outputTokens: 7, totalTokens: 18 },
      endpoint: 'chat-completions',
      testFile: 'test/example.test.ts',
    })
    expect(fixture.meta.sdkUserAgent).toMatch(/^OpenAI\/JS /)
    expect(typeof fixture.meta.durationMs).toBe('number')
    expect(Object.keys(fixture.response.headers)).not.toContain('content-length')
  })
})
