/**
 * Usage and latency of the application's own model calls during a task, read from the replay session:
 * every request the task makes (through any client that replay intercepts) is attributed to the running
 * case through `AsyncLocalStorage`, and its response tells the model, token usage and, on replay, the
 * recorded latency (`x-expect-llm-duration-ms`) and fixture (`x-expect-llm-fixture`, whose meta holds the
 * normalized usage). Judge and embedding calls made by the scorers run outside the task and are not
 * counted here: they are in the ledger.
 *
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { getReplaySession } from '../replay/session.js'
import { sharedMark } from '../process-state.js'
import type { RecordedResponse } from '../replay/types.js'
import { extractModelAndUsage, usageOf } from '../replay/usage.js'

/** One model call of the task. */
export interface CapturedCall {
  /** The model that answered, when known. */
  model?: string
  inputTokens?: number
  outputTokens?: number
  /** Recorded latency of a replayed call. */
  recordedMs?: number
  /** The fixture that answered, relative to the replay root. */
  fixture?: string
}

/** Calls captured during one task run. */
export interface Capture {
  calls: CapturedCall[]
  pending: Array<Promise<void>>
}

const storage = new AsyncLocalStorage<Capture>()
const byRequest = new Map<string, Capture>()
const INSTALLED = sharedMark('golden-capture')
const metaCache = new Map<string, { model: string | null; usage: { inputTokens: number; outputTokens: number } | null }>()

interface EventLike {
  requestId?: string
  request?: Request
  response?: Response
}

type Emitter = { on(event: string, listener: (e: EventLike) => void): void }

/**
 * The model and usage of a fixture served in replay: its meta, or (for recordings made before the
 * provider's usage shape was understood) its response. Cached per file.
 */
export function readFixtureMeta(
  rootDir: string,
  rel: string,
): { model: string | null; usage: { inputTokens: number; outputTokens: number } | null } | undefined {
  const file = join(rootDir, rel)
  const cached = metaCache.get(file)
  if (cached) return cached
  try {
    const fixture = JSON.parse(readFileSync(file, 'utf8')) as {
      meta?: { model?: string | null; usage?: { inputTokens: number; outputTokens: number } | null }
      response?: RecordedResponse
    }
    // Recordings made before a provider's usage shape was understood have none in meta: read the response.
    // Stryker disable next-line ConditionalExpression: equivalent when true, the meta's fields come first below, so reading the response too changes nothing
    const fromResponse = fixture.response && (!fixture.meta?.usage || !fixture.meta.model) ? extractModelAndUsage(fixture.response) : undefined
    const meta = { model: fixture.meta?.model ?? fromResponse?.model ?? null, usage: fixture.meta?.usage ?? fromResponse?.usage ?? null }
    metaCache.set(file, meta)
    return meta
  } catch {
    // Missing, not JSON yet, or being written: no meta.
  }
  return undefined
}

async function readResponse(e: EventLike, rootDir: string | undefined): Promise<CapturedCall> {
  const call: CapturedCall = {}
  const res = e.response
  if (!res) return call
  const fixture = res.headers.get('x-expect-llm-fixture')
  const duration = res.headers.get('x-expect-llm-duration-ms')
  if (duration !== null && Number.isFinite(Number(duration))) call.recordedMs = Number(duration)
  if (fixture) {
    call.fixture = fixture
    // A fixture recorded in this run may still be being written: fall back to the body below.
    const meta = rootDir ? readFixtureMeta(rootDir, fixture) : undefined
    if (meta) {
      if (meta.model) call.model = meta.model
      if (meta.usage) {
        call.inputTokens = meta.usage.inputTokens
        call.outputTokens = meta.usage.outputTokens
      }
      return call
    }
  }
  if (res.headers.get('content-type')?.includes('json')) {
    try {
      const { model, usage } = usageOf(await res.clone().json())
      if (model) call.model = model
      // Stryker disable next-line ConditionalExpression: equivalent when true, a null usage throws just below, and the catch keeps the call
      if (usage) {
        call.inputTokens = usage.inputTokens
        call.outputTokens = usage.outputTokens
      }
    } catch {
      // body already consumed or not JSON: usage unknown
    }
  }
  return call
}

/** Subscribes to the replay session's MSW life-cycle events once per session. `false` when there is no session. */
function install(): boolean {
  const session = getReplaySession()
  if (!session) return false
  const server = session.server as typeof session.server & { events?: Emitter; [INSTALLED]?: boolean }
  if (server[INSTALLED]) return true
  if (!server.events || typeof server.events.on !== 'function') return false
  server[INSTALLED] = true
  let rootDir: string | undefined
  try {
    rootDir = session.replay.engine.resolve().layout.rootDir
  } catch {
    // No replay configuration resolves: fixtures are not read, usage comes from the response bodies.
  }
  server.events.on('request:start', (e) => {
    const capture = storage.getStore()
    // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, an entry without capture or id is never read (onResponse skips it)
    if (!capture || !e.requestId) return
    // In record mode the engine fetches the real response with msw's bypass(): that inner request is the
    // same model call, already counted through the outer one.
    const headers = e.request?.headers
    if (headers?.get('accept')?.includes('msw/passthrough') || headers?.get('x-msw-intention') === 'bypass') return
    byRequest.set(e.requestId, capture)
  })
  const onResponse = (e: EventLike) => {
    // Stryker disable next-line ConditionalExpression: equivalent when false, no entry is stored without an id: the lookup finds none
    if (!e.requestId) return
    const capture = byRequest.get(e.requestId)
    if (!capture) return
    byRequest.delete(e.requestId)
    capture.pending.push(readResponse(e, rootDir).then((call) => void capture.calls.push(call)))
  }
  server.events.on('response:mocked', onResponse)
  server.events.on('response:bypass', onResponse)
  return true
}

/**
 * Runs `fn` (a task) with its model calls captured. Returns what it returned and the calls, once their
 * responses have been read.
 */
export async function withCapture<T>(fn: () => Promise<T>): Promise<{ value: T; calls: CapturedCall[]; intercepted: boolean }> {
  const intercepted = install()
  const capture: Capture = {
    calls: [],
    // Stryker disable next-line ArrayDeclaration: equivalent, Promise.all resolves a value that is not a promise at once
    pending: [],
  }
  const value = await storage.run(capture, fn)
  // Response events are emitted in a microtask after the response is handed over.
  await new Promise<void>((r) => setImmediate(r))
  await Promise.all(capture.pending)
  return { value, calls: capture.calls, intercepted }
}
