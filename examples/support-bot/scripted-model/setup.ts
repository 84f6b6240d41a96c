/**
 * Setup file used only by `npm run demo:record-scripted` (vitest.config.ts adds it when
 * EXPECT_LLM_SCRIPTED_MODEL=1). It starts the scripted model (./model.ts) on a local OpenAI-compatible
 * server and sends it the requests that expect-llm's recorder forwards to https://api.openai.com.
 *
 * The bot, the judge and the embedder keep calling the real base URL, so the fixtures are keyed exactly
 * like recordings of the hosted API, and `npm run demo` replays them with the default configuration.
 * Only the recorder's upstream call is redirected: expect-llm forwards a request it records with msw's
 * `bypass()`, which marks it with `accept: msw/passthrough`; this wrapper sends those to the local server.
 */
import { afterAll } from 'vitest'
import { startOpenAIServer } from '../../../test/helpers/openai-server.js'
import { scriptedReply } from './model.js'

const ROUTED = Symbol.for('expect-llm.example.scripted-model')
const REAL_ORIGIN = 'https://api.openai.com'

const seen = new Map<string, number>()
const server = await startOpenAIServer({
  reply: (req) => {
    const key = `${req.path}\0${req.rawBody}`
    const occurrence = seen.get(key) ?? 0
    seen.set(key, occurrence + 1)
    return scriptedReply(req, occurrence)
  },
})

afterAll(() => server.close())

// Installed once per worker; it reads the origin of the server of the test file that is running.
const g = globalThis as typeof globalThis & { [ROUTED]?: { origin: string } }
if (g[ROUTED]) g[ROUTED].origin = server.origin
else {
  const target = (g[ROUTED] = { origin: server.origin })
  const realFetch = globalThis.fetch
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    if (url.origin !== REAL_ORIGIN || !(request.headers.get('accept') ?? '').includes('msw/passthrough')) return realFetch(request)
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer()
    return realFetch(`${target.origin}${url.pathname}${url.search}`, { method: request.method, headers: request.headers, ...(body ? { body } : {}), signal: request.signal })
  }
}
console.log(`[scripted model] answering for ${REAL_ORIGIN} at ${server.origin} while recording`)
