// Fixture files (src/replay/fixture.ts): the stored form (sorted, the recorded JSON body in the server's
// order) and the validation that makes a corrupt or hand-edited fixture fail loudly, naming the file and
// what is wrong, instead of replaying something else.
import { describe, expect, test } from 'vitest'
import { FixtureError, parseFixture, SCHEMA_VERSION, serializeFixture } from '../../src/replay/fixture.js'
import { buildKey } from '../../src/replay/key.js'
import type { Fixture } from '../../src/replay/types.js'

const key = buildKey('POST', new URL('https://api.openai.com/v1/chat/completions'), new TextEncoder().encode('{"model":"m"}'), 'application/json', {})
const file = `/p/test/__llm_fixtures__/a.test.ts/chat-completions.${key.hash16}.json`
const fixture = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  schemaVersion: SCHEMA_VERSION,
  hash: key.hash,
  key: key.material,
  response: { status: 200, headers: { 'content-type': 'application/json' }, json: { z: 1, a: 2 } },
  meta: { recordedAt: '2026-01-01T00:00:00.000Z', durationMs: 3, endpoint: key.endpoint, model: 'm', usage: null, sdkUserAgent: null, testFile: null },
  ...over,
})
const parse = (value: unknown, name = file) => parseFixture(typeof value === 'string' ? value : JSON.stringify(value), name)
const reasonOf = (value: unknown, name = file): string => {
  try {
    parse(value, name)
  } catch (error) {
    expect(error).toBeInstanceOf(FixtureError)
    expect((error as FixtureError).file).toBe(name)
    expect((error as Error).message).toBe(
      `[expect-llm] Failed to read fixture ${name}: ${(error as FixtureError).reason}. Fix the file by hand, or delete it and record it again with EXPECT_LLM_REPLAY=record.`,
    )
    return (error as FixtureError).reason
  }
  throw new Error('parsed without an error')
}

describe('serializeFixture', () => {
  test('keys sorted, undefined dropped, two-space indent, trailing newline; the recorded JSON body keeps its order', () => {
    const text = serializeFixture({ ...fixture(), extra: undefined } as unknown as Fixture)
    expect(text.endsWith('}\n')).toBe(true)
    const parsed = JSON.parse(text)
    expect(Object.keys(parsed)).toEqual(['hash', 'key', 'meta', 'response', 'schemaVersion'])
    expect(Object.keys(parsed.response)).toEqual(['headers', 'json', 'status'])
    expect(Object.keys(parsed.response.json)).toEqual(['z', 'a'])
    expect(text).toContain('\n  "hash": ')
  })

  test('each response of a sequence is sorted the same way', () => {
    const responses = [{ status: 200, headers: { b: '1', a: '2' }, json: { z: 1, a: 2 }, durationMs: undefined }]
    const parsed = JSON.parse(serializeFixture({ ...fixture(), response: undefined, responses } as unknown as Fixture))
    expect(parsed.responses).toEqual([{ headers: { a: '2', b: '1' }, json: { z: 1, a: 2 }, status: 200 }])
    expect(Object.keys(parsed.responses[0].headers)).toEqual(['a', 'b'])
    expect(Object.keys(parsed.responses[0].json)).toEqual(['z', 'a'])
    expect(parsed).not.toHaveProperty('response')
  })

  test('what it writes parses back to the same fixture', () => {
    expect(parse(serializeFixture(fixture() as unknown as Fixture))).toEqual(fixture())
  })
})

describe('parseFixture accepts', () => {
  test('a fixture with a sequence of responses and no single one', () => {
    const responses = [
      { status: 200, headers: {}, sse: ['data: 1\n\n'], chunkOffsetsMs: [3], durationMs: 0 },
      { status: 201, headers: {}, text: 'ok', jsonNewline: true, jsonSpace: 10 },
      { status: 599, headers: {}, base64: 'AA==' },
      { status: 100, headers: {} },
    ]
    expect(parse(fixture({ response: undefined, responses })).responses).toEqual(responses)
  })

  test('a file name without a hash at its end (it is then not checked)', () => {
    expect(parse(fixture(), '/p/anything.json').hash).toBe(key.hash)
    expect(parse(fixture(), '/p/chat-completions.0000000000000000.json.orig').hash).toBe(key.hash)
  })
})

