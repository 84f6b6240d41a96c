// Shared helpers for the replay tests: a temporary fixture root per test and a record/replay MSW setup
// that composes with the session started by the repository's own setup file (if any).
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import OpenAI from 'openai'
import { afterEach, beforeEach, vi } from 'vitest'
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js'
import { runCli } from '../../src/replay/cli.js'
import { getReplaySession, llmReplay, type LlmReplay } from '../../src/entries/replay.js'
import type { ReplayOptions } from '../../src/replay/types.js'
import type { EndedFile, EndedTest, TestRunner } from '../../src/runners/types.js'

/** Creates an empty temporary project root. */
export async function tempRoot(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'expect-llm-replay-'))
}

/** Removes a temporary root. */
export async function removeRoot(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true })
}

/** Every file under `dir`, recursively (absolute paths). */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort()
}

/** Every fixture file under `dir`. */
export async function fixtureFiles(dir: string): Promise<string[]> {
  return (await listFiles(dir)).filter((f) => /\.[0-9a-f]{16}\.json$/.test(f))
}

/** The concatenated text of every file under `dir`. */
export async function allText(dir: string): Promise<string> {
  const files = await listFiles(dir)
  return (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('\n')
}

/** Neutralizes the developer's and CI's environment so that the mode passed in the options is the one used. */
export function forceModeFromOptions(): void {
  vi.stubEnv('EXPECT_LLM_REPLAY', '')
  vi.stubEnv('EXPECT_LLM_ALLOW_RECORD_IN_CI', '1')
}

/** What {@link useReplaySandbox} gives each test: read the getters inside tests and hooks, they change per test. */
export interface ReplaySandbox {
  /** The scripted OpenAI-compatible server of the current test. */
  readonly server: OpenAIServer
  /** The empty temporary project root of the current test. */
  readonly root: string
}

/**
 * Registers the `beforeEach`/`afterEach` hooks shared by the replay tests: before each test, the mode comes
 * from the options ({@link forceModeFromOptions}), a fresh {@link startOpenAIServer} server and an empty
 * {@link tempRoot}; after it, the env stubs are undone, the server is closed and the root removed.
 *
 * @example
 * ```ts
 * const sandbox = useReplaySandbox()
 * test('records', async () => {
 *   const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
 *   // ...
 * })
 * ```
 */
export function useReplaySandbox(): ReplaySandbox {
  let server: OpenAIServer
  let root: string

  beforeEach(async () => {
    forceModeFromOptions()
    server = await startOpenAIServer()
    root = await tempRoot()
  })

  afterEach(async () => {
    vi.unstubAllEnvs()
    await server.close()
    await removeRoot(root)
  })

  return {
    get server() {
      return server
    },
    get root() {
      return root
    },
  }
}

/** A running replay setup for one phase of a test. */
export interface ReplayPhase {
  replay: LlmReplay
  /**
   * Requests that got past the replay handlers (and the network guard, with `guard: true`): in a test of
   * replay, each of them would have left the machine. A sentinel handler stands in for the network and
   * answers them with a 404 (`x-sentinel: 1`), so nothing is sent for real.
   */
  escaped: string[]
  /** Stops intercepting (and throws nothing). */
  close(): void
}

/**
 * Starts intercepting with `llmReplay(options)`: on the session server of the repository setup file when
 * there is one (two listening servers do not compose), otherwise on a server of its own. Behind the replay
 * handlers (and the CI network rule, with `guard: true`) a sentinel catches every other request.
 */
export function startReplay(options: ReplayOptions, { guard = false }: { guard?: boolean } = {}): ReplayPhase {
  const replay = llmReplay(options)
  const escaped: string[] = []
  const sentinel = http.all('*', ({ request }) => {
    const url = new URL(request.url)
    // Loopback servers of the test are the only real destinations allowed.
    if (url.hostname === '127.0.0.1') return undefined
    escaped.push(`${request.method} ${request.url}`)
    return new HttpResponse(JSON.stringify({ error: { message: `sentinel: ${request.url} would have left the machine` } }), {
      status: 404,
      headers: { 'content-type': 'application/json', 'x-should-retry': 'false', 'x-sentinel': '1' },
    })
  })
  const handlers = [...replay.handlers, ...(guard ? [replay.networkGuard] : []), sentinel]
  const session = getReplaySession()
  if (session) {
    session.server.use(...handlers)
    return { replay, escaped, close: () => session.server.resetHandlers() }
  }
  const server = setupServer(...handlers)
  server.listen({ onUnhandledRequest: 'bypass', onUnhandledFrame: 'bypass' } as never)
  return { replay, escaped, close: () => server.close() }
}

/** An openai client for the local server; build it after `startReplay()`. */
export function client(baseURL: string, extra: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}): OpenAI {
  return new OpenAI({ baseURL, apiKey: 'test-key-local', maxRetries: 2, ...extra })
}

/** Options for a test file living at `<root>/<name>`. */
export function optionsFor(root: string, origin: string, mode: ReplayOptions['mode'], extra: ReplayOptions = {}): ReplayOptions {
  return { mode, rootDir: root, hosts: [origin], testPath: () => join(root, 'test', 'example.test.ts'), ...extra }
}

/** Runs `expect-llm <args> --root <root>` in-process and returns its exit code and output. */
export async function cliIn(root: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli([...args, '--root', root], { out: (l) => out.push(l), err: (l) => err.push(l) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

/** A runner whose afterEach and afterAll hooks are kept for the test to call; `file.path` is its test file. */
export interface ScriptedRunner extends TestRunner {
  eachHooks: Array<(ended: EndedTest) => unknown>
  allHooks: Array<(ended: EndedFile) => unknown>
  file: { path: string | undefined }
}

/** A Vitest-like runner for setupReplay tests in-process (`overrides` make it another runner, e.g. Jest's). */
export function scriptedRunner(testPath: string | undefined, overrides: Partial<TestRunner> = {}): ScriptedRunner {
  const eachHooks: ScriptedRunner['eachHooks'] = []
  const allHooks: ScriptedRunner['allHooks'] = []
  const file = { path: testPath }
  return {
    name: 'vitest',
    asyncDescribe: true,
    describe: () => undefined,
    test: () => undefined,
    afterEach: (fn) => eachHooks.push(fn),
    afterAll: (fn) => allHooks.push(fn),
    testPath: () => file.path,
    testName: () => 'scripted test',
    updateMode: () => 'none',
    testOfMatcher: () => undefined,
    wrapsPromiseModifiers: true,
    annotate: async () => false,
    msw: { load: 'require', installHint: '', serverPerFile: true },
    recordCommand: (rel) => `npx scripted ${rel}`,
    ...overrides,
    eachHooks,
    allHooks,
    file,
  }
}
