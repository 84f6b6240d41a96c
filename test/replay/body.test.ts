// Recorded bodies and headers (src/replay/body.ts): which response headers reach a fixture, how a body is
// stored so that it replays byte for byte, and the Response built back from a recording.
import { describe, expect, test } from 'vitest'
import { allowListHeaders, brokenBody, isJsonContentType, jsonText, recordBody, recordedBytes, toResponse } from '../../src/replay/body.js'
import type { RecordedResponse } from '../../src/replay/types.js'

const bytes = (s: string) => new TextEncoder().encode(s)

describe('allowListHeaders', () => {
  test('keeps the allow-listed headers (lower-cased) and drops everything else', () => {
    const kept = {
      'content-type': 'application/json',
      'x-request-id': 'req_1',
      'request-id': 'req_2',
      'openai-processing-ms': '12',
      'openai-version': '2020-10-01',
      'openai-model': 'gpt-4o',
      'anthropic-ratelimit-requests-remaining': '9',
      'x-ratelimit-limit-tokens': '100',
      'retry-after': '1',
      'retry-after-ms': '500',
      'x-should-retry': 'false',
      'apim-request-id': 'apim_1',
    }
    const dropped = {
      'set-cookie': 'session=abc',
      authorization: 'Bearer x',
      'content-length': '10',
      'x-request-id-extra': 'x',
      'my-x-ratelimit-x': '1',
      'openai-organization': 'org-1',
      date: 'Tue, 01 Dec 2026 00:00:00 GMT',
    }
    expect(allowListHeaders(new Headers({ ...kept, ...dropped }))).toEqual(kept)
  })

  test('names come out lower-case whatever their case on the wire', () => {
    expect(allowListHeaders(new Headers({ 'Content-Type': 'text/plain', 'X-Request-ID': 'r' }))).toEqual({ 'content-type': 'text/plain', 'x-request-id': 'r' })
  })
})

describe('isJsonContentType', () => {
  test.each(['application/json', 'Application/JSON; charset=utf-8', 'text/json', 'application/problem+json', ' application/vnd.api+json '])(
    '%j is JSON',
    (ct) => {
      expect(isJsonContentType(ct)).toBe(true)
    },
  )

  test.each(['application/x-ndjson', 'application/jsonl', 'text/plain', '', null, undefined])('%j is not', (ct) => {
    expect(isJsonContentType(ct)).toBe(false)
  })
})

describe('recordBody', () => {
  test('no bytes: nothing stored', () => {
    expect(recordBody(new Uint8Array(), 'application/json')).toEqual({})
  })

  test.each([
    ['compact', '{"a":1,"b":[1,2]}', {}],
    ['compact with a newline', '{"a":1}\n', { jsonNewline: true }],
    ['two spaces', '{\n  "a": 1\n}', { jsonSpace: 2 }],
    ['two spaces and a newline', '{\n  "a": 1\n}\n', { jsonSpace: 2, jsonNewline: true }],
    ['four spaces', '{\n    "a": 1\n}', { jsonSpace: 4 }],
    ['four spaces and a newline', '{\n    "a": 1\n}\n', { jsonSpace: 4, jsonNewline: true }],
  ])('JSON laid out %s is stored as JSON with its layout, and replays as the same bytes', (_name, text, layout) => {
    const stored = recordBody(bytes(text), 'application/json')
    expect(stored).toEqual({ json: JSON.parse(text), ...layout })
    expect(recordedBytes({ status: 200, headers: {}, ...stored })).toBe(text)
  })

  test.each([
    ['a number JSON would rewrite', '{"price":1.50}'],
    ['unusual spacing', '{ "a": 1 }'],
    ['a big integer', '{"id":12345678901234567890}'],
    ['an escaped character', '{"a":"\\u00e9"}'],
    ['invalid JSON', '{"a":'],
  ])('JSON with %s is kept as text', (_name, text) => {
    expect(recordBody(bytes(text), 'application/json; charset=utf-8')).toEqual({ text })
  })

  test.each([
    ['text/plain', 'hello'],
    ['text/event-stream', 'data: 1\n\n'],
    ['application/xml', '<a/>'],
    ['application/x-ndjson', '{"a":1}\n{"a":2}\n'],
    ['application/x-www-form-urlencoded', 'a=1'],
    ['', 'no type'],
  ])('%j is stored as text', (ct, text) => {
    expect(recordBody(bytes(text), ct)).toEqual({ text })
  })

  test('the text "undefined" sent as JSON is not JSON: kept as text, so it replays', () => {
    const stored = recordBody(bytes('undefined'), 'application/json')
    expect(stored).toEqual({ text: 'undefined' })
    expect(recordedBytes({ status: 200, headers: {}, ...stored })).toBe('undefined')
  })

  test('no content type at all: text', () => {
    expect(recordBody(bytes('x'), null)).toEqual({ text: 'x' })
  })

  test('binary types, and bytes that are not UTF-8 whatever the type, are stored as base64', () => {
    expect(recordBody(bytes('RIFF'), 'audio/wav')).toEqual({ base64: 'UklGRg==' })
    expect(recordBody(new Uint8Array([0xff, 0xfe, 0x00]), 'application/json')).toEqual({ base64: '//4A' })
  })

  test('a byte-order mark is kept, not stripped', () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('hi')])
    const stored = recordBody(withBom, 'text/plain')
    expect(Buffer.from(recordedBytes({ status: 200, headers: {}, ...stored }) as string)).toEqual(Buffer.from(withBom))
  })
})

