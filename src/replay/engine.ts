import { basename, relative, sep } from 'node:path'
import { getConfig } from '../config.js'
import { formatMessage } from '../errors.js'
import { formatAge, parseAge } from './age.js'
import { BREAKABLE_STREAM_HEADERS, allowListHeaders, brokenBody, recordBody, toResponse } from './body.js'
import { diffHints, formatDifferences, type KeyDifference } from './diff.js'
import { expectOwnRequest } from './escapes.js'
import {
  DEFAULT_HOSTS,
  isLoopback,
  isPlaceholderKey,
  keyVariablesFor,
  libraryHosts,
  matchesHost,
  parseHostPattern,
  providerFor,
  requestCredential,
} from './hosts.js'
import { buildKey, modelOf, type RequestKey } from './key.js'
import { ciRefusalMessage, isCi, requestPlan, resolveMode, type RequestPlan, type ResolvedMode } from './mode.js'
import { chooseNearest, clientFamily, type NearestCandidate } from './nearest.js'
import { modelFromPath, providerOf } from './provider.js'
import { buildFixture, fixtureSecrets, isRecordable, readWholeBody, secretsMessage, upstreamFailureMessage, upstreamRequest } from './record-steps.js'
import { isEventStream, pullStream, teeEventStream } from './sse.js'
import { FixtureStore, fixtureFileName, folderFor, listFolder, parseFixtureFileName, removeStaleTempFiles, resolveLayout, type StoreLayout } from './store.js'
import type { Fixture, FixtureSummary, RecordedResponse, ReplayMode, ReplayOptions, ReplayProblem } from './types.js'
import { processSlot } from '../process-state.js'
import { readExpectState } from '../runners/state.js'
import type { TestRunner } from '../runners/types.js'

export { DEFAULT_HOSTS } from './hosts.js'
export { allowListHeaders, toResponse } from './body.js'

/** The parts of msw the engine uses; identical in msw 2 and msw 3. */
export interface MswApi {
  http: { all: (path: string, resolver: (info: { request: Request }) => unknown) => unknown }
  bypass: (input: Request, init?: RequestInit) => Request
  passthrough: () => Response
}

/**
 * The status of a replay miss (and of every other request replay refuses to send): 404. It is the one
 * status that every common client gives up on at once, without retrying: the openai and Anthropic SDKs
 * retry 408/409/429/5xx (and honour `x-should-retry: false`, which is sent too), the Vercel AI SDK retries
 * 408/409/429/5xx, and LangChain's caller retries everything except 400-407, 409 and 413 (it ignores
 * `x-should-retry`, so the former 418 cost it 7 attempts). 400 and 422 are avoided because clients treat
 * them as "the server does not support this option" and fall back to another request (expect-llm's own
 * judge does, for `response_format`).
 */
export const MISS_STATUS = 404

/** Options plus the defaults that come from the runner. */
export interface EngineContext {
  /** Explicit options (win over `configure({ replay })`). */
  options?: ReplayOptions
  /**
   * The runner: the current test file and name (when `options.testPath` / `options.testName` are not
   * given) and the record command in messages. Without one, the global `expect`'s state and Vitest's command.
   */
  runner?: Pick<TestRunner, 'testPath' | 'testName' | 'recordCommand'>
}

/** The options in effect for one request. */
/** A request's hold on its fixture key while it records: `settle` releases it with what was recorded. */
interface Claim {
  settle: (recorded: RecordedInRun | undefined) => void
}

export interface Resolved extends ReplayOptions {
  /** Origin patterns answered from fixtures: the defaults, `hosts`, and the judge's and embedder's hosts. */
  hosts: string[]
  /** Origin patterns that may reach the network in replay mode (never intercepted, let through in CI). */
  allowedHosts: string[]
  layout: StoreLayout
  resolvedMode: ResolvedMode
}

interface FileUsage {
  folder: string
  used: Set<string>
  created: Set<string>
}

/** Turns a recorded response into what the fixture stores (one response, or a sequence's). */
type Shape = (response: RecordedResponse, durationMs: number) => Promise<Pick<Fixture, 'response' | 'responses'>> | Pick<Fixture, 'response' | 'responses'>

/** A response recorded in this run, shared by every identical request of the run. */
interface RecordedInRun {
  response: RecordedResponse
  durationMs: number
  file: string
}

/**
 * The fixtures used and written in a folder during this run, shared by every engine of the process (the
 * setup file's and any `llmReplay()` of a test), so that the summary and the usage record `prune` trusts
 * count a fixture as used whichever engine served it.
 */
function folderUsage(folder: string): FileUsage {
  // Stryker disable next-line StringLiteral: equivalent, any name is one slot per process (the CJS and ESM builds share this line)
  const all = processSlot('replay-folder-usage', () => new Map<string, FileUsage>())
  let u = all.get(folder)
  if (!u) {
    u = { folder, used: new Set(), created: new Set() }
    all.set(folder, u)
  }
  return u
}

