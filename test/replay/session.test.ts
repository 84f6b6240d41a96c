// The setup file's session, seen from a child Vitest run (child/session.child.ts): a client built before
// replay started is caught; a replay miss is one error block; the judge's host is replayed without being
// listed; in live mode a connection failure names the host and the key variable.
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js'
import { client, forceModeFromOptions, removeRoot, startReplay, tempRoot } from './helpers.js'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const childDir = fileURLToPath(new URL('./child/', import.meta.url))
const childFile = join(childDir, 'session.child.ts')

let server: OpenAIServer
let judge: OpenAIServer
let early: OpenAIServer
let root: string

beforeAll(async () => {
  server = await startOpenAIServer()
  judge = await startOpenAIServer()
  early = await startOpenAIServer()
  root = await tempRoot()
})
afterAll(async () => {
  await server.close()
  await judge.close()
  await early.close()
  await removeRoot(root)
})

interface Report {
  testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>
}

function runChild(): Promise<{ output: string; results: Record<string, { status: string; failure: string }> }> {
  const out = join(root, 'report.json')
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(repo, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--config',
        join(childDir, 'session.config.ts'),
        '--reporter=json',
        `--outputFile=${out}`,
        '--reporter=default',
      ],
      {
        cwd: repo,
        env: {
          ...process.env,
          EXPECT_LLM_REPLAY: '',
          EXPECT_LLM_ALLOW_RECORD_IN_CI: '1',
          CHILD_ORIGIN: server.origin,
          CHILD_BASE_URL: server.baseURL,
          CHILD_JUDGE_BASE_URL: judge.baseURL,
          CHILD_EARLY_ORIGIN: early.origin,
          CHILD_EARLY_BASE_URL: early.baseURL,
          CHILD_ROOT: root,
          NO_COLOR: '1',
          FORCE_COLOR: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.on('error', reject)
    child.on('close', () => {
      readFile(out, 'utf8').then((text) => {
        const report = JSON.parse(text) as Report
        const results = Object.fromEntries(
          report.testResults[0]!.assertionResults.map((r) => [r.title, { status: r.status, failure: r.failureMessages.join('\n') }]),
        )
        resolve({ output, results })
      }, reject)
    })
  })
}

test('the session catches an early client, prints one block per miss, replays the judge host, and explains live connection failures', async () => {
  forceModeFromOptions()
  // The recording the changed prompt misses, made as the child test file would.
  const rec = startReplay({ mode: 'record', rootDir: root, dir: root, hosts: [server.origin], testPath: () => childFile })
  await client(server.baseURL)
    .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Summarize this ticket in one line.' }] })
    .finally(() => rec.close())
  server.reset()

  const { output, results } = await runChild()

  // A client built before replay started: its request escaped (it reached the server), and the test fails with the fix.
  const escaped = results['a client built before replay started is caught']!
  expect(escaped.status).toBe('failed')
  expect(escaped.failure).toContain(
    `[expect-llm] Failed to replay POST ${early.baseURL}/chat/completions: the request bypassed record/replay and went to the network. The client was created before replay started and kept the fetch from before. Create it after the setup file has run (list expect-llm/vitest in setupFiles; with your own MSW server, call server.listen() at the top level of a setup file), or pass fetch: (url, init) => globalThis.fetch(url, init) to the client.`,
  )
  expect(early.requests.map((r) => r.lastUserText)).toEqual(['Early bird?'])
  expect(server.requests, output).toHaveLength(0)

  // One changed prompt: one block, without the SDK's error, its cause chain or its serialized response.
  const miss = results['one changed prompt fails with one block']!
  expect(miss.status).toBe('failed')
  expect(miss.failure.match(/Failed to replay POST \/v1\/chat\/completions/g)).toHaveLength(1)
  expect(miss.failure).toContain('      + actual:   "Summarize this ticket in one sentence."')
  expect(miss.failure).not.toContain('404 [expect-llm]') // the SDK's own error message is gone
  expect(miss.failure).toContain('session.child.ts:15') // the code frame points at the test's request
  expect(output.match(/\+ actual: {3}"Summarize this ticket in one sentence\."/g)).toHaveLength(1)
  expect(output).not.toContain('Serialized Error')
  expect(output).not.toContain('Caused by')

  // The judge's host was never listed in hosts: it is replayed anyway, so nothing reached the judge server.
  const judged = results["the judge's host joins the replay hosts without being listed"]!
  expect(judged.status).toBe('failed')
  expect(judged.failure).toContain(`Request:       POST ${judge.origin}/v1/chat/completions`)
  expect(judged.failure.match(/Failed to replay POST \/v1\/chat\/completions \(model judge-model\)/g)).toHaveLength(1)
  expect(judge.requests).toHaveLength(0)

  // Live mode: the connection failure is explained with the host and the key variable.
  expect(results['live mode: a connection failure names the host and the key variable']!.status).toBe('passed')
  expect(output).toContain(
    '[expect-llm] Failed to reach http://127.0.0.1:2 in live mode (connect ECONNREFUSED 127.0.0.1:2): live mode sends model requests to the network with OPENAI_API_KEY. Check the network (proxy, VPN, DNS) and that OPENAI_API_KEY is set, or replay the recordings instead (unset EXPECT_LLM_REPLAY).',
  )
}, 60_000)
