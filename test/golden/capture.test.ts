// The usage and latency of a task's own model calls (src/golden/capture.ts), read from the replay session's
// MSW life-cycle events. The session here is a stand-in with an event emitter that fires the events msw's
// server fires (`request:start`, `response:mocked`, `response:bypass`, each with its requestId, request and
// response), so every branch is observed in this process; replay-e2e.test.ts runs the real thing in a child.
import { EventEmitter } from 'node:events'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest'
import { readFixtureMeta, withCapture } from '../../src/golden/capture.js'
import { getReplaySession, setReplaySession, type ReplaySession } from '../../src/replay/session.js'
import { GoldenSuite } from '../../src/golden/suite.js'
import { validateCases } from '../../src/golden/dataset.js'
import { resetLedger } from '../../src/ledger.js'

const dir = mkdtempSync(join(tmpdir(), 'golden-capture-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let previous: ReplaySession | undefined
beforeEach(() => {
  previous = getReplaySession()
  resetLedger()
})
afterEach(() => setReplaySession(previous))

/** A folder of its own on every run of the test: readFixtureMeta caches by path for the whole process. */
function freshRoot(name: string): string {
  mkdirSync(dir, { recursive: true })
  return mkdtempSync(join(dir, `${name}-`))
}

let roots = 0
/** A session whose server emits msw's life-cycle events, with fixtures under its own root folder. */
function session({ rootDir = join(dir, `root${++roots}`), resolveThrows = false, events = true } = {}) {
  mkdirSync(rootDir, { recursive: true })
  const emitter = new EventEmitter()
  const server = { use() {}, resetHandlers() {}, close() {}, listHandlers: () => [], ...(events ? { events: emitter } : {}) }
  const engine = {
    resolve() {
      if (resolveThrows) throw new Error('no config')
      return { layout: { rootDir } }
    },
  }
  setReplaySession({ server, replay: { engine } as unknown as ReplaySession['replay'], mswVersion: '2.0.0' })
  let ids = 0
  /** One model call as msw reports it: the request starts, then its response is mocked (replay) or bypassed (record). */
  const call = (response: Response, { kind = 'response:mocked', headers = {} as Record<string, string>, id = `r${++ids}` } = {}): void => {
    const request = new Request('https://api.openai.com/v1/chat/completions', { method: 'POST', headers })
    emitter.emit('request:start', { requestId: id, request })
    emitter.emit(kind, { requestId: id, request, response })
  }
  return { emitter, call, rootDir, fixture: (rel: string, body: unknown) => writeFileSync(join(rootDir, rel), JSON.stringify(body)) }
}

const completion = (model: string, prompt: number, completionTokens: number) =>
  Response.json({ model, choices: [], usage: { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens } })

describe('withCapture', () => {
  test('without a replay session nothing is intercepted, and the task still runs', async () => {
    setReplaySession(undefined)
    expect(await withCapture(async () => 42)).toEqual({ value: 42, calls: [], intercepted: false })
  })

  test('a server without life-cycle events (an old msw) is not intercepted', async () => {
    session({ events: false })
    expect(await withCapture(async () => 'x')).toEqual({ value: 'x', calls: [], intercepted: false })
  })

  test('each call made during the task: the model and usage of its JSON response', async () => {
    const s = session()
    const captured = await withCapture(async () => {
      s.call(completion('gpt-4o-mini', 12, 5))
      s.call(completion('gpt-4o', 3, 4), { kind: 'response:bypass' })
      return 'done'
    })
    expect(captured).toEqual({
      value: 'done',
      intercepted: true,
      calls: [
        { model: 'gpt-4o-mini', inputTokens: 12, outputTokens: 5 },
        { model: 'gpt-4o', inputTokens: 3, outputTokens: 4 },
      ],
    })
  })

  test("calls outside the task, without a request id, and record mode's inner bypass request are not counted", async () => {
    const s = session()
    s.call(completion('before', 1, 1))
    const captured = await withCapture(async () => {
      s.emitter.emit('request:start', { request: new Request('https://api.openai.com/v1/x', { method: 'POST' }) })
      s.call(completion('passthrough', 1, 1), { headers: { accept: 'application/json, msw/passthrough' } })
      s.call(completion('bypass', 1, 1), { headers: { 'x-msw-intention': 'bypass' } })
      s.emitter.emit('response:mocked', { requestId: 'never-started', response: completion('unknown', 1, 1) })
      s.emitter.emit('response:mocked', { response: completion('no-id', 1, 1) })
      s.call(completion('counted', 2, 3))
    })
    expect(captured.calls).toEqual([{ model: 'counted', inputTokens: 2, outputTokens: 3 }])
  })

  test('one response counts once, even when msw emits it again', async () => {
    const s = session()
    const captured = await withCapture(async () => {
      const request = new Request('https://api.openai.com/v1/x', { method: 'POST' })
      s.emitter.emit('request:start', { requestId: 'a', request })
      s.emitter.emit('response:mocked', { requestId: 'a', request, response: completion('m', 1, 1) })
      s.emitter.emit('response:bypass', { requestId: 'a', request, response: completion('m', 1, 1) })
    })
    expect(captured.calls).toHaveLength(1)
  })

  test('the listeners are installed once per server: a second task does not count its calls twice', async () => {
    const s = session()
    await withCapture(async () => s.call(completion('m', 1, 1)))
    const second = await withCapture(async () => s.call(completion('m', 1, 1)))
    expect(second).toMatchObject({ intercepted: true, calls: [{ model: 'm', inputTokens: 1, outputTokens: 1 }] })
    expect(second.calls).toHaveLength(1)
  })

  test('a replayed call: the recorded duration, and the model and usage from the meta of the fixture that answered', async () => {
    const s = session()
    s.fixture('meta.json', { meta: { model: 'gpt-4o-2024', usage: { inputTokens: 100, outputTokens: 7 } }, response: { status: 200, headers: {} } })
    const response = completion('body-model', 1, 1)
    response.headers.set('x-expect-llm-fixture', 'meta.json')
    response.headers.set('x-expect-llm-duration-ms', '250')
    const captured = await withCapture(async () => s.call(response))
    expect(captured.calls).toEqual([{ fixture: 'meta.json', recordedMs: 250, model: 'gpt-4o-2024', inputTokens: 100, outputTokens: 7 }])
  })

  test('a duration that is not a number is left out', async () => {
    const s = session()
    const response = new Response('plain', { headers: { 'content-type': 'text/plain', 'x-expect-llm-duration-ms': 'soon' } })
    const captured = await withCapture(async () => s.call(response))
    expect(captured.calls).toEqual([{}])
  })

  test('a fixture whose meta has no usage or model: both from its recorded response', async () => {
    const s = session()
    s.fixture('old.json', {
      meta: { model: null, usage: null },
      response: { status: 200, headers: {}, json: { model: 'gpt-3.5', usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } } },
    })
    const response = new Response('{}', { headers: { 'content-type': 'application/json', 'x-expect-llm-fixture': 'old.json' } })
    const captured = await withCapture(async () => s.call(response))
    expect(captured.calls).toEqual([{ fixture: 'old.json', model: 'gpt-3.5', inputTokens: 9, outputTokens: 2 }])
  })

  test('a fixture with a model but no usage anywhere gives the model alone', async () => {
    const s = session()
    s.fixture('nousage.json', { meta: { model: 'gpt-x', usage: null }, response: { status: 200, headers: {}, json: { ok: true } } })
    const response = new Response('{}', { headers: { 'content-type': 'application/json', 'x-expect-llm-fixture': 'nousage.json' } })
    const captured = await withCapture(async () => s.call(response))
    expect(captured.calls).toEqual([{ fixture: 'nousage.json', model: 'gpt-x' }])
  })

  test('a fixture that cannot be read yet (being written) falls back to the JSON body', async () => {
    const s = session()
    const response = completion('from-body', 4, 6)
    response.headers.set('x-expect-llm-fixture', 'missing.json')
    const captured = await withCapture(async () => s.call(response))
    expect(captured.calls).toEqual([{ fixture: 'missing.json', model: 'from-body', inputTokens: 4, outputTokens: 6 }])
  })

  test('without a replay root (its configuration does not resolve), a fixture header falls back to the JSON body', async () => {
    const s = session({ resolveThrows: true })
    s.fixture('meta.json', { meta: { model: 'from-meta', usage: { inputTokens: 1, outputTokens: 1 } } })
    const response = completion('from-body', 4, 6)
    response.headers.set('x-expect-llm-fixture', 'meta.json')
    const captured = await withCapture(async () => s.call(response))
    expect(captured.calls).toEqual([{ fixture: 'meta.json', model: 'from-body', inputTokens: 4, outputTokens: 6 }])
  })

  test('a body that is not JSON, or JSON without usage, gives a call without usage', async () => {
    const s = session()
    const captured = await withCapture(async () => {
      s.call(new Response('data: {}\n\n', { headers: { 'content-type': 'text/event-stream' } }))
      s.call(new Response('not json', { headers: { 'content-type': 'application/json' } }))
      s.call(Response.json({ id: 'x' }))
    })
    expect(captured.calls).toEqual([{}, {}, {}])
  })
})

describe('withCapture, the edges of msw events', () => {
  test('a response event that comes just after the task returned (msw emits it in a later tick) is still counted', async () => {
    const s = session()
    const captured = await withCapture(async () => {
      const request = new Request('https://api.openai.com/v1/x', { method: 'POST' })
      s.emitter.emit('request:start', { requestId: 'late', request })
      setImmediate(() => s.emitter.emit('response:mocked', { requestId: 'late', request, response: completion('late-model', 2, 1) }))
      return 'returned first'
    })
    expect(captured.calls).toEqual([{ model: 'late-model', inputTokens: 2, outputTokens: 1 }])
  })

  test('a response event without a response gives a call without usage', async () => {
    const s = session()
    const captured = await withCapture(async () => {
      s.emitter.emit('request:start', { requestId: 'x', request: new Request('https://api.openai.com/v1/x', { method: 'POST' }) })
      s.emitter.emit('response:mocked', { requestId: 'x' })
    })
    expect(captured.calls).toEqual([{}])
  })

  test('a JSON media type with a suffix (application/vnd.api+json) is read', async () => {
    const s = session()
    const body = JSON.stringify({ model: 'm', usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } })
    const captured = await withCapture(async () => s.call(new Response(body, { headers: { 'content-type': 'application/vnd.api+json' } })))
    expect(captured.calls).toEqual([{ model: 'm', inputTokens: 1, outputTokens: 2 }])
  })

  test('a response without content type is not read', async () => {
    const s = session()
    const body = JSON.stringify({ model: 'm', usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } })
    const response = new Response(body)
    response.headers.delete('content-type')
    const captured = await withCapture(async () => s.call(response))
    expect(captured.calls).toEqual([{}])
  })

  test('a response whose content type is not JSON is not read, even when its body is JSON with usage', async () => {
    const s = session()
    const body = JSON.stringify({ model: 'm', usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } })
    const captured = await withCapture(async () => s.call(new Response(body, { headers: { 'content-type': 'text/plain' } })))
    expect(captured.calls).toEqual([{}])
  })

  test('an events object without an on() function is not intercepted', async () => {
    const s = session()
    ;(getReplaySession()!.server as { events?: unknown }).events = { emit: s.emitter.emit.bind(s.emitter) }
    expect(await withCapture(async () => 'x')).toEqual({ value: 'x', calls: [], intercepted: false })
  })

  test('the listeners are added once per server, however many tasks run', async () => {
    const s = session()
    await withCapture(async () => undefined)
    await withCapture(async () => undefined)
    expect(['request:start', 'response:mocked', 'response:bypass'].map((e) => s.emitter.listenerCount(e))).toEqual([1, 1, 1])
  })

  test('a request event without the request, and a request with an ordinary accept header, are counted', async () => {
    const s = session()
    const captured = await withCapture(async () => {
      s.emitter.emit('request:start', { requestId: 'bare' })
      s.emitter.emit('response:mocked', { requestId: 'bare', response: completion('bare', 1, 1) })
      s.call(completion('accepting', 2, 2), { headers: { accept: 'application/json' } })
    })
    expect(captured.calls.map((c) => c.model)).toEqual(['bare', 'accepting'])
  })

  test('a fixture meta with usage and a null model, and no response: the usage alone', async () => {
    const s = session()
    s.fixture('null-model.json', { meta: { model: null, usage: { inputTokens: 3, outputTokens: 4 } } })
    const response = new Response('not json', { headers: { 'content-type': 'text/plain', 'x-expect-llm-fixture': 'null-model.json' } })
    const captured = await withCapture(async () => s.call(response))
    expect(captured.calls).toStrictEqual([{ fixture: 'null-model.json', inputTokens: 3, outputTokens: 4 }])
  })

  test('a fixture whose meta has usage but no model: the usage from the meta, the model from the response', () => {
    const root = freshRoot('meta-mixed')
    writeFileSync(
      join(root, 'm.json'),
      JSON.stringify({
        meta: { usage: { inputTokens: 7, outputTokens: 8 } },
        response: { status: 200, headers: {}, json: { model: 'response-model', usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } } },
      }),
    )
    expect(readFixtureMeta(root, 'm.json')).toEqual({ model: 'response-model', usage: { inputTokens: 7, outputTokens: 8 } })
  })
})