let ciWarned = false

/**
 * Internals for this package's own tests: a way to forget that the CI warning was given (it is once per process).
 * Not part of the public API; do not re-export.
 *
 * @internal
 */
export const __testing = {
  forgetCiWarning: (): void => {
    ciWarned = false
  },
}

/**
 * The headers a replayed or shared response carries: which fixture answered, and how long it took to record.
 *
 * @example
 * ```ts
 * fixtureHeaders('test/__llm_fixtures__/a.test.ts/chat-completions-1a2b.json', 840)
 * ```
 */
export function fixtureHeaders(relFile: string, durationMs: number): Record<string, string> {
  return { 'x-expect-llm-fixture': relFile, 'x-expect-llm-duration-ms': String(durationMs) }
}

/**
 * The problem reported when handling a request threw: a corrupt fixture (and its file, which counts as
 * used), or any other error while recording.
 *
 * @example
 * ```ts
 * handlingFailure(new FixtureError(file, 'bad hash'), 'test/a.test.ts', 'answers') // { type: 'expect_llm_replay_corrupt_fixture', ... }
 * ```
 */
export function handlingFailure(
  error: unknown,
  testPath: string | undefined,
  testName: string | undefined,
): { problem: ReplayProblem; type: string; corruptFile: string | undefined } {
  const isFixture = (error as Error).name === 'FixtureError'
  const file = (error as { file?: unknown }).file
  return {
    problem: { kind: isFixture ? 'corrupt' : 'record', message: (error as Error).message, testPath, testName },
    type: isFixture ? 'expect_llm_replay_corrupt_fixture' : 'expect_llm_replay_error',
    corruptFile: isFixture && typeof file === 'string' ? file : undefined,
  }
}

