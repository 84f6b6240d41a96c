/**
 * Setup file used only by `npm run demo:record-scripted` and `npm run test:consumers:record` (their configs
 * add it, last, when EXPECT_LLM_SCRIPTED_MODEL=1). It starts the scripted model (./model.ts) on a local
 * server and records against it with expect-llm's `upstream` option: requests for https://api.openai.com
 * and https://api.anthropic.com are recorded from the local server but keyed as the real hosts.
 *
 * The bot, the judge and the embedder keep calling the real base URLs, so the fixtures are keyed exactly
 * like recordings of the hosted APIs, and `npm run demo` replays them with the default configuration. A
 * local upstream needs no API key, so the scripts run with a placeholder one.
 */
import { afterAll } from 'vitest'
import { configure, getConfig } from 'expect-llm'
import { startOpenAIServer } from '../../../test/helpers/openai-server.js'
import { scriptedReply } from './model.js'

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

// Added to what the earlier setup files configured (rootDir, ...), not in place of it.
configure({ replay: { ...getConfig().replay, upstream: { 'https://api.openai.com': server.origin, 'https://api.anthropic.com': server.origin } } })
console.log(`[scripted model] answering for https://api.openai.com and https://api.anthropic.com at ${server.origin} while recording`)
