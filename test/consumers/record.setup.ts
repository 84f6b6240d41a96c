// Recording only: fixtures are looked up in the consumer project alone, so that every recording the
// consumer suite needs is written into its own __llm_fixtures__ (and none is borrowed from elsewhere in the repo).
// The local servers the consumer suite configures (Ollama at 127.0.0.1:11434, LM Studio at 127.0.0.1:1234)
// are scripted stand-ins here: the recorder's upstream requests to them go to local test servers that
// behave like those servers (test/helpers/local-servers.ts), and so is the LLM gateway of the agent loop
// (127.0.0.1:8787, test/order-loop.ts).
import { fileURLToPath } from 'node:url'
import { configure } from 'expect-llm'
import { afterAll } from 'vitest'
import { agentReply } from '../helpers/agent-model.js'
import { startLocalServer } from '../helpers/local-servers.js'
import { startOpenAIServer } from '../helpers/openai-server.js'
import { routeRecording } from '../helpers/route-recording.js'

configure({ replay: { rootDir: fileURLToPath(new URL('./projects/vitest', import.meta.url)) } })

const reference = 'You can ask for a refund within 30 days of delivery.'
const right = 'You have 30 days from delivery to request a refund.'
const vectors: Record<string, number[]> = { [reference]: [0.96, 0.28, 0, 0], [right]: [0.94, 0.34, 0, 0], 'Standard shipping costs $4.99.': [0.1, 0, 0.99, 0] }

const ollama = await startLocalServer('ollama', (req) =>
  req.lastUserText.includes(`<answer>\n${right}\n</answer>`)
    ? { text: JSON.stringify({ reasoning: 'Same 30-day window as the reference.', score: 1 }) }
    : { text: JSON.stringify({ reasoning: 'Reverses the condition: wait 30 days instead of within 30 days.', score: 0 }) },
)
const lmStudio = await startLocalServer('lmstudio', (req) => ({ embeddings: (req.body.input as string[]).map((t) => vectors[t] ?? [0, 0, 0, 1]) }))
// The consumer's LLM gateway (test/order-loop.ts): the scripted tool-calling model of the agent-loop tests
// (look the order up, refund its total, confirm), answering from the request alone.
const gateway = await startOpenAIServer({ reply: agentReply })
const unroute = routeRecording({ 'http://127.0.0.1:11434': ollama.origin, 'http://127.0.0.1:1234': lmStudio.origin, 'http://127.0.0.1:8787': gateway.origin })

afterAll(async () => {
  unroute()
  await Promise.all([ollama.close(), lmStudio.close(), gateway.close()])
})
