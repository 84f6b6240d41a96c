// Under record/replay the OpenAI embedder sends one request per call with exactly that call's texts:
// a request merged with other calls, or trimmed by the run-wide cache, would depend on which tests ran
// before or alongside it, and a test run alone would miss its recording. Uses the session that the
// repository's setup file (expect-llm/vitest) started, as users get it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { configure, resetConfig } from '../../src/config.js'
import { clearEmbeddingCache, embedsPerCall } from '../../src/embedders/batch.js'
import { openAIEmbedder } from '../../src/embedders/openai.js'
import { getReplaySession } from '../../src/replay/session.js'
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js'

let server: OpenAIServer
let root: string

beforeEach(async () => {
  server = await startOpenAIServer()
  root = mkdtempSync(join(tmpdir(), 'expect-llm-embed-replay-'))
  clearEmbeddingCache()
})

afterEach(async () => {
  vi.unstubAllEnvs()
  resetConfig()
  clearEmbeddingCache()
  await server.close()
  rmSync(root, { recursive: true, force: true })
})

const mode = (m: 'record' | 'replay' | 'live') => {
  vi.stubEnv('EXPECT_LLM_REPLAY', m)
  vi.stubEnv('EXPECT_LLM_ALLOW_RECORD_IN_CI', '1')
}
const embedder = () => openAIEmbedder({ baseURL: server.baseURL, apiKey: 'local-test-key', maxRetries: 0 })
const inputsSent = () => server.requests.map((r) => r.body.input as string[])

test('the setup file runs a replay session that intercepts: an unrecorded call in replay mode is a miss that never reaches the server', async () => {
  configure({ replay: { hosts: [server.origin], rootDir: root, dir: 'fixtures' } })
  mode('replay')
  await expect(embedder().embed(['never recorded'])).rejects.toThrow('no fixture matches this request, and mode "replay" never calls the network')
  expect(server.requests).toEqual([])
  const problems = getReplaySession()!.replay.takeProblems()
  expect(problems.map((p) => p.kind)).toEqual(['miss'])
  expect(problems[0]!.message).toContain('/v1/embeddings')
})

test('records one request per call, with the shared reference in each, and replays a later call on its own', async () => {
  configure({ replay: { hosts: [server.origin], rootDir: root, dir: 'fixtures' } })
  mode('record')
  const e = embedder()
  expect(embedsPerCall(e)).toBe(true)
  await Promise.all([e.embed(['first answer', 'reference']), e.embed(['second answer', 'reference'])])
  await e.embed(['second answer', 'reference'])
  // Not merged into one request, not trimmed by the cache: each call is its own request (the third is
  // served from the recording of the second).
  expect(inputsSent()).toEqual([
    ['first answer', 'reference'],
    ['second answer', 'reference'],
  ])

  mode('replay')
  clearEmbeddingCache()
  await server.close()
  const vectors = await embedder().embed(['second answer', 'reference']) // as when this test runs alone
  expect(vectors).toHaveLength(2)
  expect(getReplaySession()!.replay.takeProblems()).toEqual([])
})

test('batches and caches across calls when replay does not handle the host', async () => {
  mode('live')
  const e = embedder()
  expect(embedsPerCall(e)).toBe(false)
  await Promise.all([e.embed(['first answer', 'reference']), e.embed(['second answer', 'reference'])])
  await e.embed(['second answer', 'reference'])
  expect(inputsSent()).toEqual([['first answer', 'reference', 'second answer']])
})