/** One intercepted request on its way to a fixture or the network, as the engine's steps see it. */
interface Exchange {
  request: Request
  /** The request body, already read. */
  body: Uint8Array
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

/** The order in which sequence-mode requests reached the handler, kept while their bodies are read. */
interface Arrival {
  /** Settles when every request that arrived earlier has taken its slot. */
  turn: Promise<void>
  /** Marks this request's slot as taken (idempotent). */
  done: () => void
}

const unique = (list: readonly string[]): string[] => [...new Set(list)]

/** `true` unless a JSON request body pins its temperature to 0 (`temperature`, or Gemini's `generationConfig.temperature`). */
function samples(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false
  const b = body as { temperature?: unknown; generationConfig?: { temperature?: unknown } }
  const temperature = b.temperature ?? b.generationConfig?.temperature
  return temperature !== 0
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
  /** Recordings made in this run (finished or in flight), by fixture file: one request per key is sent. */
  private readonly inRun = new Map<string, Promise<RecordedInRun | undefined>>()
  /** Fixture folders (test files) whose repeated requests were already reported. */
  private readonly repeatNoticed = new Set<string>()
  private readonly staleNoticed = new Set<string>()
  /** Folders whose stale temporary files were already cleaned. */
  private readonly cleanedFolders = new Set<string>()
  private lastArrival: Promise<void> = Promise.resolve()
  /** Requests handled by the engine (hits, recordings and misses), for diagnostics and tests. */
  handled = 0

  constructor(private readonly ctx: EngineContext = {}) {}

  /**
   * The merged options in effect now (`configure({ replay })` overridden by explicit options). The hosts are
   * the default provider hosts, the hosts of expect-llm's own judge and embedder (unless listed in
   * `allowedHosts`), and `hosts`.
   */
  resolve(): Resolved {
    const cfg = getConfig().replay ?? {}
    const explicit = this.ctx.options ?? {}
    const merged: ReplayOptions = { ...cfg, ...explicit }
    const listed = [...(cfg.hosts ?? []), ...(explicit.hosts ?? [])]
    const allowedHosts = unique([...(cfg.allowedHosts ?? []), ...(explicit.allowedHosts ?? [])])
    for (const pattern of [...listed, ...allowedHosts, ...Object.keys(merged.upstream ?? {}), ...Object.values(merged.upstream ?? {})])
      parseHostPattern(pattern)
    const automatic = [...DEFAULT_HOSTS, ...libraryHosts()].filter((h) => !matchesHost(allowedHosts, h.replace(/\*/g, 'x')))
    const hosts = unique([...automatic, ...listed])
    return { ...merged, hosts, allowedHosts, layout: resolveLayout(merged.rootDir, merged.dir), resolvedMode: resolveMode(merged.mode) }
  }

  /** The effective mode now. */
  mode(): ReplayMode {
    return this.resolve().resolvedMode.mode
  }

  /** The store of a layout, kept for the run: its cache and index save reads of the same files. */
  private store(layout: StoreLayout): FixtureStore {
    // Stryker disable next-line StringLiteral: equivalent, without a dir any constant keeps one store per root
    const dir = layout.dir ?? ''
    const id = `${layout.rootDir}\0${dir}`
    let s = this.stores.get(id)
    // Stryker disable next-line ConditionalExpression: equivalent when true, a new store per request reads the same files (the cache only saves reads)
    if (!s) {
      s = new FixtureStore(layout)
      // Stryker disable next-line CallExpression: equivalent, not keeping the store only loses its cache
      this.stores.set(id, s)
    }
    return s
  }

  private testPath(opts: ReplayOptions): string | undefined {
    return opts.testPath?.() ?? (this.ctx.runner ? this.ctx.runner.testPath() : readExpectState().testPath)
  }

  private testName(opts: ReplayOptions): string | undefined {
    return opts.testName?.() ?? (this.ctx.runner ? this.ctx.runner.testName() : readExpectState().currentTestName)
  }

  /** The usage of a test file's fixture folder, in the layout in effect now (`configure()` may move it). */
  private fileUsage(layout: StoreLayout, testPath: string | undefined): FileUsage {
    const folder = folderFor(layout, testPath)
    // Stryker disable next-line StringLiteral: equivalent, any constant is the key of requests outside a test file
    const k = testPath ?? ''
    let u = this.usage.get(k)
    // Stryker disable next-line ConditionalExpression: equivalent when true, folderUsage() returns the process's one usage of the folder
    if (u?.folder !== folder) {
      u = folderUsage(folder)
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

  /** Adds a problem found outside the handler (e.g. a request that bypassed interception). */
  reportProblem(problem: ReplayProblem): void {
    this.addProblem(problem)
  }

  /** Waits until every background recording (streams still being drained) has been written. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending])
  }

  /**
   * Used, new and unused fixtures for one test file (or every file seen). Stale temporary files that a
   * killed process left in these folders are removed on the way.
   */
  async summary(testPath?: string): Promise<FixtureSummary[]> {
    await this.flush()
    const opts = this.resolve()
    const entries = testPath !== undefined ? [[testPath, this.fileUsage(opts.layout, testPath)] as const] : [...this.usage.entries()]
    const out: FixtureSummary[] = []
    for (const [path, u] of entries) {
      await this.cleanFolder(u.folder)
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

  private async cleanFolder(folder: string): Promise<void> {
    if (this.cleanedFolders.has(folder)) return
    this.cleanedFolders.add(folder)
    await removeStaleTempFiles(folder).catch(() => undefined)
  }

  /** Resets sequence counters (call between tests). */
  resetSequences(): void {
    this.counters.clear()
  }

  /** Takes this request's place in the arrival order (synchronously, before any `await`). */
  private arrive(): Arrival {
    const previous = this.lastArrival
    let release!: () => void
    const mine = new Promise<void>((r) => (release = r))
    this.lastArrival = mine
    return {
      turn: previous,
      // Release only after the requests before this one: slots are taken in arrival order. Called again (the
      // handler's `finally` after the sequence's own release), it changes nothing: a promise settles once.
      done: () => void previous.then(release),
    }
  }

  /**
   * Handles one intercepted request. Returns `undefined` for hosts that are not intercepted (msw then
   * treats the request as unhandled), msw's passthrough response in `live` mode, and otherwise a response
   * from a fixture, from the network while recording, or an immediate non-retryable error on a miss.
   */
  async handle(request: Request, msw: Pick<MswApi, 'bypass' | 'passthrough'>): Promise<Response | undefined> {
    const url = new URL(request.url)
    const admitted = this.admit(url, msw)
    if (!('opts' in admitted)) return admitted.response
    const { opts } = admitted
    this.handled++
    // Sequence slots follow the order requests reached the handler, not the order their bodies were read.
    const arrival = opts.sequence ? this.arrive() : undefined
    const testPath = this.testPath(opts)
    const testName = this.testName(opts)
    const store = this.store(opts.layout)
    const usage = this.fileUsage(opts.layout, testPath)
    const held: { claim?: Claim } = {}
    try {
      const body = new Uint8Array(await request.clone().arrayBuffer())
      const key = buildKey(request.method, url, body, request.headers.get('content-type'), opts)
      const file = `${usage.folder}${sep}${fixtureFileName(key.endpoint, key.hash16)}`
      const exchange: Exchange = { request, body, msw, opts, key, file, store, usage, testPath, testName }
      if (arrival) return await this.handleSequence(exchange, arrival)
      return await this.serve(exchange, requestPlan(opts.resolvedMode.mode as Exclude<ReplayMode, 'live'>), held)
    } catch (error) {
      const failure = handlingFailure(error, testPath, testName)
      // A fixture that was looked up counts as used even when it cannot be read: it is the file the error
      // says to fix, and `prune` must not delete it.
      if (failure.corruptFile !== undefined) usage.used.add(failure.corruptFile)
      return this.fail(failure.problem, failure.type)
    } finally {
      arrival?.done()
      // Not recorded by this request (served from a fixture, failed): release the key for the next one.
      held.claim?.settle(undefined)
    }
  }

  /**
   * Whether the engine answers a request: `undefined` (msw's unhandled request) for a host that is not
   * intercepted, msw's passthrough in `live` mode, an error response when the options are wrong, else the
   * resolved options. Warns once when CI forced `replay` over a recording mode.
   */
  private admit(url: URL, msw: Pick<MswApi, 'passthrough'>): { opts: Resolved } | { response?: Response } {
    let opts: Resolved
    try {
      opts = this.resolve()
    } catch (error) {
      if (!matchesHost(DEFAULT_HOSTS, url)) return {} // not intercepted
      return { response: this.fail({ kind: 'record', message: (error as Error).message }, 'expect_llm_replay_config') }
    }
    if (!matchesHost(opts.hosts, url)) return {} // not intercepted
    const { resolvedMode } = opts
    if (resolvedMode.refusedInCi && !ciWarned) {
      ciWarned = true
      console.warn(ciRefusalMessage(resolvedMode.refusedInCi))
    }
    if (resolvedMode.mode === 'live') return { response: msw.passthrough() }
    return { opts }
  }

  /**
   * One request outside a sequence, by its mode's {@link requestPlan}: take the key's turn, answer from
   * the fixture, fail on a miss or record. A claim this request still holds is left in `held` for the
   * caller to release; a recording keeps it until the recording settles.
   */
  private async serve(exchange: Exchange, plan: RequestPlan, held: { claim?: Claim }): Promise<Response> {
    const { key, file, store, opts, testPath, testName, request } = exchange
    // Stryker disable next-line ConditionalExpression: equivalent when true, a claim in replay mode only makes identical requests take turns
    if (plan.claim) {
      const turn = await this.waitOrClaim(exchange)
      if (turn instanceof Response) return turn
      held.claim = turn
    }
    if (plan.lookUp) {
      const replayed = await this.fromFixture(exchange)
      if (replayed) return replayed
    }
    if (plan.onMiss === 'fail') {
      const message = await this.missMessage(key, file, store, opts, testPath, request.headers.get('user-agent'))
      return this.fail({ kind: 'miss', message, testPath, testName }, 'expect_llm_replay_miss')
    }
    const { response, recorded } = await this.record(exchange, (r) => ({ response: r }))
    // Recording modes claim the key first (requestPlan): this request holds the claim.
    const mine = held.claim!
    held.claim = undefined
    // `recorded` never rejects: a whole body's failure throws above, a stream's is caught as a problem.
    void recorded.then((r) => mine.settle(r))
    return response
  }

  /**
   * The CI network rule, for requests no handler answered: in `replay` mode with `CI` set, a request to a
   * host that is neither a replay host, nor loopback, nor in `allowedHosts` fails at once instead of
   * reaching the network. Returns `undefined` to let the request through.
   */
  guard(request: Request): Response | undefined {
    let opts: Resolved
    try {
      opts = this.resolve()
    } catch {
      return undefined
    }
    if (opts.resolvedMode.mode !== 'replay' || !isCi()) return undefined
    const url = new URL(request.url)
    // Only the network counts: msw 2 also shows `data:` and `blob:` URLs to handlers.
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
    if (isLoopback(url) || matchesHost(opts.allowedHosts, url) || matchesHost(opts.hosts, url)) return undefined
    const testPath = this.testPath(opts)
    const message = formatMessage(
      `Failed to send ${request.method} ${url.origin}${url.pathname}: CI is set, so mode "replay" lets no ` +
        `request leave the machine, and ${url.origin} is not a replay host. If the test should reach it, add ` +
        `'${url.origin}' to configure({ replay: { allowedHosts } }); if it is a model API to record and ` +
        `replay, add it to configure({ replay: { hosts } }).`,
    )
    return this.fail({ kind: 'network', message, testPath, testName: this.testName(opts) }, 'expect_llm_network_blocked')
  }

  /**
   * Warns once per fixture file when it was recorded longer ago than `maxAge`: it still replays (a stale
   * recording is not a wrong one), but the model or its API may have changed since. `fixtures verify
   * --max-age` fails on the same files.
   */
  private noticeStale(found: { file: string; fixture: Fixture }, opts: Resolved, store: FixtureStore, testPath: string | undefined): void {
    if (opts.maxAge === undefined || this.staleNoticed.has(found.file)) return
    // configure() and llmReplay() only take a maxAge that parseAge reads.
    const maxAge = parseAge(opts.maxAge) as number
    const age = Date.now() - Date.parse(found.fixture.meta.recordedAt)
    if (!(age > maxAge)) return
    this.staleNoticed.add(found.file)
    console.warn(
      formatMessage(
        `${store.rel(found.file)} was recorded ${formatAge(age)} ago, longer than replay.maxAge ` +
          `(${typeof opts.maxAge === 'number' ? `${opts.maxAge} ms` : opts.maxAge}): it still replays, but the ` +
          `model or its API may have changed since. Record it again with EXPECT_LLM_REPLAY=rerecord ` +
          `${testPath ? this.recordCommand(store, testPath) : '<your test command>'}.`,
      ),
    )
  }

  /**
   * Says once per test file, while recording, that identical sampling requests (a temperature that is not 0)
   * share one recorded response: in this run and in replay every caller gets the same answer, so a test that
   * expects different samples needs sequence mode. Requests at temperature 0 share theirs silently.
   */
  private noticeRepeat(exchange: Exchange): void {
    const { file, store, request, key, usage } = exchange
    if (this.repeatNoticed.has(usage.folder) || !samples(key.material.body)) return
    this.repeatNoticed.add(usage.folder)
    console.warn(
      formatMessage(
        `${request.method} ${key.material.path} was sent again with the same body while recording, so it was ` +
          `not sent to the model again: every identical request of the run gets the one response recorded in ` +
          `${store.rel(file)}, now and in replay (the same holds for the other repeated requests of this test ` +
          `file). If the calls should get different answers (sampling at temperature > 0), set configure({ ` +
          `replay: { sequence: true } }) to record one response per call.`,
      ),
    )
  }

  /**
   * While recording, one request per key and run: an identical request waits for the one in flight and
   * shares its recorded response; otherwise this request claims the key. The claim is taken in the same
   * turn as the check that no request holds it, so concurrent identical requests are sent once.
   */
  private async waitOrClaim(exchange: Exchange): Promise<Response | Claim> {
    const { file, opts, store } = exchange
    for (let shared = this.inRun.get(file); shared; shared = this.inRun.get(file)) {
      const recorded = await shared
      if (recorded) {
        this.noticeRepeat(exchange)
        return toResponse(recorded.response, opts.replayTiming, fixtureHeaders(store.rel(recorded.file), recorded.durationMs))
      }
    }
    return this.claim(file)
  }

  /** The recorded answer of the request's fixture, counted as used, or `undefined` when there is none. */
  private async fromFixture({ file, key, opts, store, usage, testPath }: Exchange): Promise<Response | undefined> {
    const found = await store.find(file, key.hash)
    if (!found?.fixture.response) return undefined
    usage.used.add(found.file)
    this.noticeStale(found, opts, store, testPath)
    return toResponse(found.fixture.response, opts.replayTiming, fixtureHeaders(store.rel(found.file), found.fixture.meta.durationMs))
  }

  /**
   * Claims the recording of a fixture file for this run (synchronously, before any `await`): identical
   * requests that arrive meanwhile wait for its outcome. Settling with `undefined` (nothing recorded)
   * releases the key, so the next identical request tries again.
   */
  private claim(file: string): { settle: (recorded: RecordedInRun | undefined) => void } {
    let resolve!: (value: RecordedInRun | undefined) => void
    const shared = new Promise<RecordedInRun | undefined>((r) => (resolve = r))
    this.inRun.set(file, shared)
    // Settled once: by the recording, or (when this request recorded nothing) by the handler's `finally`.
    return {
      settle: (recorded) => {
        // The entry is this claim's: another is only taken when there is none, and only a settle removes one.
        if (!recorded) this.inRun.delete(file)
        resolve(recorded)
      },
    }
  }

  private async handleSequence(exchange: Exchange, arrival: Arrival): Promise<Response> {
    const { request, opts, key, file, store, usage, testPath, testName } = exchange
    const counterKey = JSON.stringify([testPath, testName, key.hash])
    await arrival.turn
    const index = this.counters.get(counterKey) ?? 0
    this.counters.set(counterKey, index + 1)
    arrival.done()
    const mode = opts.resolvedMode.mode
    const found = await store.find(file, key.hash)
    const responses = found?.fixture.responses ?? (found?.fixture.response ? [found.fixture.response] : [])
    if (mode !== 'rerecord' && index < responses.length) {
      usage.used.add(found!.file)
      this.noticeStale(found!, opts, store, testPath)
      const served = responses[index]!
      return toResponse(served, opts.replayTiming, fixtureHeaders(store.rel(found!.file), served.durationMs ?? found!.fixture.meta.durationMs))
    }
    if (mode === 'replay') {
      const message =
        responses.length > 0
          ? formatMessage(
              `Failed to replay ${request.method} ${key.material.path} (sequence mode): ${store.rel(found!.file)} ` +
                `holds ${responses.length} recorded response(s) for this request, but this is call #${index + 1} in ` +
                `the test. Record the extra calls with EXPECT_LLM_REPLAY=record${testPath ? ` ${this.recordCommand(store, testPath)}` : ''}.`,
            )
          : await this.missMessage(key, file, store, opts, testPath, request.headers.get('user-agent'))
      return this.fail({ kind: 'miss', message, testPath, testName }, 'expect_llm_replay_miss')
    }
    const { response } = await this.record(exchange, async (recorded, durationMs) => {
      // Calls of one sequence may finish recording out of order: keep every recorded call in its slot for
      // the run and write them all each time (writes to one file are serialized), so none is lost. The slots
      // start from the responses the earlier calls were answered with: those of the fixture found for this
      // request, which may hold one `response` (recorded without sequence mode) or be another test file's.
      let slots = this.sequenceSlots.get(file)
      if (!slots) {
        slots = mode === 'rerecord' ? [] : [...responses]
        this.sequenceSlots.set(file, slots)
      }
      slots[index] = { ...recorded, durationMs }
      // Stryker disable next-line ConditionalExpression: equivalent, filter skips the holes of the sparse slots, the only undefined ones
      return { responses: slots.filter((r): r is RecordedResponse => r !== undefined) }
    })
    return response
  }

  /**
   * Answers a request that replay will not send: a miss, a corrupt fixture, a missing key, a request the CI
   * network rule blocks. The response fails every common client at once ({@link MISS_STATUS},
   * `x-should-retry: false`); its body carries the first line of the message in the error shapes of OpenAI,
   * Anthropic and Google, and the full message is kept as a problem that fails the test.
   */
  private fail(problem: ReplayProblem, type: string): Response {
    this.addProblem(problem)
    const headline = problem.message.split('\n')[0]!
    const message = problem.message.includes('\n') ? `${headline} The test fails with the details.` : headline
    const body = { type: 'error', error: { type, code: MISS_STATUS, status: 'NOT_FOUND', message, param: null } }
    return new Response(pullStream([JSON.stringify(body)]), {
      status: MISS_STATUS,
      statusText: 'Not Found',
      headers: { 'content-type': 'application/json', 'x-should-retry': 'false', 'x-expect-llm-replay': type },
    })
  }

  private recordCommand(store: FixtureStore, testPath: string): string {
    const rel = store.rel(testPath)
    return this.ctx.runner ? this.ctx.runner.recordCommand(rel) : `npx vitest run ${rel}`
  }

  /** Why a request cannot be recorded for lack of a usable key (checked before anything is sent), or `undefined`. */
  private credentialProblem(request: Request, target: URL, what: string): string | undefined {
    if (isLoopback(target)) return undefined
    const credential = requestCredential(request.headers, new URL(request.url))
    // A request without a credential counts as one with a placeholder key.
    if (!isPlaceholderKey(credential)) return undefined
    if (credential === undefined && !providerFor(target)) return undefined
    const variables = keyVariablesFor(target)
    const why =
      credential === undefined
        ? 'the request carries no API key'
        : `the request carries a placeholder key${credential.length <= 40 ? ` (${JSON.stringify(credential)})` : ''}, not a real one`
    return formatMessage(
      `Failed to record ${what}: ${why}, so ${target.origin} would refuse it; nothing was sent. Set ` +
        `${variables.join(' or ')} (or pass apiKey to the client) and run again, or replay the recordings ` +
        `(unset EXPECT_LLM_REPLAY).`,
    )
  }

  /** Where a recorded request is sent: its own URL, or the `upstream` server configured for its origin. */
  private target(opts: Resolved, url: URL): URL {
    const upstream = opts.upstream?.[url.origin] ?? Object.entries(opts.upstream ?? {}).find(([from]) => matchesHost([from], url))?.[1]
    if (!upstream) return url
    return new URL(`${url.pathname}${url.search}`, new URL(upstream).origin)
  }

  private warnBroken(what: string, error: unknown): void {
    console.warn(
      formatMessage(
        `Failed to record ${what}: the response body broke before it completed ` +
          `(${(error as Error).message}). The app got the same error as it would live; nothing was written. ` +
          `Run again to record it.`,
      ),
    )
  }

  /**
   * Records one exchange: refuses a request without a real key, sends it upstream, and hands the answer
   * to the app while the fixture is written (streams are teed, other bodies read whole). The pure steps
   * live in record-steps.ts; this method does the I/O.
   */
  private async record(exchange: Exchange, shape: Shape): Promise<{ response: Response; recorded: Promise<RecordedInRun | undefined> }> {
    const { request, body, msw, opts, key, testPath, testName } = exchange
    const what = `${request.method} ${key.material.path}`
    const nothing = Promise.resolve(undefined)
    const target = this.target(opts, new URL(request.url))
    const refusal = this.credentialProblem(request, target, what)
    if (refusal)
      return { response: this.fail({ kind: 'credentials', testPath, testName, message: refusal }, 'expect_llm_replay_credentials'), recorded: nothing }
    const started = performance.now()
    let real: Response
    let withdraw = () => {}
    try {
      const outgoing = upstreamRequest(request, body, target)
      withdraw = expectOwnRequest(outgoing.method, outgoing.url)
      real = await fetch(msw.bypass(outgoing, { signal: null }))
    } catch (error) {
      const message = upstreamFailureMessage(what, target.origin, error)
      return { response: this.fail({ kind: 'record', testPath, testName, message }, 'expect_llm_replay_upstream'), recorded: nothing }
    } finally {
      // Taken by the escape watcher when undici created the request; still there only if it never was.
      withdraw()
    }
    const recordable = isRecordable(real.status, opts.recordErrors)
    const save = (response: RecordedResponse) => this.locked(exchange.file, () => this.persist(exchange, response, started, shape))
    if (isEventStream(real.headers.get('content-type')) && real.body) return this.recordStream(exchange, real, recordable, save)
    return this.recordWhole(exchange, real, recordable, save)
  }

  /** An event stream: the app reads it as it arrives while a tee collects the events for the fixture. */
  private recordStream(exchange: Exchange, real: Response, recordable: boolean, save: (r: RecordedResponse) => Promise<RecordedInRun | undefined>) {
    const headers = allowListHeaders(real.headers)
    const tee = teeEventStream(real.body!)
    const recorded = tee.done
      .then(async ({ events, offsetsMs, error }) => {
        if (error !== undefined) {
          this.warnBroken(`${exchange.request.method} ${exchange.key.material.path}`, error)
          return undefined
        }
        return recordable ? save({ status: real.status, statusText: real.statusText, headers, sse: events, chunkOffsetsMs: offsetsMs }) : undefined
      })
      // The app already has its response: a failure while saving (a redact hook that throws) fails the test as a
      // problem, the way it does for a whole body, instead of rejecting where nothing awaits it.
      .catch((error: unknown) => {
        this.addProblem(handlingFailure(error, exchange.testPath, exchange.testName).problem)
        return undefined
      })
    this.pending.add(recorded)
    void recorded.finally(() => this.pending.delete(recorded))
    const h = new Headers({ ...headers, 'x-expect-llm-fixture': exchange.store.rel(exchange.file), ...BREAKABLE_STREAM_HEADERS })
    if (!real.ok && recordable) h.set('x-should-retry', 'false')
    return { response: new Response(tee.stream, { status: real.status, statusText: real.statusText, headers: h }), recorded }
  }

  /** Any other body: read whole, written (when recordable) before the app gets it. */
  private async recordWhole(exchange: Exchange, real: Response, recordable: boolean, save: (r: RecordedResponse) => Promise<RecordedInRun | undefined>) {
    const headers = allowListHeaders(real.headers)
    const init = { status: real.status, statusText: real.statusText }
    const { chunks, broken } = await readWholeBody(real.body)
    if (broken !== undefined) {
      // As live: the app gets the bytes that arrived, then the same error.
      this.warnBroken(`${exchange.request.method} ${exchange.key.material.path}`, broken)
      const h = new Headers({ ...headers, ...BREAKABLE_STREAM_HEADERS })
      return { response: new Response(brokenBody(chunks, broken), { ...init, headers: h }), recorded: Promise.resolve(undefined) }
    }
    const bytes = new Uint8Array(Buffer.concat(chunks))
    const response: RecordedResponse = { ...init, headers, ...recordBody(bytes, real.headers.get('content-type')) }
    if (recordable) {
      const recorded = save(response)
      await recorded
      // Stryker disable next-line StringLiteral: equivalent, toResponse only tells 'recorded' timing from any other value
      return { response: toResponse(response, 'none', { 'x-expect-llm-fixture': exchange.store.rel(exchange.file) }), recorded }
    }
    // Not recorded (a transient or credential error without recordErrors): hand it over as-is, so the SDK's own retry logic applies.
    const passed = new Response(bytes.byteLength > 0 ? pullStream([bytes]) : null, { ...init, headers: new Headers(headers) })
    return { response: passed, recorded: Promise.resolve(undefined) }
  }

  /** Runs `fn` after the previous write of `file` (one writer per fixture file). */
  private locked(file: string, fn: () => Promise<RecordedInRun | undefined>): Promise<RecordedInRun | undefined> {
    const prev = this.locks.get(file) ?? Promise.resolve()
    const next = prev.then(fn, fn)
    this.locks.set(file, next)
    return next
  }

  /** Redacts, shapes and writes the fixture of a recorded response, unless it would hold a secret. */
  private async persist(exchange: Exchange, response: RecordedResponse, started: number, shape: Shape): Promise<RecordedInRun | undefined> {
    const { request, opts, key, file, store, usage, testPath, testName } = exchange
    const redacted = opts.redact ? (opts.redact({ key: key.material, response }).response ?? response) : response
    const durationMs = Math.round(performance.now() - started)
    const shaped = await shape(redacted, durationMs)
    const testFile = testPath ? store.rel(testPath) : null
    const fixture = buildFixture({ key, shaped, redacted, durationMs, recordedAt: new Date(), userAgent: request.headers.get('user-agent'), testFile })
    const findings = fixtureSecrets(fixture)
    if (findings.length > 0) {
      this.addProblem({ kind: 'secret', testPath, testName, message: secretsMessage(findings, store.rel(file)) })
      return undefined
    }
    try {
      await this.cleanFolder(usage.folder)
      await store.write(file, fixture)
      usage.created.add(file)
      return { response: redacted, durationMs, file }
    } catch (error) {
      const message = formatMessage(`Failed to write fixture ${store.rel(file)}: ${(error as Error).message}. Check that the folder is writable.`)
      this.addProblem({ kind: 'write', testPath, testName, message })
      return undefined
    }
  }

  /** The full message for a replay miss: request, expected file, record command, nearest recording diff and hints. */
  async missMessage(
    key: RequestKey,
    file: string,
    store: FixtureStore,
    opts: Resolved,
    testPath: string | undefined,
    userAgent: string | null = null,
  ): Promise<string> {
    const m = key.material
    const model = modelFromPath(m.path) ?? modelOf(m)
    const provider = providerOf(m.origin, m.path)
    const needs = isLoopback(m.origin) ? '' : ` (needs ${keyVariablesFor(m.origin).join(' or ')})`
    const lines: string[] = [
      formatMessage(
        `Failed to replay ${m.method} ${m.path}${model ? ` (model ${model})` : ''}: no fixture matches this ` +
          `request, and mode "replay" never calls the network. Record it, then commit the new file.`,
      ),
      `  Request:       ${m.method} ${m.origin}${m.path}${m.query.length ? `?${m.query.map(([k, v]) => `${k}=${v}`).join('&')}` : ''}`,
      ...(provider ? [`  Provider:      ${provider}`] : []),
      `  Test file:     ${testPath ? store.rel(testPath) : '(none: the request was made outside a test)'}`,
      `  Expected file: ${store.rel(file)}`,
      `  Record it:     EXPECT_LLM_REPLAY=record ${testPath ? this.recordCommand(store, testPath) : '<your test command>'}${needs}`,
    ]
    if (opts.resolvedMode.refusedInCi) {
      lines.push(
        `  Note:          EXPECT_LLM_REPLAY=${opts.resolvedMode.refusedInCi} was ignored because CI is set ` +
          `(EXPECT_LLM_ALLOW_RECORD_IN_CI=1 allows recording in CI).`,
      )
    }
    const nearest = await this.nearest(key, file, store, clientFamily(userAgent))
    if (nearest.folderCount === 0) lines.push('  No fixtures are recorded for this test file yet.')
    if (nearest.best) {
      const { diffs, file: nf } = nearest.best
      lines.push(`  Nearest recording: ${store.rel(nf)} differs at ${diffs.length} path(s):`)
      lines.push(...formatDifferences(diffs))
      for (const hint of diffHints(diffs, key.material)) lines.push(`  Hint: ${hint}`)
    } else {
      lines.push(`  No recording of ${m.method} ${m.path} exists under ${store.rel(opts.layout.dir ?? opts.layout.rootDir) || '.'} to compare with.`)
    }
    return lines.join('\n')
  }

  private async nearest(
    key: RequestKey,
    file: string,
    store: FixtureStore,
    client: string | null,
  ): Promise<{ folderCount: number; best?: { file: string; diffs: KeyDifference[] } }> {
    const folder = file.slice(0, file.lastIndexOf(sep))
    const folderFiles = await listFolder(folder)
    const load = async (files: string[], sameFolder: boolean): Promise<NearestCandidate[]> => {
      const out: NearestCandidate[] = []
      for (const f of files) {
        const fixture = await store.read(f).catch(() => undefined)
        if (fixture && fixture.key.method === key.material.method && fixture.key.path === key.material.path) out.push({ file: f, fixture, sameFolder })
      }
      return out
    }
    // Stryker disable next-line BooleanLiteral: equivalent, one load gives all candidates: sameFolder is equal for all, so it never ranks
    let candidates = await load(folderFiles, true)
    if (candidates.length === 0) {
      const index = await store.getIndex()
      // Stryker disable next-line OptionalChaining: equivalent, the index holds only names that parse (getIndex skips the others)
      const sameEndpoint = [...index.values()].flat().filter((f) => parseFixtureFileName(basename(f))?.endpoint === key.endpoint)
      // Stryker disable next-line BooleanLiteral: equivalent, one load gives all candidates: sameFolder is equal for all, so it never ranks
      candidates = await load(sameEndpoint.slice(0, 300), false)
    }
    const best = chooseNearest(key.material, client, candidates)
    return { folderCount: folderFiles.length, ...(best ? { best } : {}) }
  }
}

/** Relative POSIX path from `root` (for summaries). */
export function relPath(root: string, file: string): string {
  const r = relative(root, file)
  return r.startsWith('..') ? file : r.split(sep).join('/')
}