describe('readFixtureMeta', () => {
  test('reads the meta once per file (cached), and undefined for a file that is not there or not JSON', () => {
    const root = freshRoot('meta-cache')
    writeFileSync(join(root, 'a.json'), JSON.stringify({ meta: { model: 'm1', usage: { inputTokens: 1, outputTokens: 2 } } }))
    expect(readFixtureMeta(root, 'a.json')).toEqual({ model: 'm1', usage: { inputTokens: 1, outputTokens: 2 } })
    writeFileSync(join(root, 'a.json'), JSON.stringify({ meta: { model: 'm2', usage: null } }))
    expect(readFixtureMeta(root, 'a.json')).toEqual({ model: 'm1', usage: { inputTokens: 1, outputTokens: 2 } })
    expect(readFixtureMeta(root, 'nope.json')).toBeUndefined()
    writeFileSync(join(root, 'bad.json'), '{')
    expect(readFixtureMeta(root, 'bad.json')).toBeUndefined()
  })

  test('a meta with a model but no usage takes the usage from the response; a fixture without meta reads both from it', () => {
    const root = freshRoot('meta-partial')
    const response = { status: 200, headers: {}, json: { model: 'response-model', usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 } } }
    writeFileSync(join(root, 'model-only.json'), JSON.stringify({ meta: { model: 'meta-model', usage: null }, response }))
    writeFileSync(join(root, 'no-meta.json'), JSON.stringify({ response }))
    expect(readFixtureMeta(root, 'model-only.json')).toEqual({ model: 'meta-model', usage: { inputTokens: 5, outputTokens: 6, totalTokens: 11 } })
    expect(readFixtureMeta(root, 'no-meta.json')).toEqual({ model: 'response-model', usage: { inputTokens: 5, outputTokens: 6, totalTokens: 11 } })
  })

  test('a fixture with neither meta nor response has no model and no usage', () => {
    const root = freshRoot('meta-empty')
    writeFileSync(join(root, 'e.json'), '{}')
    expect(readFixtureMeta(root, 'e.json')).toEqual({ model: null, usage: null })
  })

  test('a complete meta is used as it is, without reading the response', () => {
    const root = freshRoot('meta-complete')
    writeFileSync(
      join(root, 'c.json'),
      JSON.stringify({
        meta: { model: 'meta-model', usage: { inputTokens: 5, outputTokens: 6 } },
        response: { status: 200, headers: {}, json: { model: 'response-model', usage: { prompt_tokens: 1, completion_tokens: 1 } } },
      }),
    )
    expect(readFixtureMeta(root, 'c.json')).toEqual({ model: 'meta-model', usage: { inputTokens: 5, outputTokens: 6 } })
  })
})

