// What a recording holds and how replay serves it, asserted on the fixture file and the raw bytes rather
// than on what an SDK makes of them (an SDK parses a merged stream or an extra header just the same).
import { readFile } from 'node:fs/promises'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { describe, expect, test } from 'vitest'
import { getReplaySession, llmReplay } from '../../src/entries/replay.js'
import type { Fixture } from '../../src/replay/types.js'
import { client, fixtureFiles, optionsFor, startReplay, useReplaySandbox } from './helpers.js'

const sandbox = useReplaySandbox()

async function onlyFixture(): Promise<Fixture> {
  const files = await fixtureFiles(sandbox.root)
  expect(files).toHaveLength(1)
  return JSON.parse(await readFile(files[0]!, 'utf8')) as Fixture
}

async function recordStream(delayMs: number): Promise<Fixture> {
  sandbox.server.setReply(() => ({ text: 'one two three four five', chunkDelayMs: delayMs }))
  const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
  try {
    const stream = await client(sandbox.server.baseURL).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Count' }],
      stream: true,
    })
    for await (const _ of stream) void _
    await rec.replay.flush()
    rec.replay.assertNoProblems()
  } finally {
    rec.close()
  }
  return onlyFixture()
}

describe('streams', () => {
  test('a stream is recorded event by event, each with its arrival offset', async () => {
    const fixture = await recordStream(40)
    const { sse, chunkOffsetsMs } = fixture.response!
    // The server sent 8 events 40 ms apart: the role, five words, the stop chunk and [DONE].
    expect(sse).toHaveLength(8)
    for (const event of sse!) expect(event).toMatch(/^data: [^\n]+\n\n$/)
    expect(sse!.at(-1)).toBe('data: [DONE]\n\n')
    const deltas = sse!.slice(0, -1).map((e: string) => JSON.parse(e.slice('data: '.length)).choices[0].delta.content ?? '')
    expect(deltas.join('')).toBe('one two three four five')
    expect(chunkOffsetsMs).toHaveLength(8)
    expect(chunkOffsetsMs).toEqual([...chunkOffsetsMs!].sort((a, b) => a - b))
    // 7 gaps of at least 40 ms between the first event and the last. The margin is one gap: on a loaded
    // machine the first event can be read some milliseconds after it arrived (266-269 ms were measured on
    // 2 shared cores), while offsets taken at the end of the stream, or all zero, still fail.
    expect(chunkOffsetsMs!.at(-1)! - chunkOffsetsMs![0]!).toBeGreaterThanOrEqual(6 * 40)
  })
})

describe('headers', () => {
  test('response headers outside the allow-list are not recorded: set-cookie, content-length', async () => {
    const cookie = `session=${'c0ffee'.repeat(4)}; Path=/; HttpOnly`
    sandbox.server.setReply(() => ({ text: 'Hi.', headers: { 'set-cookie': cookie, 'openai-processing-ms': '12', 'x-ratelimit-remaining-requests': '99' } }))
    const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    try {
      await client(sandbox.server.baseURL).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
      await rec.replay.flush()
      rec.replay.assertNoProblems()
    } finally {
      rec.close()
    }
    const fixture = await onlyFixture()
    // Allow-listed headers are kept (so the list is not simply empty) ...
    expect(fixture.response!.headers).toMatchObject({ 'openai-processing-ms': '12', 'x-ratelimit-remaining-requests': '99' })
    // ... the others are not, and the cookie's value appears nowhere in the file.
    expect(Object.keys(fixture.response!.headers)).not.toContain('set-cookie')
    expect(Object.keys(fixture.response!.headers)).not.toContain('content-length')
    expect(JSON.stringify(fixture)).not.toContain('c0ffee')
  })
})

describe('hosts', () => {
  test('configured hosts add to https://api.openai.com: its requests are still intercepted', async () => {
    const replay = llmReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay'))
    // Behind the replay handler, a catch-all that answers what replay lets through, so that a request
    // replay does not intercept never leaves the machine.
    const escaped = http.all('https://api.openai.com/*', () => HttpResponse.json({ escaped: true }, { status: 299 }))
    const session = getReplaySession()
    const server = session ? undefined : setupServer(...replay.handlers, escaped)
    if (session) session.server.use(...replay.handlers, escaped)
    else server!.listen({ onUnhandledRequest: 'bypass' } as never)
    try {
      const res = await fetch('https://api.openai.com/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'never recorded' }] }),
      })
      // A replay miss: answered at once with 404 and kept as a problem.
      expect(res.status).toBe(404)
      expect(replay.takeProblems().map((p) => p.kind)).toEqual(['miss'])
    } finally {
      if (session) session.server.resetHandlers()
      else server!.close()
    }
  })
})
