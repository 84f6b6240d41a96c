// The escape watcher (src/replay/escapes.ts watchEscapes), fed undici's diagnostics messages directly: a
// request to a replay host that MSW never saw is reported once its response (or connection error) arrives;
// one MSW saw is not; live requests report connection failures. The host is one no real request goes to.
import diagnostics from 'node:diagnostics_channel'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { peekProcessSlot } from '../../src/process-state.js'
import { expectOwnRequest, watchEscapes, type EscapeWatcher, type EscapeWatcherOptions, type UndiciRequest } from '../../src/replay/escapes.js'

const ORIGIN = 'https://escape-watch.invalid'
const relevant = (url: URL) => url.origin === ORIGIN
const create = (request: UndiciRequest) => diagnostics.channel('undici:request:create').publish({ request })
const headers = (request: UndiciRequest) => diagnostics.channel('undici:request:headers').publish({ request, response: {} })
const failed = (request: UndiciRequest, error: unknown) => diagnostics.channel('undici:request:error').publish({ request, error })
const undiciRequest = (path = '/v1/chat/completions', method = 'POST'): UndiciRequest => ({ origin: ORIGIN, path, method, headers: [] })

let watcher: EscapeWatcher | undefined
afterEach(() => {
  watcher?.close()
  watcher = undefined
})

function watch(extra: Partial<EscapeWatcherOptions> = {}) {
  const onEscape = vi.fn()
  const onLiveFailure = vi.fn()
  watcher = watchEscapes({ relevant, onEscape, onLiveFailure, ...extra })
  return { onEscape, onLiveFailure, watcher }
}

