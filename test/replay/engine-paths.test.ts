// Paths of the replay engine (src/replay/engine.ts) that the request-level tests leave open: the CI
// refusal's one warning, and what the engine sends and writes at the edges of recording.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { configure, getConfig } from '../../src/config.js'
import { __testing, handlingFailure, ReplayEngine } from '../../src/replay/engine.js'
import { classifyCreated } from '../../src/replay/escapes.js'
import type { ReplayMode, ReplayOptions } from '../../src/replay/types.js'
import { fixtureFiles, forceModeFromOptions, listFiles, optionsFor, startReplay, useReplaySandbox } from './helpers.js'

const sandbox = useReplaySandbox()

afterEach(() => {
  vi.unstubAllGlobals()
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

const msw = { bypass: (r: Request) => r, passthrough: () => new Response('passed through') }

describe('CI', () => {
  /** CI set, recording not allowed there, the CI warning not given yet: returns console.warn's spy. */
  const underCi = () => {
    forceModeFromOptions()
    vi.stubEnv('CI', 'true')
    vi.stubEnv('EXPECT_LLM_ALLOW_RECORD_IN_CI', '')
    // The warning is once per process, and another test may have given it. (Not a fresh copy of the module through
    // vi.resetModules: re-importing every replay module inside a test makes their load-time code count as covered by
    // this test, so the mutation run tests those static mutants with this test alone.)
    __testing.forgetCiWarning()
    return vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  }

  test('a recording mode under CI replays instead, with one warning for the process that names the mode and the way out', async () => {
    const warn = underCi()
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

  test('forgetCiWarning: after it, the next refusal under CI warns again', async () => {
    const warn = underCi()
    const engine = new ReplayEngine({ options: { rootDir: sandbox.root, hosts: ['https://ci-refusal.invalid'], testPath: () => undefined, mode: 'record' } })
    const request = () => new Request('https://ci-refusal.invalid/v1/models')
    await engine.handle(request(), msw)
    await engine.handle(request(), msw)
    expect(warn).toHaveBeenCalledTimes(1)
    __testing.forgetCiWarning()
    await engine.handle(request(), msw)
    expect(warn).toHaveBeenCalledTimes(2)
    expect(warn.mock.calls[1]).toEqual(warn.mock.calls[0])
  })

  test('outside CI nothing is refused: live mode passes requests through without a warning', async () => {
    forceModeFromOptions()
    vi.stubEnv('CI', '')
    __testing.forgetCiWarning()
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
      // One test file's summary is that file's alone.
      expect(await phase.replay.summary(testFile('b.test.ts'))).toEqual([b])
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

// The engine driven directly, its upstream a stub of fetch: a loopback origin needs no key, and nothing is sent.
const UPSTREAM = 'http://127.0.0.1:9'
const testPath = () => join(sandbox.root, 'test', 'e.test.ts')
function stubUpstream(answer: () => Response = () => Response.json({ ok: true })): string[] {
  const sent: string[] = []
  vi.stubGlobal('fetch', async (request: Request) => {
    sent.push(`${request.method} ${request.url}`)
    return answer()
  })
  return sent
}
/** An upstream that answers each request with the next sample number: { sample: 0 }, { sample: 1 }, ... */
function stubSamples(): string[] {
  let n = 0
  return stubUpstream(() => Response.json({ sample: n++ }))
}
const engineIn = (mode: ReplayMode, extra: ReplayOptions = {}) =>
  new ReplayEngine({ options: { mode, rootDir: sandbox.root, hosts: [UPSTREAM], testPath, ...extra } })
const json = (body: string, path = '/v1/chat/completions') =>
  new Request(`${UPSTREAM}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })

describe('identical requests while recording', () => {
  test.each([
    ['a JSON array', () => json('[1, 2]')],
    ['a JSON string', () => json('"one prompt"')],
    ['no body (GET)', () => new Request(`${UPSTREAM}/v1/models`)],
  ])('%s is not a sampling request: sent once, repeats answered silently', async (_what, request) => {
    const sent = stubUpstream()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const engine = engineIn('record')
    const statuses = [(await engine.handle(request(), msw))?.status, (await engine.handle(request(), msw))?.status]
    expect(statuses).toEqual([200, 200])
    expect(sent).toHaveLength(1)
    expect(warn).not.toHaveBeenCalled()
    expect(engine.takeProblems()).toEqual([])
  })

  test('a body without any temperature samples: the repeat is answered and noticed', async () => {
    const sent = stubUpstream()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const engine = engineIn('record')
    for (let i = 0; i < 2; i++) expect((await engine.handle(json('{"model":"m"}'), msw))?.status).toBe(200)
    expect(sent).toHaveLength(1)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]![0])).toContain('POST /v1/chat/completions was sent again with the same body while recording')
  })
})

describe('hosts', () => {
  test.each([
    ['https://api.openai.com', 'https://api.openai.com/v1/models'],
    ['https://*.openai.azure.com', 'https://my-resource.openai.azure.com/openai/models'],
  ])('a default host listed in allowedHosts (%s) is not intercepted', async (allowed, url) => {
    const engine = engineIn('replay', { allowedHosts: [allowed] })
    expect(engine.resolve().hosts).not.toContain(allowed)
    expect(engine.resolve().hosts).toContain('https://api.anthropic.com')
    expect(await engine.handle(new Request(url), msw)).toBeUndefined()
    expect(engine.handled).toBe(0)
  })
})

describe('fixture folders', () => {
  test('after configure() moves the fixture dir, a request is looked up under the new dir only', async () => {
    const saved = getConfig().replay
    try {
      stubUpstream()
      const engine = new ReplayEngine({ options: { rootDir: sandbox.root, hosts: [UPSTREAM], testPath } })
      configure({ replay: { mode: 'record', dir: 'fixtures-a' } })
      expect((await engine.handle(json('{"temperature":0}'), msw))?.status).toBe(200)
      expect((await fixtureFiles(sandbox.root)).map((f) => f.slice(sandbox.root.length + 1).split('/')[0])).toEqual(['fixtures-a'])
      configure({ replay: { mode: 'replay', dir: 'fixtures-b' } })
      const res = await engine.handle(json('{"temperature":0}'), msw)
      expect(res?.headers.get('x-expect-llm-replay')).toBe('expect_llm_replay_miss')
      expect(engine.takeProblems()[0]!.message).toMatch(/\n {2}Expected file: fixtures-b\/test\/e\.test\.ts\/chat-completions\.[0-9a-f]{16}\.json\n/)
    } finally {
      const state = getConfig() as { replay?: ReplayOptions }
      if (saved === undefined) delete state.replay
      else state.replay = saved
    }
  })

  test('a fixture one engine served counts as used in the summary of another engine of the process', async () => {
    stubUpstream()
    await engineIn('record').handle(json('{"temperature":0}'), msw)
    const [file] = await fixtureFiles(sandbox.root)
    // Served by a second engine (say the setup file's), summarized by a third (say a test's llmReplay()).
    expect((await engineIn('replay').handle(json('{"temperature":0}'), msw))?.status).toBe(200)
    const [summary] = await engineIn('replay').summary(testPath())
    expect(summary).toMatchObject({ used: [file], unused: [] })
  })
})

describe('the summary of one test file', () => {
  const folder = () => join(sandbox.root, 'test', '__llm_fixtures__', 'e.test.ts')

  test('lists the fixtures created and used sorted by path, not in the order of the requests', async () => {
    stubUpstream()
    const requests = () => [json('{"input":"a"}', '/v1/embeddings'), json('{"temperature":0}')]
    const recorder = engineIn('record')
    for (const r of requests()) await recorder.handle(r, msw)
    const files = await fixtureFiles(sandbox.root)
    expect(files.map((f) => f.slice(folder().length + 1).split('.')[0])).toEqual(['chat-completions', 'embeddings'])
    expect((await recorder.summary(testPath()))[0]).toMatchObject({ used: [], created: files })
    const player = engineIn('replay')
    for (const r of requests()) expect((await player.handle(r, msw))?.status).toBe(200)
    expect((await player.summary(testPath()))[0]).toMatchObject({ used: files, created: files })
  })

  test("removes a folder's stale temporary files once per engine: one left after the first summary stays", async () => {
    const GONE = 2 ** 22 + 17 // a process id above Linux's limit: never a live process
    const stale = (n: number) => join(folder(), `x.0123456789abcdef.json.${GONE}.${n}.0123abcd.tmp`)
    await mkdir(folder(), { recursive: true })
    await writeFile(stale(0), '{')
    const engine = engineIn('replay')
    await engine.summary(testPath())
    await writeFile(stale(1), '{')
    await engine.summary(testPath())
    expect(await listFiles(folder())).toEqual([stale(1)])
  })
})

describe('messages', () => {
  test('a miss of a request without a model names none', async () => {
    const engine = engineIn('replay')
    await engine.handle(new Request(`${UPSTREAM}/v1/models`), msw)
    expect(engine.takeProblems()[0]!.message.split('\n')[0]).toBe(
      '[expect-llm] Failed to replay GET /v1/models: no fixture matches this request, and mode "replay" never calls the network. Record it, then commit the new file.',
    )
  })

  test('a stale fixture replayed outside a test file says to record it with your test command', async () => {
    stubUpstream()
    const outside = { testPath: () => undefined }
    await engineIn('record', outside).handle(json('{"temperature":0}'), msw)
    const [file] = await fixtureFiles(sandbox.root)
    const fixture = JSON.parse(await readFile(file!, 'utf8'))
    fixture.meta.recordedAt = new Date(Date.now() - 40 * 86_400_000).toISOString()
    await writeFile(file!, JSON.stringify(fixture, null, 2))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    expect((await engineIn('replay', { ...outside, maxAge: '30d' }).handle(json('{"temperature":0}'), msw))?.status).toBe(200)
    expect(String(warn.mock.calls[0]![0])).toMatch(/Record it again with EXPECT_LLM_REPLAY=rerecord <your test command>\.$/)
  })

  test('handlingFailure: only a FixtureError is a corrupt fixture, and only with the file it names', () => {
    const other = Object.assign(new Error('disk full'), { file: '/r/a.json' })
    expect(handlingFailure(other, '/r/t.test.ts', 't')).toEqual({
      problem: { kind: 'record', message: 'disk full', testPath: '/r/t.test.ts', testName: 't' },
      type: 'expect_llm_replay_error',
      corruptFile: undefined,
    })
    const noFile = Object.assign(new Error('bad'), { name: 'FixtureError', file: 42 })
    expect(handlingFailure(noFile, undefined, undefined)).toMatchObject({ type: 'expect_llm_replay_corrupt_fixture', corruptFile: undefined })
  })
})

describe('a redact hook that throws on the response', () => {
  const stream = () =>
    new Request(`${UPSTREAM}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"stream":true,"temperature":0}' })
  const redact: ReplayOptions['redact'] = ({ key, response }) => {
    if (response) throw new Error('redact broke on the response')
    return { key }
  }

  test('while a stream records: the app gets the stream, the test a problem, the disk nothing (and no unhandled rejection)', async () => {
    const sent = stubUpstream(() => new Response('data: {"n":1}\n\ndata: [DONE]\n\n', { headers: { 'content-type': 'text/event-stream' } }))
    const engine = engineIn('record', { redact })
    const res = await engine.handle(stream(), msw)
    expect(await res?.text()).toBe('data: {"n":1}\n\ndata: [DONE]\n\n')
    await engine.flush()
    expect(engine.takeProblems()).toEqual([{ kind: 'record', message: 'redact broke on the response', testPath: testPath(), testName: undefined }])
    expect(await fixtureFiles(sandbox.root)).toEqual([])
    // The key is released: the next identical request is sent (and fails the same way) rather than waiting.
    await (await engine.handle(stream(), msw))?.text()
    await engine.flush()
    expect(sent).toHaveLength(2)
    expect(engine.takeProblems().map((p) => p.kind)).toEqual(['record'])
  })

  test('while a whole body records: the app gets the replay error, the test the problem', async () => {
    stubUpstream()
    const engine = engineIn('record', { redact })
    const res = await engine.handle(json('{"temperature":0}'), msw)
    expect(res?.headers.get('x-expect-llm-replay')).toBe('expect_llm_replay_error')
    expect(engine.takeProblems().map((p) => [p.kind, p.message])).toEqual([['record', 'redact broke on the response']])
    expect(await fixtureFiles(sandbox.root)).toEqual([])
  })
})

describe('an error streamed while recording', () => {
  const streamed = () =>
    new Request(`${UPSTREAM}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"stream":true,"temperature":0}' })
  const failing = () => new Response('data: {"error":"overloaded"}\n\n', { status: 503, headers: { 'content-type': 'text/event-stream' } })

  test('recorded (recordErrors): the client is told not to retry what replay will answer the same way', async () => {
    stubUpstream(failing)
    const res = await engineIn('record', { recordErrors: true }).handle(streamed(), msw)
    expect([res?.status, res?.headers.get('x-should-retry')]).toEqual([503, 'false'])
    await res?.text()
  })

  test('not recorded: the client keeps its own retry logic', async () => {
    stubUpstream(failing)
    const res = await engineIn('record').handle(streamed(), msw)
    expect([res?.status, res?.headers.get('x-should-retry')]).toEqual([503, null])
    await res?.text()
  })
})

// What a request holds while it is handled (its key's claim while recording, its turn in sequence mode) is
// released however it ends: otherwise the next request that needs it waits forever. Each answer is raced
// against a short timer, so that a request left waiting fails the test at once instead of hanging it.
describe('a request that ends without recording releases what it held', () => {
  const within = async <T>(answer: Promise<T>): Promise<T | 'still waiting'> => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<'still waiting'>((resolve) => {
      timer = setTimeout(() => resolve('still waiting'), 2000)
    })
    try {
      return await Promise.race([answer, late])
    } finally {
      clearTimeout(timer)
    }
  }

  // A request whose body stream fails when read: handling it throws before any fixture is looked up.
  const broken = () =>
    new Request(`${UPSTREAM}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({ pull: (controller) => controller.error(new Error('connection reset')) }),
      duplex: 'half',
    } as RequestInit)

  test('record mode, answered from its fixture: an identical request after it is answered too', async () => {
    const sent = stubUpstream()
    await engineIn('record').handle(json('{"temperature":0}'), msw)
    const engine = engineIn('record')
    const first = await within(engine.handle(json('{"temperature":0}'), msw))
    const second = await within(engine.handle(json('{"temperature":0}'), msw))
    expect([first, second].map((r) => (r === 'still waiting' ? r : r?.status))).toEqual([200, 200])
    expect(sent).toHaveLength(1)
  })

  test('sequence mode, a request whose body cannot be read: the next request gets its turn', async () => {
    stubUpstream()
    const engine = engineIn('record', { sequence: true })
    const failed = await within(engine.handle(broken(), msw))
    expect(failed === 'still waiting' ? failed : failed?.headers.get('x-expect-llm-replay')).toBe('expect_llm_replay_error')
    const next = await within(engine.handle(json('{"temperature":1}'), msw))
    expect(next === 'still waiting' ? next : next?.status).toBe(200)
    expect(engine.takeProblems().map((p) => [p.kind, p.message])).toEqual([['record', 'connection reset']])
  })

  test('resetSequences: the next call of the test gets the first recorded response again', async () => {
    stubSamples()
    const recorder = engineIn('record', { sequence: true })
    for (let i = 0; i < 2; i++) await (await recorder.handle(json('{"temperature":1}'), msw))?.text()
    await recorder.flush()
    const engine = engineIn('replay', { sequence: true })
    const sample = async () => {
      const res = await engine.handle(json('{"temperature":1}'), msw)
      return ((await res!.json()) as { sample: number }).sample
    }
    const served = [await sample(), await sample()]
    engine.resetSequences()
    served.push(await sample())
    expect(served).toEqual([0, 1, 0])
  })

  test('a request that fails without a fixture to blame counts none as used', async () => {
    const engine = engineIn('replay')
    await engine.handle(broken(), msw)
    const [summary] = await engine.summary(testPath())
    expect(summary).toMatchObject({ used: [], created: [] })
  })
})

// The rule on the engine itself (hosts.test.ts sends real requests through msw; msw 3 never shows a data: URL
// to a handler, and those tests cannot tell which of several listening servers answered).
describe('the CI network rule, on the engine', () => {
  const guarded = (url: string, mode: ReplayMode, ci: string) => {
    forceModeFromOptions()
    vi.stubEnv('CI', ci)
    const engine = new ReplayEngine({ options: { mode, rootDir: sandbox.root } })
    return { response: engine.guard(new Request(url)), problems: engine.takeProblems().map((p) => p.kind) }
  }

  test('outside CI a request to any host goes through', () => {
    expect(guarded('https://weather.example.com/today', 'replay', '')).toEqual({ response: undefined, problems: [] })
  })

  test('under CI, recording (allowed with EXPECT_LLM_ALLOW_RECORD_IN_CI) lets other hosts through', () => {
    expect(guarded('https://weather.example.com/today', 'record', 'true')).toEqual({ response: undefined, problems: [] })
  })

  test('under CI in replay mode, plain http to a host that is not loopback is stopped like https', () => {
    const { response, problems } = guarded('http://weather.example.com/today', 'replay', 'true')
    expect([response?.status, problems]).toEqual([404, ['network']])
  })

  test('under CI in replay mode, a data: URL is not the network', () => {
    expect(guarded('data:,hello', 'replay', 'true')).toEqual({ response: undefined, problems: [] })
  })
})

describe('one recording per key and run', () => {
  test('a request waiting for an identical one whose recording failed sends its own', async () => {
    let calls = 0
    const sent: string[] = []
    vi.stubGlobal('fetch', async (request: Request) => {
      sent.push(request.url)
      if (calls++ === 0) throw new TypeError('fetch failed')
      return Response.json({ ok: true })
    })
    const engine = engineIn('record')
    const [first, second] = await Promise.all([engine.handle(json('{"temperature":0}'), msw), engine.handle(json('{"temperature":0}'), msw)])
    expect([first?.headers.get('x-expect-llm-replay'), second?.status, second?.headers.get('x-expect-llm-replay')]).toEqual([
      'expect_llm_replay_upstream',
      200,
      null,
    ])
    expect(sent).toHaveLength(2)
  })

  test('a repeat after the recording was written still shares it, and is noticed', async () => {
    const sent = stubUpstream()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const engine = engineIn('record')
    await (await engine.handle(json('{"model":"m"}'), msw))?.text()
    await engine.flush()
    expect((await engine.handle(json('{"model":"m"}'), msw))?.status).toBe(200)
    expect(sent).toHaveLength(1)
    expect(warn).toHaveBeenCalledTimes(1)
  })

  // (Identical requests share one fixture across test files: b's first call is answered with a's first response.)
  test('sequence mode counts the calls of each test file apart: a test of the same name in another file starts again', async () => {
    stubSamples()
    let file = 'a.test.ts'
    const inFile = { testPath: () => join(sandbox.root, 'test', file), testName: () => 'same name' }
    const recorder = engineIn('record', { sequence: true, ...inFile })
    await (await recorder.handle(json('{"temperature":1}'), msw))?.text()
    file = 'b.test.ts'
    await (await recorder.handle(json('{"temperature":1}'), msw))?.text()
    await recorder.flush()
    const engine = engineIn('replay', { sequence: true, ...inFile })
    const served: unknown[] = []
    for (const f of ['a.test.ts', 'b.test.ts']) {
      file = f
      const res = await engine.handle(json('{"temperature":1}'), msw)
      served.push(res?.status === 200 ? ((await res.json()) as { sample: number }).sample : res?.headers.get('x-expect-llm-replay'))
    }
    expect(served).toEqual([0, 0])
  })
})

describe('sequence mode, replayed', () => {
  const recordSamples = async (count: number) => {
    stubSamples()
    const recorder = engineIn('record', { sequence: true })
    for (let i = 0; i < count; i++) await (await recorder.handle(json('{"temperature":1}'), msw))?.text()
    await recorder.flush()
    return (await fixtureFiles(sandbox.root))[0]!
  }

  test('a replayed call counts its fixture as used', async () => {
    const file = await recordSamples(1)
    const engine = engineIn('replay', { sequence: true })
    expect((await engine.handle(json('{"temperature":1}'), msw))?.status).toBe(200)
    const [summary] = await engine.summary(testPath())
    expect(summary).toMatchObject({ used: [file], unused: [] })
  })

  test('a stale recording still replays, with a warning that says how to record it again', async () => {
    const file = await recordSamples(1)
    const fixture = JSON.parse(await readFile(file, 'utf8'))
    fixture.meta.recordedAt = new Date(Date.now() - 40 * 86_400_000).toISOString()
    await writeFile(file, JSON.stringify(fixture, null, 2))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    expect((await engineIn('replay', { sequence: true, maxAge: '30d' }).handle(json('{"temperature":1}'), msw))?.status).toBe(200)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]![0])).toMatch(/Record it again with EXPECT_LLM_REPLAY=rerecord npx vitest run test\/e\.test\.ts\.$/)
  })

  test('a call beyond the recorded ones is a miss that counts them and names the record command', async () => {
    const file = await recordSamples(1)
    const engine = engineIn('replay', { sequence: true })
    await (await engine.handle(json('{"temperature":1}'), msw))?.text()
    const res = await engine.handle(json('{"temperature":1}'), msw)
    expect([res?.status, res?.headers.get('x-expect-llm-replay')]).toEqual([404, 'expect_llm_replay_miss'])
    expect(engine.takeProblems()).toEqual([
      {
        kind: 'miss',
        testPath: testPath(),
        testName: undefined,
        message:
          `[expect-llm] Failed to replay POST /v1/chat/completions (sequence mode): ${file.slice(sandbox.root.length + 1)} holds 1 recorded ` +
          'response(s) for this request, but this is call #2 in the test. Record the extra calls with EXPECT_LLM_REPLAY=record npx vitest run test/e.test.ts.',
      },
    ])
  })
})

describe('sequence mode, recorded', () => {
  const samples = async (file: string) => JSON.parse(await readFile(file, 'utf8')).responses.map((r: { json: { sample: number } }) => r.json.sample)
  const calls = async (engine: ReplayEngine, count: number) => {
    for (let i = 0; i < count; i++) await (await engine.handle(json('{"temperature":1}'), msw))?.text()
    await engine.flush()
  }

  test('record mode replays the recorded calls and adds the extra ones after them', async () => {
    stubSamples()
    await calls(engineIn('record', { sequence: true }), 2)
    await calls(engineIn('record', { sequence: true }), 3)
    const [file] = await fixtureFiles(sandbox.root)
    expect(await samples(file!)).toEqual([0, 1, 2])
  })

  test('record mode over a fixture recorded without sequence mode keeps its response as the first call', async () => {
    stubSamples()
    await calls(engineIn('record'), 1)
    await calls(engineIn('record', { sequence: true }), 2)
    const [file] = await fixtureFiles(sandbox.root)
    expect(await samples(file!)).toEqual([0, 1])
  })

  test("record mode in another test file starts from the responses it was answered with (another file's fixture)", async () => {
    stubSamples()
    const inFile = (name: string) => ({ sequence: true, testPath: () => join(sandbox.root, 'test', name) })
    await calls(engineIn('record', inFile('a.test.ts')), 1)
    await calls(engineIn('record', inFile('b.test.ts')), 2)
    const files = await fixtureFiles(sandbox.root)
    expect(await Promise.all(files.map(samples))).toEqual([[0], [0, 1]])
  })

  test('rerecord replaces every recorded call', async () => {
    stubSamples()
    await calls(engineIn('record', { sequence: true }), 3)
    await calls(engineIn('rerecord', { sequence: true }), 1)
    const [file] = await fixtureFiles(sandbox.root)
    expect(await samples(file!)).toEqual([3])
  })

  test.each(['record', 'rerecord'] as const)('%s: a call whose answer is not recorded leaves no gap in the recorded ones', async (mode) => {
    let n = 0
    stubUpstream(() => (n++ === 0 ? Response.json({ error: 'overloaded' }, { status: 503 }) : Response.json({ sample: n - 1 })))
    const engine = engineIn(mode, { sequence: true })
    await calls(engine, 2)
    const [file] = await fixtureFiles(sandbox.root)
    expect(await samples(file!)).toEqual([1])
    expect(engine.takeProblems()).toEqual([])
  })
})

describe('the answer to a request replay refuses', () => {
  test('a one-line problem is the whole message of the error body, under 404 Not Found', async () => {
    const unreadable = new Request(`${UPSTREAM}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({ pull: (controller) => controller.error(new Error('connection reset')) }),
      duplex: 'half',
    } as RequestInit)
    const res = await engineIn('replay').handle(unreadable, msw)
    expect([res?.status, res?.statusText]).toEqual([404, 'Not Found'])
    expect(await res?.json()).toEqual({
      type: 'error',
      error: { type: 'expect_llm_replay_error', code: 404, status: 'NOT_FOUND', message: 'connection reset', param: null },
    })
  })
})

describe('keys while recording', () => {
  const OTHER = 'https://llm.example.test'
  const withKey = (origin: string, key?: string) =>
    new Request(`${origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: '{"temperature":0}',
    })

  test('a loopback server is sent a placeholder key: local servers take any', async () => {
    const sent = stubUpstream()
    const engine = engineIn('record')
    expect((await engine.handle(withKey(UPSTREAM, 'expect-llm-replay-no-key'), msw))?.status).toBe(200)
    expect([sent, engine.takeProblems()]).toEqual([[`POST ${UPSTREAM}/v1/chat/completions`], []])
  })

  test('a host of no known provider is sent a request without a key: it may need none', async () => {
    const sent = stubUpstream()
    const engine = engineIn('record', { hosts: [OTHER] })
    expect((await engine.handle(withKey(OTHER), msw))?.status).toBe(200)
    expect([sent, engine.takeProblems()]).toEqual([[`POST ${OTHER}/v1/chat/completions`], []])
  })

  test('a host of no known provider is not sent a placeholder key: the request is refused with the key variable to set', async () => {
    const sent = stubUpstream()
    const engine = engineIn('record', { hosts: [OTHER] })
    const res = await engine.handle(withKey(OTHER, 'expect-llm-replay-no-key'), msw)
    expect([res?.status, res?.headers.get('x-expect-llm-replay'), sent]).toEqual([404, 'expect_llm_replay_credentials', []])
    expect(engine.takeProblems()).toEqual([
      {
        kind: 'credentials',
        testPath: testPath(),
        testName: undefined,
        message:
          '[expect-llm] Failed to record POST /v1/chat/completions: the request carries a placeholder key ("expect-llm-replay-no-key"), not a real one, ' +
          `so ${OTHER} would refuse it; nothing was sent. Set OPENAI_API_KEY (or pass apiKey to the client) and run again, or replay the ` +
          'recordings (unset EXPECT_LLM_REPLAY).',
      },
    ])
  })
})

describe('a whole body while recording', () => {
  test('a recorded answer names its new fixture', async () => {
    stubUpstream()
    const res = await engineIn('record').handle(json('{"temperature":0}'), msw)
    const [file] = await fixtureFiles(sandbox.root)
    expect([res?.status, res?.headers.get('x-expect-llm-fixture')]).toEqual([200, file!.slice(sandbox.root.length + 1)])
  })

  test('an answer that is not recorded reaches the app as it came: its body', async () => {
    stubUpstream(() => new Response('overloaded, try again', { status: 503 }))
    const res = await engineIn('record').handle(json('{"temperature":0}'), msw)
    expect([res?.status, await res?.text()]).toEqual([503, 'overloaded, try again'])
    expect(await fixtureFiles(sandbox.root)).toEqual([])
  })

  test('an answer that is not recorded reaches the app as it came: no body', async () => {
    stubUpstream(() => new Response(null, { status: 503 }))
    const res = await engineIn('record').handle(json('{"temperature":0}'), msw)
    expect([res?.status, res?.body]).toEqual([503, null])
  })

  test('the recorded duration is the time from sending to writing: never more than the whole request took', async () => {
    stubUpstream()
    const before = performance.now()
    await engineIn('record').handle(json('{"temperature":0}'), msw)
    const took = performance.now() - before
    const [file] = await fixtureFiles(sandbox.root)
    const { durationMs } = JSON.parse(await readFile(file!, 'utf8')).meta
    expect(durationMs).toBeGreaterThanOrEqual(0)
    expect(durationMs).toBeLessThanOrEqual(Math.ceil(took))
  })

  test('the announcement of its upstream request is withdrawn once it settled, so it hides no later request to that address', async () => {
    stubUpstream()
    await engineIn('record').handle(json('{"temperature":0}', '/v1/engine-paths/withdrawn'), msw)
    const created = { method: 'POST', origin: UPSTREAM, path: '/v1/engine-paths/withdrawn' }
    expect(classifyCreated(created, { relevant: () => true })).toEqual({ kind: 'track', key: `POST ${UPSTREAM}/v1/engine-paths/withdrawn` })
  })
})

describe('the miss message, line by line', () => {
  const missLines = async (engine: ReplayEngine, request: Request) => {
    await engine.handle(request, msw)
    return engine.takeProblems()[0]!.message.split('\n')
  }
  const expected = (lines: string[]) => lines.find((l) => l.startsWith('  Expected file: '))

  test('a path no known server answers names no provider', async () => {
    const lines = await missLines(engineIn('replay'), json('{"temperature":0}', '/v1/custom'))
    expect(lines).toEqual([
      '[expect-llm] Failed to replay POST /v1/custom: no fixture matches this request, and mode "replay" never calls the network. Record it, then commit the new file.',
      `  Request:       POST ${UPSTREAM}/v1/custom`,
      '  Test file:     test/e.test.ts',
      expected(lines),
      '  Record it:     EXPECT_LLM_REPLAY=record npx vitest run test/e.test.ts',
      '  No fixtures are recorded for this test file yet.',
      '  No recording of POST /v1/custom exists under . to compare with.',
    ])
  })

  test('a provider with several key variables: recording needs any one of them', async () => {
    const url = 'https://generativelanguage.googleapis.com/v1beta/models/gemini-x:generateContent'
    const lines = await missLines(engineIn('replay'), new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }))
    expect(lines[5]).toBe(
      '  Record it:     EXPECT_LLM_REPLAY=record npx vitest run test/e.test.ts (needs GOOGLE_GENERATIVE_AI_API_KEY or GEMINI_API_KEY or GOOGLE_API_KEY)',
    )
  })

  test('a recording mode that CI turned into replay is noted, with the way to record in CI', async () => {
    forceModeFromOptions()
    vi.stubEnv('CI', 'true')
    vi.stubEnv('EXPECT_LLM_ALLOW_RECORD_IN_CI', '')
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const lines = await missLines(engineIn('record'), json('{"temperature":0}', '/v1/custom'))
    expect(lines.slice(4)).toEqual([
      '  Record it:     EXPECT_LLM_REPLAY=record npx vitest run test/e.test.ts',
      '  Note:          EXPECT_LLM_REPLAY=record was ignored because CI is set (EXPECT_LLM_ALLOW_RECORD_IN_CI=1 allows recording in CI).',
      '  No fixtures are recorded for this test file yet.',
      '  No recording of POST /v1/custom exists under . to compare with.',
    ])
  })

  test('recordings of another method or another path in the folder are not compared with', async () => {
    stubUpstream()
    const recorder = engineIn('record')
    await recorder.handle(new Request(`${UPSTREAM}/v1/chat/completions`), msw)
    await recorder.handle(json('{"temperature":0}', '/v1/embeddings'), msw)
    await recorder.flush()
    const lines = await missLines(engineIn('replay'), json('{"temperature":0}'))
    expect(lines.slice(6)).toEqual(['  No recording of POST /v1/chat/completions exists under . to compare with.'])
  })
})

describe('the nearest recording in other test files', () => {
  // Files that look like fixtures of another test file (sorted before the recording) but cannot be read.
  const unreadable = async (endpoint: string, count: number) => {
    const folder = join(sandbox.root, 'test', '__llm_fixtures__', 'a.test.ts')
    await mkdir(folder, { recursive: true })
    for (let i = 0; i < count; i++) await writeFile(join(folder, `${endpoint}.${i.toString(16).padStart(16, '0')}.json`), '{}')
  }
  const recordIn = async (name: string) => {
    stubUpstream()
    const inB = { testPath: () => join(sandbox.root, 'test', name) }
    await engineIn('record', inB).handle(json('{"temperature":0,"n":1}'), msw)
    return (await fixtureFiles(join(sandbox.root, 'test', '__llm_fixtures__', name)))[0]!.slice(sandbox.root.length + 1)
  }
  const nearestLine = async () => {
    const engine = engineIn('replay')
    await engine.handle(json('{"temperature":0,"n":2}'), msw)
    return engine.takeProblems()[0]!.message.split('\n')[7]
  }

  test('only recordings of the same endpoint are searched, however many of other endpoints come first', async () => {
    await unreadable('embeddings', 300)
    const recorded = await recordIn('b.test.ts')
    expect(await nearestLine()).toBe(`  Nearest recording: ${recorded} differs at 1 path(s):`)
  })

  test('at most 300 recordings of the endpoint are searched', async () => {
    await unreadable('chat-completions', 300)
    await recordIn('b.test.ts')
    expect(await nearestLine()).toBe('  No recording of POST /v1/chat/completions exists under . to compare with.')
  })
})
