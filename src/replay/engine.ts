import { basename, relative, sep } from 'node:path'
import { getConfig } from '../config.js'
import { formatMessage } from '../errors.js'
import { diffHints, diffMaterial, formatDifferences, type KeyDifference } from './diff.js'
import { SCHEMA_VERSION } from './fixture.js'
import { buildKey, modelOf, type RequestKey } from './key.js'
import { ciRefusalMessage, resolveMode, type ResolvedMode } from './mode.js'
import { modelFromPath, providerOf } from './provider.js'
import { scanForSecrets, scanStreamText } from './secrets.js'
import { isEventStream, pullStream, teeEventStream } from './sse.js'
import { FixtureStore, fixtureFileName, folderFor, listFolder, parseFixtureFileName, resolveLayout, type StoreLayout } from './store.js'
import type { Fixture, FixtureSummary, KeyMaterial, RecordedResponse, ReplayMode, ReplayOptions, ReplayProblem } from './types.js'
import { extractModelAndUsage } from './usage.js'

/** The origin every setup intercepts. */
export const DEFAULT_HOSTS = ['https://api.openai.com']

/** The parts of msw the engine uses; identical in msw 2 and msw 3. */
export interface MswApi {
  http: { all: (path: string, resolver: (info: { request: Request }) => unknown) => unknown }
  bypass: (input: Request, init?: RequestInit) => Request
  passthrough: () => Response
}

/** Response headers kept in fixtures (and passed to the app while recording). Everything else is dropped. */
const ALLOWED_RESPONSE_HEADERS = [/^content-type$/, /^x-request-id$/, /^request-id$/, /^openai-processing-ms$/, /^openai-version$/, /^openai-model$/, /^x-ratelimit-/, /^retry-after(?:-ms)?$/, /^x-should-retry$/, /^apim-request-id$/]

/** Keeps only allow-listed response headers (lower-case names). */
export function allowListHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {}
  headers.forEach((value, name) => {
    const n = name.toLowerCase()
    if (ALLOWED_RESPONSE_HEADERS.some((re) => re.test(n))) out[n] = value
  })
  return out
}

/** Known providers whose requests must carry a key, and the variable that holds it. */
function credentialVariable(origin: string): string | undefined {
  if (origin === 'https://api.openai.com') return 'OPENAI_API_KEY'
  if (/\.openai\.azure\.com$/.test(new URL(origin).hostname)) return 'AZURE_OPENAI_API_KEY'
  return undefined
}

function normalizeOrigin(host: string): string {
  try {
    return new URL(host).origin
  } catch {
    throw new TypeError(formatMessage(`Failed to configure replay hosts: ${JSON.stringify(host)} is not a URL origin. Pass origins such as 'http://127.0.0.1:11434' or 'https://my-resource.openai.azure.com'.`))
  }
}

/** Builds a replay response from a recorded one: pull-based body, `x-should-retry: false` on errors. */
export function toResponse(rec: RecordedResponse, timing: 'none' | 'recorded' = 'none', extraHeaders: Record<string, string> = {}): Response {
  const headers = new Headers(rec.headers)
  for (const [k, v] of Object.entries(extraHeaders)) headers.set(k, v)
  if (rec.status >= 400) headers.set('x-should-retry', 'false')
  let body: ReadableStream<Uint8Array> | null = null
  if (rec.sse) body = pullStream(rec.sse, timing === 'recorded' ? rec.chunkOffsetsMs : undefined)
  else if (rec.status >= 400) {
    // Error bodies stay pull-based: under msw 2 a retried error awaits cancel() of its body, which only
    // settles for pull streams (x-should-retry: false prevents the retry, but a user override may not).
    const whole = rec.json !== undefined ? JSON.stringify(rec.json) : rec.text !== undefined ? rec.text : rec.base64 !== undefined ? new Uint8Array(Buffer.from(rec.base64, 'base64')) : undefined
    if (whole !== undefined) body = pullStream([whole])
  }
  let whole: string | Uint8Array | null = null
  if (!body && rec.status < 400) {
    // A complete 2xx body is read to the end by clients, so a plain body is safe in both msw majors and
    // much cheaper than a stream.
    whole = rec.json !== undefined ? JSON.stringify(rec.json) : rec.text !== undefined ? rec.text : rec.base64 !== undefined ? new Uint8Array(Buffer.from(rec.base64, 'base64')) : null
  }
  if ([204, 205, 304].includes(rec.status)) {
    body = null
    whole = null
  }
  // The recorded content-length was dropped (a stale one hangs msw 3); the exact length of the replayed
  // body lets the client read it without chunked framing.
  if (whole !== null) headers.set('content-length', String(typeof whole === 'string' ? Buffer.byteLength(whole) : whole.byteLength))
  return new Response(body ?? whole, { status: rec.status, statusText: rec.statusText ?? '', headers })
}

