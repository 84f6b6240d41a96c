/**
 * Starts replay from a runner setup file (`expect-llm/vitest`, `expect-llm/jest`). msw is an optional peer,
 * so it is imported dynamically here.
 * @packageDocumentation
 */
import { channel } from 'node:diagnostics_channel'
import { createRequire } from 'node:module'
import { getConfig } from '../config.js'
import { formatMessage } from '../errors.js'
import { ReplayEngine, type MswApi } from './engine.js'
import { watchEscapes, type EscapedRequest, type EscapeWatcher } from './escapes.js'
import { createLlmReplay, ReplayError } from './handlers.js'
import { DEFAULT_HOSTS, keyVariablesFor, libraryHosts, matchesHost } from './hosts.js'
import { resolveMode } from './mode.js'
import { getReplaySession, setReplaySession, type ReplaySession } from './session.js'
import { formatSummary, writeUsageRecord } from './summary.js'
import type { ReplayProblem } from './types.js'
import type { TestRunner } from '../runners/types.js'
import { processSlot, sharedMark } from '../process-state.js'

let warnedMissingMsw = false

function explicitlyRequested(): boolean {
  const cfg = getConfig().replay
  return Boolean(process.env.EXPECT_LLM_REPLAY || cfg?.mode)
}

/** `true` when `specifier` resolves from here (installed), whether or not this runtime can load it. */
function resolvable(specifier: string): boolean {
  try {
    const req = createRequire(import.meta.url)
    req.resolve(specifier)
    return true
  } catch {
    return false
  }
}

/**
 * msw could not be loaded. Not installed and not asked for: the user does not use replay, so stay quiet.
 * Installed but not loadable (Jest in CommonJS mode: msw is ESM-only): say that ESM mode is what is
 * missing. Asked for (EXPECT_LLM_REPLAY or a configured mode): say so now; otherwise say it once per test
 * file, when a model request is about to go out, so that a suite that never calls a model stays quiet.
 * `installed`: whether msw resolves from here ({@link resolvable}).
 */
function reportMissingMsw(error: unknown, runner: TestRunner, installed: boolean): void {
  const code = (error as { code?: string }).code
  const notInstalled = !installed && (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || code === undefined)
  if (notInstalled && !explicitlyRequested()) return
  const reason = !installed
    ? `msw is not installed. Install it with \`npm i -D msw\`${runner.msw.installHint}`
    : (runner.msw.notLoadable ?? `msw is installed but could not be loaded (${(error as Error).message.split('\n')[0]}). Check that its version is 2 or 3`)
  if (explicitlyRequested()) {
    if (!warnedMissingMsw) {
      warnedMissingMsw = true
      console.warn(formatMessage(`Failed to start record/replay: ${reason}. Until then model requests go to the network.`))
    }
    return
  }
  // Not asked for: warn only when a model request actually goes out, once per test file.
  const warned = new Set<string>()
  // Stryker disable next-line StringLiteral: equivalent, any constant is the one key of a file without a path
  const currentFile = (): string => runner.testPath() ?? ''
  const watcher = watchEscapes({
    immediate: true,
    relevant: (url) => {
      try {
        // Stryker disable next-line ArrayDeclaration: equivalent, a pattern after the real ones that is no host matches nothing (or throws into the catch)
        const hosts = getConfig().replay?.hosts ?? []
        return resolveMode(getConfig().replay?.mode).mode !== 'live' && matchesHost([...DEFAULT_HOSTS, ...libraryHosts(), ...hosts], url)
      } catch {
        // An unknown mode or a bad host pattern: not a request replay would handle.
      }
      return false
    },
    onEscape: (request) => {
      const file = currentFile()
      if (warned.has(file)) return
      warned.add(file)
      console.warn(
        formatMessage(`Failed to replay ${request.method} ${request.url}: record/replay is off, so this model request goes to the network. ${reason}.`),
      )
    },
  })
  runner.afterAll(() => watcher.close())
}

