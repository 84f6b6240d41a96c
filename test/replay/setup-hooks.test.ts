// The replay session a setup entry starts (src/replay/setup.ts setupReplay), run in-process with a scripted
// runner whose hooks the tests call: what afterEach fails a test with (one block per miss, the client's
// repeated error taken out), what afterAll prints, keeps and stops, the CI network rule behind the handlers,
// and the escape watcher's report. The child-process tests (session.test.ts, runner.test.ts) run the same
// code through real Vitest and Jest runs, which a mutation run cannot see.
import diagnostics from 'node:diagnostics_channel'
import { createRequire } from 'node:module'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { http, HttpResponse } from 'msw'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { configure, getConfig } from '../../src/config.js'
import { ReplayError } from '../../src/replay/handlers.js'
import { getReplaySession, setReplaySession, type ReplaySession } from '../../src/replay/session.js'
import { setupReplay } from '../../src/replay/setup.js'
import { peekProcessSlot, sharedMark } from '../../src/process-state.js'
import type { ReplayOptions } from '../../src/replay/types.js'
import { client, forceModeFromOptions, removeRoot, scriptedRunner, tempRoot, type ScriptedRunner } from './helpers.js'
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js'

const STOP = sharedMark('replay-session-stop')
const started: ReplaySession[] = []
let server: OpenAIServer
let root: string
let savedReplay: ReplayOptions | undefined

// A session of this file replaces the repository setup file's one (under the root configuration), which
// closes when the first of these starts; every session started here is stopped after its test.
beforeAll(() => setReplaySession(undefined))
beforeEach(async () => {
  forceModeFromOptions()
  server = await startOpenAIServer()
  root = await tempRoot()
  savedReplay = getConfig().replay
})
afterEach(async () => {
  // Only the current one is still listening: a session stops when the next one starts, or in its afterAll.
  for (const s of started.splice(0)) if (getReplaySession() === s) (s as unknown as Record<symbol, () => void>)[STOP]!()
  const state = getConfig() as { replay?: ReplayOptions }
  if (savedReplay === undefined) delete state.replay
  else state.replay = savedReplay
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
  await server.close()
  await removeRoot(root)
})
afterAll(() => setReplaySession(undefined))

const testFile = () => join(root, 'test', 'a.test.ts')

async function start(runner: ScriptedRunner, replay: ReplayOptions): Promise<ReplaySession> {
  configure({ replay: { rootDir: root, hosts: [server.origin], ...replay } })
  const session = await setupReplay(runner)
  if (!session) throw new Error('setupReplay started no session')
  if (!started.includes(session)) started.push(session)
  return session
}

/** Runs the runner's afterEach hook as the runner would, with the test's list of errors. */
const each = (runner: ScriptedRunner, errors: unknown[]): Promise<unknown> => Promise.resolve(runner.eachHooks[0]!({ test: undefined, errors }))

const chat = (content: string) =>
  client(server.baseURL, { maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], temperature: 0 })

