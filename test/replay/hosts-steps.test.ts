// The pure parts of src/replay/hosts.ts that the request-level tests (hosts.test.ts) reach only indirectly:
// the credential a request carries, the key variables named in messages, origin patterns and their edge
// cases, placeholder keys, and the hosts of expect-llm's own clients.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import {
  __testing,
  clearLibraryHosts,
  isLoopback,
  isPlaceholderKey,
  keyVariablesFor,
  libraryHosts,
  matchesHost,
  parseHostPattern,
  providerFor,
  registerLibraryHost,
  requestCredential,
} from '../../src/replay/hosts.js'
import { peekProcessSlot, setProcessSlot } from '../../src/process-state.js'

// A fake key, assembled at run time so that secret scanners of the repository do not flag this file.
const REAL = ['sk', 'proj', 'abcDEF0123456789ghijKLMN'].join('-')
const url = (u: string) => new URL(u)

describe('requestCredential', () => {
  test('the authorization header without its scheme (Bearer, Basic, Token, any case)', () => {
    for (const scheme of ['Bearer', 'bearer', 'Basic', 'TOKEN']) {
      expect(requestCredential(new Headers({ authorization: `${scheme}  ${REAL}` }), url('https://api.openai.com/v1'))).toBe(REAL)
    }
    expect(requestCredential(new Headers({ authorization: REAL }), url('https://x.test/'))).toBe(REAL)
  })

  test('an AWS Signature V4 header is a credential as a whole', () => {
    const auth = 'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/bedrock/aws4_request, Signature=abc'
    expect(requestCredential(new Headers({ authorization: auth }), url('https://bedrock-runtime.us-east-1.amazonaws.com/'))).toBe(auth)
  })

  test.each(['api-key', 'x-api-key', 'x-goog-api-key'])('the %s header', (name) => {
    expect(requestCredential(new Headers({ [name]: REAL }), url('https://x.test/'))).toBe(REAL)
  })

  test('authorization wins over the other headers, headers over the query', () => {
    const headers = new Headers({ authorization: 'Bearer from-auth', 'x-api-key': 'from-header' })
    expect(requestCredential(headers, url('https://x.test/?key=from-query'))).toBe('from-auth')
    expect(requestCredential(new Headers({ 'api-key': 'from-header' }), url('https://x.test/?key=from-query'))).toBe('from-header')
  })

  test.each(['key', 'api-key', 'api_key'])('the ?%s= query parameter', (name) => {
    expect(requestCredential(new Headers(), url(`https://generativelanguage.googleapis.com/v1beta/models?${name}=${REAL}`))).toBe(REAL)
  })

  test('none at all: undefined', () => {
    expect(requestCredential(new Headers({ 'content-type': 'application/json' }), url('https://x.test/?model=m'))).toBeUndefined()
  })
})

describe('keyVariablesFor', () => {
  test("a provider's variables, the usual one first", () => {
    expect(keyVariablesFor('https://api.anthropic.com/v1/messages')).toEqual(['ANTHROPIC_API_KEY'])
    expect(keyVariablesFor(url('https://my.openai.azure.com/x'))).toEqual(['AZURE_OPENAI_API_KEY', 'AZURE_API_KEY'])
  })

  test('OPENAI_API_KEY for any other host (what OpenAI-compatible SDKs read)', () => {
    expect(keyVariablesFor('https://llm.internal.example/v1')).toEqual(['OPENAI_API_KEY'])
  })
})

describe('providerFor', () => {
  test('undefined for a host that is no default provider, and for a URL that cannot be parsed', () => {
    expect(providerFor('https://api.openai.com.evil.test/')).toBeUndefined()
    expect(providerFor('not a url')).toBeUndefined()
  })
})

describe('parseHostPattern', () => {
  // Each test parses its patterns afresh, not from the memo an earlier test (or mutant) filled.
  beforeEach(() => __testing.clearPatternCache())

  test('memoises a pattern: parsed once, the same object after', () => {
    const first = parseHostPattern('https://memo.example.com')
    expect(__testing.patternCacheSize()).toBe(1)
    expect(parseHostPattern('https://memo.example.com')).toBe(first)
    expect(__testing.patternCacheSize()).toBe(1)
  })

  test('scheme and host are case-insensitive; the default port is filled in; "*" as port matches any', () => {
    const p = parseHostPattern('HTTPS://API.Example.COM')
    expect(p.protocol).toBe('https:')
    expect(p.port).toBe('443')
    expect(p.host.test('api.example.com')).toBe(true)
    expect(parseHostPattern('http://h.test').port).toBe('80')
    expect(parseHostPattern('http://h.test:*').port).toBeUndefined()
  })

  test('dots are literal, not "any character"', () => {
    expect(matchesHost(['https://api.example.com'], 'https://apixexample.com/')).toBe(false)
  })

  test('an IPv6 literal is an origin', () => {
    expect(matchesHost(['http://[::1]:8080'], 'http://[::1]:8080/v1')).toBe(true)
    expect(matchesHost(['http://[::1]:8080'], 'http://[::2]:8080/v1')).toBe(false)
  })

  test('surrounding spaces are ignored', () => {
    expect(matchesHost([' https://api.example.com '], 'https://api.example.com/')).toBe(true)
  })

  test.each(['https://*', 'https://**', 'ftp://files.example.com', 'https://', 'https://a.example.com/v1/*', 'https://h.test:123456', 42])(
    '%j is refused',
    (pattern) => {
      expect(() => parseHostPattern(pattern as string)).toThrow(TypeError)
      expect(() => parseHostPattern(pattern as string)).toThrow(`Failed to configure replay hosts: ${JSON.stringify(pattern)} is not a URL origin.`)
    },
  )

  test('a pattern is parsed once and then reused', () => {
    expect(parseHostPattern('https://cache.example.com')).toBe(parseHostPattern('https://cache.example.com'))
  })
})

