import { afterEach, describe, expect, test, vi } from 'vitest'
import { createClient, REPLAY_PLACEHOLDER_KEY, translateError } from '../src/openai-client.js'

const SESSION = Symbol.for('expect-llm.replay-session')
const g = globalThis as Record<symbol, unknown>
let saved: unknown

function withoutSession(): void {
  saved = g[SESSION]
  delete g[SESSION]
}

afterEach(() => {
  vi.unstubAllEnvs()
  if (saved !== undefined) g[SESSION] = saved
  else delete g[SESSION]
  saved = undefined
})

describe('createClient', () => {
  test('uses OPENAI_API_KEY when no key is configured', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-from-env')
    expect((await createClient({ baseURL: 'http://127.0.0.1:2/v1' }, 'judge')).apiKey).toBe('sk-from-env')
  })

  test('fails with a message naming OPENAI_API_KEY and configure() when there is no key and no replay', async () => {
    vi.stubEnv('OPENAI_API_KEY', '')
    withoutSession()
    await expect(createClient({}, 'embedder')).rejects.toThrow(
      '[expect-llm] Failed to create the OpenAI embedder: no API key. Set OPENAI_API_KEY, or call configure({ embedder: { apiKey, model, baseURL } }) in a setup file (any non-empty key for local servers), or configure({ embedder }) with your own Embedder or function.',
    )
  })

  test('sends a placeholder key when a replay session answers from recordings', async () => {
    vi.stubEnv('OPENAI_API_KEY', '')
    withoutSession()
    g[SESSION] = { replay: {}, server: {}, mswVersion: 'test' }
    expect((await createClient({}, 'judge')).apiKey).toBe(REPLAY_PLACEHOLDER_KEY)
  })

  test('returns a given client as is', async () => {
    const client = await createClient({ apiKey: 'k' }, 'judge')
    expect(await createClient({ client }, 'judge')).toBe(client)
  })
})

describe('translateError', () => {
  test('explains a server error status with the retries made', () => {
    const error = Object.assign(new Error('503 overloaded'), { status: 503, error: { message: 'overloaded' } })
    expect(translateError(error, 'judge', 'm', 'http://127.0.0.1:2/v1', 2).message).toBe(
      `[expect-llm] Failed to call the judge model "m" at http://127.0.0.1:2/v1: the server answered 503 (overloaded) after 2 retries. Check the request settings and the server's logs.`,
    )
  })

  test('keeps the status on the error', () => {
    expect(translateError(Object.assign(new Error('x'), { status: 429 }), 'embedder', 'm', 'u', 0).status).toBe(429)
  })
})
