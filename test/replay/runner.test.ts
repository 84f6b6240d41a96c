import { spawn } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { client, startReplay, useReplaySandbox } from './helpers.js'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const childDir = fileURLToPath(new URL('./child/', import.meta.url))
const childFile = join(childDir, 'module-client.child.ts')

const sandbox = useReplaySandbox()

interface JsonReport {
  testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>
}

function runChild(pool: 'forks' | 'threads'): Promise<{ code: number | null; stdout: string; report: JsonReport }> {
  const out = join(sandbox.root, 'report.json')
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(repo, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--config',
        join(childDir, 'vitest.config.ts'),
        '--reporter=json',
        `--outputFile=${out}`,
        '--reporter=default',
        `--pool=${pool}`,
      ],
      {
        cwd: repo,
        env: {
          ...process.env,
          EXPECT_LLM_REPLAY: 'replay',
          CHILD_ORIGIN: sandbox.server.origin,
          CHILD_BASE_URL: sandbox.server.baseURL,
          CHILD_ROOT: sandbox.root,
          NO_COLOR: '1',
          FORCE_COLOR: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stdout = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stdout += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      readFile(out, 'utf8').then((text) => resolve({ code, stdout, report: JSON.parse(text) as JsonReport }), reject)
    })
  })
}

test.each(['forks', 'threads'] as const)(
  'in the %s pool, the setup file intercepts a module-level client, serves concurrent tests, fails a swallowed miss, and prints the summary',
  async (pool) => {
    // Record the module-level test's request as the child test file would, into the child's fixture root.
    const rec = startReplay({ mode: 'record', rootDir: sandbox.root, dir: sandbox.root, hosts: [sandbox.server.origin], testPath: () => childFile })
    try {
      await client(sandbox.server.baseURL).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Module level?' }] })
      rec.replay.assertNoProblems()
    } finally {
      rec.close()
    }
    sandbox.server.reset()

    const { code, stdout, report } = await runChild(pool)
    const results = Object.fromEntries(report.testResults[0]!.assertionResults.map((r) => [r.title, r]))
    expect(results['module-level client is served from the fixture']?.status, stdout).toBe('passed')
    expect(results['concurrent test A is served from the fixture']?.status, stdout).toBe('passed')
    expect(results['concurrent test B is served from the fixture']?.status, stdout).toBe('passed')
    const swallowed = results['a miss fails the test even when the app swallows the error']
    expect(swallowed?.status).toBe('failed')
    expect(swallowed?.failureMessages.join('\n')).toContain('[expect-llm] Failed to replay POST /v1/chat/completions (model gpt-4o-mini)')
    expect(swallowed?.failureMessages.join('\n')).toContain('+ actual:   "Never recorded"')
    expect(code).toBe(1)
    // Nothing reached the server: the module-level client went through MSW.
    expect(sandbox.server.requests).toHaveLength(0)
    expect(stdout).toContain('[expect-llm] Replay fixtures for')
    expect(stdout).toContain(': 1 used, 0 new, 0 unused in module-client.child.ts.')
    const usage = await readdir(join(sandbox.root, '.expect-llm', 'replay', 'usage'))
    expect(usage).toHaveLength(1)
    const record = JSON.parse(await readFile(join(sandbox.root, '.expect-llm', 'replay', 'usage', usage[0]!), 'utf8'))
    // One test failed (the swallowed miss), so the run cannot tell which fixtures are unused: prune skips it.
    expect(record).toMatchObject({ complete: false, reason: 'failed', folder: 'module-client.child.ts' })
    expect(record.used).toHaveLength(1)
  },
  40_000,
)
