// Child test file for test/replay/runner.test.ts: the client is built at module level, at import time.
import OpenAI from 'openai'
import { expect, test } from 'vitest'

const client = new OpenAI({ baseURL: process.env.CHILD_BASE_URL, apiKey: 'test-key-local', maxRetries: 0 })

// Concurrent tests of one file share the fixture (keys never depend on the test name).
test.concurrent('concurrent test A is served from the fixture', async () => {
  const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Module level?' }] })
  expect(reply.choices[0]?.message.content).toBe('echo: Module level?')
})

test.concurrent('concurrent test B is served from the fixture', async () => {
  const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Module level?' }] })
  expect(reply.choices[0]?.message.content).toBe('echo: Module level?')
})

test('module-level client is served from the fixture', async () => {
  const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Module level?' }] })
  expect(reply.choices[0]?.message.content).toBe('echo: Module level?')
})

test('a miss fails the test even when the app swallows the error', async () => {
  try {
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Never recorded' }] })
  } catch {
    // the app under test hides the SDK error
  }
})
