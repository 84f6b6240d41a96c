import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js'
import { parseFixture } from '../../src/replay/fixture.js'
import { fixtureFiles, listFiles, removeRoot, tempRoot } from './helpers.js'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const worker = fileURLToPath(new URL('./workers/record-worker.ts', import.meta.url))

let server: OpenAIServer
let root: string

beforeEach(async () => {
  // Small pauses between SSE events keep the workers' writes overlapping.
  server = await startOpenAIServer({ reply: () => ({ chunkDelayMs: 2 }) })
  root = await tempRoot()
})

afterEach(async () => {
  await server.close()
  await removeRoot(root)
})

function run(index: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker, root, server.baseURL, String(index)], {
      cwd: repo,
      env: { ...process.env, EXPECT_LLM_REPLAY: '', EXPECT_LLM_ALLOW_RECORD_IN_CI: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', (code) => resolve({ code, stderr }))
  })
}

test('4 processes recording into the same folder at once leave only valid fixtures', async () => {
  const results = await Promise.all([0, 1, 2, 3].map(run))
  for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 })
  // Every worker really made its requests: 7 each.
  expect(server.requests).toHaveLength(28)
  const files = await fixtureFiles(root)
  // 4 shared requests (written by all 4 workers) + 3 per worker.
  expect(files).toHaveLength(4 + 4 * 3)
  for (const file of files) {
    const fixture = parseFixture(await readFile(file, 'utf8'), file)
    expect(fixture.meta.durationMs).toBeGreaterThanOrEqual(0)
  }
  expect((await listFiles(root)).filter((f) => f.endsWith('.tmp'))).toEqual([])
}, 30_000)
