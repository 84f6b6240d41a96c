// One of several processes recording at the same time into the same fixture folder
// (spawned by test/replay/concurrency.test.ts). Usage: record-worker.ts <root> <baseURL> <worker index>
import { join } from 'node:path'
import { setupServer } from 'msw/node'
import OpenAI from 'openai'
import { llmReplay } from '../../../src/entries/replay.js'

const [root, baseURL, worker] = process.argv.slice(2) as [string, string, string]
// rerecord: every worker records every request, so the shared fixtures really get 4 concurrent writers.
const replay = llmReplay({ mode: 'rerecord', rootDir: root, hosts: [new URL(baseURL).origin], testPath: () => join(root, 'test', 'shared.test.ts') })
const server = setupServer(...replay.handlers)
server.listen({ onUnhandledRequest: 'bypass', onUnhandledFrame: 'bypass' } as never)
const client = new OpenAI({ baseURL, apiKey: 'test-key-local', maxRetries: 0 })

const ask = (content: string, stream = false) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content }], stream })
await Promise.all([
  // The same three requests in every worker: concurrent writers of the same fixture files.
  ...[0, 1, 2].map((i) => client.chat.completions.create(ask(`shared question ${i}`))),
  (async () => {
    const stream = await client.chat.completions.create({ ...ask('shared streamed question', true), stream: true })
    for await (const _ of stream) void _
  })(),
  // Requests only this worker makes.
  ...[0, 1].map((i) => client.chat.completions.create(ask(`worker ${worker} question ${i}`))),
  client.embeddings.create({ model: 'text-embedding-3-small', input: [`worker ${worker} text`] }),
])
await replay.flush()
replay.assertNoProblems()
server.close()