/**
 * Starts record/replay for a test runner, from a setup file, so that `server.listen()` runs while the setup
 * file is imported, before test files build module-level clients (a client that captured `fetch` before
 * `listen()` would escape interception). Under Vitest msw is loaded synchronously and `listen()` has run
 * when the call returns, so no `await` is needed; under Jest (ESM mode) `await` the returned promise.
 *
 * - Starts one MSW server per worker (reused when the setup file runs again in the same worker) whose
 *   handler answers requests to the default provider hosts, the judge's and embedder's hosts and
 *   `configure({ replay: { hosts } })`, followed by the CI network rule; other requests pass through.
 * - Watches Node's fetch for requests to those hosts that MSW never saw (a client built before replay).
 * - Registers `afterEach`, which fails the test when a request in it missed its fixture, hit a corrupt
 *   fixture, could not be written, or escaped, even if the app swallowed the SDK error; the SDK error that
 *   only repeats a problem's first line is taken out of the test's errors (one block per miss).
 * - Registers `afterAll`, which prints used/new/unused fixtures for the file and keeps a usage record
 *   (complete and green, or why not) under `.expect-llm/replay/usage/` for `expect-llm fixtures prune`.
 *
 * Returns the session, or `undefined` when msw cannot be loaded (with a message if a replay mode was
 * requested, or at the first model request when msw is installed but cannot load).
 *
 * @example
 * ```ts
 * // src/entries/vitest.ts
 * import { setupReplay } from '../replay/setup.js'
 * import { vitestRunner } from '../runners/vitest.js'
 * void setupReplay(vitestRunner) // listening on return
 * ```
 */
export function setupReplay(runner: TestRunner): Promise<ReplaySession | undefined> {
  const existing = getReplaySession()
  if (existing) return Promise.resolve(registerHooks(existing, runner))
  // Under Vitest, load msw synchronously so that listen() has run when setupReplay() returns: the setup
  // file then needs no top-level await (and can be built as CommonJS too). Jest keeps the dynamic import,
  // which goes through its own module registry.
  const sync = runner.msw.load === 'require' ? loadMswSync() : undefined
  if (sync) return Promise.resolve(registerHooks(startSession(sync, runner, sync.version), runner))
  return (async () => {
    let mods: LoadedMsw
    try {
      const core = (await import('msw')) as unknown as MswApi
      const node = (await import('msw/node')) as unknown as LoadedMsw['node']
      mods = { msw: { http: core.http, bypass: core.bypass, passthrough: core.passthrough }, node }
    } catch (error) {
      reportMissingMsw(error, runner, resolvable('msw'))
      return undefined
    }
    let version = 'unknown'
    try {
      const pkg = (await import('msw/package.json', { with: { type: 'json' } })) as { default: { version: string } }
      version = pkg.default.version
    } catch {
      // diagnostics only
    }
    return registerHooks(getReplaySession() ?? startSession(mods, runner, version), runner)
  })()
}

interface LoadedMsw {
  msw: MswApi
  node: { setupServer: (...handlers: unknown[]) => ReplaySession['server'] & { listen: (options?: object) => void } }
  version?: string
}

/** Loads msw with Node's `require` (msw 3 is ESM-only; Node >= 22.12 requires ESM synchronously). `undefined` if that fails. */
function loadMswSync(): LoadedMsw | undefined {
  try {
    const req = createRequire(import.meta.url)
    const core = req('msw') as MswApi
    const node = req('msw/node') as LoadedMsw['node']
    let version: string | undefined
    try {
      version = (req('msw/package.json') as { version: string }).version
    } catch {
      // diagnostics only
    }
    return { msw: { http: core.http, bypass: core.bypass, passthrough: core.passthrough }, node, ...(version ? { version } : {}) }
  } catch {
    // Not installed, or not loadable with require() here: the caller imports it instead.
  }
  return undefined
}

