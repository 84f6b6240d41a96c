// The next file in the same worker, in replay mode: an unrecorded request must be a miss that never reaches
// the server. Prints how many requests reached it, for the parent test.
import { afterAll, expect, test } from '@jest/globals'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { configure, getReplaySession } from 'expect-llm'
import { startModelServer } from '../model-server.mjs'

const server = await startModelServer(({ prompt }) => ({ text: `You asked: ${prompt}` }))
const root = mkdtempSync(join(tmpdir(), 'expect-llm-jest-failed-load-'))
configure({ replay: { mode: 'replay', hosts: [new URL(server.baseURL).origin], rootDir: root, dir: 'fixtures' } })
const client = new OpenAI({ apiKey: 'sk-test-jest-failed-load', baseURL: server.baseURL, maxRetries: 0 })

afterAll(async () => {
  await server.close()
  rmSync(root, { recursive: true, force: true })
})

test('an unrecorded request is a miss and never reaches the server', async () => {
  await expect(client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Not recorded' }] })).rejects.toMatchObject({
    status: 404,
  })
  // Give a request that escaped time to arrive.
  await new Promise((resolve) => setTimeout(resolve, 300))
  console.log(`REQUESTS_THAT_REACHED_THE_SERVER=${server.requests.length}`)
  expect(
    getReplaySession()
      ?.replay.takeProblems()
      .map((p) => p.kind),
  ).toEqual(['miss'])
})
