// The pure steps of recording one request (src/replay/record-steps.ts).
import { describe, expect, test } from 'vitest'
import { fixtureHeaders, handlingFailure } from '../../src/replay/engine.js'
import { buildKey } from '../../src/replay/key.js'
import {
  buildFixture,
  DETERMINISTIC_ERRORS,
  fixtureSecrets,
  isRecordable,
  readWholeBody,
  secretsMessage,
  upstreamFailureMessage,
  upstreamRequest,
} from '../../src/replay/record-steps.js'
import type { RecordedResponse } from '../../src/replay/types.js'

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))
const url = 'https://api.openai.com/v1/chat/completions'
const body = json({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
const key = buildKey('POST', new URL(url), body, 'application/json', {})

describe('upstreamRequest', () => {
  test('the app’s own request when the target is where it was going', () => {
    const request = new Request(url, { method: 'POST', body })
    expect(upstreamRequest(request, body, new URL(url))).toBe(request)
  })

  test('a copy aimed at the upstream target, with the method, headers and body', async () => {
    const request = new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-a': '1' }, body })
    const out = upstreamRequest(request, body, new URL('http://127.0.0.1:8080/v1/chat/completions'))
    expect(out.url).toBe('http://127.0.0.1:8080/v1/chat/completions')
    expect(out.method).toBe('POST')
    expect(out.headers.get('x-a')).toBe('1')
    expect(new Uint8Array(await out.arrayBuffer())).toEqual(body)
  })

  test('no body for a bodiless request', () => {
    const out = upstreamRequest(new Request('https://api.openai.com/v1/models'), new Uint8Array(), new URL('http://127.0.0.1:8080/v1/models'))
    expect(out.body).toBeNull()
  })
})

describe('isRecordable', () => {
  test('successes and deterministic request errors are recorded; transient ones only with recordErrors', () => {
    expect(isRecordable(200, undefined)).toBe(true)
    expect(isRecordable(204, false)).toBe(true)
    for (const status of DETERMINISTIC_ERRORS) expect(isRecordable(status, undefined)).toBe(true)
    for (const status of [401, 429, 500, 503]) {
      expect(isRecordable(status, undefined)).toBe(false)
      expect(isRecordable(status, true)).toBe(true)
    }
    expect(isRecordable(302, undefined)).toBe(false)
  })
})

describe('buildFixture', () => {
  const response: RecordedResponse = {
    status: 200,
    headers: {},
    json: { model: 'gpt-4o-mini-2024', usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
  }

  test('key, hash and response, with the model and usage read from the response', () => {
    const fixture = buildFixture({
      key,
      shaped: { response },
      redacted: response,
      durationMs: 12,
      recordedAt: new Date('2026-01-02T03:04:05Z'),
      userAgent: 'OpenAI/JS 7',
      testFile: 'test/a.test.ts',
    })
    expect(fixture).toMatchObject({ schemaVersion: 1, hash: key.hash, key: key.material, response })
    expect(fixture.meta).toMatchObject({
      recordedAt: '2026-01-02T03:04:05.000Z',
      durationMs: 12,
      endpoint: key.endpoint,
      model: 'gpt-4o-mini-2024',
      sdkUserAgent: 'OpenAI/JS 7',
      testFile: 'test/a.test.ts',
    })
    expect(fixture.meta.usage).toMatchObject({ inputTokens: 3, outputTokens: 2 })
  })

  test('the request’s model when the response names none', () => {
    const bare: RecordedResponse = { status: 200, headers: {}, text: 'ok' }
    const fixture = buildFixture({ key, shaped: { response: bare }, redacted: bare, durationMs: 1, recordedAt: new Date(0), userAgent: null, testFile: null })
    expect(fixture.meta.model).toBe('gpt-4o-mini')
    expect(fixture.meta.testFile).toBeNull()
  })
})

describe('fixtureSecrets and secretsMessage', () => {
  const secret = ['sk', 'proj', 'A'.repeat(24)].join('-')

  test('finds a key in the JSON and in the text of recorded events, with where', () => {
    const sse: RecordedResponse = { status: 200, headers: {}, sse: [`data: {"x":"${secret}"}\n\n`] }
    const fixture = buildFixture({ key, shaped: { response: sse }, redacted: sse, durationMs: 1, recordedAt: new Date(0), userAgent: null, testFile: null })
    const paths = fixtureSecrets(fixture, {}).map((f) => f.path)
    expect(paths.some((p) => p.startsWith('/response/sse'))).toBe(true)
    const clean: RecordedResponse = { status: 200, headers: {}, json: { ok: true } }
    expect(
      fixtureSecrets(
        buildFixture({ key, shaped: { response: clean }, redacted: clean, durationMs: 1, recordedAt: new Date(0), userAgent: null, testFile: null }),
        {},
      ),
    ).toEqual([])
  })

  test('the message names at most five findings and the file, never the secret', () => {
    const findings = Array.from({ length: 7 }, (_, i) => ({ what: 'an "sk-..." API key', path: `/response/json/${i}` }))
    const message = secretsMessage(findings, 'test/__llm_fixtures__/a.json')
    expect(message).toMatch(/^\[expect-llm\] Failed to write fixture test\/__llm_fixtures__\/a\.json: it would contain /)
    expect(message.match(/API key at/g)).toHaveLength(5)
    expect(message).toContain('Nothing was written.')
  })
})

test('upstreamFailureMessage names the origin and the cause', () => {
  const error = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') })
  expect(upstreamFailureMessage('POST /v1/x', 'http://127.0.0.1:9', error)).toBe(
    '[expect-llm] Failed to record POST /v1/x: the request to http://127.0.0.1:9 failed (connect ECONNREFUSED 127.0.0.1:9). Check that the server is reachable, then run again.',
  )
  expect(upstreamFailureMessage('GET /', 'http://h', new Error('boom'))).toContain('failed (boom)')
})

describe('readWholeBody', () => {
  test('every chunk of a body, and nothing for no body', async () => {
    expect(await readWholeBody(new Response('abc').body)).toEqual({ chunks: [new TextEncoder().encode('abc')] })
    expect(await readWholeBody(null)).toEqual({ chunks: [] })
  })

  test('a broken stream keeps what arrived and the error', async () => {
    const failure = new Error('socket hang up')
    let sent = false
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(failure)
        sent = true
        controller.enqueue(new Uint8Array([1, 2]))
      },
    })
    expect(await readWholeBody(stream)).toEqual({ chunks: [new Uint8Array([1, 2])], broken: failure })
  })
})

