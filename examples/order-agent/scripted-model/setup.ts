/**
 * Setup file used only by `npm run examples:record-order-agent` (vitest.config.ts adds it, last, when
 * EXPECT_LLM_SCRIPTED_MODEL=1). It starts the scripted model (./model.ts) on the repository's local test
 * server and records against it with expect-llm's `upstream` option: requests for https://api.openai.com
 * are sent to the local server but recorded under the real host, so `npm run demo` replays them with
 * the default configuration. A local upstream needs no API key; the script passes a placeholder.
 */
import { afterAll } from 'vitest'
import { configure, getConfig } from 'expect-llm'
import { startOpenAIServer } from '../../../test/helpers/openai-server.js'
import { scriptedReply } from './model.js'

const server = await startOpenAIServer({ reply: (req) => scriptedReply(req) })
afterAll(() => server.close())

configure({ replay: { ...getConfig().replay, upstream: { 'https://api.openai.com': server.origin } } })
console.log(`[scripted order model] answering for https://api.openai.com at ${server.origin} while recording`)
