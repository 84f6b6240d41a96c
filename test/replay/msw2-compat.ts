// msw 2 compatibility check of the replay engine, outside Vitest (msw 2 is not a dependency of this repo):
//   npm i --prefix /tmp/msw2 msw@2.15 && MSW2_DIR=/tmp/msw2 npx tsx test/replay/msw2-compat.ts
// Records chat, streaming chat (with usage), a Responses stream, base64 embeddings, an early-stopping
// stream consumer and a 429 on purpose; stops the server; replays and checks identical results, zero
// requests, and immediate (non-retried) errors and misses.
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

import OpenAI from 'openai'
import { createLlmReplay, ReplayEngine } from '../../src/replay/index.js'
import { startOpenAIServer } from '../helpers/openai-server.js'

const mswDir = process.env.MSW2_DIR ?? '/tmp/msw2'
const requireMsw = createRequire(join(mswDir, 'package.json'))
const msw = await import(pathToFileURL(requireMsw.resolve('msw')).href)
const { setupServer } = await import(pathToFileURL(requireMsw.resolve('msw/node')).href)
const mswVersion = (requireMsw('msw/package.json') as { version: string }).version
process.env.EXPECT_LLM_REPLAY = ''
process.env.EXPECT_LLM_ALLOW_RECORD_IN_CI = '1'
const root = await mkdtemp(join(tmpdir(), 'msw2-check-'))
const server = await startOpenAIServer({ reply: (req) => (req.lastUserText === 'rate limited' ? { status: 429 } : {}) })
const mswServer = setupServer()
mswServer.listen({ onUnhandledRequest: 'bypass' })
const phase = (mode: 'record' | 'replay', extra = {}) => {
  const r = createLlmReplay(msw as never, new ReplayEngine({ options: { mode, rootDir: root, hosts: [server.origin], testPath: () => join(root, 'x.test.ts'), ...extra } }))
  mswServer.resetHandlers(...r.handlers)
  return r
}
async function calls(c: OpenAI) {
  const chat = await c.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Capital of France?' }] })
  const s = await c.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'stream me' }], stream: true, stream_options: { include_usage: true } })
  const chunks: unknown[] = []
  for await (const ch of s) chunks.push(ch)
  const rs = c.responses.stream({ model: 'gpt-4.1-mini', input: 'responses stream' })
  const events: unknown[] = []
  for await (const e of rs) events.push(e)
  const emb = await c.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] })
  // a consumer that stops after the first chunk
  const early = await c.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'stop early please now' }], stream: true })
  for await (const _ of early) break
  return { chat, chunks, events, emb: emb.data.map((d) => d.embedding) }
}
const rec = phase('record', { recordErrors: true })
const recorded = await calls(new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 2 }))
const e429 = await new OpenAI({ baseURL: server.baseURL, apiKey: 'k' }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'rate limited' }] }).catch((e) => e)
assert.equal(e429.status, 429)
await rec.flush()
rec.assertNoProblems()
const seen = server.requests.length
await server.close()
const rep = phase('replay')
const t0 = performance.now()
const replayed = await calls(new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 2 }))
assert.deepEqual(replayed, recorded)
let t = performance.now()
const r429 = await new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 2 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'rate limited' }] }).catch((e) => e)
assert.equal(r429.status, 429)
console.log('replayed 429 in', (performance.now() - t).toFixed(0), 'ms')
t = performance.now()
const miss = await new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 2 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'never' }] }).catch((e) => e)
assert.equal(miss.status, 404)
console.log('miss in', (performance.now() - t).toFixed(0), 'ms')
assert.equal(rep.takeProblems().length, 1)
assert.equal(server.requests.length, seen)
console.log('msw', mswVersion, 'OK: record/replay identical, zero requests during replay; total', (performance.now() - t0).toFixed(0), 'ms')
mswServer.close()
await rm(root, { recursive: true, force: true })