/** Turns a complete non-SSE body into its stored form. */
function recordBody(bytes: Uint8Array, contentType: string | null): Pick<RecordedResponse, 'json' | 'text' | 'base64'> {
  if (bytes.byteLength === 0) return {}
  const ct = (contentType ?? '').toLowerCase()
  let text: string | undefined
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return { base64: Buffer.from(bytes).toString('base64') }
  }
  if (ct.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      return { json: JSON.parse(text) }
    } catch {
      // fall through to text
    }
  }
  if (ct.startsWith('text/') || ct.includes('xml') || ct.includes('json') || ct === '') return { text }
  return { base64: Buffer.from(bytes).toString('base64') }
}

/** Options plus the defaults that come from the runner. */
export interface EngineContext {
  /** Explicit options (win over `configure({ replay })`). */
  options?: ReplayOptions
  /** The runner, for the record command in messages. */
  runner?: 'vitest' | 'jest'
  /** The runner's current test file, when `options.testPath` is not given. */
  testPath?: () => string | undefined
  /** The runner's current test name, when `options.testName` is not given. */
  testName?: () => string | undefined
}

interface Resolved extends ReplayOptions {
  hosts: string[]
  layout: StoreLayout
  resolvedMode: ResolvedMode
}

interface FileUsage {
  folder: string
  used: Set<string>
  created: Set<string>
}

const globalExpectState = (): { testPath?: string; currentTestName?: string } | undefined => {
  const e = (globalThis as { expect?: { getState?: () => { testPath?: string; currentTestName?: string } } }).expect
  try {
    return e?.getState?.()
  } catch {
    return undefined
  }
}

let ciWarned = false

/** One intercepted request on its way to a fixture or the network, as the engine's steps see it. */
interface Exchange {
  request: Request
  msw: Pick<MswApi, 'bypass' | 'passthrough'>
  opts: Resolved
  key: RequestKey
  /** The fixture file this request maps to in the test file's folder. */
  file: string
  store: FixtureStore
  usage: FileUsage
  testPath: string | undefined
  testName: string | undefined
}

/**
 * The record/replay engine behind `llmReplay()` and `setupReplay()`: turns intercepted requests into
 * fixture hits, recordings or misses, and keeps the problems and fixture usage for the runner hooks.
 *
 * @example
 * ```ts
 * import { ReplayEngine } from 'expect-llm/replay'
 *
 * const engine = new ReplayEngine({ options: { mode: 'replay', hosts: ['http://127.0.0.1:11434'] } })
 * engine.mode() // 'replay' (EXPECT_LLM_REPLAY, when set, wins over the option)
 * engine.takeProblems() // [] until a request misses
 * ```
 */
export class ReplayEngine {
  private readonly stores = new Map<string, FixtureStore>()
  private readonly problemList: ReplayProblem[] = []
  private readonly usage = new Map<string, FileUsage>()
  private readonly pending = new Set<Promise<unknown>>()
  private readonly counters = new Map<string, number>()
  /** Sequence-mode responses recorded in this run, by fixture file, in call order. */
  private readonly sequenceSlots = new Map<string, RecordedResponse[]>()
  private readonly locks = new Map<string, Promise<unknown>>()
  /** Requests handled by the engine (hits, recordings and misses), for diagnostics and tests. */
  handled = 0

  constructor(private readonly ctx: EngineContext = {}) {}

  /** The merged options in effect now (`configure({ replay })` overridden by explicit options). */
  resolve(): Resolved {
    const cfg = getConfig().replay ?? {}
    const explicit = this.ctx.options ?? {}
    const merged: ReplayOptions = { ...cfg, ...explicit }
    const hosts = [...new Set([...DEFAULT_HOSTS, ...(cfg.hosts ?? []), ...(explicit.hosts ?? [])].map(normalizeOrigin))]
    return { ...merged, hosts, layout: resolveLayout(merged.rootDir, merged.dir), resolvedMode: resolveMode(merged.mode) }
  }