describe('matchesHost', () => {
  test('compares the hostname case-insensitively and the explicit or default port', () => {
    expect(matchesHost(['https://api.example.com'], url('https://API.EXAMPLE.com/v1'))).toBe(true)
    expect(matchesHost(['http://h.test'], 'http://h.test:80/')).toBe(true)
    expect(matchesHost(['http://h.test'], 'http://h.test:8080/')).toBe(false)
    expect(matchesHost(['http://h.test:8080'], 'http://h.test/')).toBe(false)
  })

  test('true when any pattern matches, false for none', () => {
    expect(matchesHost(['https://a.test', 'https://b.test'], 'https://b.test/')).toBe(true)
    expect(matchesHost([], 'https://b.test/')).toBe(false)
  })
})

describe('isLoopback', () => {
  test('127.0.0.0/8 as four numbers only', () => {
    expect(isLoopback('http://127.255.255.254/')).toBe(true)
    expect(isLoopback(url('http://LOCALHOST:1/'))).toBe(true)
    expect(isLoopback('http://127.0.0.1.example.com/')).toBe(false)
    expect(isLoopback('http://128.0.0.1/')).toBe(false)
    expect(isLoopback('http://[::2]/')).toBe(false)
  })
})

describe('isPlaceholderKey', () => {
  test('null and undefined are no key at all', () => {
    expect(isPlaceholderKey(null)).toBe(true)
    expect(isPlaceholderKey(undefined)).toBe(true)
  })

  test.each([
    '  dummy  ',
    '***',
    '...',
    '---',
    'sk-xxxx',
    'sk-test',
    'API_KEY',
    'your_key_here',
    '{{OPENAI_API_KEY}}',
    'changeme',
    'my-no-key',
    'tests_without_a_key',
    'ci-replay-only',
    'not-a-real-key-123',
  ])('%j is a placeholder', (key) => {
    expect(isPlaceholderKey(key)).toBe(true)
  })

  test.each(['testkey123456', 'monkey', 'keyboard-cat-secret-0123', 'abc-placeholderish', ['sk', 'live', '0123456789abcdef'].join('-')])(
    '%j is not a placeholder',
    (key) => {
      expect(isPlaceholderKey(key)).toBe(false)
    },
  )
})

describe('library hosts', () => {
  // The registry is process-wide: keep what other test files registered.
  let saved: string[] = []
  beforeEach(() => {
    saved = libraryHosts()
    clearLibraryHosts()
  })
  afterEach(() => {
    clearLibraryHosts()
    for (const origin of saved) registerLibraryHost(origin)
  })

  test('the origin of each registered base URL, once, in registration order', () => {
    registerLibraryHost('http://127.0.0.1:4010/v1')
    registerLibraryHost('https://judge.example.com/openai/v1')
    registerLibraryHost('http://127.0.0.1:4010/other')
    expect(libraryHosts()).toEqual(['http://127.0.0.1:4010', 'https://judge.example.com'])
  })

  test('no base URL, or one that is not a URL, registers nothing', () => {
    registerLibraryHost(undefined)
    registerLibraryHost('')
    registerLibraryHost('not a url')
    expect(libraryHosts()).toEqual([])
  })

  test('clearLibraryHosts forgets them', () => {
    registerLibraryHost('https://judge.example.com')
    clearLibraryHosts()
    expect(libraryHosts()).toEqual([])
  })
})

describe('hosts at their edges', () => {
  test('a pattern must start with the scheme; a path after the origin is accepted and ignored', () => {
    expect(() => parseHostPattern('xhttps://a.example.com')).toThrow(
      `[expect-llm] Failed to configure replay hosts: "xhttps://a.example.com" is not a URL origin. Pass origins such as 'http://127.0.0.1:11434', 'https://my-resource.openai.azure.com' or 'https://*.example.com' (a path is ignored).`,
    )
    expect(matchesHost(['https://api.example.com/v1/chat'], 'https://api.example.com/other')).toBe(true)
  })

  test('the scheme must match even on the same port; a "*" port matches any port', () => {
    expect(matchesHost(['https://h.test:8080'], 'http://h.test:8080/')).toBe(false)
    expect(matchesHost(['http://127.0.0.1:*'], 'http://127.0.0.1:5173/v1')).toBe(true)
  })

  test('subdomains of localhost and [::1] are loopback', () => {
    expect(isLoopback('http://api.localhost:3000/')).toBe(true)
    expect(isLoopback('http://[::1]:9/')).toBe(true)
  })

  test('only a leading scheme is taken off the authorization header', () => {
    expect(requestCredential(new Headers({ authorization: 'Custom Bearer abc' }), url('https://x.test/'))).toBe('Custom Bearer abc')
  })

  test('no library host was ever registered in the process: none', () => {
    const saved = peekProcessSlot<Set<string>>('replay-library-hosts')
    setProcessSlot('replay-library-hosts', undefined)
    try {
      expect(libraryHosts()).toEqual([])
      clearLibraryHosts() // nothing to clear: no error
    } finally {
      setProcessSlot('replay-library-hosts', saved)
    }
  })
})
