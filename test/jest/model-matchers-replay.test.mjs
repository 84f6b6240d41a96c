// The model-backed matchers from recordings under Jest's ESM mode, through the built `expect-llm/jest`
// setup file: record the judge's and the embedder's calls against a scripted server on 127.0.0.1,
// close the server, then the same assertions replay from the fixtures with no server at all.
import { afterAll, expect, test } from '@jest/globals'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { clearEmbeddingCache, configure, resetConfig } from 'expect-llm'
import { section, startModelServer } from './model-server.mjs'

const good = 'You can ask for a refund within 30 days.'
const reversed = 'Wait 30 days before you can ask for a refund.'
const paraphrase = 'Refunds can be requested for 30 days.'
const vectors = { [good]: [1, 0], [paraphrase]: [0.9, Math.sqrt(1 - 0.81)] }

const server = await startModelServer(({ endpoint, body, prompt }) => {
  if (endpoint === 'embeddings') return { embeddings: body.input.map((t) => vectors[t] ?? [0, 1]) }
  const answer = section(prompt, 'answer') ?? section(prompt, 'response') ?? ''
  return { text: JSON.stringify(answer === good ? { reasoning: 'Same facts.', score: 1 } : { reasoning: 'Reverses the condition.', score: 0 }) }
})
const root = mkdtempSync(join(tmpdir(), 'expect-llm-jest-model-replay-'))
const settings = { baseURL: server.baseURL, apiKey: 'local-test-key', maxRetries: 0 }
configure({
  replay: { hosts: [new URL(server.baseURL).origin], rootDir: root, dir: 'fixtures' },
  judge: { ...settings, model: 'judge-model' },
  embedder: { ...settings, model: 'text-embedding-3-small' },
})
const setMode = (mode) => {
  process.env.EXPECT_LLM_REPLAY = mode
  process.env.EXPECT_LLM_ALLOW_RECORD_IN_CI = '1' // CI forces replay; this test records on purpose
}
const assertions = async () => {
  await expect(good).toPassJudge({ reference: good })
  await expect(reversed).not.toPassJudge({ reference: good })
  await expect(good).toBeSemanticallySimilar(paraphrase)
}

afterAll(() => {
  delete process.env.EXPECT_LLM_REPLAY
  delete process.env.EXPECT_LLM_ALLOW_RECORD_IN_CI
  resetConfig()
  rmSync(root, { recursive: true, force: true })
})

test('judge and embedding calls are recorded, then replayed with the server closed', async () => {
  setMode('record')
  await assertions()
  expect(server.requests.map((r) => r.endpoint).sort()).toEqual(['chat', 'chat', 'embeddings'])
  expect(readdirSync(join(root, 'fixtures', 'model-matchers-replay.test.mjs'))).toHaveLength(3)
  await server.close()

  setMode('replay')
  clearEmbeddingCache() // the run-wide embedding cache would otherwise answer without a request
  await assertions()
})