  /** The effective mode now. */
  mode(): ReplayMode {
    return this.resolve().resolvedMode.mode
  }

  private store(layout: StoreLayout): FixtureStore {
    const id = `${layout.rootDir}\0${layout.dir ?? ''}`
    let s = this.stores.get(id)
    if (!s) {
      s = new FixtureStore(layout)
      this.stores.set(id, s)
    }
    return s
  }

  private testPath(opts: ReplayOptions): string | undefined {
    return opts.testPath?.() ?? this.ctx.testPath?.() ?? globalExpectState()?.testPath
  }

  private testName(opts: ReplayOptions): string | undefined {
    return opts.testName?.() ?? this.ctx.testName?.() ?? globalExpectState()?.currentTestName
  }

  private fileUsage(layout: StoreLayout, testPath: string | undefined): FileUsage {
    const k = testPath ?? ''
    let u = this.usage.get(k)
    if (!u) {
      u = { folder: folderFor(layout, testPath), used: new Set(), created: new Set() }
      this.usage.set(k, u)
    }
    return u
  }

  private addProblem(problem: ReplayProblem): void {
    this.problemList.push(problem)
  }

  /** Removes and returns the problems recorded so far (for one test file, or all). */
  takeProblems(testPath?: string): ReplayProblem[] {
    const taken: ReplayProblem[] = []
    for (let i = this.problemList.length - 1; i >= 0; i--) {
      const p = this.problemList[i]!
      if (testPath === undefined || p.testPath === testPath || p.testPath === undefined) {
        taken.unshift(p)
        this.problemList.splice(i, 1)
      }
    }
    return taken
  }

  /** Waits until every background recording (streams still being drained) has been written. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending])
  }

  /** Used, new and unused fixtures for one test file (or every file seen). */
  async summary(testPath?: string): Promise<FixtureSummary[]> {
    await this.flush()
    const opts = this.resolve()
    const entries = testPath !== undefined ? [[testPath, this.fileUsage(opts.layout, testPath)] as const] : [...this.usage.entries()]
    const out: FixtureSummary[] = []
    for (const [path, u] of entries) {
      const inFolder = await listFolder(u.folder)
      out.push({
        testPath: path || null,
        folder: u.folder,
        used: [...u.used].sort(),
        created: [...u.created].sort(),
        unused: inFolder.filter((f) => !u.used.has(f) && !u.created.has(f)),
      })
    }
    return out
  }

  /** Resets sequence counters (call between tests). */
  resetSequences(): void {
    this.counters.clear()
  }

  /**
   * Handles one intercepted request. Returns `undefined` for hosts that are not intercepted (msw then
   * treats the request as unhandled), msw's passthrough response in `live` mode, and otherwise a response
   * from a fixture, from the network while recording, or an immediate non-retryable error on a miss.
   */
  async handle(request: Request, msw: Pick<MswApi, 'bypass' | 'passthrough'>): Promise<Response | undefined> {
    const url = new URL(request.url)
    let opts: Resolved
    try {
      opts = this.resolve()
    } catch (error) {
      if (!DEFAULT_HOSTS.includes(url.origin)) return undefined
      return this.fail({ kind: 'record', message: (error as Error).message }, 'expect_llm_replay_config')
    }
    if (!opts.hosts.includes(url.origin)) return undefined
    const { resolvedMode } = opts
    if (resolvedMode.refusedInCi && !ciWarned) {
      ciWarned = true
      console.warn(ciRefusalMessage(resolvedMode.refusedInCi))
    }
    if (resolvedMode.mode === 'live') return msw.passthrough()
    this.handled++
    const testPath = this.testPath(opts)
    const testName = this.testName(opts)
    const store = this.store(opts.layout)
    const usage = this.fileUsage(opts.layout, testPath)
    try {
      const body = new Uint8Array(await request.clone().arrayBuffer())
      const key = buildKey(request.method, url, body, request.headers.get('content-type'), opts)
      const file = `${usage.folder}${sep}${fixtureFileName(key.endpoint, key.hash16)}`
      const mode = resolvedMode.mode
      const exchange: Exchange = { request, msw, opts, key, file, store, usage, testPath, testName }
      if (opts.sequence) return await this.handleSequence(exchange)
      if (mode !== 'rerecord') {
        const found = await store.find(file, key.hash)
        if (found?.fixture.response) {
          usage.used.add(found.file)
          return toResponse(found.fixture.response, opts.replayTiming, { 'x-expect-llm-fixture': store.rel(found.file), 'x-expect-llm-duration-ms': String(found.fixture.meta.durationMs) })
        }
      }
      if (mode === 'replay') {
        const message = await this.missMessage(key, file, store, opts, testPath)
        return this.fail({ kind: 'miss', message, testPath, testName }, 'expect_llm_replay_miss')
      }
      return await this.record(exchange, (response) => ({ response }))
    } catch (error) {
      const isFixture = (error as Error).name === 'FixtureError'
      return this.fail({ kind: isFixture ? 'corrupt' : 'record', message: (error as Error).message, testPath, testName }, isFixture ? 'expect_llm_replay_corrupt_fixture' : 'expect_llm_replay_error')
    }
  }

