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

/** The part of an undici request the watcher reads. */
export interface UndiciRequest {
  origin?: string | URL
  path?: string
  method?: string
  headers?: unknown
}

/**
 * The engine's own upstream requests (recording), announced before they are sent: `METHOD url` → the pending
 * announcements, oldest first. Each is a ticket of its own, so the request that settles withdraws its own.
 */
function ownRequests(): Map<string, object[]> {
  // Stryker disable next-line StringLiteral: equivalent, any name is one slot per process (the CJS and ESM builds share this line)
  return processSlot('replay-own-requests', () => new Map<string, object[]>())
}

/**
 * Announces a request the engine itself is about to send (recording), so it is not reported as escaped.
 * Returns the withdrawal, to call once that request has settled: an announcement whose request was never
 * created (a fetch that failed before sending) would otherwise stay and hide the next request to that address.
 */
export function expectOwnRequest(method: string, url: string): () => void {
  const key = `${method.toUpperCase()} ${url}`
  const ticket = {}
  ownRequests().set(key, [...(ownRequests().get(key) ?? []), ticket])
  return () => {
    const left = (ownRequests().get(key) ?? []).filter((t) => t !== ticket)
    // Stryker disable next-line ConditionalExpression, EqualityOperator: equivalent, an empty list reads as none (get ?? []): delete only frees the key
    if (left.length > 0) ownRequests().set(key, left)
    else ownRequests().delete(key)
  }
}

function takeOwn(key: string): boolean {
  const [first, ...rest] = ownRequests().get(key) ?? []
  if (first === undefined) return false
  // Stryker disable next-line ConditionalExpression: equivalent when true, an empty list reads as none (get ?? []): delete only frees the key
  if (rest.length > 0) ownRequests().set(key, rest)
  else ownRequests().delete(key)
  return true
}

function urlOf(request: UndiciRequest): URL | null {
  return URL.parse(request.path ?? '/', String(request.origin))
}

/**
 * `true` when undici's request headers (an array of alternating names and values, or a string) carry msw's bypass
 * marker. `String` joins an array with commas, which the marker does not contain, so no two entries can spell it.
 */
function isBypass(headers: unknown): boolean {
  return String(headers).includes('msw/passthrough')
}

/** What to do with a request undici is about to send. */
export type CreatedRequest = { kind: 'live' } | { kind: 'ignore' } | { kind: 'escape'; request: EscapedRequest } | { kind: 'track'; key: string }

/** `METHOD url`: requests with the same key cannot be told apart. */
export function requestKey(method: string | undefined, url: URL): string {
  return `${(method ?? 'GET').toUpperCase()} ${url.href}`
}

/**
 * What to do with a request undici creates: watch a `live` one for connection failures, ignore one replay
 * does not handle (or the engine's own, or msw's passthrough), report one at once (`immediate`), or track
 * it until its response starts. Takes the engine's announcement of its own request when it matches.
 *
 * @example
 * ```ts
 * classifyCreated({ method: 'POST', origin: 'https://api.openai.com', path: '/v1/chat/completions' }, options)
 * // { kind: 'track', key: 'POST https://api.openai.com/v1/chat/completions' }
 * ```
 */
export function classifyCreated(request: UndiciRequest, options: Pick<EscapeWatcherOptions, 'relevant' | 'immediate' | 'live'>): CreatedRequest {
  const url = urlOf(request)
  if (!url) return { kind: 'ignore' }
  if (options.live?.(url)) return { kind: 'live' }
  if (!options.relevant(url)) return { kind: 'ignore' }
  const key = requestKey(request.method, url)
  if (takeOwn(key) || isBypass(request.headers)) return { kind: 'ignore' }
  if (options.immediate) return { kind: 'escape', request: { method: request.method ?? 'GET', url: url.href } }
  return { kind: 'track', key }
}

/** The message of undici's connection error, `undefined` without one. */
export function connectionError(error: { message?: string; cause?: { message?: string } } | undefined): string | undefined {
  return error ? (error.cause?.message ?? error.message) : undefined
}

/** Tracked requests not yet seen by MSW, with their keys, oldest first (a Map keeps the order of insertion). */
class PendingRequests {
  private readonly keys = new Map<UndiciRequest, string>()

  add(request: UndiciRequest, key: string): void {
    this.keys.set(request, key)
  }

  keyOf(request: UndiciRequest): string | undefined {
    return this.keys.get(request)
  }

  /** Forgets the request (it was judged). */
  remove(request: UndiciRequest): void {
    this.keys.delete(request)
  }

  /** Forgets the oldest request of `key`, which MSW saw (identical concurrent requests are matched by count). */
  removeOldest(key: string): void {
    for (const [request, k] of this.keys) {
      if (k === key) {
        this.keys.delete(request)
        return
      }
    }
  }
}

/**
 * Starts watching undici's requests. Returns a watcher whose {@link EscapeWatcher.requestSeen} must be fed
 * MSW's `request:start` events (not needed with `immediate`).
 */
export function watchEscapes(options: EscapeWatcherOptions): EscapeWatcher {
  const pending = new PendingRequests()
  const live = new WeakSet<UndiciRequest>()
  const deciding = new Set<Promise<void>>()
  const onCreate = (message: unknown): void => {
    const request = (message as { request?: UndiciRequest }).request
    if (!request) return
    const created = classifyCreated(request, options)
    if (created.kind === 'live') live.add(request)
    else if (created.kind === 'escape') options.onEscape(created.request)
    else if (created.kind === 'track') pending.add(request, created.key)
  }
  const onSettled = (message: unknown): void => {
    const { request, error } = message as { request?: UndiciRequest; error?: { message?: string; cause?: { message?: string } } }
    // Stryker disable next-line ConditionalExpression: equivalent when false, no request is in live or pending, so it returns below
    if (!request) return
    if (live.has(request)) {
      live.delete(request)
      const url = urlOf(request)
      if (error && url) options.onLiveFailure?.({ method: request.method ?? 'GET', url: url.href, error: connectionError(error) ?? 'connection failed' })
      return
    }
    const key = pending.keyOf(request)
    if (key === undefined) return
    // MSW may announce a request it intercepted a little after its response starts (msw 3 emits its events
    // asynchronously), and identical concurrent requests cannot be told apart: decide a moment later, by
    // count. Each `request:start` takes the oldest pending request of its key; whatever remains escaped.
    // Stryker disable next-line OptionalChaining: equivalent on Node, whose timers (and Vitest's fake ones) always have unref
    const decision = new Promise<void>((resolve) => setTimeout(resolve, 25).unref?.()).then(() => {
      deciding.delete(decision)
      if (pending.keyOf(request) !== key) return
      pending.remove(request)
      const url = urlOf(request)
      if (!url) return
      const reason = connectionError(error)
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
      pending.removeOldest(requestKey(request.method, new URL(request.url)))
    },
    async idle() {
      while (deciding.size > 0) await Promise.all([...deciding])
    },
    close() {
      for (const [name, fn] of channels) diagnostics.unsubscribe(name, fn)
    },
  }
}
