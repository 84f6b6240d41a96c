// When msw cannot be loaded (src/replay/setup.ts reportMissingMsw): quiet when it is not installed and replay
// was not asked for, a warning at once when it was, and otherwise one at the first model request of each
// test file. Whether msw is installed is passed in, so each case runs in-process with a scripted runner;
// setupReplay's import() path (Jest's) runs here with msw mocked to fail. The child-process tests
// (session.test.ts, runner.test.ts) run the real cases, which a mutation run cannot see.
import diagnostics from 'node:diagnostics_channel'
import { createRequire } from 'node:module'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi, type MockInstance } from 'vitest'
import { configure, getConfig } from '../../src/config.js'
import { sharedMark } from '../../src/process-state.js'
import { getReplaySession, setReplaySession, type ReplaySession } from '../../src/replay/session.js'
import { __testing, setupReplay } from '../../src/replay/setup.js'
import type { MswLoading } from '../../src/runners/types.js'
import type { ReplayOptions } from '../../src/replay/types.js'
import { forceModeFromOptions, scriptedRunner, type ScriptedRunner } from './helpers.js'

const { reportMissingMsw, resolvable, forgetMissingMswWarning } = __testing

/** A Jest runner (msw loaded by import(), as in Jest's ESM mode) in the test file `file.path`. */
const jestRunner = (msw: Partial<MswLoading> = {}): ScriptedRunner =>
  scriptedRunner('/project/test/a.test.ts', {
    name: 'jest',
    asyncDescribe: false,
    wrapsPromiseModifiers: false,
    msw: { load: 'import', installHint: ' and use the ESM mode', serverPerFile: true, ...msw },
  })

const endFile = (runner: ScriptedRunner): Promise<unknown> =>
  Promise.all(runner.allHooks.splice(0).map((fn) => fn({ testPath: runner.file.path, completeness: () => ({ complete: true }) })))

/** What undici announces when a fetch creates a request (the escape watcher reads it). */
function request(url: string, method = 'POST'): void {
  const { origin, pathname } = new URL(url)
  diagnostics.channel('undici:request:create').publish({ request: { origin, path: pathname, method, headers: [] } })
}

const notFound = (code: string | undefined): Error => Object.assign(new Error("Cannot find package 'msw'"), code === undefined ? {} : { code })
const STOP = sharedMark('replay-session-stop')
const runners: ScriptedRunner[] = []
let warn: MockInstance<typeof console.warn>
let savedReplay: ReplayOptions | undefined

function runner(msw: Partial<MswLoading> = {}): ScriptedRunner {
  const r = jestRunner(msw)
  runners.push(r)
  return r
}
const warnings = (): string[] => warn.mock.calls.map((c) => String(c[0]))

beforeAll(() => setReplaySession(undefined))
beforeEach(() => {
  forceModeFromOptions()
  forgetMissingMswWarning()
  const state = getConfig() as { replay?: ReplayOptions }
  savedReplay = state.replay
  delete state.replay
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
})
afterEach(async () => {
  for (const r of runners.splice(0)) await endFile(r)
  const session = getReplaySession()
  if (session) (session as unknown as Record<symbol, () => void>)[STOP]!()
  const state = getConfig() as { replay?: ReplayOptions }
  if (savedReplay === undefined) delete state.replay
  else state.replay = savedReplay
  vi.doUnmock('msw')
  vi.doUnmock('msw/package.json')
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})
afterAll(() => setReplaySession(undefined))

describe('resolvable', () => {
  test('is true for an installed package and false for one that is not', () => {
    expect([resolvable('msw'), resolvable('expect-llm-no-such-package')]).toEqual([true, false])
  })
})

describe('msw not installed', () => {
  test.each(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND', undefined])('and replay not asked for (error code %s): says nothing and watches nothing', (code) => {
    const r = runner()
    reportMissingMsw(notFound(code), r, false)
    request('https://api.openai.com/v1/chat/completions')
    expect(warnings()).toEqual([])
    expect(r.allHooks).toHaveLength(0)
  })

  test('failing with another error, warns at the first model request even though replay was not asked for', () => {
    reportMissingMsw(notFound('ERR_PACKAGE_PATH_NOT_EXPORTED'), runner(), false)
    expect(warnings()).toEqual([])
    request('https://api.openai.com/v1/chat/completions')
    expect(warnings()).toEqual([
      '[expect-llm] Failed to replay POST https://api.openai.com/v1/chat/completions: record/replay is off, so this model request goes to the network. ' +
        'msw is not installed. Install it with `npm i -D msw` and use the ESM mode.',
    ])
  })

  test('and EXPECT_LLM_REPLAY set: warns at once, and once per process', () => {
    vi.stubEnv('EXPECT_LLM_REPLAY', 'replay')
    reportMissingMsw(notFound('ERR_MODULE_NOT_FOUND'), runner(), false)
    reportMissingMsw(notFound('ERR_MODULE_NOT_FOUND'), runner(), false)
    expect(warnings()).toEqual([
      '[expect-llm] Failed to start record/replay: msw is not installed. Install it with `npm i -D msw` and use the ESM mode. ' +
        'Until then model requests go to the network.',
    ])
  })
})

