/**
 * Starts replay from a runner setup file (`expect-llm/vitest`, `expect-llm/jest`). msw is an optional peer,
 * so it is imported dynamically here.
 * @packageDocumentation
 */
import { createRequire } from 'node:module'
import { getConfig } from '../config.js'
import { formatMessage } from '../errors.js'
import { ReplayEngine, type MswApi } from './engine.js'
import { createLlmReplay, ReplayError } from './handlers.js'
import { getReplaySession, setReplaySession, type ReplaySession } from './session.js'
import { formatSummary, writeUsageRecord } from './summary.js'

type Hook = (fn: (...args: any[]) => unknown, timeout?: number) => unknown

/** What the runner setup file passes to {@link setupReplay}. */
export interface ReplayRunnerHooks {
  /** The runner, for the record command shown on a miss. */
  runner: 'vitest' | 'jest'
  /** The runner's `afterEach`: fails the test when replay saw a problem during it. */
  afterEach: Hook
  /** The runner's `afterAll`: prints the fixture summary and keeps the usage record for `prune`. */
  afterAll: Hook
  /** The runner's `expect`, whose `getState()` gives the current test file and name. */
  expect?: { getState(): { testPath?: string | undefined; currentTestName?: string | undefined } }
}

let warnedMissingMsw = false

function explicitlyRequested(): boolean {
  const cfg = getConfig().replay
  return Boolean(process.env.EXPECT_LLM_REPLAY || cfg?.mode)
}

/** Finds the Vitest file/suite object among `afterAll` arguments (Vitest 4 passes `(suite)`, Vitest 5 `(context, suite)`). */
function findSuite(args: unknown[]): { tasks?: unknown[]; filepath?: string; file?: { filepath?: string } } | undefined {
  return args.find((a) => a !== null && typeof a === 'object' && Array.isArray((a as { tasks?: unknown }).tasks)) as never
}

/** `true` when every test in the suite tree ran (none skipped, filtered out, `todo`, or excluded by `.only`). */
function everyTestRan(suite: { tasks?: unknown[] } | undefined): boolean {
  if (!suite) return false
  const walk = (tasks: unknown[]): boolean =>
    tasks.every((t) => {
      const task = t as { type?: string; mode?: string; tasks?: unknown[] }
      if (task.mode && task.mode !== 'run' && task.mode !== 'queued') return false
      return task.type === 'suite' ? walk(task.tasks ?? []) : true
    })
  return walk(suite.tasks ?? [])
}

function jestRunIsUnfiltered(): boolean {
  return !process.argv.some((a) => /^(?:-t|--testNamePattern|--onlyChanged|-o|--changedSince|--onlyFailures|-f|--lastCommit)(?:=|$)/.test(a))
}

/**
 * Starts record/replay for a test runner, from a setup file, so that `server.listen()` runs while the setup
 * file is imported, before test files build module-level clients (a client that captured `fetch` before
 * `listen()` would escape interception). Under Vitest msw is loaded synchronously and `listen()` has run
 * when the call returns, so no `await` is needed; under Jest (ESM mode) `await` the returned promise.
 *
 * - Starts one MSW server per worker (reused when the setup file runs again in the same worker) whose
 *   only handler answers requests to `https://api.openai.com` and `configure({ replay: { hosts } })`;
 *   every other request passes through untouched.
 * - Registers `afterEach`, which fails the test when a request in it missed its fixture, hit a corrupt
 *   fixture, or could not be written, even if the app swallowed the SDK error.
 * - Registers `afterAll`, which prints used/new/unused fixtures for the file and keeps a usage record
 *   under `.expect-llm/replay/usage/` for `expect-llm fixtures prune`.
 *
 * Returns the session, or `undefined` when msw is not installed (with a one-time message if a replay mode
 * was requested explicitly).
 *
 * @example
 * ```ts
 * // src/vitest.ts
 * import { afterAll, afterEach, expect } from 'vitest'
 * import { setupReplay } from './replay/setup.js'
 * void setupReplay({ runner: 'vitest', afterEach, afterAll, expect }) // listening on return
 * ```
 */
