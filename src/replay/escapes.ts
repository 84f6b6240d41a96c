/**
 * Requests that bypass interception. A client that captured `fetch` before MSW started (an `OpenAI`
 * client built in a setup file that ran before replay, or before `server.listen()`) sends its requests
 * straight to the network, and MSW never sees them. Node's built-in fetch (undici) reports every request
 * on `diagnostics_channel`; comparing those with the requests MSW saw finds the ones that escaped.
 *
 * - msw 3 intercepts at the socket level: every fetch creates an undici request, and MSW's `request:start`
 *   follows for the ones it intercepts. One with no `request:start` by the time its response (or its
 *   connection error) arrives went to the network.
 * - msw 2 replaces `fetch`: an intercepted request never reaches undici, so every undici request to a
 *   replay host escaped, except the engine's own upstream calls while recording, which it announces with
 *   {@link expectOwnRequest}.
 * @packageDocumentation
 */
import diagnostics from 'node:diagnostics_channel'
import { processSlot } from '../process-state.js'

/** A request that reached (or tried to reach) the network without MSW seeing it. */
export interface EscapedRequest {
  method: string
  url: string
  /** The connection error, when it failed to connect. */
  error?: string
}

/** What the watcher reports to. */
export interface EscapeWatcherOptions {
  /** `true` for requests that replay should have handled (a replay host, in a mode that is not `live`). */
  relevant(url: URL): boolean
  /** Called once per escaped request, when its response headers (or its connection error) arrive. */
  onEscape(request: EscapedRequest): void
  /** Without msw: report at creation, before anything is sent (no `request:start` can come). */
  immediate?: boolean
  /** `true` for requests that go to the network on purpose (`live` mode), whose connection failures are reported. */
  live?(url: URL): boolean
  /** Called when a {@link EscapeWatcherOptions.live} request fails to connect. */
  onLiveFailure?(request: Required<EscapedRequest>): void
}

/** A running watcher. */
export interface EscapeWatcher {
  /** Tells the watcher that MSW saw `request` (call it from `server.events.on('request:start')`). */
  requestSeen(request: Request): void
  /** Settles when every request that finished has been judged (reported or not). */
  idle(): Promise<void>
  /** Stops watching. */
  close(): void
}

interface UndiciRequest {
  origin?: string | URL
  path?: string
  method?: string
  headers?: unknown
}

/** The engine's own upstream requests (recording), announced before they are sent: `METHOD url` → count. */
function ownRequests(): Map<string, number> {
  return processSlot('replay-own-requests', () => new Map<string, number>())
}

/** Announces a request the engine itself is about to send (recording), so it is not reported as escaped. */
export function expectOwnRequest(method: string, url: string): void {
  const key = `${method.toUpperCase()} ${url}`
  ownRequests().set(key, (ownRequests().get(key) ?? 0) + 1)
}

function takeOwn(key: string): boolean {
  const own = ownRequests()
  const n = own.get(key) ?? 0
  if (n === 0) return false
  if (n === 1) own.delete(key)
  else own.set(key, n - 1)
  return true
}

function urlOf(request: UndiciRequest): URL | undefined {
  try {
    return new URL(request.path ?? '/', String(request.origin))
  } catch {
    return undefined
  }
}

/** `true` when undici's request headers (an array of alternating names and values, or a string) carry msw's bypass marker. */
function isBypass(headers: unknown): boolean {
  const text = Array.isArray(headers) ? headers.map(String).join('\n') : String(headers ?? '')
  return text.includes('msw/passthrough')
}

/**
 * Starts watching undici's requests. Returns a watcher whose {@link EscapeWatcher.requestSeen} must be fed
 * MSW's `request:start` events (not needed with `immediate`).
 */
export function watchEscapes(options: EscapeWatcherOptions): EscapeWatcher {
  const pending = new Map<string, UndiciRequest[]>()
  const tracked = new WeakMap<UndiciRequest, string>()
  const live = new WeakSet<UndiciRequest>()
  const remove = (request: UndiciRequest, key: string): void => {
    const list = pending.get(key)
    const i = list?.indexOf(request) ?? -1
    if (list && i >= 0) list.splice(i, 1)
    if (list?.length === 0) pending.delete(key)
  }
  const onCreate = (message: unknown): void => {
    const request = (message as { request?: UndiciRequest }).request
    if (!request) return
    const url = urlOf(request)
    if (!url) return
    if (options.live?.(url)) {
      live.add(request)
      return
    }
    if (!options.relevant(url)) return
    const key = `${(request.method ?? 'GET').toUpperCase()} ${url.href}`
    if (takeOwn(key) || isBypass(request.headers)) return
    if (options.immediate) {
      options.onEscape({ method: request.method ?? 'GET', url: url.href })
      return
    }
    tracked.set(request, key)
    pending.set(key, [...(pending.get(key) ?? []), request])
  }
  const deciding = new Set<Promise<void>>()
  const onSettled = (message: unknown): void => {
    const { request, error } = message as { request?: UndiciRequest; error?: { message?: string; cause?: { message?: string } } }
    if (!request) return
    if (live.has(request)) {
      live.delete(request)
      const url = urlOf(request)
      if (error && url) options.onLiveFailure?.({ method: request.method ?? 'GET', url: url.href, error: error.cause?.message ?? error.message ?? 'connection failed' })
      return
    }
    const key = tracked.get(request)
    if (key === undefined) return
    // MSW may announce a request it intercepted a little after its response starts (msw 3 emits its events
    // asynchronously), and identical concurrent requests cannot be told apart: decide a moment later, by
    // count. Each `request:start` takes the oldest pending request of its key; whatever remains escaped.
    const decision = new Promise<void>((resolve) => setTimeout(resolve, 25).unref?.()).then(() => {
      deciding.delete(decision)
      if (tracked.get(request) !== key) return
      tracked.delete(request)
      remove(request, key)
      const url = urlOf(request)
      if (!url) return
      const reason = error ? (error.cause?.message ?? error.message) : undefined
      options.onEscape({ method: request.method ?? 'GET', url: url.href, ...(reason ? { error: reason } : {}) })
    })
    deciding.add(decision)
  }
  const channels: Array<[string, (message: unknown) => void]> = [
    ['undici:request:create', onCreate],
    ['undici:request:headers', onSettled],
    ['undici:request:error', onSettled],
  ]
  for (const [name, fn] of channels) diagnostics.subscribe(name, fn)
  return {
    requestSeen(request: Request) {
      const key = `${request.method.toUpperCase()} ${new URL(request.url).href}`
      const list = pending.get(key)
      const first = list?.[0]
      if (!first) return
      tracked.delete(first)
      remove(first, key)
    },
    async idle() {
      while (deciding.size > 0) await Promise.all([...deciding])
    },
    close() {
      for (const [name, fn] of channels) diagnostics.unsubscribe(name, fn)
    },
  }
}
