// Paths of the replay engine (src/replay/engine.ts) that the request-level tests leave open: the CI
// refusal's one warning, and what the engine sends and writes at the edges of recording.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { forceModeFromOptions, optionsFor, startReplay, useReplaySandbox } from './helpers.js'

const sandbox = useReplaySandbox()

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

const msw = { bypass: (r: Request) => r, passthrough: () => new Response('passed through') }

describe('CI', () => {
  test('a recording mode under CI replays instead, with one warning for the process that names the mode and the way out', async () => {
    forceModeFromOptions()
    vi.stubEnv('CI', 'true')
    vi.stubEnv('EXPECT_LLM_ALLOW_RECORD_IN_CI', '')
    // A fresh copy of the engine module: the warning is once per process, and another test may have said it.
    vi.resetModules()
    const { ReplayEngine } = await import('../../src/replay/engine.js')
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const options = { rootDir: sandbox.root, hosts: ['https://ci-refusal.invalid'], testPath: () => undefined }
    const engine = new ReplayEngine({ options: { ...options, mode: 'record' } })
    const request = () => new Request('https://ci-refusal.invalid/v1/models')
    const first = await engine.handle(request(), msw)
    await engine.handle(request(), msw)
    await new ReplayEngine({ options: { ...options, mode: 'rerecord' } }).handle(request(), msw)
    expect(first?.headers.get('x-expect-llm-replay')).toBe('expect_llm_replay_miss')
    expect(warn.mock.calls).toEqual([
      [
        '[expect-llm] Failed to use replay mode "record": CI is set, so expect-llm only replays recorded fixtures and never calls a model. ' +
          'Record on your machine and commit the fixtures, or set EXPECT_LLM_ALLOW_RECORD_IN_CI=1 to record in CI on purpose.',
      ],
    ])
  })

  test('outside CI nothing is refused: live mode passes requests through without a warning', async () => {
    forceModeFromOptions()
    vi.stubEnv('CI', '')
    vi.resetModules()
    const { ReplayEngine } = await import('../../src/replay/engine.js')
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const engine = new ReplayEngine({ options: { mode: 'live', hosts: ['https://ci-refusal.invalid'] } })
    expect(await (await engine.handle(new Request('https://ci-refusal.invalid/v1/models'), msw))?.text()).toBe('passed through')
    expect(warn).not.toHaveBeenCalled()
  })
})

describe('the summary of every test file', () => {
  test('lists each test file the engine served, a request outside tests under testPath null, with its new and unused files', async () => {
    const testFile = (name: string) => join(sandbox.root, 'test', name)
    let current: string | undefined = testFile('a.test.ts')
    const post = (content: string) =>
      fetch(`${sandbox.server.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], temperature: 0 }),
      })
    const options = optionsFor(sandbox.root, sandbox.server.origin, 'record', { testPath: () => current })
    // A fixture file no request of this run asks for (fixtures created or used in this process count as such).
    const folder = (name: string) => join(sandbox.root, 'test', '__llm_fixtures__', name)
    const old = join(folder('a.test.ts'), 'chat-completions.0123456789abcdef.json')
    await mkdir(folder('a.test.ts'), { recursive: true })
    await writeFile(old, '{}')
    const phase = startReplay(options)
    try {
      await post('First')
      current = testFile('b.test.ts')
      await post('New')
      current = undefined
      await post('Outside')
      phase.replay.assertNoProblems()
      const [a, b, outside] = await phase.replay.summary()
      expect(a).toEqual({ testPath: testFile('a.test.ts'), folder: folder('a.test.ts'), used: [], created: [expect.any(String)], unused: [old] })
      expect(b).toMatchObject({ testPath: testFile('b.test.ts'), folder: folder('b.test.ts'), used: [], unused: [] })
      expect(outside).toMatchObject({ testPath: null, folder: join(sandbox.root, '__llm_fixtures__', '_no-test-file'), used: [], unused: [] })
      const written = [b!.created, outside!.created]
      expect(written.map((c) => c.length)).toEqual([1, 1])
      const meta = async (file: string) => JSON.parse(await readFile(file, 'utf8')).meta.testFile
      expect([await meta(b!.created[0]!), await meta(outside!.created[0]!)]).toEqual(['test/b.test.ts', null])
    } finally {
      phase.close()
    }
  })
})

describe('sequence mode', () => {
  test('each test counts its own calls: another test of the file starts again at the first recorded response', async () => {
    sandbox.server.setReply((_req, i) => ({ text: `sample ${i}` }))
    let name = 'one'
    const post = async () => {
      const res = await fetch(`${sandbox.server.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Pick a word' }], temperature: 1 }),
      })
      return ((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content
    }
    const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record', { sequence: true, testName: () => name }))
    try {
      expect([await post(), await post()]).toEqual(['sample 0', 'sample 1'])
      rec.replay.assertNoProblems()
    } finally {
      rec.close()
    }
    name = 'one'
    const rep = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay', { sequence: true, testName: () => name }))
    try {
      const served = [await post()]
      name = 'two'
      served.push(await post(), await post())
      expect(served).toEqual(['sample 0', 'sample 0', 'sample 1'])
      rep.replay.assertNoProblems()
    } finally {
      rep.close()
    }
    expect(sandbox.server.requests).toHaveLength(2)
  })
})