describe('watchEscapes', () => {
  test('a request MSW never saw is reported when its response starts', async () => {
    const { onEscape, watcher } = watch()
    const request = undiciRequest()
    create(request)
    headers(request)
    expect(onEscape).not.toHaveBeenCalled() // decided a moment later, after MSW's own events
    await watcher.idle()
    expect(onEscape.mock.calls).toEqual([[{ method: 'POST', url: `${ORIGIN}/v1/chat/completions` }]])
  })

  test('a request MSW saw is not reported', async () => {
    const { onEscape, watcher } = watch()
    const request = undiciRequest()
    create(request)
    watcher.requestSeen(new Request(`${ORIGIN}/v1/chat/completions`, { method: 'POST' }))
    headers(request)
    await watcher.idle()
    expect(onEscape).not.toHaveBeenCalled()
  })

  test('MSW announcing the request just after its response starts still counts', async () => {
    const { onEscape, watcher } = watch()
    const request = undiciRequest()
    create(request)
    headers(request)
    watcher.requestSeen(new Request(`${ORIGIN}/v1/chat/completions`, { method: 'POST' }))
    await watcher.idle()
    expect(onEscape).not.toHaveBeenCalled()
  })

  test('identical concurrent requests are matched by count: one seen of two, one reported', async () => {
    const { onEscape, watcher } = watch()
    const a = undiciRequest()
    const b = undiciRequest()
    create(a)
    create(b)
    watcher.requestSeen(new Request(`${ORIGIN}/v1/chat/completions`, { method: 'POST' }))
    headers(a)
    headers(b)
    await watcher.idle()
    expect(onEscape).toHaveBeenCalledTimes(1)
  })

  test('a connection error is reported with its cause', async () => {
    const { onEscape, watcher } = watch()
    const request = undiciRequest('/v1/models', 'GET')
    create(request)
    failed(request, { message: 'fetch failed', cause: { message: 'getaddrinfo ENOTFOUND escape-watch.invalid' } })
    await watcher.idle()
    expect(onEscape.mock.calls).toEqual([[{ method: 'GET', url: `${ORIGIN}/v1/models`, error: 'getaddrinfo ENOTFOUND escape-watch.invalid' }]])
  })

  test('a request without a method is a GET; one with no path is the root', async () => {
    const { onEscape, watcher } = watch()
    const request: UndiciRequest = { origin: ORIGIN }
    create(request)
    headers(request)
    await watcher.idle()
    expect(onEscape.mock.calls).toEqual([[{ method: 'GET', url: `${ORIGIN}/` }]])
  })

  test('requests to other hosts, and messages without a request, are ignored', async () => {
    const { onEscape, watcher } = watch()
    const other: UndiciRequest = { origin: 'https://other.invalid', path: '/', method: 'GET' }
    create(other)
    headers(other)
    diagnostics.channel('undici:request:create').publish({})
    diagnostics.channel('undici:request:headers').publish({})
    await watcher.idle()
    expect(onEscape).not.toHaveBeenCalled()
  })

  test('immediate: reported when created, before anything is sent (a GET when no method is given)', () => {
    const { onEscape } = watch({ immediate: true })
    create(undiciRequest())
    create({ origin: ORIGIN, path: '/v1/models' })
    expect(onEscape.mock.calls).toEqual([[{ method: 'POST', url: `${ORIGIN}/v1/chat/completions` }], [{ method: 'GET', url: `${ORIGIN}/v1/models` }]])
  })

  test('the engine announcing the same request twice covers two requests, not three', async () => {
    const { onEscape, watcher } = watch()
    expectOwnRequest('POST', `${ORIGIN}/v1/own`)
    expectOwnRequest('POST', `${ORIGIN}/v1/own`)
    const requests = [undiciRequest('/v1/own'), undiciRequest('/v1/own'), undiciRequest('/v1/own')]
    for (const r of requests) create(r)
    for (const r of requests) headers(r)
    await watcher.idle()
    expect(onEscape).toHaveBeenCalledTimes(1)
  })

  test('live requests: a connection failure is reported with the host, a response is not', async () => {
    const { onEscape, onLiveFailure, watcher } = watch({ live: relevant })
    const ok = undiciRequest()
    create(ok)
    headers(ok)
    const broken = undiciRequest('/v1/embeddings')
    create(broken)
    failed(broken, { message: 'fetch failed', cause: { message: 'connect ECONNREFUSED 127.0.0.1:2' } })
    const noReason = undiciRequest('/v1/responses', 'GET')
    create(noReason)
    failed(noReason, {})
    await watcher.idle()
    expect(onLiveFailure.mock.calls).toEqual([
      [{ method: 'POST', url: `${ORIGIN}/v1/embeddings`, error: 'connect ECONNREFUSED 127.0.0.1:2' }],
      [{ method: 'GET', url: `${ORIGIN}/v1/responses`, error: 'connection failed' }],
    ])
    expect(onEscape).not.toHaveBeenCalled()
  })

  test('a live request without a method that fails is reported as a GET', async () => {
    const { onLiveFailure, watcher } = watch({ live: relevant })
    const request: UndiciRequest = { origin: ORIGIN, path: '/v1/models', headers: [] }
    create(request)
    failed(request, { message: 'fetch failed' })
    await watcher.idle()
    expect(onLiveFailure.mock.calls).toEqual([[{ method: 'GET', url: `${ORIGIN}/v1/models`, error: 'fetch failed' }]])
  })

  test('after close, nothing is reported', async () => {
    const { onEscape, watcher } = watch()
    watcher.close()
    const request = undiciRequest()
    create(request)
    headers(request)
    await watcher.idle()
    expect(onEscape).not.toHaveBeenCalled()
  })
})