describe('setupReplay', () => {
  test('starts one listening session with the installed msw version, and returns it again for the same process', async () => {
    const runner = scriptedRunner(testFile())
    const session = await start(runner, { mode: 'replay' })
    expect(getReplaySession()).toBe(session)
    expect(session.mswVersion).toBe((createRequire(import.meta.url)('msw/package.json') as { version: string }).version)
    expect(await setupReplay(scriptedRunner(join(root, 'test', 'b.test.ts')))).toBe(session)
  })

  test('registers its hooks once per test file, again for another test file', async () => {
    const a = scriptedRunner(testFile())
    const session = await start(a, { mode: 'replay' })
    await setupReplay(a)
    expect([a.eachHooks.length, a.allHooks.length]).toEqual([1, 1])
    const b = scriptedRunner(join(root, 'test', 'b.test.ts'))
    expect(await setupReplay(b)).toBe(session)
    expect([b.eachHooks.length, b.allHooks.length]).toEqual([1, 1])
  })

  test('with a runner that loads msw by require, the session is listening when setupReplay returns, before any await', async () => {
    configure({ replay: { rootDir: root, hosts: [server.origin], mode: 'replay' } })
    const pending = setupReplay(scriptedRunner(testFile()))
    const session = getReplaySession()
    expect(session).toBeDefined()
    started.push(session!)
    expect(await pending).toBe(session)
  })

  test('a new session closes the one still listening in this process (a Jest file that never ran its afterAll)', async () => {
    const first = await start(scriptedRunner(testFile()), { mode: 'replay' })
    const close = vi.spyOn(first.server, 'close')
    setReplaySession(undefined)
    const second = await start(scriptedRunner(join(root, 'test', 'b.test.ts')), { mode: 'replay' })
    expect(second).not.toBe(first)
    expect(close).toHaveBeenCalledTimes(1)
    expect(getReplaySession()).toBe(second)
  })

  test('the files whose hooks are registered live in the process slot that the ESM and CommonJS builds share', async () => {
    const session = await start(scriptedRunner(testFile()), { mode: 'replay' })
    const registered = peekProcessSlot<WeakMap<ReplaySession, Set<string>>>('replay-registered-files')
    expect([...(registered?.get(session) ?? [])]).toEqual([testFile()])
  })

  test('stopping a session that is no longer the current one leaves the current one in place', async () => {
    const session = await start(scriptedRunner(testFile()), { mode: 'replay' })
    const current = { mswVersion: 'another session' } as unknown as ReplaySession
    setReplaySession(current)
    ;(session as unknown as Record<symbol, () => void>)[STOP]!()
    expect(getReplaySession()).toBe(current)
    setReplaySession(undefined)
  })

  test('answers a recorded request from its fixture without reaching the server, and misses an unrecorded one', async () => {
    const runner = scriptedRunner(testFile())
    await start(runner, { mode: 'record' })
    await chat('Capital of France?')
    await each(runner, [])
    expect(server.requests).toHaveLength(1)
    configure({ replay: { rootDir: root, hosts: [server.origin], mode: 'replay' } })
    expect((await chat('Capital of France?')).choices[0]?.message.content).toBe('echo: Capital of France?')
    await expect(chat('Never recorded')).rejects.toMatchObject({ status: 404 })
    expect(server.requests).toHaveLength(1)
  })
})

