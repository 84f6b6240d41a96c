// Child test file for test/replay/session.test.ts: what a user of the setup file sees (each test's outcome
// is checked by the parent from the JSON report and the console output).
import OpenAI from 'openai'
import { expect, test } from 'vitest'
import { configure, getConfig } from '../../../src/config.js'

const early = (globalThis as { earlyClient?: OpenAI }).earlyClient!

test('a client built before replay started is caught', async () => {
  await early.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Early bird?' }] })
})

test('one changed prompt fails with one block', async () => {
  const client = new OpenAI({ baseURL: process.env.CHILD_BASE_URL, apiKey: 'test-key-local', maxRetries: 2 })
  await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Summarize this ticket in one sentence.' }] })
})

test("the judge's host joins the replay hosts without being listed", async () => {
  configure({ judge: { baseURL: process.env.CHILD_JUDGE_BASE_URL, apiKey: 'local-key', model: 'judge-model' } })
  await expect('Thank you, happy to help!').toPassJudge('is polite')
})

test('live mode: a connection failure names the host and the key variable', async () => {
  configure({ replay: { ...getConfig().replay, mode: 'live', hosts: ['http://127.0.0.1:2'] } })
  await fetch('http://127.0.0.1:2/v1/chat/completions', { method: 'POST', body: '{}' }).catch(() => undefined)
})
