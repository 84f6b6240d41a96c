// The secret scan run before every fixture write (src/replay/secrets.ts): which environment values count as
// secrets, where a finding is reported (JSON pointers, object keys), and secrets spelled across stream events.
// Fake keys are assembled at run time so that secret scanners of the repository do not flag this file.
import { describe, expect, test } from 'vitest'
import { KNOWN_KEY_VARIABLES, scanForSecrets, scanStreamText, secretValuesFromEnv } from '../../src/replay/secrets.js'

const join = (...parts: string[]) => parts.join('')
const SK = join('sk', '-proj-', 'Zq81TESTSECRETvalue0123456789')
const BEARER = join('Bear', 'er ', 'abcdefghijklmnopqrstuvwx123')

describe('secretValuesFromEnv', () => {
  test('a known key variable counts from 8 characters, not 7', () => {
    expect(secretValuesFromEnv({ OPENAI_API_KEY: '12345678' })).toEqual([['OPENAI_API_KEY', '12345678']])
    expect(secretValuesFromEnv({ OPENAI_API_KEY: '1234567' })).toEqual([])
    expect(secretValuesFromEnv({ ANTHROPIC_API_KEY: '', COHERE_API_KEY: undefined })).toEqual([])
  })

  test('every known key variable counts, whatever its value looks like', () => {
    const env = Object.fromEntries(KNOWN_KEY_VARIABLES.map((name) => [name, `value-of-${name}`]))
    expect(secretValuesFromEnv(env)).toEqual(KNOWN_KEY_VARIABLES.map((name) => [name, `value-of-${name}`]))
  })

  test.each(['MY_SERVICE_API_KEY', 'MY_SERVICE_APIKEY', 'GITHUB_TOKEN', 'SESSION_SECRET', 'AWS_SECRET_ACCESS_KEY'])(
    '%s counts from 12 characters, not 11',
    (name) => {
      expect(secretValuesFromEnv({ [name]: 'abcdefghijkl' })).toEqual([[name, 'abcdefghijkl']])
      expect(secretValuesFromEnv({ [name]: 'abcdefghijk' })).toEqual([])
    },
  )

  test('other variables do not count, even when the suffix is inside the name', () => {
    expect(
      secretValuesFromEnv({
        HOME: '/home/someone/with/a/long/path',
        GITHUB_TOKEN_FILE: '/run/secrets/github-token',
        API_KEY_PATH: '/etc/keys/api-key.pem',
        TOKENIZER: 'cl100k_base-tokenizer',
      }),
    ).toEqual([])
  })

  test('reads process.env by default', () => {
    const name = 'EXPECT_LLM_SECRETS_TEST_TOKEN'
    process.env[name] = 'abcdefghijklmnop'
    try {
      expect(secretValuesFromEnv()).toContainEqual([name, 'abcdefghijklmnop'])
    } finally {
      delete process.env[name]
    }
  })
})

describe('scanForSecrets', () => {
  const env = { OPENAI_API_KEY: 'env-secret-value-42' }

  test('an environment key value anywhere in a string, reported by JSON pointer and variable name (never the value)', () => {
    const findings = scanForSecrets({ response: { json: { choices: [{ message: { content: 'key: env-secret-value-42.' } }] } } }, env)
    expect(findings).toEqual([{ path: '/response/json/choices/0/message/content', what: 'the value of OPENAI_API_KEY' }])
  })

  test('nothing to report in a safe value, in numbers, booleans and null', () => {
    expect(scanForSecrets({ a: 'hello', b: [1, true, null], c: { d: 'env-secret-value' } }, env)).toEqual([])
    expect(scanForSecrets(42, env)).toEqual([])
    expect(scanForSecrets(null, env)).toEqual([])
  })

  test('a string at the root is reported at "/"', () => {
    expect(scanForSecrets(`x ${SK}`, {})).toEqual([{ path: '/', what: 'an "sk-..." API key' }])
  })

  test('each array item by its index', () => {
    expect(scanForSecrets(['safe', 'also safe', BEARER], {})).toEqual([{ path: '/2', what: 'a bearer token' }])
  })

  test('object keys are scanned too; "~" and "/" in keys are escaped as in JSON pointers', () => {
    expect(scanForSecrets({ headers: { [SK]: 'x' } }, {})).toEqual([{ path: `/headers/${SK}`, what: 'an "sk-..." API key' }])
    expect(scanForSecrets({ 'a/b~c': { 'd~/e': `${BEARER}` } }, {})).toEqual([{ path: '/a~1b~0c/d~0~1e', what: 'a bearer token' }])
  })

  test('one finding per secret: an environment value that is also key-shaped is reported twice, in order', () => {
    expect(scanForSecrets({ k: SK }, { OPENAI_API_KEY: SK })).toEqual([
      { path: '/k', what: 'the value of OPENAI_API_KEY' },
      { path: '/k', what: 'an "sk-..." API key' },
    ])
  })

  test.each([
    ['an "sk-..." API key', join('sk-', 'ant-', 'abcdefghij0123456789')],
    ['a bearer token', join('Authorization: bearer ', 'abcdefghijklmnop')],
    ['a private key', join('-----BEGIN ', 'RSA PRIVATE KEY-----')],
    ['an AWS access key id', join('AKIA', 'ABCDEFGHIJKLMNOP')],
    ['a GitHub token', join('ghp_', 'a'.repeat(36))],
    ['a Google API key', join('AIza', 'b'.repeat(35))],
    ['a Slack token', join('xox', 'b-', '1234567890-abc')],
  ])('recognises %s by its shape', (what, secret) => {
    expect(scanForSecrets({ text: `before ${secret} after` }, {})).toEqual([{ path: '/text', what }])
  })

  test.each([
    ['a short "sk-" word', join('sk-', 'abc')],
    ['"Bearer" with a short token', join('Bear', 'er ', 'abc')],
    ['an AWS-like id that is too short', join('AKIA', 'ABCDEF')],
    ['a GitHub-like prefix without a token', 'ghp_short'],
  ])('does not flag %s', (_what, text) => {
    expect(scanForSecrets({ text }, {})).toEqual([])
  })

  test('reads the key variables from process.env by default', () => {
    const name = 'EXPECT_LLM_SECRETS_TEST_API_KEY'
    process.env[name] = 'default-env-secret-1234'
    try {
      expect(scanForSecrets({ a: 'x default-env-secret-1234 y' })).toEqual([{ path: '/a', what: `the value of ${name}` }])
    } finally {
      delete process.env[name]
    }
  })
})