describe('parseFixture refuses, naming the file and the reason', () => {
  test.each([
    ['invalid JSON', '{', /^it is not valid JSON \(/],
    ['an array', [], /^it must hold a JSON object$/],
    ['null', null, /^it must hold a JSON object$/],
    ['no schema version', fixture({ schemaVersion: undefined }), /^"schemaVersion" is missing$/],
    ['another schema version', fixture({ schemaVersion: 2 }), /^"schemaVersion" is 2, but this version of expect-llm reads schema 1$/],
    ['a schema version as a string', fixture({ schemaVersion: '1' }), /^"schemaVersion" is "1", but/],
    ['no key', fixture({ key: undefined }), /^"key" is missing or not an object$/],
    ['a key that is an array', fixture({ key: [] }), /^"key" is missing or not an object$/],
    ['no key.v', fixture({ key: { ...key.material, v: '1' } }), /^"key.v" is missing or not a number$/],
    ['a key.query that is not an array', fixture({ key: { ...key.material, query: {} } }), /^"key.query" is missing or not an array$/],
    ['no key.body', fixture({ key: { v: 1, method: 'POST', origin: 'o', path: '/', query: [], bodyType: 'none' } }), /^"key.body" is missing$/],
    ['no hash', fixture({ hash: undefined }), /^"hash" is missing or not a sha256 hex string$/],
    ['a short hash', fixture({ hash: key.hash.slice(1) }), /^"hash" is missing or not a sha256 hex string$/],
    ['an upper-case hash', fixture({ hash: key.hash.toUpperCase() }), /^"hash" is missing or not a sha256 hex string$/],
    ['a hash with more before it', fixture({ hash: `x${key.hash}` }), /^"hash" is missing or not a sha256 hex string$/],
    ['a hash with more after it', fixture({ hash: `${key.hash}0` }), /^"hash" is missing or not a sha256 hex string$/],
    ['a hash in a list', fixture({ hash: [key.hash] }), /^"hash" is missing or not a sha256 hex string$/],
    ['no response at all', fixture({ response: undefined }), /^"response" is missing$/],
    ['an empty sequence', fixture({ response: undefined, responses: [] }), /^"responses" must be a non-empty array$/],
    ['a sequence that is not an array', fixture({ response: undefined, responses: {} }), /^"responses" must be a non-empty array$/],
    ['no meta', fixture({ meta: undefined }), /^"meta" is missing or not an object$/],
    ['meta as an array', fixture({ meta: [] }), /^"meta" is missing or not an object$/],
  ])('%s', (_name, value, reason) => {
    expect(reasonOf(value)).toMatch(reason)
  })

  test.each(['method', 'origin', 'path', 'bodyType'])('a key.%s that is not a string', (field) => {
    expect(reasonOf(fixture({ key: { ...key.material, [field]: 1 } }))).toBe(`"key.${field}" is missing or not a string`)
  })

  test.each([
    ['not an object', 'x', '"response" must be an object'],
    ['a status of 99', { status: 99, headers: {} }, '"response.status" must be an HTTP status (an integer 100-599)'],
    ['a status of 600', { status: 600, headers: {} }, '"response.status" must be an HTTP status (an integer 100-599)'],
    ['a fractional status', { status: 200.5, headers: {} }, '"response.status" must be an HTTP status (an integer 100-599)'],
    ['no headers', { status: 200 }, '"response.headers" must be an object of strings'],
    ['a header that is not a string', { status: 200, headers: { a: 1 } }, '"response.headers" must be an object of strings'],
    ['two bodies', { status: 200, headers: {}, json: {}, text: 'x' }, '"response" has more than one body (json, text); keep exactly one'],
    ['three bodies', { status: 200, headers: {}, sse: [], text: 'x', base64: '' }, '"response" has more than one body (sse, text, base64); keep exactly one'],
    ['sse that is not a list', { status: 200, headers: {}, sse: 'data: 1' }, '"response.sse" must be an array of strings'],
    ['sse with a number', { status: 200, headers: {}, sse: ['a', 1] }, '"response.sse" must be an array of strings'],
    ['offsets that are not numbers', { status: 200, headers: {}, sse: [], chunkOffsetsMs: ['1'] }, '"response.chunkOffsetsMs" must be an array of numbers'],
    [
      'offsets of which one is not a number',
      { status: 200, headers: {}, sse: [], chunkOffsetsMs: [1, '2'] },
      '"response.chunkOffsetsMs" must be an array of numbers',
    ],
    ['offsets that are not a list', { status: 200, headers: {}, sse: [], chunkOffsetsMs: 1 }, '"response.chunkOffsetsMs" must be an array of numbers'],
    ['text that is not a string', { status: 200, headers: {}, text: 1 }, '"response.text" must be a string'],
    ['a jsonSpace of 0', { status: 200, headers: {}, json: {}, jsonSpace: 0 }, '"response.jsonSpace" must be a whole number from 1 to 10'],
    ['a jsonSpace of 11', { status: 200, headers: {}, json: {}, jsonSpace: 11 }, '"response.jsonSpace" must be a whole number from 1 to 10'],
    ['a fractional jsonSpace', { status: 200, headers: {}, json: {}, jsonSpace: 1.5 }, '"response.jsonSpace" must be a whole number from 1 to 10'],
    ['a jsonNewline that is not a boolean', { status: 200, headers: {}, json: {}, jsonNewline: 1 }, '"response.jsonNewline" must be true or false'],
    ['base64 that is not a string', { status: 200, headers: {}, base64: 1 }, '"response.base64" must be a string'],
    ['a negative duration', { status: 200, headers: {}, durationMs: -1 }, '"response.durationMs" must be a number of milliseconds'],
    ['a duration as a string', { status: 200, headers: {}, durationMs: '5' }, '"response.durationMs" must be a number of milliseconds'],
  ])('a response with %s', (_name, response, reason) => {
    expect(reasonOf(fixture({ response }))).toBe(reason)
  })

  test('the n-th response of a sequence is named', () => {
    expect(reasonOf(fixture({ response: undefined, responses: [{ status: 200, headers: {} }, { status: 200 }] }))).toBe(
      '"responses[1].headers" must be an object of strings',
    )
  })

  test('a response is checked even when a sequence is there too', () => {
    expect(reasonOf(fixture({ response: { status: 0, headers: {} }, responses: [{ status: 200, headers: {} }] }))).toBe(
      '"response.status" must be an HTTP status (an integer 100-599)',
    )
  })

  test('a hand-edited request no longer matches its hash', () => {
    const edited = fixture({ key: { ...key.material, body: { model: 'other' } } })
    expect(reasonOf(edited)).toMatch(
      new RegExp(`^the request in "key" does not match "hash" \\(stored ${key.hash16}, computed [0-9a-f]{16}\\); the key was edited by hand$`),
    )
  })

  test('a file renamed to another hash', () => {
    const renamed = '/p/chat-completions.0000000000000000.json'
    expect(reasonOf(fixture(), renamed)).toBe(
      `the file name carries hash 0000000000000000 but the fixture's hash starts with ${key.hash16}; the file was renamed or copied over`,
    )
  })

  test('the error is named FixtureError and keeps its reason', () => {
    const error = new FixtureError('/f.json', 'bad')
    expect(error.name).toBe('FixtureError')
    expect(error.reason).toBe('bad')
    expect(error).toBeInstanceOf(Error)
  })
})
