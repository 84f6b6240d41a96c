import { join } from 'node:path'
import { APIError } from 'openai'
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions'
import { describe, expect, test } from 'vitest'
import { client, optionsFor, startReplay, useReplaySandbox } from './helpers.js'
import type { ReplayOptions } from '../../src/replay/types.js'

const sandbox = useReplaySandbox()

type Body = ChatCompletionCreateParamsNonStreaming

async function record(body: Body, extra: ReplayOptions = {}): Promise<void> {
  const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record', extra))
  try {
    await client(sandbox.server.baseURL).chat.completions.create(body)
    phase.replay.assertNoProblems()
  } finally {
    phase.close()
  }
}

/** Replays `body` expecting a miss; returns the SDK error, the problem message and how many requests the engine handled. */
async function replayMiss(body: Body, extra: ReplayOptions = {}): Promise<{ error: unknown; message: string; handled: number }> {
  const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay', extra))
  try {
    const error = await client(sandbox.server.baseURL)
      .chat.completions.create(body as never)
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    const problems = phase.replay.takeProblems()
    expect(problems).toHaveLength(1)
    return { error, message: problems[0]!.message, handled: phase.replay.engine.handled }
  } finally {
    phase.close()
  }
}

const ask = (content: string, extra: Partial<Body> = {}): Body => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], ...extra }) as Body

describe('a miss in replay', () => {
  test('fails at once with a non-retryable 404 and never reaches the server', async () => {
    await record(ask('Capital of France?'))
    sandbox.server.reset()
    const { error, handled } = await replayMiss(ask('What is the capital of France?'))
    expect(error).toBeInstanceOf(APIError)
    expect((error as APIError).status).toBe(404)
    expect(handled).toBe(1) // one attempt: x-should-retry: false stops the SDK's retries
    expect(sandbox.server.requests).toHaveLength(0)
  })

  test('names the request, the expected file, the record command, and diffs the changed prompt', async () => {
    await record(ask('Capital of France?'))
    const { message } = await replayMiss(ask('What is the capital of France?'))
    expect(message).toContain('[expect-llm] Failed to replay POST /v1/chat/completions (model gpt-4o-mini)')
    expect(message).toContain('Provider:      an OpenAI-compatible server')
    expect(message).toMatch(/Expected file: test\/__llm_fixtures__\/example\.test\.ts\/chat-completions\.[0-9a-f]{16}\.json/)
    expect(message).toContain('Record it:     EXPECT_LLM_REPLAY=record npx vitest run test/example.test.ts')
    expect(message).toMatch(/Nearest recording: test\/__llm_fixtures__\/example\.test\.ts\/chat-completions\.[0-9a-f]{16}\.json differs at 1 path\(s\)/)
    expect(message).toContain('/body/messages/0/content')
    expect(message).toContain('- recorded: "Capital of France?"')
    expect(message).toContain('+ actual:   "What is the capital of France?"')
  })

  test('shows a long prompt around its first difference only', async () => {
    const long = `${'lorem ipsum '.repeat(40)}ANSWER BRIEFLY${' dolor sit amet'.repeat(40)}`
    await record(ask(long))
    const { message } = await replayMiss(ask(long.replace('ANSWER BRIEFLY', 'ANSWER AT LENGTH')))
    expect(message).toMatch(/first difference at 487/)
    expect(message).toContain('ANSWER AT LENGTH')
    expect(message).not.toContain('lorem ipsum '.repeat(10))
  })

  test('hints when only the model differs', async () => {
    await record(ask('Hi'))
    const { message } = await replayMiss(ask('Hi', { model: 'gpt-4.1-mini' }))
    expect(message).toContain('Hint: Only the model differs (recorded "gpt-4o-mini", now "gpt-4.1-mini")')
  })

  test('hints when the test now streams but the recording does not', async () => {
    await record(ask('Hi'))
    const { message } = await replayMiss(ask('Hi', { stream: true } as never))
    expect(message).toContain('/body/stream')
    expect(message).toContain('Hint: The recording is a non-streaming call, but the test now streams')
  })

  test('hints that a volatile-looking field belongs in ignoreBodyFields', async () => {
    await record(ask('Hi', { user: 'run-5f0c6a6e-0d7e-4a0e-9a51-3c2f0b8f9d11' }))
    const { message } = await replayMiss(ask('Hi', { user: 'run-0b9d2c44-7f1e-4c53-8d2a-96e1a2b3c4d5' }))
    expect(message).toContain(`"user" looks volatile: if it changes every run, add 'user' to configure({ replay: { ignoreBodyFields } })`)
  })

  test('says when no fixture was recorded for the test file yet', async () => {
    const { message } = await replayMiss(ask('Hi'))
    expect(message).toContain('No fixtures are recorded for this test file yet.')
    expect(message).toContain('No recording of POST /v1/chat/completions exists')
  })
})