describe('scanStreamText', () => {
  const event = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`

  test('a secret split across the deltas of several events is found in the joined text', () => {
    const events = [
      event({ choices: [{ delta: { content: 'Bear' } }] }),
      event({ choices: [{ delta: { content: 'er abcdefgh' } }] }),
      event({ delta: 'ijklmnop' }),
    ]
    expect(scanStreamText(events, '/response/sse', {})).toEqual([{ path: '/response/sse (text joined across events)', what: 'a bearer token' }])
  })

  test('no single event holds the secret, so the per-string scan alone would miss it', () => {
    const events = [event({ delta: 'Bear' }), event({ delta: 'er abcdefghijklmnop' })]
    expect(scanForSecrets(events, {})).toEqual([])
    expect(scanStreamText(events, '/s', {})).toHaveLength(1)
  })

  test.each(['content', 'delta', 'text', 'arguments'])('joins the "%s" strings', (key) => {
    const events = [event({ [key]: 'Bear' }), event({ nested: [{ [key]: 'er abcdefghijklmnop' }] })]
    expect(scanStreamText(events, '/s', {})).toEqual([{ path: '/s (text joined across events)', what: 'a bearer token' }])
  })

  test('strings under other keys are not joined in', () => {
    const events = [event({ content: 'Bear' }), event({ id: 'er abcdefghijklmnop' }), event({ content: 'x' })]
    expect(scanStreamText(events, '/s', {})).toEqual([])
  })

  test('an environment key value split across events is found', () => {
    const events = [event({ delta: 'my key is env-sec' }), event({ delta: 'ret-value-42' })]
    expect(scanStreamText(events, '/responses/1/sse', { OPENAI_API_KEY: 'env-secret-value-42' })).toEqual([
      { path: '/responses/1/sse (text joined across events)', what: 'the value of OPENAI_API_KEY' },
    ])
  })

  test('reads data lines of every line-ending style, skips other fields and lines that are not JSON', () => {
    const events = [
      `event: delta\r\ndata: ${JSON.stringify({ delta: 'Bear' })}\r\n\r\n`,
      `id: 3\rdata: ${JSON.stringify({ delta: 'er abcd' })}\r\r`,
      'data: [DONE]\n\n',
      `: comment ${JSON.stringify({ delta: 'zzz' })}\n`,
      `data:${JSON.stringify({ delta: 'efghijklmnop' })}\n\n`,
    ]
    expect(scanStreamText(events, '/s', {})).toEqual([{ path: '/s (text joined across events)', what: 'a bearer token' }])
  })

  test('only lines that start with "data:" are read', () => {
    // Five characters before the JSON, as many as "data:": the line would parse if the field name were not checked.
    const events = [event({ delta: 'Bear' }), `retry${JSON.stringify({ delta: 'er abcdefghijklmnop' })}\n\n`]
    expect(scanStreamText(events, '/s', {})).toEqual([])
  })

  test('nothing found in an empty stream', () => {
    expect(scanStreamText([], '/s', {})).toEqual([])
  })
})

describe('scanStreamText at its edges', () => {
  test('strings in a list under a text key are joined too', () => {
    const events = [`data: ${JSON.stringify({ delta: ['Bear', 'er abcdefghijklmnop'] })}\n\n`]
    expect(scanStreamText(events, '/s', {})).toEqual([{ path: '/s (text joined across events)', what: 'a bearer token' }])
  })

  test('a null before the text does not stop the walk of that event', () => {
    const events = [`data: ${JSON.stringify({ logprobs: null, delta: 'Bearer abcdefghijklmnop' })}\n\n`]
    expect(scanStreamText(events, '/s', {})).toEqual([{ path: '/s (text joined across events)', what: 'a bearer token' }])
  })
})
