import { readFile, writeFile } from 'node:fs/promises'
import { APIError, InternalServerError, RateLimitError } from 'openai'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { resolveMode } from '../../src/replay/mode.js'
import { allText, client, fixtureFiles, optionsFor, startReplay, useReplaySandbox } from './helpers.js'

const sandbox = useReplaySandbox()
afterEach(() => {
  vi.restoreAllMocks()
})

// A fake key, assembled at run time so that secret scanners of the repository do not flag this file.
const SECRET = ['sk', 'proj', 'Zq81TESTSECRETvalue0123456789abcdef'].join('-')
const ask = (content: string) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content }] })

describe('secrets never reach the disk', () => {
  test('the API key sent in the authorization header is not stored', async () => {
    vi.stubEnv('OPENAI_API_KEY', SECRET)
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    try {
      await client(sandbox.server.baseURL, { apiKey: SECRET }).chat.completions.create(ask('Hi'))
      phase.replay.assertNoProblems()
    } finally {
      phase.close()
    }
    expect(sandbox.server.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET}`)
    expect(await fixtureFiles(sandbox.root)).toHaveLength(1)
    const text = await allText(sandbox.root)
    expect(text).not.toContain(SECRET)
    expect(text).not.toMatch(/authorization|bearer/i)
  })

  test('a secret query parameter is stripped from the key and the file', async () => {
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    try {
      await client(sandbox.server.baseURL, { defaultQuery: { 'api-key': 'query-secret-4711-abcdef', 'api-version': '2024-10-21' } }).chat.completions.create(
        ask('Hi'),
      )
      phase.replay.assertNoProblems()
    } finally {
      phase.close()
    }
    expect(sandbox.server.requests[0]?.query.get('api-key')).toBe('query-secret-4711-abcdef')
    const [file] = await fixtureFiles(sandbox.root)
    const fixture = JSON.parse(await readFile(file!, 'utf8'))
    expect(fixture.key.query).toEqual([['api-version', '2024-10-21']])
    expect(await allText(sandbox.root)).not.toContain('query-secret-4711')
  })

  test('a response that contains the key refuses to write and names the JSON path', async () => {
    vi.stubEnv('OPENAI_API_KEY', SECRET)
    sandbox.server.setReply(() => ({ text: `Your key is ${SECRET}` }))
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    try {
      const reply = await client(sandbox.server.baseURL).chat.completions.create(ask('What is my key?'))
      expect(reply.choices[0]?.message.content).toContain(SECRET) // the app still got the live answer
      const problems = phase.replay.takeProblems()
      expect(problems.map((p) => p.kind)).toEqual(['secret'])
      expect(problems[0]?.message).toMatch(
        /Failed to write fixture test\/__llm_fixtures__\/example\.test\.ts\/chat-completions\.[0-9a-f]{16}\.json: it would contain the value of OPENAI_API_KEY at \/response\/json\/choices\/0\/message\/content/,
      )
      expect(problems[0]?.message).not.toContain(SECRET)
    } finally {
      phase.close()
    }
    expect(await fixtureFiles(sandbox.root)).toHaveLength(0)
    expect(await allText(sandbox.root)).not.toContain(SECRET)
  })

  test('a bearer token inside a streamed response refuses to write', async () => {
    sandbox.server.setReply(() => ({ text: `use Authorization: ${'Bear' + 'er'} abcdefghijklmnopqrstuvwx123 for that` }))
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    try {
      const stream = await client(sandbox.server.baseURL).chat.completions.create({ ...ask('Token?'), stream: true })
      for await (const _ of stream) void _
      await phase.replay.flush()
      const problems = phase.replay.takeProblems()
      expect(problems[0]?.message).toContain('a bearer token at /response/sse (text joined across events)')
    } finally {
      phase.close()
    }
    expect(await fixtureFiles(sandbox.root)).toHaveLength(0)
  })
})

describe('recorded errors', () => {
  test.each([
    [429, RateLimitError],
    [500, InternalServerError],
  ])('a %i recorded on purpose replays at once, without retries', async (status, ErrorClass) => {
    sandbox.server.setReply(() => ({ status, errorMessage: `forced ${status} for the test` }))
    const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record', { recordErrors: true }))
    try {
      const error = await client(sandbox.server.baseURL)
        .chat.completions.create(ask('Hi'))
        .then(
          () => undefined,
          (e: unknown) => e,
        )
      expect(error).toBeInstanceOf(ErrorClass)
      rec.replay.assertNoProblems()
    } finally {
      rec.close()
    }
    expect(sandbox.server.requests).toHaveLength(1)
    await sandbox.server.close()
    const rep = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay'))
    try {
      const error = await client(sandbox.server.baseURL, { maxRetries: 2 })
        .chat.completions.create(ask('Hi'))
        .then(
          () => undefined,
          (e: unknown) => e,
        )
      expect(error).toBeInstanceOf(ErrorClass)
      expect((error as APIError).message).toBe(`${status} forced ${status} for the test`)
      expect(rep.replay.engine.handled).toBe(1) // one attempt despite maxRetries 2: no retry, no back-off
      rep.replay.assertNoProblems()
    } finally {
      rep.close()
    }
  })

  test('without recordErrors a failed attempt is not stored: the successful retry is', async () => {
    sandbox.server.setReply((_req, i) => (i === 0 ? { status: 500, headers: { 'retry-after-ms': '1' } } : { text: 'second time lucky' }))
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    try {
      const reply = await client(sandbox.server.baseURL).chat.completions.create(ask('Hi'))
      expect(reply.choices[0]?.message.content).toBe('second time lucky')
      phase.replay.assertNoProblems()
    } finally {
      phase.close()
    }
    expect(sandbox.server.requests).toHaveLength(2)
    const files = await fixtureFiles(sandbox.root)
    expect(files).toHaveLength(1)
    expect(JSON.parse(await readFile(files[0]!, 'utf8')).response.status).toBe(200)
  })
})

describe('modes', () => {
  test('CI=true with EXPECT_LLM_REPLAY=record refuses to record: a missing fixture fails without a request', async () => {
    vi.stubEnv('CI', 'true')
    vi.stubEnv('EXPECT_LLM_REPLAY', 'record')
    vi.stubEnv('EXPECT_LLM_ALLOW_RECORD_IN_CI', '')
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    try {
      expect(phase.replay.mode()).toBe('replay')
      const error = await client(sandbox.server.baseURL)
        .chat.completions.create(ask('Hi'))
        .then(
          () => undefined,
          (e: unknown) => e,
        )
      expect((error as APIError).status).toBe(404)
      const [problem] = phase.replay.takeProblems()
      expect(problem?.message).toContain('EXPECT_LLM_REPLAY=record was ignored because CI is set')
    } finally {
      phase.close()
    }
    expect(sandbox.server.requests).toHaveLength(0)
    expect(await fixtureFiles(sandbox.root)).toHaveLength(0)
  })

  test('the CI guard lets EXPECT_LLM_ALLOW_RECORD_IN_CI=1 record, and the variable wins over the option', () => {
    expect(resolveMode('record', { CI: 'true' })).toEqual({ mode: 'replay', refusedInCi: 'record', source: 'options' })
    expect(resolveMode('replay', { CI: '1', EXPECT_LLM_REPLAY: 'rerecord', EXPECT_LLM_ALLOW_RECORD_IN_CI: '1' })).toEqual({ mode: 'rerecord', source: 'env' })
    expect(resolveMode(undefined, { CI: 'false', EXPECT_LLM_REPLAY: 'live' })).toEqual({ mode: 'live', source: 'env' })
    expect(resolveMode(undefined, {})).toEqual({ mode: 'replay', source: 'default' })
    expect(() => resolveMode(undefined, { EXPECT_LLM_REPLAY: 'recrod' })).toThrow(
      '[expect-llm] Failed to choose a replay mode: EXPECT_LLM_REPLAY is "recrod". Use one of replay, record, rerecord, live.',
    )
  })

  test('recording for api.openai.com without a key fails fast and names OPENAI_API_KEY', async () => {
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    try {
      const res = await fetch('https://api.openai.com/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ask('Hi')),
      })
      expect(res.status).toBe(404)
      expect(res.headers.get('x-should-retry')).toBe('false')
      const [problem] = phase.replay.takeProblems()
      expect(problem?.kind).toBe('credentials')
      expect(problem?.message).toContain('Set OPENAI_API_KEY')
    } finally {
      phase.close()
    }
  })

  test('rerecord records again over an existing fixture', async () => {
    const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    await client(sandbox.server.baseURL)
      .chat.completions.create(ask('Hi'))
      .finally(() => rec.close())
    sandbox.server.setReply(() => ({ text: 'a newer answer' }))
    const again = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'rerecord'))
    try {
      const reply = await client(sandbox.server.baseURL).chat.completions.create(ask('Hi'))
      expect(reply.choices[0]?.message.content).toBe('a newer answer')
    } finally {
      again.close()
    }
    expect(sandbox.server.requests).toHaveLength(2)
    const files = await fixtureFiles(sandbox.root)
    expect(files).toHaveLength(1)
    expect(JSON.parse(await readFile(files[0]!, 'utf8')).response.json.choices[0].message.content).toBe('a newer answer')
  })
})

describe('corrupt fixtures', () => {
  test.each([
    ['invalid JSON', (t: string) => t.slice(0, -10), /it is not valid JSON/],
    [
      'a wrong schema version',
      (t: string) => t.replace('"schemaVersion": 1', '"schemaVersion": 7'),
      /"schemaVersion" is 7, but this version of expect-llm reads schema 1/,
    ],
    ['a missing response', (t: string) => JSON.stringify({ ...JSON.parse(t), response: undefined }), /"response" is missing/],
    ['a mistyped status', (t: string) => t.replace('"status": 200', '"status": "200"'), /"response.status" must be an HTTP status/],
    ['a hand-edited request', (t: string) => t.replace('"content": "Hi"', '"content": "Hello"'), /the request in "key" does not match "hash"/],
  ])('%s fails with the file path and what is wrong', async (_name, corrupt, reason) => {
    const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    await client(sandbox.server.baseURL)
      .chat.completions.create(ask('Hi'))
      .finally(() => rec.close())
    const [file] = await fixtureFiles(sandbox.root)
    await writeFile(file!, corrupt(await readFile(file!, 'utf8')))
    const rep = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay'))
    try {
      const error = await client(sandbox.server.baseURL)
        .chat.completions.create(ask('Hi'))
        .then(
          () => undefined,
          (e: unknown) => e,
        )
      expect((error as APIError).status).toBe(404)
      const [problem] = rep.replay.takeProblems()
      expect(problem?.kind).toBe('corrupt')
      expect(problem?.message).toContain(`[expect-llm] Failed to read fixture ${file}: `)
      expect(problem?.message).toMatch(reason)
    } finally {
      rep.close()
    }
    expect(sandbox.server.requests).toHaveLength(1)
  })
})

describe('live mode and timing', () => {
  test('live passes requests through and writes nothing', async () => {
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'live'))
    try {
      await client(sandbox.server.baseURL).chat.completions.create(ask('Hi'))
      await client(sandbox.server.baseURL).chat.completions.create(ask('Hi'))
      phase.replay.assertNoProblems()
    } finally {
      phase.close()
    }
    expect(sandbox.server.requests).toHaveLength(2)
    expect(await fixtureFiles(sandbox.root)).toHaveLength(0)
  })

  test("replayTiming: 'recorded' paces stream chunks as recorded; the default does not", async () => {
    sandbox.server.setReply(() => ({ text: 'one two three four five', chunkDelayMs: 40 }))
    // Total time and time to the first chunk: pacing must spread the chunks, not hold them all back.
    const consume = async (): Promise<{ total: number; first: number }> => {
      const started = performance.now()
      const stream = await client(sandbox.server.baseURL).chat.completions.create({ ...ask('Count'), stream: true })
      let first = -1
      for await (const _ of stream) if (first < 0) first = performance.now() - started
      return { total: performance.now() - started, first }
    }
    const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    const live = await consume().finally(async () => {
      await rec.replay.flush() // the stream's fixture is written once upstream completes
      rec.close()
    })
    const [file] = await fixtureFiles(sandbox.root)
    const offsets = JSON.parse(await readFile(file!, 'utf8')).response.chunkOffsetsMs as number[]
    const fast = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay'))
    const unpaced = await consume().finally(() => fast.close())
    const paced = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay', { replayTiming: 'recorded' }))
    const recordedPace = await consume().finally(() => paced.close())
    expect(live.total).toBeGreaterThan(250) // 8 events, 40 ms apart
    expect(offsets.at(-1)!).toBeGreaterThan(250)
    // Paced: the last chunk comes no earlier than it was recorded, and the first arrives before the last
    // one's recorded offset (a few ms against 280+ ms): a replay that held every chunk back to the end
    // would keep the total but fail the second check.
    expect(recordedPace.total).toBeGreaterThanOrEqual(offsets.at(-1)! - 5)
    expect(recordedPace.first).toBeLessThan(offsets.at(-1)!)
    expect(unpaced.total).toBeLessThan(live.total / 3)
  })
})
