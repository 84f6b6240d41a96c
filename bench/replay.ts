// Replay benchmarks of issue 3, both ratios measured in this one run:
//  1. 2,000 chat completions replayed from fixture files through the openai SDK, against the same calls
//     answered by an in-memory MSW handler returning the same JSON (target: <= 1.3x).
//  2. Start-up plus first replay with 10,000 fixture files on disk, against 10 files (target: <= 2x):
//     lookup tries the exact path first and never scans the tree on a hit.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import OpenAI from 'openai'
import { llmReplay } from '../src/entries/replay.js'
import { buildKey } from '../src/replay/key.js'
import { serializeFixture } from '../src/replay/fixture.js'
import { folderFor, fixtureFileName, resolveLayout } from '../src/replay/store.js'
import type { Fixture } from '../src/replay/types.js'
import { fmtNum, printTable } from './harness.js'

const ORIGIN = 'http://127.0.0.1:9999' // never contacted: every request is answered by MSW
const BASE_URL = `${ORIGIN}/v1`
const MODEL = 'gpt-4o-mini'

function requestBody(prompt: string): Record<string, unknown> {
  return { model: MODEL, messages: [{ role: 'user', content: prompt }], temperature: 0 }
}

function completion(prompt: string): Record<string, unknown> {
  return {
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: MODEL,
    choices: [{ index: 0, message: { role: 'assistant', content: `Answer to: ${prompt}. `.repeat(8), refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 12, completion_tokens: 48, total_tokens: 60 },
  }
}

/** Writes the fixture the engine would record for `prompt` made from `testPath`. */
async function writeFixture(root: string, testPath: string, prompt: string): Promise<void> {
  const layout = resolveLayout(root, undefined)
  const body = new TextEncoder().encode(JSON.stringify(requestBody(prompt)))
  const key = buildKey('POST', new URL(`${BASE_URL}/chat/completions`), body, 'application/json', {})
  const fixture: Fixture = {
    schemaVersion: 1,
    hash: key.hash,
    key: key.material,
    response: { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json', 'x-request-id': 'req_bench' }, json: completion(prompt) },
    meta: {
      recordedAt: new Date().toISOString(),
      durationMs: 420,
      endpoint: key.endpoint,
      model: MODEL,
      usage: { inputTokens: 12, outputTokens: 48, totalTokens: 60 },
      sdkUserAgent: 'OpenAI/JS 7.59.0',
      testFile: 'test/bench.test.ts',
    },
  }
  const folder = folderFor(layout, testPath)
  await mkdir(folder, { recursive: true })
  await writeFile(join(folder, fixtureFileName(key.endpoint, key.hash16)), serializeFixture(fixture))
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

export async function run(): Promise<void> {
  const saved = process.env.EXPECT_LLM_REPLAY
  process.env.EXPECT_LLM_REPLAY = 'replay'
  const tmp = await mkdtemp(join(tmpdir(), 'expect-llm-bench-'))
  const server = setupServer()
  server.listen({ onUnhandledRequest: 'error', onUnhandledFrame: 'error' } as never)
  try {
    // ---- 1. 2,000 replays vs an in-memory handler -------------------------------------------------
    const N = Number(process.env.BENCH_REPLAY_N ?? 2000)
    const prompts = Array.from({ length: N }, (_, i) => `Question number ${i}: what is ${i} squared?`)
    const root1 = join(tmp, 'many-calls')
    const testPath1 = join(root1, 'test', 'bench.test.ts')
    for (let i = 0; i < N; i += 200) await Promise.all(prompts.slice(i, i + 200).map((p) => writeFixture(root1, testPath1, p)))
    const byPrompt = new Map(prompts.map((p) => [p, completion(p)]))
    const inMemory = http.post(`${BASE_URL}/chat/completions`, async ({ request }) => {
      const body = (await request.json()) as { messages: Array<{ content: string }> }
      return HttpResponse.json(byPrompt.get(body.messages[0]!.content), { headers: { 'x-request-id': 'req_bench' } })
    })
    const callAll = async (): Promise<number> => {
      const client = new OpenAI({ baseURL: BASE_URL, apiKey: 'bench', maxRetries: 0 })
      const start = performance.now()
      for (const p of prompts) {
        const r = await client.chat.completions.create(requestBody(p) as never)
        if (!(r as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content.startsWith('Answer to: ')) throw new Error('bad reply')
      }
      return performance.now() - start
    }
    const replayTimes: number[] = []
    const memoryTimes: number[] = []
    const rounds = Number(process.env.BENCH_REPLAY_ROUNDS ?? 4)
    for (let round = 0; round < rounds; round++) {
      // A fresh engine each round: every fixture is read from disk (cold cache), as in a CI run.
      const replay = llmReplay({ rootDir: root1, hosts: [ORIGIN], testPath: () => testPath1 })
      server.resetHandlers(...replay.handlers)
      const tReplay = await callAll()
      replay.assertNoProblems()
      server.resetHandlers(inMemory)
      const tMemory = await callAll()
      if (round > 0) {
        // round 0 warms up the SDK, MSW and the JIT
        replayTimes.push(tReplay)
        memoryTimes.push(tMemory)
      }
    }
    const ratio1 = median(replayTimes) / median(memoryTimes)

    // ---- 2. start-up + first replay with 10 vs 10,000 fixture files -------------------------------
    const makeRoot = async (name: string, files: number): Promise<{ root: string; testPath: string }> => {
      const root = join(tmp, name)
      const testPath = join(root, 'test', 'target.test.ts')
      await writeFixture(root, testPath, 'the first question')
      const perFolder = 100
      const jobs: Array<Promise<void>> = []
      for (let i = 0; i < files - 1; i++) {
        const folderTest = join(root, 'test', `suite-${Math.floor(i / perFolder)}`, `file-${Math.floor(i / perFolder)}.test.ts`)
        jobs.push(writeFixture(root, folderTest, `filler prompt ${i}`))
        if (jobs.length >= 200) await Promise.all(jobs.splice(0))
      }
      await Promise.all(jobs)
      return { root, testPath }
    }
    const small = await makeRoot('ten', 10)
    const large = await makeRoot('ten-thousand', 10_000)
    const firstReplay = async ({ root, testPath }: { root: string; testPath: string }): Promise<number> => {
      const start = performance.now()
      const replay = llmReplay({ rootDir: root, hosts: [ORIGIN], testPath: () => testPath })
      server.resetHandlers(...replay.handlers)
      const client = new OpenAI({ baseURL: BASE_URL, apiKey: 'bench', maxRetries: 0 })
      await client.chat.completions.create(requestBody('the first question') as never)
      const t = performance.now() - start
      replay.assertNoProblems()
      return t
    }
    const smallTimes: number[] = []
    const largeTimes: number[] = []
    for (let i = 0; i < 45; i++) {
      const a = await firstReplay(small)
      const b = await firstReplay(large)
      if (i >= 5) {
        smallTimes.push(a)
        largeTimes.push(b)
      }
    }
    const ratio2 = median(largeTimes) / median(smallTimes)

    printTable('Replay (ratios of medians, same run)', [
      {
        measure: `${N} chat completions: replay from files`,
        median: `${fmtNum(median(replayTimes))} ms`,
        ratio: `${fmtNum(ratio1)}x of in-memory MSW (target <= 1.3x)`,
      },
      { measure: `${N} chat completions: in-memory MSW handler`, median: `${fmtNum(median(memoryTimes))} ms`, ratio: '1x' },
      {
        measure: 'start-up + first replay, 10,000 fixture files',
        median: `${fmtNum(median(largeTimes))} ms`,
        ratio: `${fmtNum(ratio2)}x of 10 files (target <= 2x)`,
      },
      { measure: 'start-up + first replay, 10 fixture files', median: `${fmtNum(median(smallTimes))} ms`, ratio: '1x' },
    ])
    console.log(`\nreplay/in-memory ratio: ${ratio1.toFixed(3)} ${ratio1 <= 1.3 ? 'PASS' : 'FAIL'} (<= 1.3)`)
    console.log(`10,000/10 files first-replay ratio: ${ratio2.toFixed(3)} ${ratio2 <= 2 ? 'PASS' : 'FAIL'} (<= 2)`)
  } finally {
    server.close()
    if (saved === undefined) delete process.env.EXPECT_LLM_REPLAY
    else process.env.EXPECT_LLM_REPLAY = saved
    await rm(tmp, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run()
