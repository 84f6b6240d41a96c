// The process-wide replay session (src/replay/session.ts) as model clients see it: whether replay records or
// replays an origin. The session is set and restored around each test (the setup file's may be active).
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { ReplayEngine } from '../../src/replay/engine.js'
import { getReplaySession, replayHandlesOrigin, setReplaySession, type ReplaySession } from '../../src/replay/session.js'
import type { ReplayOptions } from '../../src/replay/types.js'

let saved: ReplaySession | undefined
beforeEach(() => {
  saved = getReplaySession()
  vi.stubEnv('EXPECT_LLM_REPLAY', '')
  vi.stubEnv('CI', '')
})
afterEach(() => {
  setReplaySession(saved)
  vi.unstubAllEnvs()
})

const sessionWith = (options: ReplayOptions): ReplaySession =>
  ({ replay: { engine: new ReplayEngine({ options }) }, server: {}, mswVersion: 'test' }) as unknown as ReplaySession

describe('getReplaySession and setReplaySession', () => {
  test('set, read back, and clear', () => {
    const session = sessionWith({ mode: 'replay' })
    setReplaySession(session)
    expect(getReplaySession()).toBe(session)
    setReplaySession(undefined)
    expect(getReplaySession()).toBeUndefined()
  })
})

describe('replayHandlesOrigin', () => {
  test('no session: false', () => {
    setReplaySession(undefined)
    expect(replayHandlesOrigin('https://api.openai.com')).toBe(false)
  })

  test('a replay host in replay or record mode: true; another host: false', () => {
    setReplaySession(sessionWith({ mode: 'replay', hosts: ['http://127.0.0.1:4010'] }))
    expect(replayHandlesOrigin('https://api.openai.com')).toBe(true)
    expect(replayHandlesOrigin('http://127.0.0.1:4010')).toBe(true)
    expect(replayHandlesOrigin('https://example.com')).toBe(false)
    setReplaySession(sessionWith({ mode: 'record' }))
    expect(replayHandlesOrigin('https://api.openai.com')).toBe(true)
  })

  test('live mode handles nothing', () => {
    setReplaySession(sessionWith({ mode: 'live' }))
    expect(replayHandlesOrigin('https://api.openai.com')).toBe(false)
  })

  test('options that cannot be resolved: false', () => {
    setReplaySession(sessionWith({ mode: 'replay', hosts: ['not an origin'] }))
    expect(replayHandlesOrigin('https://api.openai.com')).toBe(false)
  })
})
