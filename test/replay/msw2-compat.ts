// msw 2 compatibility check of the replay engine, outside Vitest (msw 2 is not a dependency of this repo):
//   npm i --prefix /tmp/msw2 msw@2.15 && MSW2_DIR=/tmp/msw2 npx tsx test/replay/msw2-compat.ts
// Records chat, streaming chat (with usage), a Responses stream, base64 embeddings, an early-stopping
// stream consumer and a 429 on purpose; stops the server; replays and checks identical results, zero
// requests, and immediate (non-retried) errors and misses. Then, under msw 2 too: every third-party client
// of clients.test.ts records and replays (in a network namespace where `unshare -rn` works) and fails at
// once on a miss; identical concurrent requests are sent once; sequence callers get their own answers; a
// broken stream fails for the app as live; an octet-stream body replays byte for byte; a client that
// captured fetch before listen() is reported as escaped.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'

import OpenAI from 'openai'
import { watchEscapes } from '../../src/replay/escapes.js'
import { ReplayEngine } from '../../src/replay/engine.js'
import { createLlmReplay } from '../../src/replay/handlers.js'
import { startOpenAIServer } from '../helpers/openai-server.js'
import { startGoogleServer } from '../helpers/google-server.js'
import { runAll, scenarioUpstream, scenarios } from './clients/scenarios.js'

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
  const r = createLlmReplay(
    msw as never,
    new ReplayEngine({ options: { mode, rootDir: root, hosts: [server.origin], testPath: () => join(root, 'x.test.ts'), ...extra } }),
  )
  mswServer.resetHandlers(...r.handlers)
  return r
}
async function calls(c: OpenAI) {
  const chat = await c.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Capital of France?' }] })
  const s = await c.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'stream me' }],
    stream: true,
    stream_options: { include_usage: true },
  })
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
const e429 = await new OpenAI({ baseURL: server.baseURL, apiKey: 'k' }).chat.completions
  .create({ model: 'm', messages: [{ role: 'user', content: 'rate limited' }] })
  .catch((e) => e)
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
const r429 = await new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 2 }).chat.completions
  .create({ model: 'm', messages: [{ role: 'user', content: 'rate limited' }] })
  .catch((e) => e)
assert.equal(r429.status, 429)
console.log('replayed 429 in', (performance.now() - t).toFixed(0), 'ms')
t = performance.now()
const miss = await new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 2 }).chat.completions
  .create({ model: 'm', messages: [{ role: 'user', content: 'never' }] })
  .catch((e) => e)
assert.equal(miss.status, 404)
console.log('miss in', (performance.now() - t).toFixed(0), 'ms')
assert.equal(rep.takeProblems().length, 1)
assert.equal(server.requests.length, seen)
console.log('msw', mswVersion, 'OK: record/replay identical, zero requests during replay; total', (performance.now() - t0).toFixed(0), 'ms')
mswServer.close()
await rm(root, { recursive: true, force: true })
await checkFaults()
await checkClients()
await checkEscapes()

/** Identical concurrent requests, sequence order, a broken stream, exact bytes. */
async function checkFaults(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'msw2-faults-'))
  const local = await startOpenAIServer()
  const guard = setupServer()
  guard.listen({ onUnhandledRequest: 'bypass' })
  const use = (mode: 'record' | 'replay', extra = {}) => {
    const r = createLlmReplay(
      msw as never,
      new ReplayEngine({ options: { mode, rootDir: dir, hosts: [local.origin], testPath: () => join(dir, 'f.test.ts'), testName: () => 't', ...extra } }),
    )
    guard.resetHandlers(...r.handlers)
    return r
  }
  const sdk = () => new OpenAI({ baseURL: local.baseURL, apiKey: 'k', maxRetries: 0 })
  const ask = (content: string) => ({ model: 'm', temperature: 1, messages: [{ role: 'user' as const, content }] })
  const texts = (n: number, content: string) =>
    Promise.all(Array.from({ length: n }, () => sdk().chat.completions.create(ask(content)))).then((rs) => rs.map((r) => r.choices[0]?.message.content))

  local.setReply((_req, i) => ({ text: `answer ${i}`, latencyMs: 5 * (20 - (i % 20)) }))
  const warn = console.warn
  console.warn = () => undefined
  let r = use('record')
  const shared = await texts(20, 'same question')
  await r.flush()
  assert.equal(local.requests.length, 1, 'identical concurrent requests are sent once')
  assert.deepEqual(new Set(shared), new Set(['answer 0']))
  r = use('record', { sequence: true })
  const sampled = await texts(20, 'sample me')
  await r.flush()
  assert.deepEqual(
    sampled,
    Array.from({ length: 20 }, (_, i) => `answer ${i + 1}`),
  )
  local.setReply(() => ({ text: 'one two three four five', breakAfter: 2 }))
  r = use('record')
  const broken = await (async () => {
    const stream = await sdk().chat.completions.create({ ...ask('break'), stream: true })
    for await (const _ of stream) void _
  })().then(
    () => 'ended normally',
    (e: Error) => `${e.name}: ${e.message}`,
  )
  assert.equal(broken, 'TypeError: terminated', 'a broken stream fails for the app as live')
  local.setReply(() => ({ raw: { body: '{ "price": 1.50 }', headers: { 'content-type': 'application/octet-stream' } } }))
  await fetch(`${local.origin}/download`, { method: 'POST', body: '{}' })
  await r.flush()
  console.warn = warn
  assert.deepEqual(r.takeProblems(), [])
  await local.close()
  r = use('replay', { sequence: true })
  assert.deepEqual(await texts(20, 'sample me'), sampled, 'sequence callers get their own answers')
  r = use('replay')
  assert.deepEqual(await texts(20, 'same question'), shared)
  assert.equal(await (await fetch(`${local.origin}/download`, { method: 'POST', body: '{}' })).text(), '{ "price": 1.50 }')
  assert.deepEqual(r.takeProblems(), [])
  guard.close()
  await rm(dir, { recursive: true, force: true })
  console.log('msw', mswVersion, 'OK: identical requests sent once, sequence order, broken stream as live, exact bytes')
}