// Stryker disable next-line StringLiteral: equivalent, msw 2 and 3 export package.json, so loadMswSync always passes the version
function startSession(mods: LoadedMsw, runner: TestRunner, mswVersion = 'unknown'): ReplaySession {
  // An earlier session still listening in this process (a Jest test file that failed to load never ran the
  // afterAll that stops it) closes before this one patches the same modules.
  SESSION_STARTING.publish(undefined)
  const engine = new ReplayEngine({ runner })
  const replay = createLlmReplay(mods.msw, engine)
  // The CI network rule goes last: handlers the user adds with server.use() come first and still answer.
  const server = mods.node.setupServer(...replay.handlers, replay.networkGuard)
  // Both names: msw 2 reads onUnhandledRequest, msw 3 reads onUnhandledFrame. The catch-all handlers match every
  // HTTP request, so the strategy decides only for what they cannot match: a WebSocket connection passes through.
  server.listen({
    // Stryker disable next-line StringLiteral: equivalent, msw 3 never reads it and msw 2 only for HTTP requests no handler matches
    onUnhandledRequest: 'bypass',
    onUnhandledFrame: 'bypass',
  })
  const session: ReplaySession = { replay, server, mswVersion }
  const watcher = watchEscapes({
    // Asked only about requests that `live` (asked first) turned down: in `live` mode those go to no replay host.
    relevant: (url) => {
      try {
        return matchesHost(engine.resolve().hosts, url)
      } catch {
        // The options cannot be resolved: not a request replay would handle.
      }
      return false
    },
    onEscape: (request) => onEscape(engine, request, runner.testPath(), runner.testName()),
    live: (url) => {
      try {
        const resolved = engine.resolve()
        return resolved.resolvedMode.mode === 'live' && matchesHost(resolved.hosts, url)
      } catch {
        // The options cannot be resolved: not a live request either.
      }
      return false
    },
    onLiveFailure: (request) => onLiveFailure(request, runner.testPath()),
  })
  // msw 2 and 3 servers both have `events`.
  ;(server as unknown as { events: { on(event: string, fn: (e: { request: Request }) => void): void } }).events.on('request:start', ({ request }) =>
    watcher.requestSeen(request),
  )
  ;(session as SessionInternals)[WATCHER] = watcher
  const closeLeftover = (): void => {
    SESSION_STARTING.unsubscribe(closeLeftover)
    server.close()
    watcher.close()
    if (getReplaySession() === session) setReplaySession(undefined)
  }
  SESSION_STARTING.subscribe(closeLeftover)
  ;(session as unknown as Record<symbol, () => void>)[STOP] = closeLeftover
  setReplaySession(session)
  return session
}

/**
 * Said when a replay session is about to start. Jest runs each test file in a fresh global of the same
 * worker process, and stops a file's session in its afterAll; a file that fails to load never runs it, so
 * its server would keep patching Node's modules with handlers resolved from that file's configuration,
 * and let the next file's model requests through to the network. A named diagnostics channel is one per
 * process, shared by every such global, so the next session can tell the leftover one to close.
 */
const SESSION_STARTING = channel('expect-llm:replay-session-starting')

const warnedLive = new Set<string>()

/** In `live` mode a model request failed to connect: name the host and the key variable, once per host and test file. */
function onLiveFailure(request: Required<EscapedRequest>, testPath: string | undefined): void {
  const origin = new URL(request.url).origin
  // Stryker disable next-line StringLiteral: equivalent, any constant is the one key of a file without a path
  const file = testPath ?? ''
  const key = `${file}\0${origin}`
  if (warnedLive.has(key)) return
  warnedLive.add(key)
  const variables = keyVariablesFor(origin).join(' or ')
  console.warn(
    formatMessage(
      `Failed to reach ${origin} in live mode (${request.error}): live mode sends model requests to the ` +
        `network with ${variables}. Check the network (proxy, VPN, DNS) and that ${variables} is set, or ` +
        `replay the recordings instead (unset EXPECT_LLM_REPLAY).`,
    ),
  )
}

const WATCHER = sharedMark('replay-escape-watcher')
const STOP = sharedMark('replay-session-stop')
type SessionInternals = ReplaySession & { [WATCHER]?: EscapeWatcher }
/** The session's stop function, under a mark shared by the CJS and ESM builds (Jest may load both). */
const stopOf = (session: ReplaySession): (() => void) => (session as unknown as Record<symbol, () => void>)[STOP]!
/** The session's escape watcher. Every session has both marks: only startSession makes sessions. */
const watcherOf = (session: ReplaySession): EscapeWatcher => (session as SessionInternals)[WATCHER]!
const warnedEscapes = new Set<string>()

/**
 * A request to a replay host went to the network without MSW seeing it. In `replay` mode the test fails
 * with the fix; in a recording mode (nothing was recorded) a warning is printed once per test file.
 */
function onEscape(engine: ReplayEngine, request: EscapedRequest, testPath: string | undefined, testName: string | undefined): void {
  const mode = engine.mode()
  const what = `${request.method} ${request.url}`
  const how = request.error ? `tried to reach the network (${request.error})` : 'went to the network'
  const fix =
    'The client was created before replay started and kept the fetch from before. Create it after the ' +
    'setup file has run (list expect-llm/vitest in setupFiles; with your own MSW server, call ' +
    'server.listen() at the top level of a setup file), or pass fetch: (url, init) => ' +
    'globalThis.fetch(url, init) to the client.'
  if (mode === 'replay') {
    engine.reportProblem({
      kind: 'escape',
      testPath,
      testName,
      message: formatMessage(`Failed to replay ${what}: the request bypassed record/replay and ${how}. ${fix}`),
    })
    return
  }
  // Stryker disable next-line StringLiteral: equivalent, any constant is the one key of a file without a path
  const key = testPath ?? ''
  if (warnedEscapes.has(key)) return
  warnedEscapes.add(key)
  console.warn(formatMessage(`Failed to record ${what}: the request bypassed record/replay and ${how}, so nothing was recorded. ${fix}`))
}