  private async handleSequence(exchange: Exchange): Promise<Response> {
    const { request, opts, key, file, store, usage, testPath, testName } = exchange
    const counterKey = `${testPath ?? ''}\0${testName ?? ''}\0${key.hash}`
    const index = this.counters.get(counterKey) ?? 0
    this.counters.set(counterKey, index + 1)
    const mode = opts.resolvedMode.mode
    const found = await store.find(file, key.hash)
    const responses = found?.fixture.responses ?? (found?.fixture.response ? [found.fixture.response] : [])
    if (mode !== 'rerecord' && index < responses.length) {
      usage.used.add(found!.file)
      const served = responses[index]!
      return toResponse(served, opts.replayTiming, {
        'x-expect-llm-fixture': store.rel(found!.file),
        'x-expect-llm-duration-ms': String(served.durationMs ?? found!.fixture.meta.durationMs),
      })
    }
    if (mode === 'replay') {
      const message =
        responses.length > 0
          ? formatMessage(
              `Failed to replay ${request.method} ${key.material.path} (sequence mode): ${store.rel(found!.file)} holds ${responses.length} recorded response(s) for this request, but this is call #${index + 1} in the test. Record the extra calls with EXPECT_LLM_REPLAY=record${testPath ? ` ${this.recordCommand(store, testPath)}` : ''}.`,
            )
          : await this.missMessage(key, file, store, opts, testPath)
      return this.fail({ kind: 'miss', message, testPath, testName }, 'expect_llm_replay_miss')
    }
    return this.record(exchange, async (response, durationMs) => {
      // Calls of one sequence may finish recording out of order: keep every recorded call in its slot for
      // the run and write them all each time (writes to one file are serialized), so none is lost.
      let slots = this.sequenceSlots.get(file)
      if (!slots) {
        slots = mode === 'rerecord' ? [] : [...((await store.read(file).catch(() => undefined))?.responses ?? [])]
        this.sequenceSlots.set(file, slots)
      }
      slots[index] = { ...response, durationMs }
      return { responses: slots.filter((r): r is RecordedResponse => r !== undefined) }
    })
  }

  private fail(problem: ReplayProblem, type: string): Response {
    this.addProblem(problem)
    return new Response(pullStream([JSON.stringify({ error: { type, code: type, message: problem.message, param: null } })]), {
      status: 418,
      statusText: "I'm a teapot",
      headers: { 'content-type': 'application/json', 'x-should-retry': 'false' },
    })
  }

  private recordCommand(store: FixtureStore, testPath: string): string {
    const rel = store.rel(testPath)
    if (this.ctx.runner === 'jest') return `npx jest ${rel}`
    return `npx vitest run ${rel}`
  }

