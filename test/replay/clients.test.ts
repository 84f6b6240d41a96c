// Record/replay with real third-party clients (openai 7, the Vercel AI SDK 7 with its OpenAI, Anthropic and
// Google providers, LangChain's ChatOpenAI, the Anthropic SDK, plain fetch to Gemini with ?key=), each on
// its provider's default host: recorded against the local test server through `upstream`, then replayed in
// a child process with no network at all (a network namespace from `unshare -rn` where it works; otherwise
// with the server stopped and a sentinel behind the replay handler). See clients/scenarios.ts.
import { spawn, spawnSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startGoogleServer, type GoogleServer } from '../helpers/google-server.js'
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js'
import { runAll, SCENARIO_HOSTS, scenarioUpstream, scenarios } from './clients/scenarios.js'
import { allText, fixtureFiles, forceModeFromOptions, removeRoot, startReplay, tempRoot } from './helpers.js'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const child = fileURLToPath(new URL('./clients/replay-child.ts', import.meta.url))
/** `unshare -rn` (a user and network namespace: only a loopback interface that is down) works here. */
const isolated = spawnSync('unshare', ['-rn', 'true']).status === 0

let server: OpenAIServer
let google: GoogleServer
let root: string
let testFile: string

beforeAll(async () => {
  server = await startOpenAIServer()
  google = await startGoogleServer()
  root = await tempRoot()
  testFile = join(root, 'test', 'clients.test.ts')
})
afterAll(async () => {
  await server.close()
  await google.close()
  await removeRoot(root)
})

interface ChildResult {
  mswVersion: string
  replayed: Awaited<ReturnType<typeof runAll>>
  replayProblems: string[]
  misses: Awaited<ReturnType<typeof runAll>>
  missProblems: Array<{ kind: string; headline: string }>
  escaped: string[]
}

function replayInChild(): Promise<ChildResult> {
  const out = join(root, 'child.json')
  const command = [process.execPath, '--import', 'tsx', child, root, testFile, out]
  return new Promise((resolve, reject) => {
    const p = spawn(isolated ? 'unshare' : command[0]!, isolated ? ['-rn', ...command] : command.slice(1), {
      cwd: repo,
      env: { ...process.env, EXPECT_LLM_ALLOW_RECORD_IN_CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    p.stdout.on('data', (d: Buffer) => (output += d.toString()))
    p.stderr.on('data', (d: Buffer) => (output += d.toString()))
    p.on('error', reject)
    p.on('close', (code) => {
      if (code !== 0) reject(new Error(`replay child exited with ${code}:\n${output}`))
      else readFile(out, 'utf8').then((text) => resolve(JSON.parse(text) as ChildResult), reject)
    })
  })
}

const values = (results: Awaited<ReturnType<typeof runAll>>) => Object.fromEntries(Object.entries(results).map(([k, v]) => [k, v.error ?? v.value]))

test(`every client replays what it recorded, ${isolated ? 'in a network namespace without network' : 'with the server stopped'}, and fails at once on a changed prompt`, async () => {
  forceModeFromOptions()
  const rec = startReplay({ mode: 'record', rootDir: root, testPath: () => testFile, upstream: scenarioUpstream(server.origin, google.origin) })
  let recorded: Awaited<ReturnType<typeof runAll>>
  try {
    recorded = await runAll(scenarios(), () => rec.replay.engine.handled)
    await rec.replay.flush()
    expect(rec.replay.takeProblems()).toEqual([])
    expect(rec.escaped).toEqual([])
  } finally {
    rec.close()
  }
  for (const [name, r] of Object.entries(recorded)) expect(r.error, name).toBeUndefined()
  const names = Object.keys(recorded)
  expect(server.requests.length + google.requests.length).toBe(names.length)
  // One fixture per request, keyed by the real hosts; neither the placeholder key nor ?key= is stored.
  const files = await fixtureFiles(root)
  expect(files).toHaveLength(names.length)
  const stored = await allText(root)
  for (const host of SCENARIO_HOSTS) expect(stored).toContain(`"origin": "${host}"`)
  expect(stored).not.toContain('replay-without-a-key')
  expect(stored).not.toContain(server.origin)
  expect(stored).not.toContain(google.origin)
  await server.close()
  await google.close()

  const result = await replayInChild()
  expect(result.escaped).toEqual([])
  expect(result.replayProblems).toEqual([])
  expect(values(result.replayed)).toEqual(values(recorded))
  for (const name of names) expect(result.replayed[name]!.requests, name).toBe(1)

  // A changed prompt: every client fails at once, after a single request (no retry), with the miss.
  for (const name of names) {
    const miss = result.misses[name]!
    expect(miss.error, name).toBeDefined()
    expect(miss.requests, `${name}: requests sent for one call`).toBe(1)
    expect(miss.ms, `${name}: time to fail`).toBeLessThan(5000)
  }
  expect(result.missProblems).toHaveLength(names.length)
  expect(new Set(result.missProblems.map((p) => p.kind))).toEqual(new Set(['miss']))
  expect(result.misses['openai chat']!.status).toBe(404)
  expect(result.misses['openai chat']!.error).toMatch(
    /^404 \[expect-llm\] Failed to replay POST \/v1\/chat\/completions \(model gpt-4o-mini\): no fixture matches this request/,
  )
  expect(result.misses['Anthropic SDK messages.create']!.error).toContain('[expect-llm] Failed to replay POST /v1/messages')
  expect(result.misses['AI SDK google generateText']!.error).toContain('[expect-llm] Failed to replay POST /v1beta/models/gemini-2.0-flash:generateContent')
}, 120_000)
