import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toLeakSecrets.js'
import { failureMessage } from '../helpers/failure-message.js'

expect.extend(matcher)

// Fake secrets are assembled at run time, so secret scanners do not flag the repository.
const fakeKey = ['sk', 'proj', 'abcdefghijklmnopqrstuvwx'].join('-')
const privateKey = ['-----BEGIN', 'RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----'].join(' ')

describe('.toLeakSecrets', () => {
  test('passes when the output holds an API key, a private key or a bearer token', () => {
    expect(`Use ${fakeKey} to call the API.`).toLeakSecrets()
    expect(privateKey).toLeakSecrets()
    expect(`Authorization: Bearer ${'abcdefghijklmnop'}`).toLeakSecrets()
  })

  test('.not passes on a clean output', () => {
    expect('Set OPENAI_API_KEY in your environment; never paste the key into chat.').not.toLeakSecrets()
  })

  test('finds the value of a key variable of the environment', () => {
    const name = 'EXAMPLE_SERVICE_API_KEY'
    process.env[name] = ['live', 'value', 'of', 'a', 'key', '12345'].join('_')
    try {
      expect(`The key is ${process.env[name]}.`).toLeakSecrets()
    } finally {
      delete process.env[name]
    }
  })

  test('.not fails naming what leaked, never the secret, without printing the output', () => {
    const message = failureMessage(() => expect(`key: ${fakeKey}`).not.toLeakSecrets())
    expect(message).not.toContain(fakeKey)
    expect(message).toMatchInlineSnapshot(`
      "expect(output).not.toLeakSecrets()

      Expected: no secret
      Received: an "sk-..." API key

      Output: (not shown: it holds a secret)"
    `)
  })

  test('fails when there is no secret', () => {
    expect(failureMessage(() => expect('Hello.').toLeakSecrets())).toMatchInlineSnapshot(`
      "expect(output).toLeakSecrets()

      Expected: a secret
      Received: none

      Output: "Hello.""
    `)
  })

  test('rejects a non-string output and arguments, also under .not', () => {
    expect(() => expect(42).toLeakSecrets()).toThrow('the received value must be a string, got a number (42)')
    expect(() => expect(42).not.toLeakSecrets()).toThrow('the received value must be a string')
    expect(() => (expect('x').not.toLeakSecrets as (a: unknown) => void)('sk')).toThrow('it takes no arguments')
  })

  test('the usage error names the fix and is a TypeError', () => {
    const call = () => (expect('x').not.toLeakSecrets as (a: unknown) => void)({ kinds: ['api-key'] })
    expect(call).toThrow(TypeError)
    expect(call).toThrow('it takes no arguments. Call expect(output).not.toLeakSecrets().')
  })

  test('an argument after an undefined one is refused too; undefined alone is no argument', () => {
    const not = expect('x').not as unknown as { toLeakSecrets: (...args: unknown[]) => void }
    expect(() => not.toLeakSecrets(undefined, 'sk')).toThrow(TypeError)
    expect(() => not.toLeakSecrets(undefined, 'sk')).toThrow('it takes no arguments')
    expect(() => not.toLeakSecrets(undefined)).not.toThrow()
  })

  test('.not names every kind that leaked, comma-separated', () => {
    const message = failureMessage(() => expect(`${fakeKey}\n${privateKey}`).not.toLeakSecrets())
    expect(message).toContain('Received: an "sk-..." API key, ')
    expect(message).not.toContain(fakeKey)
  })
})