  private async record(
    exchange: Exchange,
    shape: (response: RecordedResponse, durationMs: number) => Promise<Pick<Fixture, 'response' | 'responses'>> | Pick<Fixture, 'response' | 'responses'>,
  ): Promise<Response> {
    const { request, msw, opts, key, file, store, usage, testPath, testName } = exchange
    const what = `${request.method} ${key.material.path}`
    const variable = credentialVariable(key.material.origin)
    if (variable && !request.headers.get('authorization') && !request.headers.get('api-key')) {
      return this.fail(
        {
          kind: 'credentials',
          testPath,
          testName,
          message: formatMessage(`Failed to record ${what}: the request carries no API key, so ${key.material.origin} would refuse it. Set ${variable} (or pass apiKey to the client) and run again, or use EXPECT_LLM_REPLAY=replay.`),
        },
        'expect_llm_replay_credentials',
      )
    }
    const started = performance.now()
    let real: Response
    try {
      real = await fetch(msw.bypass(request, { signal: null }))
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message
      return this.fail(
        { kind: 'record', testPath, testName, message: formatMessage(`Failed to record ${what}: the request to ${key.material.origin} failed (${cause}). Check that the server is reachable, then run again.`) },
        'expect_llm_replay_upstream',
      )
    }
    const headers = allowListHeaders(real.headers)
    const base = { status: real.status, statusText: real.statusText, headers }
    const recordable = real.ok || opts.recordErrors === true
    const persist = async (response: RecordedResponse): Promise<void> => {
      const redacted = opts.redact ? (opts.redact({ key: key.material, response }).response ?? response) : response
      const { model, usage: tokens } = extractModelAndUsage(redacted)
      const durationMs = Math.round(performance.now() - started)
      const body = await shape(redacted, durationMs)
      const fixture: Fixture = {
        schemaVersion: SCHEMA_VERSION,
        hash: key.hash,
        key: key.material,
        ...body,
        meta: {
          recordedAt: new Date().toISOString(),
          durationMs,
          endpoint: key.endpoint,
          model: model ?? modelOf(key.material),
          usage: tokens,
          sdkUserAgent: request.headers.get('user-agent'),
          testFile: testPath ? store.rel(testPath) : null,
        },
      }
      const findings = scanForSecrets(fixture)
      for (const [i, r] of (fixture.responses ?? [fixture.response]).entries()) {
        if (r?.sse) findings.push(...scanStreamText(r.sse, fixture.responses ? `/responses/${i}/sse` : '/response/sse'))
      }
      if (findings.length > 0) {
        const list = findings.slice(0, 5).map((f) => `${f.what} at ${f.path}`).join('; ')
        this.addProblem({
          kind: 'secret',
          testPath,
          testName,
          message: formatMessage(
            `Failed to write fixture ${store.rel(file)}: it would contain ${list}. Nothing was written. Keep secrets out of prompts and responses, or strip them with configure({ replay: { redact } }), then record again.`,
          ),
        })
        return
      }
      try {
        await store.write(file, fixture)
        usage.created.add(file)
      } catch (error) {
        this.addProblem({ kind: 'write', testPath, testName, message: formatMessage(`Failed to write fixture ${store.rel(file)}: ${(error as Error).message}. Check that the folder is writable.`) })
      }
    }
    const locked = (fn: () => Promise<void>): Promise<void> => {
      const prev = this.locks.get(file) ?? Promise.resolve()
      const next = prev.then(fn, fn)
      this.locks.set(file, next)
      return next
    }
    const extra = { 'x-expect-llm-fixture': store.rel(file) }
    if (isEventStream(real.headers.get('content-type')) && real.body) {
      const tee = teeEventStream(real.body)
      const write = tee.done.then(async ({ events, offsetsMs, error }) => {
        if (error !== undefined) {
          this.addProblem({ kind: 'record', testPath, testName, message: formatMessage(`Failed to record ${what}: the stream broke before it completed (${(error as Error).message}). Nothing was written; run again.`) })
          return
        }
        if (recordable) await locked(() => persist({ ...base, sse: events, chunkOffsetsMs: offsetsMs }))
      })
      this.pending.add(write)
      void write.finally(() => this.pending.delete(write))
      const h = new Headers(headers)
      for (const [k, v] of Object.entries(extra)) h.set(k, v)
      if (!real.ok && recordable) h.set('x-should-retry', 'false')
      return new Response(tee.stream, { status: real.status, statusText: real.statusText, headers: h })
    }
    const bytes = new Uint8Array(await real.arrayBuffer())
    const response: RecordedResponse = { ...base, ...recordBody(bytes, real.headers.get('content-type')) }
    if (recordable) {
      await locked(() => persist(response))
      return toResponse(response, 'none', extra)
    }
    // Not recorded (an error without recordErrors): hand it over as-is, so the SDK's own retry logic applies.
    const h = new Headers(headers)
    return new Response(bytes.byteLength > 0 ? pullStream([bytes]) : null, { status: real.status, statusText: real.statusText, headers: h })
  }

