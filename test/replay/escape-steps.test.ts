// The pure steps of the escape watcher (src/replay/escapes.ts): what to do with each request undici creates.
import { describe, expect, test } from 'vitest'
import { classifyCreated, connectionError, expectOwnRequest, requestKey } from '../../src/replay/escapes.js'

// A path no other test sends to: the engine's announcements of its own requests are process-wide, and a test
// file that ran earlier in the same process (Stryker's runs share one) may have left one for a common path.
const openai = { method: 'POST', origin: 'https://api.openai.com', path: '/v1/escape-steps/chat/completions' }
const replayHost = { relevant: (url: URL) => url.hostname === 'api.openai.com' }

describe('classifyCreated', () => {
  test('a request to a replay host is tracked under its key', () => {
    expect(classifyCreated(openai, replayHost)).toEqual({ kind: 'track', key: 'POST https://api.openai.com/v1/escape-steps/chat/completions' })
  })

  test('without msw (immediate) it is reported at once', () => {
    expect(classifyCreated(openai, { ...replayHost, immediate: true })).toEqual({
      kind: 'escape',
      request: { method: 'POST', url: 'https://api.openai.com/v1/escape-steps/chat/completions' },
    })
  })

  test('live requests are watched; other hosts and unreadable URLs are ignored', () => {
    expect(classifyCreated(openai, { ...replayHost, live: () => true })).toEqual({ kind: 'live' })
    expect(classifyCreated({ method: 'GET', origin: 'https://example.com', path: '/' }, replayHost)).toEqual({ kind: 'ignore' })
    expect(classifyCreated({ method: 'GET', origin: 'not a url', path: '/' }, replayHost)).toEqual({ kind: 'ignore' })
  })

  test('msw passthrough requests are ignored, as is each announced request of the engine, once', () => {
    expect(classifyCreated({ ...openai, headers: ['x-msw-intention', 'msw/passthrough'] }, replayHost)).toEqual({ kind: 'ignore' })
    expectOwnRequest('post', 'https://api.openai.com/v1/escape-steps/chat/completions')
    expect(classifyCreated(openai, replayHost)).toEqual({ kind: 'ignore' })
    expect(classifyCreated(openai, replayHost)).toMatchObject({ kind: 'track' })
  })

  test('an announcement withdrawn before its request was created no longer hides a request to that address', () => {
    const url = 'https://api.openai.com/v1/escape-steps/withdrawn'
    const withdraw = expectOwnRequest('POST', url)
    withdraw()
    expect(classifyCreated({ ...openai, path: '/v1/escape-steps/withdrawn' }, replayHost)).toEqual({ kind: 'track', key: `POST ${url}` })
  })

  test('two announcements to one address: each created request takes one; a withdrawal after that takes nothing more', () => {
    const request = { ...openai, path: '/v1/escape-steps/twice' }
    const first = expectOwnRequest('POST', 'https://api.openai.com/v1/escape-steps/twice')
    const second = expectOwnRequest('POST', 'https://api.openai.com/v1/escape-steps/twice')
    expect(classifyCreated(request, replayHost)).toEqual({ kind: 'ignore' })
    first()
    // The second announcement still covers the second request, whichever withdrawal came first.
    expect(classifyCreated(request, replayHost)).toEqual({ kind: 'ignore' })
    second()
    expect(classifyCreated(request, replayHost)).toMatchObject({ kind: 'track' })
  })

  test('two announcements to one address, one withdrawn before any request was created: only one request is hidden', () => {
    const request = { ...openai, path: '/v1/escape-steps/withdrawn-first' }
    const first = expectOwnRequest('POST', 'https://api.openai.com/v1/escape-steps/withdrawn-first')
    expectOwnRequest('POST', 'https://api.openai.com/v1/escape-steps/withdrawn-first')
    first()
    expect(classifyCreated(request, replayHost)).toEqual({ kind: 'ignore' })
    expect(classifyCreated(request, replayHost)).toMatchObject({ kind: 'track' })
  })
})

test('requestKey upper-cases the method and defaults to GET', () => {
  expect(requestKey('post', new URL('https://h/x?y=1'))).toBe('POST https://h/x?y=1')
  expect(requestKey(undefined, new URL('https://h/'))).toBe('GET https://h/')
})

test('connectionError prefers the cause', () => {
  expect(connectionError({ message: 'fetch failed', cause: { message: 'ECONNREFUSED' } })).toBe('ECONNREFUSED')
  expect(connectionError({ message: 'fetch failed' })).toBe('fetch failed')
  expect(connectionError(undefined)).toBeUndefined()
})
