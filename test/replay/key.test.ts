// The request key (src/replay/key.ts): which parts of a request decide the fixture that answers it. A key
// that ignores a real difference replays the wrong answer (a false pass); one that sees a meaningless
// difference (key order, a multipart boundary, a credential) misses in CI.
import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import {
  buildKey,
  endpointSlug,
  hashMaterial,
  isSecretQueryParam,
  KEY_VERSION,
  modelOf,
  parseJsonExact,
  parseMultipart,
  removeFields,
} from '../../src/replay/key.js'
import type { KeyMaterial } from '../../src/replay/types.js'

const bytes = (text: string) => new TextEncoder().encode(text)
const URL_ = new URL('https://api.openai.com/v1/chat/completions')
const key = (body: string, contentType: string | null = 'application/json', options = {}, url = URL_, method = 'POST') =>
  buildKey(method, url, bytes(body), contentType, options)

describe('endpointSlug', () => {
  test.each([
    ['/v1/chat/completions', 'chat-completions'],
    ['/v1beta/models/gemini-2.0-flash:generateContent', 'models-gemini-2_0-flash_generatecontent'],
    ['/v2alpha3/x', 'x'],
    ['/V1/Embeddings', 'embeddings'],
    ['/api/chat', 'api-chat'],
    ['/v1', 'v1'],
    ['/', 'root'],
    ['', 'root'],
    ['//v1//responses/', 'responses'],
    ['/version1/x', 'version1-x'],
    ['/xv1/chat', 'xv1-chat'],
    ['/v1x/chat', 'v1x-chat'],
    ['/v10/chat', 'chat'],
    ['/v1beta2/x', 'x'],
    ['/v1betaX/y', 'v1betax-y'],
    ['/v1alpha/x', 'x'],
    ['/v2alpha10/x', 'x'],
    ['/api/a..b:/c', 'api-a_b_-c'],
  ])('%j → %j', (path, slug) => {
    expect(endpointSlug(path)).toBe(slug)
  })

  test('at most 60 characters', () => {
    expect(endpointSlug(`/v1/${'a'.repeat(100)}`)).toBe('a'.repeat(60))
  })
})

describe('isSecretQueryParam', () => {
  test.each([
    'key',
    'KEY',
    'api-key',
    'api_key',
    'apikey',
    'token',
    'access_token',
    'access-token',
    'auth',
    'authorization',
    'secret',
    'client_secret',
    'password',
    'sig',
    'signature',
    'x-api-key',
  ])('%s is a credential', (name) => {
    expect(isSecretQueryParam(name)).toBe(true)
  })

  test.each(['api-version', 'model', 'keys', 'monkey', 'tokens', 'signed'])('%s is not', (name) => {
    expect(isSecretQueryParam(name)).toBe(false)
  })
})

describe('removeFields', () => {
  test('dot paths and JSON pointers, nested, in arrays, with "*" for every item or key', () => {
    const value = {
      a: { b: 1, c: 2 },
      list: [
        { id: 1, keep: true },
        { id: 2, keep: true },
      ],
      'x/y': { '~z': 1, w: 2 },
      meta: { t1: 1, t2: 2 },
    }
    removeFields(value, ['a.b', 'list.*.id', '/x~1y/~0z', 'meta.*'])
    expect(value).toEqual({ a: { c: 2 }, list: [{ keep: true }, { keep: true }], 'x/y': { w: 2 }, meta: {} })
  })

  test('an array item by its index is removed, not left as a hole', () => {
    const value = { messages: ['system', 'user', 'assistant'] }
    removeFields(value, ['messages.0'])
    expect(value).toEqual({ messages: ['user', 'assistant'] })
  })

  test('paths that do not exist, or go through a primitive, change nothing', () => {
    const value = { a: 1, b: { c: 'x' } }
    removeFields(value, ['z', 'a.b', 'b.c.d', '/b/zz'])
    expect(value).toEqual({ a: 1, b: { c: 'x' } })
  })

  test('a name that is not an index of an array removes nothing from it', () => {
    const value = { list: [1, 2] }
    removeFields(value, ['list.x', 'list.5'])
    expect(value).toEqual({ list: [1, 2] })
  })

  test('an empty path list, or null, changes nothing', () => {
    const value = { a: 1 }
    removeFields(value, [])
    removeFields(null, ['a'])
    expect(value).toEqual({ a: 1 })
  })
})