describe('msw installed but not loadable', () => {
  test('with a configured mode: warns at once with the runner’s reason, and watches nothing', () => {
    configure({ replay: { mode: 'record' } })
    const r = runner({ notLoadable: 'Jest runs in CommonJS mode' })
    reportMissingMsw(new Error('require() of ES Module'), r, true)
    expect(warnings()).toEqual(['[expect-llm] Failed to start record/replay: Jest runs in CommonJS mode. Until then model requests go to the network.'])
    expect(r.allHooks).toHaveLength(0)
  })

  test('not asked for: warns at the first model request of each test file with the first line of the error, until the file ends', async () => {
    const r = runner()
    reportMissingMsw(new Error('Cannot use import statement outside a module\n    at somewhere'), r, true)
    expect(warnings()).toEqual([])
    request('https://api.openai.com/v1/chat/completions')
    request('https://api.openai.com/v1/embeddings')
    r.file.path = '/project/test/b.test.ts'
    request('https://api.openai.com/v1/embeddings', 'GET')
    const reason = 'msw is installed but could not be loaded (Cannot use import statement outside a module). Check that its version is 2 or 3.'
    expect(warnings()).toEqual([
      `[expect-llm] Failed to replay POST https://api.openai.com/v1/chat/completions: record/replay is off, so this model request goes to the network. ${reason}`,
      `[expect-llm] Failed to replay GET https://api.openai.com/v1/embeddings: record/replay is off, so this model request goes to the network. ${reason}`,
    ])
    await endFile(r)
    r.file.path = '/project/test/c.test.ts'
    request('https://api.openai.com/v1/chat/completions')
    expect(warnings()).toHaveLength(2)
  })

  test('not asked for: a request to a host that is not a model host goes out without a word', () => {
    reportMissingMsw(new Error('not loadable'), runner(), true)
    request('https://example.invalid/v1/chat/completions')
    expect(warnings()).toEqual([])
  })

  test('not asked for: a configured replay host counts as a model host', () => {
    configure({ replay: { hosts: ['https://models.example.invalid'] } })
    reportMissingMsw(new Error('not loadable'), runner(), true)
    request('https://models.example.invalid/v1/chat/completions')
    expect(warnings()).toEqual([
      '[expect-llm] Failed to replay POST https://models.example.invalid/v1/chat/completions: record/replay is off, so this model request goes to the network. ' +
        'msw is installed but could not be loaded (not loadable). Check that its version is 2 or 3.',
    ])
  })

  test('not asked for: says nothing when the request is made in live mode, or when the mode cannot be resolved', () => {
    reportMissingMsw(new Error('not loadable'), runner(), true)
    vi.stubEnv('EXPECT_LLM_REPLAY', 'live')
    request('https://api.openai.com/v1/chat/completions')
    vi.stubEnv('EXPECT_LLM_REPLAY', 'no-such-mode')
    request('https://api.openai.com/v1/chat/completions')
    expect(warnings()).toEqual([])
  })
})

describe('setupReplay with import() (Jest)', () => {
  const started = async (r: ScriptedRunner): Promise<ReplaySession> => {
    const session = await setupReplay(r)
    if (!session) throw new Error('setupReplay started no session')
    return session
  }

  test('starts a listening session with the version of the installed msw', async () => {
    const session = await started(runner())
    expect(getReplaySession()).toBe(session)
    expect(session.mswVersion).toBe((createRequire(import.meta.url)('msw/package.json') as { version: string }).version)
  })

  test('without a readable msw/package.json, the version is "unknown"', async () => {
    vi.doMock('msw/package.json', () => {
      throw new Error('no package.json')
    })
    expect((await started(runner())).mswVersion).toBe('unknown')
  })

  test('when msw fails to import, starts nothing and reports it', async () => {
    vi.stubEnv('EXPECT_LLM_REPLAY', 'replay')
    vi.doMock('msw', () => {
      throw new Error('msw is broken')
    })
    await expect(setupReplay(runner())).resolves.toBeUndefined()
    expect(getReplaySession()).toBeUndefined()
    // Vitest wraps the factory's error in its own, whose first line the report quotes.
    expect(warnings()).toEqual([
      expect.stringMatching(
        /^\[expect-llm\] Failed to start record\/replay: msw is installed but could not be loaded \(\[vitest\] There was an error when mocking a module\..*\)\. Check that its version is 2 or 3\. Until then model requests go to the network\.$/,
      ),
    ])
  })
})
