// Shared helpers for the replay tests: a temporary fixture root per test and a record/replay MSW setup
// that composes with the session started by the repository's own setup file (if any).
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setupServer } from 'msw/node'
import OpenAI from 'openai'
import { afterEach, beforeEach, vi } from 'vitest'
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js'
import { getReplaySession, llmReplay, type LlmReplay } from '../../src/replay/index.js'
import type { ReplayOptions } from '../../src/replay/types.js'

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
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort()
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
  /** Stops intercepting (and throws nothing). */
  close(): void
}

/**
 * Starts intercepting with `llmReplay(options)`: on the session server of the repository setup file when
 * there is one (two listening servers do not compose), otherwise on a server of its own.
 */
export function startReplay(options: ReplayOptions): ReplayPhase {
  const replay = llmReplay(options)
  const session = getReplaySession()
  if (session) {
    session.server.use(...replay.handlers)
    return { replay, close: () => session.server.resetHandlers() }
  }
  const server = setupServer(...replay.handlers)
  server.listen({ onUnhandledRequest: 'bypass', onUnhandledFrame: 'bypass' } as never)
  return { replay, close: () => server.close() }
}

/** An openai client for the local server; build it after `startReplay()`. */
export function client(baseURL: string, extra: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}): OpenAI {
  return new OpenAI({ baseURL, apiKey: 'test-key-local', maxRetries: 2, ...extra })
}

/** Options for a test file living at `<root>/<name>`. */
export function optionsFor(root: string, origin: string, mode: ReplayOptions['mode'], extra: ReplayOptions = {}): ReplayOptions {
  return { mode, rootDir: root, hosts: [origin], testPath: () => join(root, 'test', 'example.test.ts'), ...extra }
}
