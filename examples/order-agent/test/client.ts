// The OpenAI client the tests give the agent. It calls the real API's default base URL: in replay mode
// (the default, and always in CI) expect-llm answers every request from __llm_fixtures__ and nothing
// reaches the network, so no key is needed; recording needs OPENAI_API_KEY.
import OpenAI from 'openai'
import { createOrderAgent, OrderStore, type PromptVersion } from '../src/index.js'

export function testClient(): OpenAI {
  // The SDK refuses to start without a key; on replay any placeholder will do (it is never sent anywhere).
  return new OpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'replay-without-a-key', maxRetries: 0 })
}

/** An agent over a fresh store (the sample orders, as of 2026-11-30), and that store, to check its effects. */
export function testAgent(prompt: PromptVersion = 'v2') {
  const store = new OrderStore()
  return { agent: createOrderAgent({ client: testClient(), store, prompt }), store }
}