export function setupReplay(hooks: ReplayRunnerHooks): Promise<ReplaySession | undefined> {
  const existing = getReplaySession()
  if (existing) return Promise.resolve(registerHooks(existing, hooks))
  // Under Vitest, load msw synchronously so that listen() has run when setupReplay() returns: the setup
  // file then needs no top-level await (and can be built as CommonJS too). Jest keeps the dynamic import,
  // which goes through its own module registry.
  const sync = hooks.runner === 'vitest' ? loadMswSync() : undefined
  if (sync) return Promise.resolve(registerHooks(startSession(sync, hooks, sync.version), hooks))
  return (async () => {
    let mods: LoadedMsw
    try {
      const core = (await import('msw')) as unknown as MswApi
      const node = (await import('msw/node')) as unknown as LoadedMsw['node']
      mods = { msw: { http: core.http, bypass: core.bypass, passthrough: core.passthrough }, node }
    } catch (error) {
      // Not installed and not asked for: the user does not use replay, so stay quiet. Installed but not
      // loadable (Jest in CommonJS mode), or asked for: say so, since model calls would go to the network.
      const notInstalled = (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' || (error as { code?: string }).code === 'MODULE_NOT_FOUND'
      if ((explicitlyRequested() || !notInstalled) && !warnedMissingMsw) {
        warnedMissingMsw = true
        console.warn(
          formatMessage(
            `Failed to start record/replay: msw could not be loaded (${(error as Error).message.split('\n')[0]}). Install it with \`npm i -D msw\`${hooks.runner === 'jest' ? ', and run Jest in ESM mode (NODE_OPTIONS=--experimental-vm-modules)' : ''}; until then model requests go to the network.`,
          ),
        )
      }
      return undefined
    }
    let version = 'unknown'
    try {
      const pkg = (await import('msw/package.json', { with: { type: 'json' } })) as { default: { version: string } }
      version = pkg.default.version
    } catch {
      // diagnostics only
    }
    return registerHooks(getReplaySession() ?? startSession(mods, hooks, version), hooks)
  })()
}

interface LoadedMsw {
  msw: MswApi
  node: { setupServer: (...handlers: unknown[]) => ReplaySession['server'] & { listen: (options?: object) => void } }
  version?: string
}

/** Loads msw with Node's `require` (msw 3 is ESM-only; Node >= 22.12 requires ESM synchronously). `undefined` if that fails. */
function loadMswSync(): LoadedMsw | undefined {
  let req: NodeJS.Require | undefined
  try {
    req = typeof require === 'function' ? require : createRequire(import.meta.url)
  } catch {
    return undefined
  }
  try {
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
    return undefined
  }
}

function startSession(mods: LoadedMsw, hooks: ReplayRunnerHooks, mswVersion = 'unknown'): ReplaySession {
  const expectState = (): { testPath?: string | undefined; currentTestName?: string | undefined } | undefined => {
    try {
      return hooks.expect?.getState()
    } catch {
      return undefined
    }
  }
  const engine = new ReplayEngine({ runner: hooks.runner, testPath: () => expectState()?.testPath, testName: () => expectState()?.currentTestName })
  const replay = createLlmReplay(mods.msw, engine)
  const server = mods.node.setupServer(...replay.handlers)
  // Both names: msw 2 reads onUnhandledRequest, msw 3 reads onUnhandledFrame. Non-model traffic passes through;
  // model traffic never reaches this strategy because the catch-all handler answers it.
  server.listen({ onUnhandledRequest: 'bypass', onUnhandledFrame: 'bypass' })
  const session: ReplaySession = { replay, server, mswVersion }
  setReplaySession(session)
  return session
}

const REGISTERED = Symbol.for('expect-llm.replay-registered-files')

function registerHooks(session: ReplaySession, hooks: ReplayRunnerHooks): ReplaySession {
  const { replay } = session
  const currentPath = (): string | undefined => {
    try {
      return hooks.expect?.getState().testPath
    } catch {
      return undefined
    }
  }
  // Register once per test file: a file may load the setup entry twice (Jest's setupFilesAfterEnv loads
  // the CommonJS build, and a test file that also imports 'expect-llm/jest' loads the ESM build). The
  // record lives on globalThis because the two builds are separate module instances.
  const g = globalThis as { [REGISTERED]?: WeakMap<ReplaySession, Set<string>> }
  const registered = (g[REGISTERED] ??= new WeakMap())
  const files = registered.get(session) ?? new Set<string>()
  const file = currentPath() ?? ''
  if (files.has(file)) return session
  files.add(file)
  registered.set(session, files)

  hooks.afterEach(async () => {
    await replay.flush()
    const problems = replay.takeProblems(currentPath())
    if (problems.length > 0) throw new ReplayError(problems)
  })
  // A plain function without declared parameters: Vitest 5 rejects hooks whose first parameter is not an
  // object pattern, and Vitest 4 passes the suite first while Vitest 5 passes it second.
  hooks.afterAll(async function replayAfterAll(this: unknown) {
    // eslint-disable-next-line prefer-rest-params
    const args = [...arguments] as unknown[]
    await replay.flush()
    const suite = findSuite(args)
    const testPath = currentPath() ?? suite?.filepath ?? suite?.file?.filepath
    const rootDir = replay.engine.resolve().layout.rootDir
    if (testPath) {
      const [summary] = await replay.summary(testPath)
      if (summary && summary.used.length + summary.created.length + summary.unused.length > 0) {
        const text = formatSummary([summary], rootDir)
        if (text) console.log(text)
        const complete = hooks.runner === 'vitest' ? everyTestRan(suite) : jestRunIsUnfiltered()
        await writeUsageRecord(rootDir, summary, complete).catch(() => undefined)
      }
    }
    const leftover = replay.takeProblems(testPath)
    if (hooks.runner === 'jest' && getReplaySession() === session) {
      // Jest runs the next test file in a fresh global but the same process, where MSW's patches of
      // Node's http/net modules would outlive this file and keep routing to this file's handlers: stop
      // the server, so the next file's setup file starts its own.
      session.server.close()
      setReplaySession(undefined)
    }
    if (leftover.length > 0) throw new ReplayError(leftover)
  })
  return session
}

export type { ReplaySession } from './session.js'