describe('afterEach', () => {
  test('fails the test with the miss alone: the client error that repeats its headline is taken out and lends its stack', async () => {
    const runner = scriptedRunner(testFile())
    await start(runner, { mode: 'replay' })
    const clientError: Error = await chat('Never recorded').then(
      () => expect.unreachable('the request should miss'),
      (e: unknown) => e as Error,
    )
    const unrelated = new Error('an assertion of the test')
    const errors: unknown[] = [unrelated, clientError]
    const thrown = await each(runner, errors).catch((e: unknown) => e)
    expect(thrown).toBeInstanceOf(ReplayError)
    const error = thrown as ReplayError
    expect(error.problems.map((p) => [p.kind, p.testPath, p.testName])).toEqual([['miss', testFile(), 'scripted test']])
    expect(error.message.split('\n')[0]).toMatch(/^\[expect-llm\] Failed to replay POST \/v1\/chat\/completions \(model gpt-4o-mini\): no fixture matches/)
    expect(error.message).toContain('  Record it:     EXPECT_LLM_REPLAY=record npx scripted test/a.test.ts')
    expect(errors).toEqual([unrelated])
    const frames = clientError.stack!.split('\n').filter((l) => /^\s+at /.test(l))
    expect(frames.length).toBeGreaterThan(0)
    expect(error.stack).toBe(`ReplayError: ${error.message}\n${frames.join('\n')}`)
    // Taken: the next test of the file starts clean.
    await expect(each(runner, [])).resolves.toBeUndefined()
  })

  test('finds the headline in the cause chain and in a [error, asyncError] pair; keeps errors that do not repeat it', async () => {
    const runner = scriptedRunner(testFile())
    const session = await start(runner, { mode: 'replay' })
    const message = '[expect-llm] Failed to replay POST /v1/x: no fixture matches this request.\n  Request:       POST /v1/x'
    const headline = message.split('\n')[0]!
    const engine = session.replay.engine
    const caused = new Error('request failed', { cause: new Error(`404 ${headline} The test fails with the details.`) })
    const pair = [new Error(`wrapped: ${headline}`), new Error('async')]
    const other = new Error('[expect-llm] Failed to replay POST /v1/y: something else')
    engine.reportProblem({ kind: 'miss', message, testPath: testFile() })
    const errors: unknown[] = [caused, other, pair, 'a thrown string']
    const thrown = (await each(runner, errors).catch((e: unknown) => e)) as ReplayError
    expect(thrown.message).toBe(message)
    expect(errors).toEqual([other, 'a thrown string'])
    // The stack is the frames of the first removed error in the list (the pair's own error is its first one).
    const frames = caused.stack!.split('\n').filter((l) => /^\s+at /.test(l))
    expect(thrown.stack).toBe(`ReplayError: ${message}\n${frames.join('\n')}`)
  })

  test('a cause chain is followed 8 errors deep, not further', async () => {
    const runner = scriptedRunner(testFile())
    const session = await start(runner, { mode: 'replay' })
    const headline = '[expect-llm] Failed to replay POST /v1/deep: no fixture matches this request.'
    const chain = (depth: number): Error => {
      let e = new Error(`404 ${headline}`)
      for (let i = 1; i < depth; i++) e = new Error(`level ${i}`, { cause: e })
      return e
    }
    const eight = chain(8)
    const nine = chain(9)
    session.replay.engine.reportProblem({ kind: 'miss', message: headline, testPath: testFile() })
    const errors: unknown[] = [nine, eight]
    await each(runner, errors).catch(() => undefined)
    expect(errors).toEqual([nine])
  })

  test('an error that repeats one of several problems is taken out', async () => {
    const runner = scriptedRunner(testFile())
    const session = await start(runner, { mode: 'replay' })
    const engine = session.replay.engine
    engine.reportProblem({ kind: 'miss', message: '[expect-llm] Failed to replay A.', testPath: testFile() })
    engine.reportProblem({ kind: 'miss', message: '[expect-llm] Failed to replay B.', testPath: testFile() })
    const errors: unknown[] = [new Error('404 [expect-llm] Failed to replay B.')]
    await each(runner, errors).catch(() => undefined)
    expect(errors).toEqual([])
  })

  test('errors without a message, thrown nulls and causes that are not errors are kept, and the miss still fails the test', async () => {
    const runner = scriptedRunner(testFile())
    const session = await start(runner, { mode: 'replay' })
    const message = '[expect-llm] Failed to replay POST /v1/x: no fixture matches this request.'
    session.replay.engine.reportProblem({ kind: 'miss', message, testPath: testFile() })
    const noMessage = { code: 'ECONNRESET' }
    const plainCause = new Error('socket hang up', { cause: { code: 'ECONNRESET' } })
    const nullCause = new Error('aborted', { cause: null })
    const errors: unknown[] = [noMessage, null, plainCause, nullCause]
    const thrown = await each(runner, errors).catch((e: unknown) => e)
    expect(thrown).toBeInstanceOf(ReplayError)
    expect((thrown as ReplayError).stack).toBe(`ReplayError: ${message}`)
    expect(errors).toEqual([noMessage, null, plainCause, nullCause])
  })

  test('the borrowed stack is the frames alone, not a message line that says " at "', async () => {
    const runner = scriptedRunner(testFile())
    const session = await start(runner, { mode: 'replay' })
    const message = '[expect-llm] Failed to replay POST /v1/x: no fixture matches this request.'
    session.replay.engine.reportProblem({ kind: 'miss', message, testPath: testFile() })
    const clientError = new Error(`request failed at the gateway: ${message}`)
    const thrown = (await each(runner, [clientError]).catch((e: unknown) => e)) as ReplayError
    const frames = clientError.stack!.split('\n').filter((l) => /^\s+at /.test(l))
    expect(frames.length).toBeGreaterThan(0)
    expect(thrown.stack).toBe(`ReplayError: ${message}\n${frames.join('\n')}`)
  })

  test('a first removed error without frames keeps the frames of a later one', async () => {
    const runner = scriptedRunner(testFile())
    const session = await start(runner, { mode: 'replay' })
    const message = '[expect-llm] Failed to replay POST /v1/x: no fixture matches this request.'
    session.replay.engine.reportProblem({ kind: 'miss', message, testPath: testFile() })
    const serialized = { message: `404 ${message}`, stack: `Error: 404 ${message}` }
    const clientError = new Error(`404 ${message}`)
    const errors: unknown[] = [serialized, clientError]
    const thrown = (await each(runner, errors).catch((e: unknown) => e)) as ReplayError
    expect(errors).toEqual([])
    const frames = clientError.stack!.split('\n').filter((l) => /^\s+at /.test(l))
    expect(thrown.stack).toBe(`ReplayError: ${message}\n${frames.join('\n')}`)
  })

  test('without an error to borrow from, the replay error carries no frames; other test files keep their problems', async () => {
    const runner = scriptedRunner(testFile())
    const session = await start(runner, { mode: 'replay' })
    const engine = session.replay.engine
    engine.reportProblem({ kind: 'miss', message: '[expect-llm] Failed to replay A.', testPath: testFile() })
    engine.reportProblem({ kind: 'miss', message: '[expect-llm] Failed to replay B.', testPath: join(root, 'test', 'other.test.ts') })
    const errors: unknown[] = [new Error('unrelated')]
    const thrown = (await each(runner, errors).catch((e: unknown) => e)) as ReplayError
    expect(thrown.stack).toBe('ReplayError: [expect-llm] Failed to replay A.')
    expect(errors).toHaveLength(1)
    expect(engine.takeProblems().map((p) => p.message)).toEqual(['[expect-llm] Failed to replay B.'])
  })
})

