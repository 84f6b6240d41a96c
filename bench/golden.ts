// Benchmark: a replayed golden suite of 2,000 cases scored with rougeL and semantic similarity, against
// 2,000 plain Vitest tests making the same assertions (toHaveRougeLAbove, toBeSemanticallySimilar) on
// inline strings. Both run in real Vitest child processes from recordings made first against a local
// OpenAI-compatible server (then stopped): the golden task replays one chat completion per case, and
// both sides replay their embedding requests. Reported: the median wall time of each over several
// rounds, and their ratio (target: golden within 1.5x of the plain tests).
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { startOpenAIServer } from '../test/helpers/openai-server.js'

const repo = fileURLToPath(new URL('..', import.meta.url))

function answerFor(i: number): string {
  return `Case ${i}: refunds are accepted within ${(i % 28) + 2} days when the receipt is kept.`
}
function referenceFor(i: number): string {
  return `Refunds are accepted within ${(i % 28) + 2} days of purchase with a receipt (case ${i}).`
}

/** Positive, deterministic 8-dimensional vectors, so every cosine similarity is above 0. */
function vector(text: string): number[] {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0
  return Array.from({ length: 8 }, (_, k) => 1 + ((h >>> (k * 4)) & 0xf) / 16)
}

function writeSuites(dir: string, n: number): void {
  const common = `import { configure } from '${repo}src/config.js'
configure({ replay: { hosts: [process.env.BENCH_ORIGIN] , rootDir: process.cwd() }, embedder: { baseURL: process.env.BENCH_BASE_URL, apiKey: 'bench', maxRetries: 0 } })
const N = ${n}
const answerFor = ${answerFor.toString()}
const referenceFor = ${referenceFor.toString()}
`
  writeFileSync(
    join(dir, 'golden.bench.test.ts'),
    `${common}import OpenAI from 'openai'
import { describeGolden } from '${repo}src/entries/vitest.js'
const client = new OpenAI({ baseURL: process.env.BENCH_BASE_URL, apiKey: 'bench', maxRetries: 0 })
describeGolden('bench', {
  dataset: Array.from({ length: N }, (_, i) => ({ id: 'c' + i, input: String(i), expected: referenceFor(i) })),
  task: process.env.BENCH_TASK === 'chat'
    ? async (input: string) => (await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: input }] })).choices[0]?.message.content ?? ''
    : (input: string) => answerFor(Number(input)),
  scorers: { rougeL: 0.2, semantic: 0.5 },
  report: { console: false },
  annotate: process.env.BENCH_ANNOTATE !== '0',
})
`,
  )
  writeFileSync(
    join(dir, 'plain.bench.test.ts'),
    `${common}import { expect, test } from 'vitest'
for (let i = 0; i < N; i++) {
  test('c' + i + ': ' + i, async () => {
    const output = answerFor(i)
    expect(output).toHaveRougeLAbove(referenceFor(i), 0.2)
    await expect(output).toBeSemanticallySimilar(referenceFor(i), { threshold: 0.5 })
  })
}
`,
  )
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    `export default { test: { include: ['*.bench.test.ts'], setupFiles: [${JSON.stringify(`${repo}src/entries/vitest.ts`)}], typecheck: { enabled: false } } }\n`,
  )
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir')
}

function vitest(dir: string, file: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, NO_COLOR: '1' }
    delete childEnv.CI
    const child = spawn(
      process.execPath,
      [join(repo, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, '--config', join(dir, 'vitest.config.mjs'), '--reporter=dot', file],
      { cwd: dir, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`vitest ${file} exited with ${code}:\n${out.slice(-3000)}`)),
    )
  })
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

export async function run(): Promise<void> {
  const n = Number(process.env.BENCH_GOLDEN_N ?? 2000)
  const rounds = Number(process.env.BENCH_GOLDEN_ROUNDS ?? 3)
  const dir = mkdtempSync(join(tmpdir(), 'expect-llm-bench-golden-'))
  try {
    writeSuites(dir, n)
    const server = await startOpenAIServer({
      reply: (req) =>
        req.endpoint === 'embeddings'
          ? { embeddings: (req.body.input as string[]).map(vector) }
          : { text: answerFor(Number(req.lastUserText)), usage: { input: 20, output: 16 } },
    })
    const env = { BENCH_ORIGIN: server.origin, BENCH_BASE_URL: server.baseURL }
    try {
      await vitest(dir, 'golden.bench.test.ts', { ...env, BENCH_TASK: 'chat', EXPECT_LLM_REPLAY: 'record', EXPECT_LLM_ALLOW_RECORD_IN_CI: '1' })
      await vitest(dir, 'plain.bench.test.ts', { ...env, EXPECT_LLM_REPLAY: 'record', EXPECT_LLM_ALLOW_RECORD_IN_CI: '1' })
    } finally {
      await server.close()
    }
    const recorded = server.requests.length
    server.reset()
    const runs = {
      golden: () => vitest(dir, 'golden.bench.test.ts', { ...env, EXPECT_LLM_REPLAY: 'replay' }),
      plain: () => vitest(dir, 'plain.bench.test.ts', { ...env, EXPECT_LLM_REPLAY: 'replay' }),
      goldenChat: () => vitest(dir, 'golden.bench.test.ts', { ...env, BENCH_TASK: 'chat', EXPECT_LLM_REPLAY: 'replay' }),
      goldenQuiet: () => vitest(dir, 'golden.bench.test.ts', { ...env, BENCH_ANNOTATE: '0', EXPECT_LLM_REPLAY: 'replay' }),
    }
    const times: Record<keyof typeof runs, number[]> = { golden: [], plain: [], goldenChat: [], goldenQuiet: [] }
    const names = Object.keys(runs) as Array<keyof typeof runs>
    for (let r = 0; r < rounds; r++) {
      // Rotate the order so that no side always runs first on a cold or warm machine.
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + r) % names.length] as keyof typeof runs
        times[name].push(await runs[name]())
      }
    }
    if (server.requests.length !== 0) throw new Error(`replay reached the server ${server.requests.length} times`)
    const s = (xs: number[]) => `median ${(median(xs) / 1000).toFixed(2)} s (${xs.map((x) => (x / 1000).toFixed(2)).join(', ')})`
    console.log(
      `golden: ${n} cases scored with rougeL + semantic (embeddings replayed), ${recorded} requests recorded, ${rounds} rounds of whole child Vitest runs`,
    )
    console.log(`  describeGolden, task returns the inline strings:  ${s(times.golden)}`)
    console.log(`  plain Vitest tests, same assertions, inline:      ${s(times.plain)}`)
    console.log(`  describeGolden, task replays a chat completion:   ${s(times.goldenChat)}`)
    console.log(`  describeGolden, annotate: false:                  ${s(times.goldenQuiet)}`)
    console.log(`  ratio golden / plain:                            ${(median(times.golden) / median(times.plain)).toFixed(2)}x (target <= 1.5x)`)
    console.log(
      `  ratio golden with replayed task calls / plain:    ${(median(times.goldenChat) / median(times.plain)).toFixed(2)}x (includes ${n} replayed chat completions the plain tests do not make)`,
    )
    console.log(
      `  ratio golden, annotate: false / plain:            ${(median(times.goldenQuiet) / median(times.plain)).toFixed(2)}x (no per-case Vitest annotation: one RPC round trip to the main process less per case)`,
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