describe('lookup', () => {
  test('finds a fixture by hash anywhere under the root when the test file moved', async () => {
    await record(ask('Capital of Peru?'))
    sandbox.server.reset()
    const moved = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay', { testPath: () => join(sandbox.root, 'other', 'moved.test.ts') }))
    try {
      const reply = await client(sandbox.server.baseURL).chat.completions.create(ask('Capital of Peru?'))
      expect(reply.choices[0]?.message.content).toBe('echo: Capital of Peru?')
      moved.replay.assertNoProblems()
      expect(sandbox.server.requests).toHaveLength(0)
    } finally {
      moved.close()
    }
  })

  test('ignoreBodyFields lets a volatile field change without a miss', async () => {
    await record(ask('Hi', { user: 'run-1', metadata: { trace: 'a' } }), { ignoreBodyFields: ['user', 'metadata.trace'] })
    sandbox.server.reset()
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay', { ignoreBodyFields: ['user', '/metadata/trace'] }))
    try {
      await client(sandbox.server.baseURL).chat.completions.create(ask('Hi', { user: 'run-2', metadata: { trace: 'b' } }))
      phase.replay.assertNoProblems()
      expect(sandbox.server.requests).toHaveLength(0)
    } finally {
      phase.close()
    }
  })

  test('sequence mode serves recorded responses in call order and misses on an extra call', async () => {
    sandbox.server.setReply((_req, i) => ({ text: `sample ${i}` }))
    const body = ask('Pick a random word', { temperature: 1 })
    const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record', { sequence: true, testName: () => 'samples' }))
    const recorded: Array<string | null | undefined> = []
    try {
      for (let i = 0; i < 3; i++) recorded.push((await client(sandbox.server.baseURL).chat.completions.create(body)).choices[0]?.message.content)
      rec.replay.assertNoProblems()
    } finally {
      rec.close()
    }
    expect(recorded).toEqual(['sample 0', 'sample 1', 'sample 2'])
    sandbox.server.reset()
    const rep = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay', { sequence: true, testName: () => 'samples' }))
    try {
      const replayed: Array<string | null | undefined> = []
      for (let i = 0; i < 3; i++) replayed.push((await client(sandbox.server.baseURL).chat.completions.create(body)).choices[0]?.message.content)
      expect(replayed).toEqual(recorded)
      const extra = await client(sandbox.server.baseURL)
        .chat.completions.create(body)
        .then(
          () => undefined,
          (e: unknown) => e,
        )
      expect((extra as APIError).status).toBe(404)
      expect(rep.replay.takeProblems()[0]?.message).toContain('holds 3 recorded response(s) for this request, but this is call #4')
      expect(sandbox.server.requests).toHaveLength(0)
    } finally {
      rep.close()
    }
  })
  test("sequence mode keeps every call recorded concurrently, even when a later call finishes first, with each call's duration", async () => {
    // The first call is answered slowest, so the recordings complete in reverse call order.
    sandbox.server.setReply((_req, i) => ({ text: `sample ${i}`, latencyMs: [120, 60, 0][i] ?? 0 }))
    const body = ask('Pick a random word', { temperature: 1 })
    const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record', { sequence: true, testName: () => 'samples' }))
    let recorded: Array<string | null | undefined>
    try {
      const sdk = client(sandbox.server.baseURL)
      recorded = (await Promise.all([0, 1, 2].map(() => sdk.chat.completions.create(body)))).map((r) => r.choices[0]?.message.content)
      await rec.replay.flush()
      rec.replay.assertNoProblems()
    } finally {
      rec.close()
    }
    expect(recorded).toEqual(['sample 0', 'sample 1', 'sample 2'])
    sandbox.server.reset()
    const rep = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay', { sequence: true, testName: () => 'samples' }))
    try {
      const sdk = client(sandbox.server.baseURL)
      const replayed: Array<{ text: string | null | undefined; durationMs: number }> = []
      for (let i = 0; i < 3; i++) {
        const { data, response } = await sdk.chat.completions.create(body).withResponse()
        replayed.push({ text: data.choices[0]?.message.content, durationMs: Number(response.headers.get('x-expect-llm-duration-ms')) })
      }
      expect(replayed.map((r) => r.text)).toEqual(recorded)
      // Each call replays its own recorded latency: the first call was the slowest.
      expect(replayed[0]!.durationMs).toBeGreaterThanOrEqual(100)
      expect(replayed[2]!.durationMs).toBeLessThan(replayed[0]!.durationMs)
      expect(sandbox.server.requests).toHaveLength(0)
    } finally {
      rep.close()
    }
  })
})
