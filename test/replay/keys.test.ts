// Recording without a usable key fails before anything is sent, naming the provider's key variable.
// The engine's own upstream calls (marked by msw's bypass) to any host but 127.0.0.1 are blocked by a
// stand-in for the network, which records the attempt: nothing ever leaves the machine.
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { openAIJudge } from '../../src/judges/openai.js'
import { forceModeFromOptions, removeRoot, startReplay, tempRoot, type ReplayPhase } from './helpers.js'

let root: string
let phase: ReplayPhase
let attempts: string[]

beforeEach(async () => {
  forceModeFromOptions()
  vi.stubEnv('OPENAI_API_KEY', '')
  root = await tempRoot()
  attempts = []
  phase = startReplay({ mode: 'record', rootDir: root, testPath: () => `${root}/test/a.test.ts` })
  // Installed over MSW's fetch (after it started listening), so app requests still go through MSW.
  const realFetch = globalThis.fetch
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init)
    if ((request.headers.get('accept') ?? '').includes('msw/passthrough') && new URL(request.url).hostname !== '127.0.0.1') {
      attempts.push(`${request.method} ${request.url}`)
      return Promise.reject(new TypeError('blocked by the test: this request would have left the machine'))
    }
    return realFetch(input, init)
  })
})

afterEach(async () => {
  vi.unstubAllGlobals()
  phase.close()
  vi.unstubAllEnvs()
  await removeRoot(root)
})

const problem = () => {
  const problems = phase.replay.takeProblems()
  expect(problems.map((p) => p.kind)).toEqual(['credentials'])
  return problems[0]!.message
}

describe('recording with no usable key fails before anything is sent', () => {
  test("openai with the README's placeholder key names OPENAI_API_KEY", async () => {
    const error = await new OpenAI({ apiKey: 'replay-without-a-key', maxRetries: 2 }).chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e)
    expect((error as { status?: number }).status).toBe(404)
    expect(problem()).toBe(
      '[expect-llm] Failed to record POST /v1/chat/completions: the request carries a placeholder key ("replay-without-a-key"), not a real one, so https://api.openai.com would refuse it; nothing was sent. Set OPENAI_API_KEY (or pass apiKey to the client) and run again, or replay the recordings (unset EXPECT_LLM_REPLAY).',
    )
    expect(attempts).toEqual([])
  })

  test('the Anthropic SDK with a placeholder names ANTHROPIC_API_KEY', async () => {
    await new Anthropic({ apiKey: 'your-api-key', maxRetries: 0 }).messages
      .create({ model: 'claude-3-5-haiku-20241022', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
      .catch(() => undefined)
    expect(problem()).toContain('Set ANTHROPIC_API_KEY (or pass apiKey to the client)')
    expect(attempts).toEqual([])
  })

  test("Gemini with the scripted model's key in ?key= names the Google variables", async () => {
    await fetch('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent?key=scripted-model-no-key', {
      method: 'POST',
      body: '{"contents":[]}',
      headers: { 'content-type': 'application/json' },
    })
    const message = problem()
    expect(message).toContain('placeholder key ("scripted-model-no-key")')
    expect(message).toContain('Set GOOGLE_GENERATIVE_AI_API_KEY or GEMINI_API_KEY or GOOGLE_API_KEY')
    expect(attempts).toEqual([])
  })

  test('a request to a provider with no key at all names its variable', async () => {
    const res = await fetch('https://api.mistral.ai/v1/chat/completions', {
      method: 'POST',
      body: '{"model":"mistral-small"}',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(404)
    expect(problem()).toBe(
      '[expect-llm] Failed to record POST /v1/chat/completions: the request carries no API key, so https://api.mistral.ai would refuse it; nothing was sent. Set MISTRAL_API_KEY (or pass apiKey to the client) and run again, or replay the recordings (unset EXPECT_LLM_REPLAY).',
    )
    expect(attempts).toEqual([])
  })

  test("expect-llm's own judge with no OPENAI_API_KEY fails and names it", async () => {
    const judge = openAIJudge({ maxRetries: 0 })
    const error = await judge.evaluate({ prompt: 'Is it polite?', scale: { min: 0, max: 1 } } as never).catch((e: unknown) => e as Error)
    expect(String((error as Error).message)).toContain('OPENAI_API_KEY')
    expect(attempts).toEqual([])
    phase.replay.takeProblems()
  })

  test('a long placeholder key is named as a placeholder without quoting it', async () => {
    const res = await fetch('https://api.mistral.ai/v1/chat/completions', {
      method: 'POST',
      body: '{"model":"mistral-small"}',
      headers: { 'content-type': 'application/json', authorization: ['Bearer', 'this-is-only-a-placeholder-value-for-the-docs'].join(' ') },
    })
    expect(res.status).toBe(404)
    expect(problem()).toBe(
      '[expect-llm] Failed to record POST /v1/chat/completions: the request carries a placeholder key, not a real one, so https://api.mistral.ai would refuse it; nothing was sent. Set MISTRAL_API_KEY (or pass apiKey to the client) and run again, or replay the recordings (unset EXPECT_LLM_REPLAY).',
    )
    expect(attempts).toEqual([])
  })

  test.each([
    [40, true],
    [41, false],
  ])('a placeholder key of %i characters is quoted in the message: %s', async (length, quoted) => {
    const key = `placeholder-${'x'.repeat(length - 'placeholder-'.length)}`
    await fetch('https://api.mistral.ai/v1/chat/completions', {
      method: 'POST',
      body: '{"model":"mistral-small"}',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    })
    expect(problem()).toContain(quoted ? `placeholder key ("${key}"), not a real one` : 'placeholder key, not a real one')
    expect(attempts).toEqual([])
  })

  test('a real-looking key passes the check (and would be sent)', async () => {
    const key = ['sk', 'proj', 'a1B2c3D4e5F6g7H8i9J0k1L2'].join('-')
    await new OpenAI({ apiKey: key, maxRetries: 0 }).chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
      .catch(() => undefined)
    expect(attempts).toEqual(['POST https://api.openai.com/v1/chat/completions'])
    expect(phase.replay.takeProblems().map((p) => p.kind)).toEqual(['record'])
  })
})
