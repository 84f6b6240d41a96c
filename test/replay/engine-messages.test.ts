// What the engine says and answers in the cases the request-level tests do not pin word for word
// (src/replay/engine.ts): the miss response's body, the full miss message of an empty project, a stale
// fixture's warning, a fixture that cannot be written, options that cannot be resolved, the problems of one
// test file, and relPath.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { getConfig } from '../../src/config.js'
import { relPath, ReplayEngine } from '../../src/replay/engine.js'
import { client, fixtureFiles, optionsFor, startReplay, useReplaySandbox } from './helpers.js'
import type { ReplayOptions, ReplayProblem } from '../../src/replay/types.js'

const sandbox = useReplaySandbox()
afterEach(() => {
  vi.restoreAllMocks()
})

const body = (content: string, extra: Record<string, unknown> = {}) => JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], ...extra })
const post = (content: string, extra: Record<string, unknown> = {}, query = '') =>
  fetch(`${sandbox.server.baseURL}/chat/completions${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(content, extra) })

async function recordOne(content: string, extra: ReplayOptions = {}): Promise<string> {
  const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record', extra))
  try {
    await client(sandbox.server.baseURL).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] })
    rec.replay.assertNoProblems()
  } finally {
    rec.close()
  }
  const [file] = await fixtureFiles(sandbox.root)
  return file!
}

describe('a replay miss', () => {
  test('answers 404 at once, not to be retried, with the headline in the error shapes clients read', async () => {
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay'))
    try {
      const res = await post('Never recorded')
      expect(res.status).toBe(404)
      expect(res.statusText).toBe('Not Found')
      expect(res.headers.get('content-type')).toBe('application/json')
      expect(res.headers.get('x-should-retry')).toBe('false')
      expect(res.headers.get('x-expect-llm-replay')).toBe('expect_llm_replay_miss')
      expect(await res.json()).toEqual({
        type: 'error',
        error: {
          type: 'expect_llm_replay_miss',
          code: 404,
          status: 'NOT_FOUND',
          message:
            '[expect-llm] Failed to replay POST /v1/chat/completions (model gpt-4o-mini): no fixture matches this request, and mode "replay" ' +
            'never calls the network. Record it, then commit the new file. The test fails with the details.',
          param: null,
        },
      })
      expect(phase.replay.takeProblems().map((p) => p.kind)).toEqual(['miss'])
    } finally {
      phase.close()
    }
    expect(sandbox.server.requests).toHaveLength(0)
  })

  test('in a project with no recordings, the message says so line by line', async () => {
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay'))
    try {
      await post('Never recorded', {}, '?api-version=2&b=1')
      const [problem] = phase.replay.takeProblems()
      const [file] = problem!.message.match(/test\/__llm_fixtures__\/example\.test\.ts\/chat-completions\.[0-9a-f]{16}\.json/)!
      expect(problem).toMatchObject({ kind: 'miss', testPath: join(sandbox.root, 'test', 'example.test.ts') })
      expect(problem!.message.split('\n')).toEqual([
        '[expect-llm] Failed to replay POST /v1/chat/completions (model gpt-4o-mini): no fixture matches this request, and mode "replay" never calls the network. Record it, then commit the new file.',
        `  Request:       POST ${sandbox.server.origin}/v1/chat/completions?api-version=2&b=1`,
        '  Provider:      an OpenAI-compatible server',
        '  Test file:     test/example.test.ts',
        `  Expected file: ${file}`,
        '  Record it:     EXPECT_LLM_REPLAY=record npx vitest run test/example.test.ts',
        '  No fixtures are recorded for this test file yet.',
        '  No recording of POST /v1/chat/completions exists under . to compare with.',
      ])
    } finally {
      phase.close()
    }
  })

  test('outside a test file, and for a provider host, the message says what to run and which key it needs', async () => {
    const phase = startReplay({ mode: 'replay', rootDir: sandbox.root, testPath: () => undefined, dir: 'fixtures' })
    try {
      await fetch('https://api.anthropic.com/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"claude-x"}' })
      const lines = phase.replay.takeProblems()[0]!.message.split('\n')
      expect(lines[0]).toBe(
        '[expect-llm] Failed to replay POST /v1/messages (model claude-x): no fixture matches this request, and mode "replay" never calls the network. Record it, then commit the new file.',
      )
      expect(lines.slice(1)).toEqual([
        '  Request:       POST https://api.anthropic.com/v1/messages',
        '  Provider:      Anthropic',
        '  Test file:     (none: the request was made outside a test)',
        expect.stringMatching(/^ {2}Expected file: fixtures\/_no-test-file\/messages\.[0-9a-f]{16}\.json$/),
        '  Record it:     EXPECT_LLM_REPLAY=record <your test command> (needs ANTHROPIC_API_KEY)',
        '  No fixtures are recorded for this test file yet.',
        '  No recording of POST /v1/messages exists under fixtures to compare with.',
      ])
      expect(phase.escaped).toEqual([])
    } finally {
      phase.close()
    }
  })

  test('the record command comes from the runner when there is one', async () => {
    const engine = new ReplayEngine({
      options: { mode: 'replay', rootDir: sandbox.root, hosts: [sandbox.server.origin] },
      runner: { testPath: () => join(sandbox.root, 'test', 'j.test.ts'), testName: () => 'it', recordCommand: (rel) => `npx jest ${rel}` },
    })
    const msw = { bypass: (r: Request) => r, passthrough: () => new Response(null) }
    const res = await engine.handle(new Request(`${sandbox.server.baseURL}/chat/completions`, { method: 'POST', body: body('x') }), msw)
    expect(res?.status).toBe(404)
    const [problem] = engine.takeProblems()
    expect(problem).toMatchObject({ testPath: join(sandbox.root, 'test', 'j.test.ts'), testName: 'it' })
    expect(problem!.message).toContain('\n  Record it:     EXPECT_LLM_REPLAY=record npx jest test/j.test.ts\n')
  })
})

describe('a stale fixture', () => {
  async function age(file: string, days: number): Promise<void> {
    const fixture = JSON.parse(await readFile(file, 'utf8'))
    fixture.meta.recordedAt = new Date(Date.now() - days * 86_400_000).toISOString()
    await writeFile(file, `${JSON.stringify(fixture, null, 2)}\n`)
  }

  test('replays, with one warning per file naming its age, maxAge and the command to record it again', async () => {
    const file = await recordOne('Hi')
    await age(file, 40)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay', { maxAge: '30d' }))
    try {
      for (let i = 0; i < 2; i++)
        await client(sandbox.server.baseURL).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
      phase.replay.assertNoProblems()
    } finally {
      phase.close()
    }
    const rel = file.slice(sandbox.root.length + 1)
    expect(warn.mock.calls).toEqual([
      [
        `[expect-llm] ${rel} was recorded 40d ago, longer than replay.maxAge (30d): it still replays, but the model or its API may have ` +
          'changed since. Record it again with EXPECT_LLM_REPLAY=rerecord npx vitest run test/example.test.ts.',
      ],
    ])
  })

  test('a maxAge in milliseconds is shown as such; a fixture younger than maxAge, or without maxAge, says nothing', async () => {
    const file = await recordOne('Hi')
    await age(file, 2)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    for (const maxAge of [undefined, 3 * 86_400_000, 86_400_000]) {
      const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay', maxAge === undefined ? {} : { maxAge }))
      try {
        await client(sandbox.server.baseURL).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
      } finally {
        phase.close()
      }
    }
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]![0]).toContain('was recorded 2d ago, longer than replay.maxAge (86400000 ms)')
  })
})

describe('recording', () => {
  test('a fixture that cannot be written is a problem naming the file; the app still gets its answer', async () => {
    // A file where the fixture folder should be: the write fails whoever runs the test (root too).
    await mkdir(join(sandbox.root, 'test', '__llm_fixtures__'), { recursive: true })
    await writeFile(join(sandbox.root, 'test', '__llm_fixtures__', 'example.test.ts'), 'not a folder')
    // rerecord: no fixture is looked up (reading under that file would fail first, as a corrupt fixture).
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'rerecord'))
    try {
      const reply = await client(sandbox.server.baseURL).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
      expect(reply.choices[0]?.message.content).toBe('echo: Hi')
      const problems = phase.replay.takeProblems()
      expect(problems.map((p) => p.kind)).toEqual(['write'])
      expect(problems[0]!.message).toMatch(
        /^\[expect-llm\] Failed to write fixture test\/__llm_fixtures__\/example\.test\.ts\/chat-completions\.[0-9a-f]{16}\.json: .*(ENOTDIR|EEXIST).*\. Check that the folder is writable\.$/,
      )
    } finally {
      phase.close()
    }
    expect(await fixtureFiles(sandbox.root)).toEqual([])
  })

  test('identical requests at temperature 0 share one recording silently; a sampling one says so once per test file', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    try {
      for (let i = 0; i < 2; i++) expect((await post('Deterministic', { temperature: 0 })).status).toBe(200)
      for (let i = 0; i < 2; i++) expect((await post('Gemini style', { generationConfig: { temperature: 0 } })).status).toBe(200)
      expect(warn).not.toHaveBeenCalled()
      for (let i = 0; i < 2; i++) expect((await post('Sampled', { temperature: 0.7 })).status).toBe(200)
      for (let i = 0; i < 2; i++) expect((await post('Default temperature')).status).toBe(200)
      phase.replay.assertNoProblems()
    } finally {
      phase.close()
    }
    expect(sandbox.server.requests).toHaveLength(4)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]![0]).toMatch(
      /^\[expect-llm\] POST \/v1\/chat\/completions was sent again with the same body while recording, so it was not sent to the model again: every identical request of the run gets the one response recorded in test\/__llm_fixtures__\/example\.test\.ts\/chat-completions\.[0-9a-f]{16}\.json, now and in replay/,
    )
  })

  test('a body that is not a JSON object (here an array) is not a sampling request: repeats are silent', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    try {
      for (let i = 0; i < 2; i++)
        await fetch(`${sandbox.server.baseURL}/chat/completions`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '[0]' })
    } finally {
      phase.close()
    }
    expect(warn).not.toHaveBeenCalled()
  })
})

describe('options that cannot be resolved', () => {
  // llmReplay() and configure() refuse such options; the settings object can still be changed by hand.
  test('a request to a default provider host fails with the configuration error; others are not intercepted', async () => {
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay'))
    const config = getConfig() as { replay?: ReplayOptions }
    const saved = config.replay
    config.replay = { ...saved, hosts: ['not an origin'] }
    try {
      const res = await fetch('https://api.openai.com/v1/models')
      expect(res.status).toBe(404)
      expect(res.headers.get('x-expect-llm-replay')).toBe('expect_llm_replay_config')
      const [problem] = phase.replay.takeProblems()
      expect(problem).toMatchObject({ kind: 'record' })
      expect(problem!.message).toContain('Failed to configure replay hosts: "not an origin" is not a URL origin.')
      // The local server is not a default host: the request goes through to it.
      expect((await fetch(`${sandbox.server.baseURL}/models`)).headers.get('x-expect-llm-replay')).toBeNull()
      expect(phase.replay.takeProblems()).toEqual([])
    } finally {
      config.replay = saved
      phase.close()
    }
  })
})

describe('ReplayEngine bookkeeping', () => {
  test('takeProblems(testPath) takes that file’s problems and those outside any test file, in order, and leaves the rest', () => {
    const engine = new ReplayEngine({ options: { mode: 'replay' } })
    const p = (message: string, testPath?: string): ReplayProblem => ({ kind: 'miss', message, testPath })
    for (const problem of [p('a1', '/a'), p('b1', '/b'), p('none'), p('a2', '/a')]) engine.reportProblem(problem)
    expect(engine.takeProblems('/a').map((x) => x.message)).toEqual(['a1', 'none', 'a2'])
    expect(engine.takeProblems('/a')).toEqual([])
    expect(engine.takeProblems().map((x) => x.message)).toEqual(['b1'])
    expect(engine.takeProblems()).toEqual([])
  })

  test('relPath: POSIX path under the root, the file itself outside it', () => {
    expect(relPath('/p', '/p/test/a.json')).toBe('test/a.json')
    expect(relPath('/p', '/q/a.json')).toBe('/q/a.json')
    expect(relPath('/p', '/p')).toBe('')
  })
})

describe('paths the other tests leave out', () => {
  test('sequence mode: a miss with no recording at all gets the full miss message', async () => {
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay', { sequence: true }))
    try {
      expect((await post('Never recorded')).status).toBe(404)
      const [problem] = phase.replay.takeProblems()
      expect(problem!.message.split('\n')[0]).toBe(
        '[expect-llm] Failed to replay POST /v1/chat/completions (model gpt-4o-mini): no fixture matches this request, and mode "replay" never calls the network. Record it, then commit the new file.',
      )
      expect(problem!.message).toContain('  No fixtures are recorded for this test file yet.')
    } finally {
      phase.close()
    }
  })

  test('sequence mode outside a test file: the extra call says to record without a command', async () => {
    const outside = { testPath: () => undefined, testName: () => undefined }
    const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record', { sequence: true, ...outside }))
    try {
      expect((await post('Once')).status).toBe(200)
    } finally {
      rec.close()
    }
    const rep = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay', { sequence: true, ...outside }))
    try {
      expect((await post('Once')).status).toBe(200)
      expect((await post('Once')).status).toBe(404)
      expect(rep.replay.takeProblems()[0]!.message).toMatch(
        /^\[expect-llm\] Failed to replay POST \/v1\/chat\/completions \(sequence mode\): __llm_fixtures__\/_no-test-file\/chat-completions\.[0-9a-f]{16}\.json holds 1 recorded response\(s\) for this request, but this is call #2 in the test\. Record the extra calls with EXPECT_LLM_REPLAY=record\.$/,
      )
    } finally {
      rep.close()
    }
  })

  test('sequence mode replays a fixture recorded without it (one response)', async () => {
    await recordOne('Hi')
    const rep = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay', { sequence: true }))
    try {
      const reply = await client(sandbox.server.baseURL).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
      expect(reply.choices[0]?.message.content).toBe('echo: Hi')
      rep.replay.assertNoProblems()
    } finally {
      rep.close()
    }
  })

  test('sequence mode rerecord starts the sequence again instead of adding to it', async () => {
    sandbox.server.setReply((_req, i) => ({ text: `take ${i}` }))
    for (const mode of ['record', 'rerecord'] as const) {
      const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, mode, { sequence: true }))
      try {
        for (let i = 0; i < 2; i++) await post('Sample', { temperature: 1 })
        await phase.replay.flush()
        phase.replay.assertNoProblems()
      } finally {
        phase.close()
      }
    }
    const [file] = await fixtureFiles(sandbox.root)
    const responses = JSON.parse(await readFile(file!, 'utf8')).responses as Array<{ json: { choices: Array<{ message: { content: string } }> } }>
    expect(responses.map((r) => r.json.choices[0]!.message.content)).toEqual(['take 2', 'take 3'])
  })

  test('a miss in a test file without recordings is compared with a recording of another test file, by endpoint', async () => {
    await recordOne('Hello there')
    const phase = startReplay({ ...optionsFor(sandbox.root, sandbox.server.origin, 'replay'), testPath: () => join(sandbox.root, 'test', 'other.test.ts') })
    try {
      await post('Hello where')
      const message = phase.replay.takeProblems()[0]!.message
      expect(message).toContain('  No fixtures are recorded for this test file yet.')
      expect(message).toMatch(/ {2}Nearest recording: test\/__llm_fixtures__\/example\.test\.ts\/chat-completions\.[0-9a-f]{16}\.json differs at 1 path\(s\):/)
      expect(message).toContain('      + actual:   "Hello where"')
    } finally {
      phase.close()
    }
  })

  test('a recording of another endpoint is not a nearest candidate', async () => {
    await recordOne('Hello there')
    const phase = startReplay({ ...optionsFor(sandbox.root, sandbox.server.origin, 'replay'), testPath: () => join(sandbox.root, 'test', 'other.test.ts') })
    try {
      await fetch(`${sandbox.server.baseURL}/embeddings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"input":"x","model":"e"}',
      })
      expect(phase.replay.takeProblems()[0]!.message).toContain('  No recording of POST /v1/embeddings exists under . to compare with.')
    } finally {
      phase.close()
    }
  })

  test('the summary counts a fixture written in this run as new, not unused', async () => {
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    try {
      await post('Hi')
      const [summary] = await phase.replay.summary(join(sandbox.root, 'test', 'example.test.ts'))
      expect(summary!.created).toHaveLength(1)
      expect(summary!.unused).toEqual([])
      expect(summary!.used).toEqual([])
    } finally {
      phase.close()
    }
  })

  test('a redact hook that returns no response keeps the recorded one', async () => {
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record', { redact: ({ key }) => ({ key }) }))
    try {
      expect((await post('Hi')).status).toBe(200)
      phase.replay.assertNoProblems()
    } finally {
      phase.close()
    }
    const [file] = await fixtureFiles(sandbox.root)
    expect(JSON.parse(await readFile(file!, 'utf8')).response.json.choices[0].message.content).toBe('echo: Hi')
  })

  test('upstream: a request to a host matching an origin pattern is recorded from the configured server, keyed by the real host', async () => {
    const phase = startReplay({
      ...optionsFor(sandbox.root, sandbox.server.origin, 'record'),
      hosts: ['https://*.openai.azure.com'],
      upstream: { 'https://*.openai.azure.com': sandbox.server.origin },
    })
    try {
      const res = await fetch('https://my-res.openai.azure.com/v1/chat/completions?api-version=1', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'api-key': 'real-looking-azure-key-0123456789' },
        body: body('Via Azure'),
      })
      expect(res.status).toBe(200)
      phase.replay.assertNoProblems()
      expect(phase.escaped).toEqual([])
    } finally {
      phase.close()
    }
    expect(sandbox.server.requests.map((r) => r.lastUserText)).toEqual(['Via Azure'])
    const [file] = await fixtureFiles(sandbox.root)
    expect(JSON.parse(await readFile(file!, 'utf8')).key.origin).toBe('https://my-res.openai.azure.com')
  })

  test('the network guard lets everything through when the options cannot be resolved', () => {
    vi.stubEnv('CI', 'true')
    const engine = new ReplayEngine({ options: { mode: 'replay', hosts: ['not an origin'] } })
    expect(engine.guard(new Request('https://weather.example.com/'))).toBeUndefined()
    const ok = new ReplayEngine({ options: { mode: 'replay' } })
    expect(ok.guard(new Request('https://weather.example.com/'))?.status).toBe(404)
    expect(ok.takeProblems().map((p) => p.kind)).toEqual(['network'])
  })
})