function registerHooks(session: ReplaySession, runner: TestRunner): ReplaySession {
  const { replay } = session
  // Register once per test file: a file may load the setup entry twice (Jest's setupFilesAfterEnv loads
  // the CommonJS build, and a test file that also imports 'expect-llm/jest' loads the ESM build). The
  // record lives on globalThis because the two builds are separate module instances.
  const registered = processSlot('replay-registered-files', () => new WeakMap<ReplaySession, Set<string>>())
  const files = registered.get(session) ?? new Set<string>()
  // Stryker disable next-line StringLiteral: equivalent, any constant is the one key of a file without a path
  const file = runner.testPath() ?? ''
  if (files.has(file)) return session
  files.add(file)
  registered.set(session, files)

  runner.afterEach(async ({ errors }) => {
    await replay.flush()
    await watcherOf(session).idle()
    const problems = replay.takeProblems(runner.testPath())
    if (problems.length > 0) throw oneBlock(problems, errors)
  })
  runner.afterAll(async (ended) => {
    await replay.flush()
    await watcherOf(session).idle()
    const testPath = ended.testPath
    const rootDir = replay.engine.resolve().layout.rootDir
    if (testPath) {
      const [summary] = await replay.summary(testPath)
      if (summary && summary.used.length + summary.created.length + summary.unused.length > 0) {
        const run = ended.completeness()
        // Never empty: formatSummary writes a line for every summary with a fixture.
        console.log(formatSummary([summary], rootDir, run))
        await writeUsageRecord(rootDir, summary, run).catch(() => undefined)
      }
    }
    const leftover = replay.takeProblems(testPath)
    if (runner.msw.serverPerFile && getReplaySession() === session) {
      // Jest runs the next test file in a fresh global but the same process, where MSW's patches of
      // Node's http/net modules would outlive this file and keep routing to this file's handlers: stop
      // the server, so the next file's setup file starts its own.
      stopOf(session)()
    }
    if (leftover.length > 0) throw oneBlock(leftover, undefined)
  })
  return session
}

/** Whether a message in an error's `cause` chain repeats one of `headlines` (Jest keeps `[error, asyncError]` pairs). */
function repeatsHeadline(error: unknown, headlines: string[]): boolean {
  let e: unknown = Array.isArray(error) ? error[0] : error
  for (let depth = 0; e != null && depth < 8; depth++) {
    const message = (e as { message?: unknown }).message
    if (typeof message === 'string' && headlines.some((h) => message.includes(h))) return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}

/**
 * One miss, one clear block: the client's error (and its `Caused by` chain and serialized response) only
 * repeats the first line of a replay problem, so it is taken out of the test's errors, and the test fails
 * with the replay error alone. That error borrows the removed error's stack, so the code frame still points
 * at the line of the test that made the request; without one, it carries no stack (its frames would be
 * expect-llm's own hook).
 */
function oneBlock(problems: ReplayProblem[], errors: unknown[] | undefined): ReplayError {
  const error = new ReplayError(problems)
  const headlines = problems.map((p) => p.message.split('\n')[0]!)
  let stack: string | undefined
  if (errors) {
    // Stryker disable next-line ArithmeticOperator: equivalent, an index past the end reads undefined, which repeats no headline
    for (let i = errors.length - 1; i >= 0; i--) {
      if (!repeatsHeadline(errors[i], headlines)) continue
      const removed = errors.splice(i, 1)[0]
      // An object: it has a message that repeats a headline.
      const own = (Array.isArray(removed) ? removed[0] : removed) as { stack?: unknown }
      // Stryker disable next-line StringLiteral: equivalent, frames are lines that start with "at", and the other text has none either
      const frames = String(own.stack ?? '')
        .split('\n')
        .filter((line) => /^\s+at /.test(line))
      if (frames.length > 0) stack = frames.join('\n')
    }
  }
  error.stack = `${error.name}: ${error.message}${stack ? `\n${stack}` : ''}`
  return error
}

export type { ReplaySession } from './session.js'

/**
 * Internals for this package's own tests: the report when msw cannot be loaded (which depends on whether msw
 * is installed, and on the runtime), and a way to forget that it warned once. Not part of the public API;
 * do not re-export.
 *
 * @internal
 */
export const __testing = {
  reportMissingMsw,
  resolvable,
  forgetMissingMswWarning: (): void => {
    warnedMissingMsw = false
  },
}