describe('parseJsonExact', () => {
  test('integers beyond 2^53 are kept as their digits; safe ones and decimals stay numbers', () => {
    expect(parseJsonExact('{"seed":12345678901234567890,"n":-9007199254740993,"safe":9007199254740991,"f":1.5e300}')?.value).toEqual({
      seed: { $bigint: '12345678901234567890' },
      n: { $bigint: '-9007199254740993' },
      safe: 9007199254740991,
      f: 1.5e300,
    })
  })

  test('undefined for text that is not JSON', () => {
    expect(parseJsonExact('{not json')).toBeUndefined()
    expect(parseJsonExact('null')).toEqual({ value: null })
  })
})

describe('buildKey', () => {
  test('JSON bodies that differ only in key order share a key; a different value does not', () => {
    const a = key('{"model":"m","messages":[{"role":"user","content":"hi"}]}')
    const b = key('{"messages":[{"content":"hi","role":"user"}],"model":"m"}')
    expect(a.hash).toBe(b.hash)
    expect(key('{"model":"m","messages":[{"role":"user","content":"hello"}]}').hash).not.toBe(a.hash)
  })

  test('the material: version, upper-case method, origin, path, sorted query without credentials, sorted body', () => {
    const k = buildKey('post', new URL('https://h.test:8443/v1/x?z=1&api-key=SECRET&a=2&a=1'), bytes('{"b":1,"a":2}'), 'application/json; charset=utf-8', {})
    expect(k.material).toStrictEqual({
      v: KEY_VERSION,
      method: 'POST',
      origin: 'https://h.test:8443',
      path: '/v1/x',
      query: [
        ['a', '1'],
        ['a', '2'],
        ['z', '1'],
      ],
      body: { a: 2, b: 1 },
      bodyType: 'json',
    })
    expect(JSON.stringify(k.material.body)).toBe('{"a":2,"b":1}')
    expect(k.hash).toBe(hashMaterial(k.material))
    expect(k.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(k.hash16).toBe(k.hash.slice(0, 16))
    expect(k.endpoint).toBe('x')
  })

  test('the hash is sha256 over the canonical JSON of the material', () => {
    const material: KeyMaterial = { v: 1, method: 'GET', origin: 'https://h.test', path: '/', query: [], body: null, bodyType: 'none' }
    const canonical = '{"body":null,"bodyType":"none","method":"GET","origin":"https://h.test","path":"/","query":[],"v":1}'
    expect(hashMaterial(material)).toBe(createHash('sha256').update(canonical).digest('hex'))
  })

  test('the query decides the key; a credential in it does not', () => {
    const at = (q: string) => key('{}', 'application/json', {}, new URL(`https://h.test/v1/x?${q}`)).hash
    expect(at('api-version=1')).not.toBe(at('api-version=2'))
    expect(at('api-version=1&key=aaa')).toBe(at('api-version=1&key=bbb'))
    expect(at('b=1&a=1')).toBe(at('a=1&b=1'))
  })

  test('query parameters are sorted by name, then by value, whatever their order in the URL', () => {
    const query = (q: string) => buildKey('GET', new URL(`https://h.test/v1/x?${q}`), new Uint8Array(), null, {}).material.query
    expect(query('b=1&a=2')).toEqual([
      ['a', '2'],
      ['b', '1'],
    ])
    expect(query('a=2&b=1')).toEqual([
      ['a', '2'],
      ['b', '1'],
    ])
    expect(query('a=1&a=2')).toEqual([
      ['a', '1'],
      ['a', '2'],
    ])
    expect(query('a=2&a=1')).toEqual([
      ['a', '1'],
      ['a', '2'],
    ])
  })

  test('the method decides the key', () => {
    expect(key('{}', 'application/json', {}, URL_, 'POST').hash).not.toBe(key('{}', 'application/json', {}, URL_, 'PUT').hash)
  })

  test('no body: type none, body null', () => {
    const k = buildKey('GET', new URL('https://h.test/v1/models'), new Uint8Array(), null, {})
    expect(k.material.bodyType).toBe('none')
    expect(k.material.body).toBeNull()
  })

  test('a JSON-looking body sent as text/plain (plain fetch) is keyed as JSON', () => {
    const k = key('  {"b":1,"a":2}', 'text/plain;charset=UTF-8')
    expect(k.material.bodyType).toBe('json')
    expect(key('[1,2]', null).material).toMatchObject({ bodyType: 'json', body: [1, 2] })
  })

  test('a text body is sniffed as JSON only when it starts with { or [', () => {
    expect(key('"a{b"', 'text/plain').material).toMatchObject({ bodyType: 'text', body: '"a{b"' })
  })

  test('text that is not JSON: kept as text for text/* and forms, base64 otherwise', () => {
    expect(key('hello {', 'text/plain').material).toMatchObject({ bodyType: 'text', body: 'hello {' })
    expect(key('a=1&b=2', 'application/x-www-form-urlencoded').material).toMatchObject({ bodyType: 'text', body: 'a=1&b=2' })
    expect(key('{broken', 'application/json').material).toMatchObject({ bodyType: 'base64', body: Buffer.from('{broken').toString('base64') })
    expect(key('raw', 'application/octet-stream').material).toMatchObject({ bodyType: 'base64', body: 'cmF3' })
    expect(key('raw', null).material).toMatchObject({ bodyType: 'base64', body: 'cmF3' })
  })

  test('ignoreBodyFields removes fields from JSON bodies before hashing', () => {
    const a = key('{"model":"m","user":"u1","metadata":{"run":1}}', 'application/json', { ignoreBodyFields: ['user', 'metadata.run'] })
    const b = key('{"model":"m","user":"u2","metadata":{"run":2}}', 'application/json', { ignoreBodyFields: ['user', 'metadata.run'] })
    expect(a.hash).toBe(b.hash)
    expect(a.material.body).toEqual({ model: 'm', metadata: {} })
    expect(key('{"model":"m","user":"u1"}', 'application/json', { ignoreBodyFields: [] }).material.body).toEqual({ model: 'm', user: 'u1' })
  })

  test('ignoreBodyFields leaves text bodies alone', () => {
    expect(key('user=u1', 'text/plain', { ignoreBodyFields: ['user'] }).material.body).toBe('user=u1')
  })

  test('the redact hook runs last and its material is hashed with its keys sorted', () => {
    const redact = ({ key: m }: { key: KeyMaterial }) => ({ key: { ...m, body: { z: 1, a: (m.body as { secret: string }).secret.length } } as KeyMaterial })
    const a = key('{"secret":"aaaa"}', 'application/json', { redact })
    const b = key('{"secret":"bbbb"}', 'application/json', { redact })
    expect(a.hash).toBe(b.hash)
    expect(JSON.stringify(a.material.body)).toBe('{"a":4,"z":1}')
    expect(Object.keys(a.material)).toEqual(['body', 'bodyType', 'method', 'origin', 'path', 'query', 'v'])
  })

  test('multipart bodies are keyed by their parts, not their random boundary', () => {
    const form = (boundary: string) => `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--${boundary}--\r\n`
    const a = key(form('AAA'), 'multipart/form-data; boundary=AAA')
    const b = key(form('BBB'), 'multipart/form-data; boundary=BBB')
    expect(a.material).toMatchObject({ bodyType: 'multipart', body: [{ name: 'model', value: 'whisper-1' }] })
    expect(a.hash).toBe(b.hash)
  })

  test('a body is parsed as multipart only under a multipart/form-data content type', () => {
    const form = '--AAA\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--AAA--\r\n'
    expect(key(form, 'text/plain; boundary=AAA').material).toMatchObject({ bodyType: 'text', body: form })
  })

  test('a body that is not valid UTF-8 is keyed by its bytes', () => {
    const k = buildKey('POST', URL_, new Uint8Array([0xff, 0xfe, 0x41]), 'application/octet-stream', {})
    expect(k.material).toMatchObject({ bodyType: 'base64', body: '//5B' })
  })

  test('ignoreBodyFields applies to JSON bodies only, not to the parts of a multipart form', () => {
    const form = '--AAA\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--AAA--\r\n'
    const k = key(form, 'multipart/form-data; boundary=AAA', { ignoreBodyFields: ['0', '*.value'] })
    expect(k.material.body).toEqual([{ name: 'model', value: 'whisper-1' }])
  })

  test('a malformed multipart body is keyed by its bytes', () => {
    expect(key('--AAA\r\nno end', 'multipart/form-data; boundary=AAA').material.bodyType).toBe('base64')
  })
})

describe('parseMultipart', () => {
  const part = (headers: string, content: string) => `${headers}\r\n\r\n${content}\r\n`
  const body = (boundary: string, ...parts: string[]) => bytes(`${parts.map((p) => `--${boundary}\r\n${p}`).join('')}--${boundary}--\r\n`)

  test('text fields by value, files by size and sha256, with name, file name and content type', () => {
    const file = 'RIFF....WAVE'
    const parts = parseMultipart(
      body(
        'xyz',
        part('Content-Disposition: form-data; name="model"', 'whisper-1'),
        part('Content-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav', file),
        part('content-disposition: form-data; name="prompt"\r\ncontent-type: text/plain; charset=utf-8', 'hi there'),
      ),
      'multipart/form-data; boundary=xyz',
    )
    expect(parts).toStrictEqual([
      { name: 'model', value: 'whisper-1' },
      { name: 'file', filename: 'a.wav', contentType: 'audio/wav', size: file.length, sha256: createHash('sha256').update(file).digest('hex') },
      { name: 'prompt', contentType: 'text/plain; charset=utf-8', value: 'hi there' },
    ])
  })

  test('part headers are read at the start of their lines only', () => {
    const headers = 'X-Note: content-disposition: form-data; name="wrong"\r\nContent-Disposition: form-data; name="n"; filename="content-type: x"'
    expect(parseMultipart(body('b', part(headers, 'v')), 'multipart/form-data; boundary=b')).toStrictEqual([
      { name: 'n', filename: 'content-type: x', size: 1, sha256: createHash('sha256').update('v').digest('hex') },
    ])
  })

  test('a quoted boundary', () => {
    expect(parseMultipart(body('a b', part('Content-Disposition: form-data; name="n"', 'v')), 'multipart/form-data; boundary="a b"')).toStrictEqual([
      { name: 'n', value: 'v' },
    ])
  })

  test('a text field that is not valid UTF-8, or a non-text field, is keyed by its bytes', () => {
    const raw = Buffer.concat([Buffer.from('--b\r\nContent-Disposition: form-data; name="t"\r\n\r\n'), Buffer.from([0xff, 0xfe]), Buffer.from('\r\n--b--\r\n')])
    const [p] = parseMultipart(new Uint8Array(raw), 'multipart/form-data; boundary=b')!
    expect(p).toStrictEqual({
      name: 't',
      size: 2,
      sha256: createHash('sha256')
        .update(Buffer.from([0xff, 0xfe]))
        .digest('hex'),
    })
    const [j] = parseMultipart(
      body('b', part('Content-Disposition: form-data; name="j"\r\nContent-Type: application/json', '{}')),
      'multipart/form-data; boundary=b',
    )!
    expect(j).toMatchObject({ name: 'j', contentType: 'application/json', size: 2 })
    expect(j).not.toHaveProperty('value')
  })

  test('a part without a name gets an empty one', () => {
    expect(parseMultipart(body('b', part('Content-Disposition: form-data', 'v')), 'multipart/form-data; boundary=b')).toStrictEqual([{ name: '', value: 'v' }])
  })

  test('a part whose content ends without CRLF before the next delimiter keeps all its bytes', () => {
    const text = '--b\r\nContent-Disposition: form-data; name="n"\r\n\r\nvalue--b--'
    expect(parseMultipart(bytes(text), 'multipart/form-data; boundary=b')).toStrictEqual([{ name: 'n', value: 'value' }])
  })

  test('undefined without a boundary, without any delimiter, without a closing delimiter or without part headers', () => {
    expect(parseMultipart(body('b', part('Content-Disposition: form-data; name="n"', 'v')), 'multipart/form-data')).toBeUndefined()
    expect(parseMultipart(bytes('no delimiter here'), 'multipart/form-data; boundary=b')).toBeUndefined()
    expect(parseMultipart(bytes('--b\r\nContent-Disposition: form-data; name="n"\r\n\r\nv\r\n'), 'multipart/form-data; boundary=b')).toBeUndefined()
    expect(parseMultipart(bytes('--b\r\nContent-Disposition: form-data; name="n"\r\nv\r\n--b--'), 'multipart/form-data; boundary=b')).toBeUndefined()
  })

  test('undefined when the boundary never occurs, even with two dashes where a delimiter would end', () => {
    expect(parseMultipart(bytes('no--'), 'multipart/form-data; boundary=b')).toBeUndefined()
  })

  test('a preamble before the first delimiter is skipped', () => {
    expect(parseMultipart(bytes(`x--b\r\n${part('Content-Disposition: form-data; name="n"', 'v')}--b--\r\n`), 'multipart/form-data; boundary=b')).toStrictEqual(
      [{ name: 'n', value: 'v' }],
    )
  })

  test('only two dashes right after a delimiter close the form', () => {
    const rest = '\r\nContent-Disposition: form-data; name="n"\r\n\r\nv\r\n--b--'
    expect(parseMultipart(bytes(`--b-${rest}`), 'multipart/form-data; boundary=b')).toStrictEqual([{ name: 'n', value: 'v' }])
    expect(parseMultipart(bytes(`--bx-${rest}`), 'multipart/form-data; boundary=b')).toStrictEqual([{ name: 'n', value: 'v' }])
  })

  test('only a CRLF right after a delimiter is skipped, not the first bytes of the part headers', () => {
    const rest = 'Content-Disposition: form-data; name="n"\r\n\r\nv\r\n--b--'
    expect(parseMultipart(bytes(`--b${rest}`), 'multipart/form-data; boundary=b')).toStrictEqual([{ name: 'n', value: 'v' }])
    expect(parseMultipart(bytes(`--b\r${rest}`), 'multipart/form-data; boundary=b')).toStrictEqual([{ name: 'n', value: 'v' }])
  })

  test('undefined for a part without header lines (its blank line follows the CRLF after the delimiter)', () => {
    expect(parseMultipart(bytes('--b\r\n\r\nv\r\n--b--'), 'multipart/form-data; boundary=b')).toBeUndefined()
  })

  test('a part ends before a CRLF only, not before a lone LF or CR', () => {
    const form = (content: string) => bytes(`--b\r\nContent-Disposition: form-data; name="n"\r\n\r\n${content}--b--`)
    expect(parseMultipart(form('v\n'), 'multipart/form-data; boundary=b')).toStrictEqual([{ name: 'n', value: 'v\n' }])
    expect(parseMultipart(form('v\r.'), 'multipart/form-data; boundary=b')).toStrictEqual([{ name: 'n', value: 'v\r.' }])
  })

  test('undefined when a part has no blank line and the next part has one', () => {
    const text = '--b\r\nContent-Disposition: form-data; name="a"\r\nx\r\n--b\r\nContent-Disposition: form-data; name="c"\r\n\r\nv\r\n--b--'
    expect(parseMultipart(bytes(text), 'multipart/form-data; boundary=b')).toBeUndefined()
  })

  test('a part without Content-Disposition gets an empty name', () => {
    expect(parseMultipart(body('b', part('Content-Type: text/plain', 'v')), 'multipart/form-data; boundary=b')).toStrictEqual([
      { name: '', contentType: 'text/plain', value: 'v' },
    ])
  })

  test('a content type is trimmed, with or without a space after the colon', () => {
    expect(
      parseMultipart(body('b', part('Content-Disposition: form-data; name="f"\r\nContent-Type:audio/wav \t', 'x')), 'multipart/form-data; boundary=b'),
    ).toStrictEqual([{ name: 'f', contentType: 'audio/wav', size: 1, sha256: createHash('sha256').update('x').digest('hex') }])
  })

  test('an empty form (only the closing delimiter) has no parts', () => {
    expect(parseMultipart(bytes('--b--\r\n'), 'multipart/form-data; boundary=b')).toStrictEqual([])
  })

  test('reads the body through its own view of a larger buffer', () => {
    const whole = bytes(`PREFIX--b\r\nContent-Disposition: form-data; name="n"\r\n\r\nv\r\n--b--\r\n`)
    expect(parseMultipart(whole.subarray(6), 'multipart/form-data; boundary=b')).toStrictEqual([{ name: 'n', value: 'v' }])
  })
})

describe('modelOf', () => {
  const material = (body: unknown, bodyType: KeyMaterial['bodyType']): KeyMaterial => ({
    v: 1,
    method: 'POST',
    origin: 'o',
    path: '/',
    query: [],
    body,
    bodyType,
  })

  test('the model of a JSON body, or of a multipart form', () => {
    expect(modelOf(material({ model: 'gpt-4o' }, 'json'))).toBe('gpt-4o')
    expect(
      modelOf(
        material(
          [
            { name: 'file', size: 1 },
            { name: 'model', value: 'whisper-1' },
          ],
          'multipart',
        ),
      ),
    ).toBe('whisper-1')
  })

  test('null when there is none, or it is not a string', () => {
    expect(modelOf(material({ model: 4 }, 'json'))).toBeNull()
    expect(modelOf(material({}, 'json'))).toBeNull()
    expect(modelOf(material(null, 'none'))).toBeNull()
    expect(modelOf(material('model=x', 'text'))).toBeNull()
    expect(modelOf(material([{ name: 'model', size: 3, sha256: 'x' }], 'multipart'))).toBeNull()
    expect(modelOf(material([{ name: 'other', value: 'x' }], 'multipart'))).toBeNull()
  })

  test('a JSON array body shaped like multipart parts names no model (only a multipart form is read as parts)', () => {
    expect(modelOf(material([{ name: 'model', value: 'gpt-4o' }], 'json'))).toBeNull()
  })
})