describe('afterAll', () => {
  test('prints the file’s fixtures, keeps a usage record for prune, and stops a per-file server', async () => {
    const runner = scriptedRunner(testFile())
    await start(runner, { mode: 'record' })
    await chat('Capital of France?')
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    await runner.allHooks[0]!({ testPath: testFile(), completeness: () => ({ complete: true }) })
    expect(log.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(/^\[expect-llm\] Replay fixtures for test\/a\.test\.ts: 0 used, 1 new, 0 unused in test\/__llm_fixtures__\/a\.test\.ts\. Commit/),
    ])
    expect(await readdir(join(root, '.expect-llm', 'replay', 'usage'))).toHaveLength(1)
    expect(getReplaySession()).toBeUndefined()
    // Stopped: a request now reaches the server instead of the handlers.
    await chat('After the file')
    expect(server.requests).toHaveLength(2)
  })

  test('a file that used no fixture prints nothing and keeps no record; a shared server keeps running', async () => {
    const runner = scriptedRunner(testFile(), { msw: { load: 'require', installHint: '', serverPerFile: false } })
    const session = await start(runner, { mode: 'replay' })
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    await runner.allHooks[0]!({ testPath: testFile(), completeness: () => ({ complete: true }) })
    expect(log).not.toHaveBeenCalled()
    await expect(readdir(join(root, '.expect-llm'))).rejects.toMatchObject({ code: 'ENOENT' })
    expect(getReplaySession()).toBe(session)
  })

  test('a file whose fixtures all went unused prints them (nothing used or new)', async () => {
    const recording = scriptedRunner(testFile())
    await start(recording, { mode: 'record' })
    await chat('Capital of France?')
    vi.spyOn(console, 'log').mockImplementation(() => undefined)
    await recording.allHooks[0]!({ testPath: testFile(), completeness: () => ({ complete: true }) })
    vi.restoreAllMocks()
    // A later run of the file: this process's record of what it used and created is forgotten.
    const usage = peekProcessSlot<Map<string, unknown>>('replay-folder-usage')!
    for (const folder of [...usage.keys()]) if (folder.startsWith(root)) usage.delete(folder)
    const runner = scriptedRunner(testFile())
    await start(runner, { mode: 'replay' })
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    await runner.allHooks[0]!({ testPath: testFile(), completeness: () => ({ complete: true }) })
    expect(log.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(/^\[expect-llm\] Replay fixtures for test\/a\.test\.ts: 0 used, 0 new, 1 unused in /),
    ])
  })

  test('a file without a path prints no summary, even when fixtures were recorded', async () => {
    const runner = scriptedRunner(undefined)
    await start(runner, { mode: 'record', testPath: testFile })
    await chat('Capital of France?')
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    await runner.allHooks[0]!({ testPath: undefined, completeness: () => ({ complete: true }) })
    expect(log).not.toHaveBeenCalled()
  })

  test('a per-file server whose session is no longer the current one is left running', async () => {
    const runner = scriptedRunner(testFile())
    const session = await start(runner, { mode: 'replay' })
    const current = { mswVersion: 'another session' } as unknown as ReplaySession
    setReplaySession(current)
    await runner.allHooks[0]!({ testPath: testFile(), completeness: () => ({ complete: true }) })
    expect(getReplaySession()).toBe(current)
    // Still listening: the request misses its fixture instead of reaching the server.
    await expect(chat('After the file')).rejects.toMatchObject({ status: 404 })
    expect(server.requests).toHaveLength(0)
    setReplaySession(session)
  })

  test('problems left after the last test (a stream recorded after it) fail the file, without borrowed frames', async () => {
    const runner = scriptedRunner(testFile(), { msw: { load: 'require', installHint: '', serverPerFile: false } })
    const session = await start(runner, { mode: 'replay' })
    session.replay.engine.reportProblem({ kind: 'write', message: '[expect-llm] Failed to write fixture x.', testPath: testFile() })
    const thrown = await Promise.resolve(runner.allHooks[0]!({ testPath: testFile(), completeness: () => ({ complete: true }) })).catch((e: unknown) => e)
    expect(thrown).toBeInstanceOf(ReplayError)
    expect((thrown as Error).stack).toBe('ReplayError: [expect-llm] Failed to write fixture x.')
  })
})

