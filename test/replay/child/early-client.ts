// A setup file listed before expect-llm/vitest that builds a client: it captures fetch before replay
// starts, so its requests bypass interception (see session.child.ts). It talks to a server of its own: the
// connections of a request that escaped stay open and would carry later requests to the same host too.
import OpenAI from 'openai'

;(globalThis as { earlyClient?: OpenAI }).earlyClient ??= new OpenAI({ baseURL: process.env.CHILD_EARLY_BASE_URL, apiKey: 'test-key-local', maxRetries: 0 })