describe('watchEscapes: addresses, headers and the pending list', () => {
  test('a request with no path is the root, even when its origin carries a path', async () => {
    const { onEscape, watcher } = watch()
    const request: UndiciRequest = { origin: `${ORIGIN}/base/`, method: 'GET' }
    create(request)
    headers(request)
    await watcher.idle()
    expect(onEscape.mock.calls).toEqual([[{ method: 'GET', url: `${ORIGIN}/` }]])
  })

  test("msw's passthrough marker in headers given as one string (older undici) is not an escape", async () => {
    const { onEscape, watcher } = watch()
    const request: UndiciRequest = { ...undiciRequest('/v1/passthrough'), headers: 'accept: application/json, msw/passthrough\r\n' }
    create(request)
    headers(request)
    await watcher.idle()
    expect(onEscape).not.toHaveBeenCalled()
  })

  test('a create message without a request raises no error', async () => {
    watch()
    const uncaught: unknown[] = []
    process.setUncaughtExceptionCaptureCallback((error) => uncaught.push(error))
    try {
      diagnostics.channel('undici:request:create').publish({})
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.setUncaughtExceptionCaptureCallback(null)
    }
    expect(uncaught).toEqual([])
  })

  test("a created request takes the engine's announcement and leaves no entry for its address", () => {
    watch()
    expectOwnRequest('POST', `${ORIGIN}/v1/taken`)
    create(undiciRequest('/v1/taken'))
    expect(peekProcessSlot<Map<string, object[]>>('replay-own-requests')?.has(`POST ${ORIGIN}/v1/taken`)).toBe(false)
  })

  test('MSW seeing a request to another address does not take a pending one', async () => {
    const { onEscape, watcher } = watch()
    const request = undiciRequest('/v1/pending')
    create(request)
    watcher.requestSeen(new Request(`${ORIGIN}/v1/other`, { method: 'POST' }))
    headers(request)
    await watcher.idle()
    expect(onEscape.mock.calls).toEqual([[{ method: 'POST', url: `${ORIGIN}/v1/pending` }]])
  })

  test('a request judged before an older identical one no longer counts: later requests are still matched by count', async () => {
    const { onEscape, watcher } = watch()
    const seen = () => watcher.requestSeen(new Request(`${ORIGIN}/v1/same`, { method: 'POST' }))
    const [a, b, c] = [undiciRequest('/v1/same'), undiciRequest('/v1/same'), undiciRequest('/v1/same')]
    create(a)
    create(b)
    headers(b) // the newer one escaped and is judged first
    await watcher.idle()
    seen() // MSW saw a
    create(c)
    seen() // and c
    headers(a)
    headers(c)
    await watcher.idle()
    expect(onEscape.mock.calls).toEqual([[{ method: 'POST', url: `${ORIGIN}/v1/same` }]])
  })
})

describe('watchEscapes: what each settled request leaves behind', () => {
  /** Captures the errors a diagnostics subscriber throws (the channel rethrows them on the next tick). */
  async function uncaughtOf(run: () => void): Promise<unknown[]> {
    const uncaught: unknown[] = []
    process.setUncaughtExceptionCaptureCallback((error) => uncaught.push(error))
    try {
      run()
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.setUncaughtExceptionCaptureCallback(null)
    }
    return uncaught
  }

  test('a live request is judged once: an error after its response started is no connection failure', async () => {
    const { onLiveFailure, watcher } = watch({ live: relevant })
    const request = undiciRequest('/v1/stream')
    create(request)
    headers(request)
    failed(request, { message: 'terminated', cause: { message: 'other side closed' } }) // the body broke off
    await watcher.idle()
    expect(onLiveFailure).not.toHaveBeenCalled()
  })

  test('a live request that fails to connect, watched without onLiveFailure, raises no error', async () => {
    watcher = watchEscapes({ relevant, onEscape: vi.fn(), live: relevant })
    const request = undiciRequest()
    const uncaught = await uncaughtOf(() => {
      create(request)
      failed(request, { message: 'fetch failed', cause: { message: 'connect ECONNREFUSED 127.0.0.1:2' } })
    })
    expect(uncaught).toEqual([])
  })

  test('a tracked request whose address no longer parses when judged is not reported, and idle still settles', async () => {
    const { onEscape, watcher } = watch()
    const request = undiciRequest()
    create(request)
    request.origin = 'not a url'
    headers(request)
    await watcher.idle()
    expect(onEscape).not.toHaveBeenCalled()
  })

  test('a request to another host is not held on to: it can be garbage collected', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    watch()
    const ref = (() => {
      const other: UndiciRequest = { origin: 'https://other.invalid', path: '/', method: 'GET' }
      create(other)
      return new WeakRef(other)
    })()
    await new Promise((resolve) => setImmediate(resolve)) // a WeakRef keeps its target until the current job ends
    gc()
    expect(ref.deref()).toBeUndefined()
  })
})
