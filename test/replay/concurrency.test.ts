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

const WORKERS = 4
const REQUESTS_PER_WORKER = 7

beforeEach(async () => {
  // Hold every reply until all workers have sent all their requests, then release them together, so
  // that the workers write (the shared fixtures especially) at the same moment.
  let release!: () => void
  const allArrived = new Promise<void>((r) => (release = r))
  const fallback = setTimeout(release, 15_000)
  server = await startOpenAIServer({
    reply: async (_req, index) => {
      if (index + 1 === WORKERS * REQUESTS_PER_WORKER) {
        clearTimeout(fallback)
        release()
      }
      await allArrived
      return { chunkDelayMs: 1 }
    },
  })
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
  const results = await Promise.all(Array.from({ length: WORKERS }, (_, i) => run(i)))
  for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 })
  // Every worker really made (and recorded) all its requests.
  expect(server.requests).toHaveLength(WORKERS * REQUESTS_PER_WORKER)
  const files = await fixtureFiles(root)
  // 4 shared requests (written by all 4 workers) + 3 per worker.
  expect(files).toHaveLength(4 + 4 * 3)
  for (const file of files) {
    const fixture = parseFixture(await readFile(file, 'utf8'), file)
    expect(fixture.meta.durationMs).toBeGreaterThanOrEqual(0)
  }
  expect((await listFiles(root)).filter((f) => f.endsWith('.tmp'))).toEqual([])
}, 30_000)