describe('a golden case run with its calls captured', () => {
  test("the recorded latency of the replayed calls (summed) and their usage are the run's", async () => {
    const s = session()
    s.fixture('one.json', { meta: { model: 'gpt-4o-mini', usage: { inputTokens: 10, outputTokens: 5 } } })
    const replayed = (ms: string) => {
      const response = Response.json({})
      response.headers.set('x-expect-llm-fixture', 'one.json')
      response.headers.set('x-expect-llm-duration-ms', ms)
      return response
    }
    const suite = new GoldenSuite('captured', {
      dataset: [],
      task: async () => {
        s.call(replayed('120'))
        s.call(replayed('80'))
        return 'ok'
      },
      report: false,
    })
    suite.setCases(validateCases([{ id: 'a', input: 'q' }]))
    const result = await suite.runCase(suite.cases[0]!)
    expect(result.runs[0]).toMatchObject({
      latencyMs: 200,
      latencySource: 'recorded',
      usage: { calls: 2, inputTokens: 20, outputTokens: 10, models: ['gpt-4o-mini'] },
    })
    expect(result.runs[0]!.usage.costUsd).toBeGreaterThan(0)
  })

  test('when only some calls were replayed, the latency is the measured wall time', async () => {
    const s = session()
    const suite = new GoldenSuite('captured', {
      dataset: [],
      task: async () => {
        const replayed = completion('m', 1, 1)
        replayed.headers.set('x-expect-llm-duration-ms', '5000')
        s.call(replayed)
        s.call(completion('m', 1, 1))
        return 'ok'
      },
      report: false,
    })
    suite.setCases(validateCases([{ id: 'a', input: 'q' }]))
    const result = await suite.runCase(suite.cases[0]!)
    expect(result.runs[0]!.latencySource).toBe('measured')
    expect(result.runs[0]!.latencyMs).toBeLessThan(5000)
  })

  test('an unpriced model makes the cost unknown; a call without model or tokens costs nothing', async () => {
    const s = session()
    const suite = new GoldenSuite('captured', {
      dataset: [],
      task: async (input: string) => {
        if (input === 'unpriced') s.call(completion('my-local-model', 3, 3))
        else s.call(Response.json({}))
        return 'ok'
      },
      report: false,
    })
    suite.setCases(
      validateCases([
        { id: 'a', input: 'unpriced' },
        { id: 'b', input: 'free' },
      ]),
    )
    const [a, b] = [await suite.runCase(suite.cases[0]!), await suite.runCase(suite.cases[1]!)]
    expect(a.runs[0]!.usage).toEqual({ calls: 1, inputTokens: 3, outputTokens: 3, costUsd: undefined, models: ['my-local-model'] })
    expect(b.runs[0]!.usage).toEqual({ calls: 1, inputTokens: 0, outputTokens: 0, costUsd: 0, models: [] })
  })

  test('a task that throws after its calls keeps their usage in the run', async () => {
    const s = session()
    const suite = new GoldenSuite('captured', {
      dataset: [],
      task: async () => {
        s.call(completion('gpt-4o-mini', 7, 1))
        throw new Error('parse failed')
      },
      report: false,
    })
    suite.setCases(validateCases([{ id: 'a', input: 'q' }]))
    const result = await suite.runCase(suite.cases[0]!)
    expect(result.runs[0]).toMatchObject({
      error: 'the task threw: parse failed',
      usage: { calls: 1, inputTokens: 7, outputTokens: 1, models: ['gpt-4o-mini'] },
    })
  })
})