/** The third-party clients: record under msw 2, replay in a child (msw 2, no network where possible). */
async function checkClients(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'msw2-clients-'))
  const local = await startOpenAIServer()
  const google = await startGoogleServer()
  const testFile = join(dir, 'test', 'clients.test.ts')
  const recorder = setupServer()
  recorder.listen({ onUnhandledRequest: 'bypass' })
  const r = createLlmReplay(
    msw as never,
    new ReplayEngine({ options: { mode: 'record', rootDir: dir, testPath: () => testFile, upstream: scenarioUpstream(local.origin, google.origin) } }),
  )
  recorder.resetHandlers(...r.handlers)
  const recorded = await runAll(scenarios(), () => r.engine.handled)
  await r.flush()
  assert.deepEqual(r.takeProblems(), [])
  recorder.close()
  await local.close()
  await google.close()
  for (const [name, result] of Object.entries(recorded)) assert.equal(result.error, undefined, name)
  const out = join(dir, 'child.json')
  const isolated = spawnSync('unshare', ['-rn', 'true']).status === 0
  const command = [process.execPath, '--import', 'tsx', fileURLToPath(new URL('./clients/replay-child.ts', import.meta.url)), dir, testFile, out]
  const child = spawnSync(isolated ? 'unshare' : command[0]!, isolated ? ['-rn', ...command] : command.slice(1), {
    env: { ...process.env, MSW_DIR: mswDir },
    encoding: 'utf8',
  })
  assert.equal(child.status, 0, child.stderr)
  const result = JSON.parse(await readFile(out, 'utf8')) as { mswVersion: string; replayed: typeof recorded; misses: typeof recorded; escaped: string[] }
  assert.equal(result.mswVersion, mswVersion)
  assert.deepEqual(result.escaped, [])
  for (const name of Object.keys(recorded)) {
    assert.deepEqual(result.replayed[name]!.value, JSON.parse(JSON.stringify(recorded[name]!.value)), name)
    assert.ok(result.misses[name]!.error, `${name}: a miss fails`)
    assert.equal(result.misses[name]!.requests, 1, `${name}: a miss is not retried`)
  }
  await rm(dir, { recursive: true, force: true })
  console.log(
    'msw',
    mswVersion,
    `OK: ${Object.keys(recorded).length} client calls recorded and replayed${isolated ? ' with no network' : ''}; each miss failed after one request`,
  )
}

/** A client that captured fetch before listen() goes around msw 2; the watcher reports it, and not the intercepted ones. */
async function checkEscapes(): Promise<void> {
  const local = await startOpenAIServer()
  const captured = new OpenAI({ baseURL: local.baseURL, apiKey: 'k', maxRetries: 0, fetch: globalThis.fetch })
  const escapes: string[] = []
  const watcher = watchEscapes({ relevant: (url) => url.origin === local.origin, onEscape: (e) => escapes.push(`${e.method} ${e.url}`) })
  const server = setupServer(
    msw.http.all(`${local.origin}/*`, () => msw.HttpResponse.json({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [] })),
  )
  server.events.on('request:start', ({ request }: { request: Request }) => watcher.requestSeen(request))
  server.listen({ onUnhandledRequest: 'bypass' })
  const later = new OpenAI({ baseURL: local.baseURL, apiKey: 'k', maxRetries: 0 })
  await later.chat.completions.create(ask2('intercepted'))
  await captured.chat.completions.create(ask2('escaped'))
  await watcher.idle()
  assert.deepEqual(escapes, [`POST ${local.baseURL}/chat/completions`])
  assert.deepEqual(
    local.requests.map((q) => q.lastUserText),
    ['escaped'],
  )
  watcher.close()
  server.close()
  await local.close()
  console.log('msw', mswVersion, 'OK: a client that captured fetch before listen() is reported as escaped')
}

function ask2(content: string) {
  return { model: 'm', messages: [{ role: 'user' as const, content }] }
}
