// The pure steps of the escape watcher (src/replay/escapes.ts): what to do with each request undici creates.
import { beforeEach, describe, expect, test } from 'vitest'
import { setProcessSlot } from '../../src/process-state.js'
import { classifyCreated, connectionError, expectOwnRequest, requestKey } from '../../src/replay/escapes.js'

// The engine's announced requests are process-wide: a recording test run before this file in the same worker
// (the mutation run's shared module graph) can leave one behind, which the next classifyCreated would take.
beforeEach(() => setProcessSlot('replay-own-requests', undefined))

const openai = { method: 'POST', origin: 'https://api.openai.com', path: '/v1/chat/completions' }
const replayHost = { relevant: (url: URL) => url.hostname === 'api.openai.com' }

describe('classifyCreated', () => {
  test('a request to a replay host is tracked under its key', () => {
    expect(classifyCreated(openai, replayHost)).toEqual({ kind: 'track', key: 'POST https://api.openai.com/v1/chat/completions' })
  })

  test('without msw (immediate) it is reported at once', () => {
    expect(classifyCreated(openai, { ...replayHost, immediate: true })).toEqual({
      kind: 'escape',
      request: { method: 'POST', url: 'https://api.openai.com/v1/chat/completions' },
    })
  })

  test('live requests are watched; other hosts and unreadable URLs are ignored', () => {
    expect(classifyCreated(openai, { ...replayHost, live: () => true })).toEqual({ kind: 'live' })
    expect(classifyCreated({ method: 'GET', origin: 'https://example.com', path: '/' }, replayHost)).toEqual({ kind: 'ignore' })
    expect(classifyCreated({ method: 'GET', origin: 'not a url', path: '/' }, replayHost)).toEqual({ kind: 'ignore' })
  })

  test('msw passthrough requests are ignored, as is each announced request of the engine, once', () => {
    expect(classifyCreated({ ...openai, headers: ['x-msw-intention', 'msw/passthrough'] }, replayHost)).toEqual({ kind: 'ignore' })
    expectOwnRequest('post', 'https://api.openai.com/v1/chat/completions')
    expect(classifyCreated(openai, replayHost)).toEqual({ kind: 'ignore' })
    expect(classifyCreated(openai, replayHost)).toMatchObject({ kind: 'track' })
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