describe('the engine’s answers', () => {
  test('fixtureHeaders name the fixture and the recorded duration', () => {
    expect(fixtureHeaders('test/__llm_fixtures__/a.json', 840)).toEqual({
      'x-expect-llm-fixture': 'test/__llm_fixtures__/a.json',
      'x-expect-llm-duration-ms': '840',
    })
  })

  test('handlingFailure: a corrupt fixture is reported as such, with its file counted as used', () => {
    const corrupt = Object.assign(new Error('fixture a.json is corrupt: bad hash'), { name: 'FixtureError', file: '/r/a.json' })
    expect(handlingFailure(corrupt, '/r/a.test.ts', 't')).toEqual({
      problem: { kind: 'corrupt', message: 'fixture a.json is corrupt: bad hash', testPath: '/r/a.test.ts', testName: 't' },
      type: 'expect_llm_replay_corrupt_fixture',
      corruptFile: '/r/a.json',
    })
  })

  test('handlingFailure: any other error is a recording problem', () => {
    expect(handlingFailure(new Error('EACCES'), undefined, undefined)).toEqual({
      problem: { kind: 'record', message: 'EACCES', testPath: undefined, testName: undefined },
      type: 'expect_llm_replay_error',
      corruptFile: undefined,
    })
  })
})

describe('record steps at their edges', () => {
  const secret = ['sk', 'proj', 'B'.repeat(24)].join('-')
  const build = (shaped: Parameters<typeof buildFixture>[0]['shaped'], redacted: RecordedResponse) =>
    buildFixture({ key, shaped, redacted, durationMs: 1, recordedAt: new Date(0), userAgent: null, testFile: null })

  test('isRecordable: 2xx only, at both ends', () => {
    expect(isRecordable(199, undefined)).toBe(false)
    expect(isRecordable(299, undefined)).toBe(true)
    expect(isRecordable(300, false)).toBe(false)
    expect(DETERMINISTIC_ERRORS).toEqual(new Set([400, 404, 405, 413, 415, 422]))
  })

  test('fixtureSecrets: a secret spelled across the events of the n-th sequence response is reported under /responses/n/sse', () => {
    const clean: RecordedResponse = { status: 200, headers: {}, sse: ['data: {"delta":"fine"}\n\n'] }
    const split: RecordedResponse = {
      status: 200,
      headers: {},
      sse: [`data: {"delta":"${secret.slice(0, 10)}"}\n\n`, `data: {"delta":"${secret.slice(10)}"}\n\n`],
    }
    expect(fixtureSecrets(build({ responses: [clean, split] }, clean), {})).toEqual([
      { path: '/responses/1/sse (text joined across events)', what: 'an "sk-..." API key' },
    ])
  })

  test('fixtureSecrets: a secret split across the events of a single response is reported under /response/sse', () => {
    const split: RecordedResponse = {
      status: 200,
      headers: {},
      sse: [`data: {"delta":"${secret.slice(0, 10)}"}\n\n`, `data: {"delta":"${secret.slice(10)}"}\n\n`],
    }
    expect(fixtureSecrets(build({ response: split }, split), {})).toEqual([{ path: '/response/sse (text joined across events)', what: 'an "sk-..." API key' }])
  })

  test('fixtureSecrets: the value of a key variable in the environment, read from process.env by default', () => {
    const response: RecordedResponse = { status: 200, headers: {}, json: { echo: 'my-own-secret-value-123' } }
    expect(fixtureSecrets(build({ response }, response), { OPENAI_API_KEY: 'my-own-secret-value-123' })).toEqual([
      { path: '/response/json/echo', what: 'the value of OPENAI_API_KEY' },
    ])
    process.env.EXPECT_LLM_RECORD_STEPS_TEST_TOKEN = 'my-own-secret-value-123'
    try {
      expect(fixtureSecrets(build({ response }, response)).map((f) => f.what)).toContain('the value of EXPECT_LLM_RECORD_STEPS_TEST_TOKEN')
    } finally {
      delete process.env.EXPECT_LLM_RECORD_STEPS_TEST_TOKEN
    }
  })

  test('secretsMessage: the findings joined with "; ", then what to do', () => {
    expect(
      secretsMessage(
        [
          { what: 'a bearer token', path: '/a' },
          { what: 'the value of OPENAI_API_KEY', path: '/b' },
        ],
        'f.json',
      ),
    ).toBe(
      '[expect-llm] Failed to write fixture f.json: it would contain a bearer token at /a; the value of OPENAI_API_KEY at /b. Nothing was written. ' +
        'Keep secrets out of prompts and responses, or strip them with configure({ replay: { redact } }), then record again.',
    )
  })

  test('upstreamRequest keeps the redirect mode of the app’s request', () => {
    const request = new Request(url, { method: 'POST', body, redirect: 'manual' })
    expect(upstreamRequest(request, body, new URL('http://127.0.0.1:8080/v1/chat/completions')).redirect).toBe('manual')
  })

  test('readWholeBody: a stream that fails without a reason still reads as broken', async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(undefined)
      },
    })
    const { chunks, broken } = await readWholeBody(stream)
    expect(chunks).toEqual([])
    expect((broken as Error).message).toBe('the body stream failed')
  })
})