  /** The full message for a replay miss: request, expected file, record command, nearest recording diff and hints. */
  async missMessage(key: RequestKey, file: string, store: FixtureStore, opts: Resolved, testPath: string | undefined): Promise<string> {
    const m = key.material
    const model = modelFromPath(m.path) ?? modelOf(m)
    const provider = providerOf(m.origin, m.path)
    const lines: string[] = [
      formatMessage(
        `Failed to replay ${m.method} ${m.path}${model ? ` (model ${model})` : ''}: no fixture matches this request, and mode "replay" never calls the network. Record it, then commit the new file.`,
      ),
      `  Request:       ${m.method} ${m.origin}${m.path}${m.query.length ? `?${m.query.map(([k, v]) => `${k}=${v}`).join('&')}` : ''}`,
      ...(provider ? [`  Provider:      ${provider}`] : []),
      `  Test file:     ${testPath ? store.rel(testPath) : '(none: the request was made outside a test)'}`,
      `  Expected file: ${store.rel(file)}`,
      `  Record it:     EXPECT_LLM_REPLAY=record ${testPath ? this.recordCommand(store, testPath) : '<your test command>'}${credentialVariable(m.origin) ? ` (needs ${credentialVariable(m.origin)})` : ''}`,
    ]
    if (opts.resolvedMode.refusedInCi) {
      lines.push(`  Note:          EXPECT_LLM_REPLAY=${opts.resolvedMode.refusedInCi} was ignored because CI is set (EXPECT_LLM_ALLOW_RECORD_IN_CI=1 allows recording in CI).`)
    }
    const nearest = await this.nearest(key, file, store)
    if (nearest.folderCount === 0) lines.push('  No fixtures are recorded for this test file yet.')
    if (nearest.best) {
      const { diffs, file: nf } = nearest.best
      lines.push(`  Nearest recording: ${store.rel(nf)} differs at ${diffs.length} path(s):`)
      lines.push(...formatDifferences(diffs))
      for (const hint of diffHints(diffs)) lines.push(`  Hint: ${hint}`)
    } else {
      lines.push(`  No recording of ${m.method} ${m.path} exists under ${store.rel(opts.layout.dir ?? opts.layout.rootDir) || '.'} to compare with.`)
    }
    return lines.join('\n')
  }

  private async nearest(key: RequestKey, file: string, store: FixtureStore): Promise<{ folderCount: number; best?: { file: string; diffs: KeyDifference[] } }> {
    const folder = file.slice(0, file.lastIndexOf(sep))
    const folderFiles = await listFolder(folder)
    const consider = async (files: string[]): Promise<{ file: string; diffs: KeyDifference[]; fixture: Fixture } | undefined> => {
      let best: { file: string; diffs: KeyDifference[]; fixture: Fixture } | undefined
      for (const f of files) {
        const fixture = await store.read(f).catch(() => undefined)
        if (!fixture || fixture.key.method !== key.material.method || fixture.key.path !== key.material.path) continue
        const diffs = diffMaterial(fixture.key, key.material)
        if (!best || rank(diffs, fixture, key.material) < rank(best.diffs, best.fixture, key.material)) best = { file: f, diffs, fixture }
      }
      return best
    }
    let best = await consider(folderFiles)
    if (!best) {
      const index = await store.getIndex()
      const sameEndpoint = [...index.values()].flat().filter((f) => parseFixtureFileName(basename(f))?.endpoint === key.endpoint)
      best = await consider(sameEndpoint.slice(0, 300))
    }
    return { folderCount: folderFiles.length, ...(best ? { best: { file: best.file, diffs: best.diffs } } : {}) }
  }
}

/** Ranking of a candidate: fewer differing paths first, then same model, same stream flag, newest. */
function rank(diffs: KeyDifference[], fixture: Fixture, actual: KeyMaterial): number {
  const b = (fixture.key.body ?? {}) as Record<string, unknown>
  const a = (actual.body ?? {}) as Record<string, unknown>
  const recency = Date.parse(fixture.meta.recordedAt) || 0
  return diffs.length * 10 + (b.model === a.model ? 0 : 2) + (b.stream === a.stream ? 0 : 1) - recency / 1e15
}

/** Relative POSIX path from `root` (for summaries). */
export function relPath(root: string, file: string): string {
  const r = relative(root, file)
  return r.startsWith('..') ? file : r.split(sep).join('/')
}