describe('the session', () => {
  test('under CI in replay mode, a request to a host that is not a replay host fails at once; handlers added with server.use still answer', async () => {
    vi.stubEnv('CI', 'true')
    const runner = scriptedRunner(testFile())
    const session = await start(runner, { mode: 'replay' })
    const blocked = await fetch('https://blocked.example.invalid/v1/thing')
    expect(blocked.status).toBe(404)
    expect(blocked.headers.get('x-expect-llm-replay')).toBe('expect_llm_network_blocked')
    session.server.use(http.get('https://mine.example.invalid/ok', () => HttpResponse.json({ mine: true })))
    expect(await (await fetch('https://mine.example.invalid/ok')).json()).toEqual({ mine: true })
    expect(session.replay.takeProblems().map((p) => p.kind)).toEqual(['network'])
  })

  test('a request to a host that is not a replay host passes through to it without a word from MSW', async () => {
    vi.stubEnv('CI', '')
    await start(scriptedRunner(testFile()), { mode: 'replay', hosts: ['https://replay-host.invalid'] })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const response = await fetch(`${server.origin}/not-a-model-route`)
    await response.arrayBuffer()
    expect(server.requests).toHaveLength(1)
    expect([warn.mock.calls, error.mock.calls]).toEqual([[], []])
  })

  test('a WebSocket the session has no handler for connects past MSW without a word (onUnhandledFrame: bypass)', async () => {
    vi.stubEnv('CI', '')
    await start(scriptedRunner(testFile()), { mode: 'replay', hosts: ['https://replay-host.invalid'] })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    // Port 9 (discard) on loopback: nothing listens, so the socket fails to connect once MSW lets it through.
    const socket = new WebSocket('ws://127.0.0.1:9/')
    await new Promise((resolve) => {
      socket.addEventListener('close', resolve)
      socket.addEventListener('error', resolve)
    })
    expect([warn.mock.calls, error.mock.calls]).toEqual([[], []])
  })

  test('a request to a replay host that MSW never saw fails the test in replay mode, and warns once per file while recording', async () => {
    const origin = 'https://escape-setup.invalid'
    const runner = scriptedRunner(testFile())
    const session = await start(runner, { mode: 'replay', hosts: [origin] })
    const request = { origin, path: '/v1/chat/completions', method: 'POST', headers: [] }
    const escapeReplay = () => {
      const one = { ...request }
      diagnostics.channel('undici:request:create').publish({ request: one })
      diagnostics.channel('undici:request:error').publish({ request: one, error: new Error('getaddrinfo ENOTFOUND') })
    }
    escapeReplay()
    await each(runner, []).then(
      () => expect.unreachable('the escape should fail the test'),
      (error: ReplayError) => {
        expect(error.problems.map((p) => [p.kind, p.testPath, p.testName])).toEqual([['escape', testFile(), 'scripted test']])
        expect(error.message).toMatch(
          /^\[expect-llm\] Failed to replay POST https:\/\/escape-setup\.invalid\/v1\/chat\/completions: the request bypassed record\/replay and tried to reach the network \(.*ENOTFOUND.*\)\. The client was created before replay started/,
        )
      },
    )
    configure({ replay: { rootDir: root, hosts: [origin], mode: 'record' } })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    escapeReplay()
    escapeReplay()
    await each(runner, [])
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(
        /^\[expect-llm\] Failed to record POST https:\/\/escape-setup\.invalid\/v1\/chat\/completions: the request bypassed record\/replay and tried to reach the network \(.*\), so nothing was recorded\./,
      ),
    ])
    expect(session.replay.takeProblems()).toEqual([])
  })
  test('while recording, an escape in another test file warns again', async () => {
    const origin = 'https://escape-files.invalid'
    const runner = scriptedRunner(testFile())
    await start(runner, { mode: 'record', hosts: [origin] })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const escapeFrom = () => {
      const request = { origin, path: '/v1/chat/completions', method: 'POST', headers: [] }
      diagnostics.channel('undici:request:create').publish({ request })
      diagnostics.channel('undici:request:error').publish({ request, error: new Error('getaddrinfo ENOTFOUND') })
    }
    escapeFrom()
    await each(runner, [])
    runner.file.path = join(root, 'test', 'b.test.ts')
    escapeFrom()
    await each(runner, [])
    expect(warn).toHaveBeenCalledTimes(2)
  })

  test('a request to a host that is not a replay host is not an escape', async () => {
    const runner = scriptedRunner(testFile())
    const session = await start(runner, { mode: 'replay', hosts: ['https://replay-host.invalid'] })
    const request = { origin: 'https://not-a-replay-host.invalid', path: '/v1/chat/completions', method: 'POST', headers: [] }
    diagnostics.channel('undici:request:create').publish({ request })
    diagnostics.channel('undici:request:error').publish({ request, error: new Error('getaddrinfo ENOTFOUND') })
    await expect(each(runner, [])).resolves.toBeUndefined()
    expect(session.replay.takeProblems()).toEqual([])
  })

  test('a replay request that MSW never saw and got an answer "went to the network"', async () => {
    const origin = 'https://escape-answered.invalid'
    const runner = scriptedRunner(testFile())
    await start(runner, { mode: 'replay', hosts: [origin] })
    const request = { origin, path: '/v1/embeddings', method: 'POST', headers: [] }
    diagnostics.channel('undici:request:create').publish({ request })
    diagnostics.channel('undici:request:headers').publish({ request, response: {} })
    const error = (await each(runner, []).catch((e: unknown) => e)) as ReplayError
    expect(error.message).toBe(
      '[expect-llm] Failed to replay POST https://escape-answered.invalid/v1/embeddings: the request bypassed record/replay and went to the network. ' +
        'The client was created before replay started and kept the fetch from before. Create it after the setup file has run (list expect-llm/vitest ' +
        'in setupFiles; with your own MSW server, call server.listen() at the top level of a setup file), or pass fetch: (url, init) => ' +
        'globalThis.fetch(url, init) to the client.',
    )
  })

  test('a request created while the replay mode cannot be resolved is neither judged as an escape nor watched as a live one', async () => {
    const origin = 'https://unresolved-mode.invalid'
    const runner = scriptedRunner(testFile())
    const session = await start(runner, { mode: 'replay', hosts: [origin] })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const request = { origin, path: '/v1/chat/completions', method: 'POST', headers: [] }
    vi.stubEnv('EXPECT_LLM_REPLAY', 'no-such-mode')
    diagnostics.channel('undici:request:create').publish({ request })
    vi.stubEnv('EXPECT_LLM_REPLAY', '')
    diagnostics.channel('undici:request:error').publish({ request, error: new Error('getaddrinfo ENOTFOUND unresolved-mode.invalid') })
    await expect(each(runner, [])).resolves.toBeUndefined()
    expect(warn).not.toHaveBeenCalled()
    expect(session.replay.takeProblems()).toEqual([])
  })

  test('in live mode, a model request that cannot connect warns once per host and test file, naming the key variable', async () => {
    const openai = 'https://api.openai.com'
    const runner = scriptedRunner(testFile())
    await start(runner, { mode: 'live' })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const fail = (path: string) => {
      const request = { origin: openai, path, method: 'POST', headers: [] }
      diagnostics.channel('undici:request:create').publish({ request })
      diagnostics
        .channel('undici:request:error')
        .publish({ request, error: new Error('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND api.openai.com') }) })
    }
    fail('/v1/chat/completions')
    fail('/v1/embeddings')
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      '[expect-llm] Failed to reach https://api.openai.com in live mode (getaddrinfo ENOTFOUND api.openai.com): live mode sends model requests to the ' +
        'network with OPENAI_API_KEY. Check the network (proxy, VPN, DNS) and that OPENAI_API_KEY is set, or replay the recordings instead (unset EXPECT_LLM_REPLAY).',
    ])
  })

  test('in live mode, another host or another test file warns again', async () => {
    const runner = scriptedRunner(testFile())
    await start(runner, { mode: 'live' })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const fail = (origin: string) => {
      const request = { origin, path: '/v1/chat/completions', method: 'POST', headers: [] }
      diagnostics.channel('undici:request:create').publish({ request })
      diagnostics.channel('undici:request:error').publish({ request, error: new Error('getaddrinfo ENOTFOUND') })
    }
    fail('https://api.openai.com')
    fail('https://api.anthropic.com')
    runner.file.path = join(root, 'test', 'b.test.ts')
    fail('https://api.openai.com')
    expect(warn.mock.calls.map((c) => String(c[0]).split(' in live mode')[0])).toEqual([
      '[expect-llm] Failed to reach https://api.openai.com',
      '[expect-llm] Failed to reach https://api.anthropic.com',
      '[expect-llm] Failed to reach https://api.openai.com',
    ])
  })

  test('in live mode, a provider read from several key variables names each of them', async () => {
    const runner = scriptedRunner(testFile())
    await start(runner, { mode: 'live' })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const request = { origin: 'https://api.cohere.com', path: '/v2/chat', method: 'POST', headers: [] }
    diagnostics.channel('undici:request:create').publish({ request })
    diagnostics.channel('undici:request:error').publish({ request, error: new Error('getaddrinfo ENOTFOUND api.cohere.com') })
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      '[expect-llm] Failed to reach https://api.cohere.com in live mode (getaddrinfo ENOTFOUND api.cohere.com): live mode sends model requests to the ' +
        'network with COHERE_API_KEY or CO_API_KEY. Check the network (proxy, VPN, DNS) and that COHERE_API_KEY or CO_API_KEY is set, or replay the ' +
        'recordings instead (unset EXPECT_LLM_REPLAY).',
    ])
  })
})