describe('recordedBytes and jsonText', () => {
  test('JSON with its layout, text, base64 as bytes, or null', () => {
    expect(jsonText({ json: { a: 1 }, jsonSpace: 2, jsonNewline: true })).toBe('{\n  "a": 1\n}\n')
    expect(recordedBytes({ status: 200, headers: {}, json: { a: 1 } })).toBe('{"a":1}')
    expect(recordedBytes({ status: 200, headers: {}, json: null })).toBe('null')
    expect(recordedBytes({ status: 200, headers: {}, text: '' })).toBe('')
    expect(recordedBytes({ status: 200, headers: {}, base64: 'AAE=' })).toEqual(new Uint8Array([0, 1]))
    expect(recordedBytes({ status: 200, headers: {} })).toBeNull()
  })
})

describe('toResponse', () => {
  test('a 2xx body whole, with its exact content-length, status and headers, and the extra headers', async () => {
    const rec: RecordedResponse = { status: 201, statusText: 'Created', headers: { 'content-type': 'text/plain', 'x-a': '1' }, text: 'héllo' }
    const res = toResponse(rec, 'none', { 'x-expect-llm-fixture': 'f.json', 'x-a': '2' })
    expect(res.status).toBe(201)
    expect(res.statusText).toBe('Created')
    expect(res.headers.get('content-length')).toBe('6')
    expect(res.headers.get('x-a')).toBe('2')
    expect(res.headers.get('x-expect-llm-fixture')).toBe('f.json')
    expect(res.headers.get('x-should-retry')).toBeNull()
    expect(await res.text()).toBe('héllo')
  })

  test('binary bodies get their byte length', async () => {
    const res = toResponse({ status: 200, headers: {}, base64: 'AAEC' })
    expect(res.headers.get('content-length')).toBe('3')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array([0, 1, 2]))
  })

  test('an error: x-should-retry false, and the body as a stream without a length', async () => {
    const res = toResponse({ status: 400, headers: { 'content-type': 'application/json' }, json: { error: { message: 'bad' } } })
    expect(res.status).toBe(400)
    expect(res.headers.get('x-should-retry')).toBe('false')
    expect(res.headers.get('content-length')).toBeNull()
    expect(await res.json()).toEqual({ error: { message: 'bad' } })
    expect(toResponse({ status: 399, headers: {} }).headers.get('x-should-retry')).toBeNull()
  })

  test('an error without a body has none', async () => {
    const res = toResponse({ status: 500, headers: {} })
    expect(res.body).toBeNull()
    expect(res.statusText).toBe('')
  })

  test.each([204, 205, 304])('a %i has no body even when one was recorded', (status) => {
    const res = toResponse({ status, headers: {}, text: 'x' })
    expect(res.body).toBeNull()
    expect(res.headers.get('content-length')).toBeNull()
  })

  test('an event stream, unpaced by default and paced with "recorded"', async () => {
    const rec: RecordedResponse = {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      sse: ['data: 1\n\n', 'data: 2\n\n'],
      chunkOffsetsMs: [0, 200],
    }
    let started = performance.now()
    expect(await toResponse(rec).text()).toBe('data: 1\n\ndata: 2\n\n')
    expect(performance.now() - started).toBeLessThan(150)
    started = performance.now()
    expect(await toResponse(rec, 'recorded').text()).toBe('data: 1\n\ndata: 2\n\n')
    expect(performance.now() - started).toBeGreaterThanOrEqual(195)
  })

  test('an error event stream keeps its events', async () => {
    const res = toResponse({ status: 500, headers: {}, sse: ['event: error\ndata: {}\n\n'] })
    expect(res.headers.get('x-should-retry')).toBe('false')
    expect(await res.text()).toBe('event: error\ndata: {}\n\n')
  })
})

describe('brokenBody', () => {
  test('reads nothing before the app asks (a pull stream: the error is not raised ahead of the data)', async () => {
    let reads = 0
    const received = new Proxy([bytes('a')], {
      get(target, prop, receiver) {
        if (prop === '0' || prop === 'length') reads++
        return Reflect.get(target, prop, receiver)
      },
    })
    const stream = brokenBody(received, new Error('terminated'))
    await new Promise((r) => setTimeout(r, 5))
    expect(reads).toBe(0)
    await stream.getReader().read()
    expect(reads).toBeGreaterThan(0)
  })

  test('yields what arrived, then fails with the error', async () => {
    const failure = new Error('terminated')
    const reader = brokenBody([bytes('a'), bytes('b')], failure).getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('a')
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('b')
    await expect(reader.read()).rejects.toBe(failure)
  })
})
