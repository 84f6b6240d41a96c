// Under Jest (ESM mode), the usage record that `expect-llm fixtures prune` trusts says whether the test
// file's run was complete and green: a failing test or a -t filter makes prune leave its fixtures alone.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from '@jest/globals'
import { buildKey, serializeFixture } from 'expect-llm/replay'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const root = mkdtempSync(join(tmpdir(), 'expect-llm-jest-usage-'))

afterAll(() => rmSync(root, { recursive: true, force: true }))

// One fixture in the child file's folder, so that its run has something to report (it is unused).
const key = buildKey('POST', new URL('https://api.openai.com/v1/chat/completions'), new TextEncoder().encode('{"model":"m"}'), 'application/json', {})
const folder = join(root, 'usage.child.mjs')
mkdirSync(folder, { recursive: true })
const fixture = { schemaVersion: 1, hash: key.hash, key: key.material, response: { status: 200, headers: {}, json: { ok: true } }, meta: { recordedAt: new Date().toISOString(), durationMs: 1, endpoint: key.endpoint, model: 'm', usage: null, sdkUserAgent: null, testFile: null } }
writeFileSync(join(folder, `${key.endpoint}.${key.hash16}.json`), serializeFixture(fixture))

function runChild(args, env = {}) {
  const run = spawnSync(process.execPath, ['--experimental-vm-modules', join(repo, 'node_modules/jest/bin/jest.js'), '--config', join(repo, 'test/jest/child/jest.config.cjs'), ...args], {
    cwd: repo,
    env: { ...process.env, CHILD_ROOT: root, EXPECT_LLM_REPLAY: '', ...env },
    encoding: 'utf8',
  })
  const dir = join(root, '.expect-llm', 'replay', 'usage')
  const [name] = readdirSync(dir)
  return { status: run.status, output: `${run.stdout}${run.stderr}`, record: JSON.parse(readFileSync(join(dir, name), 'utf8')) }
}

test('a failing test, a -t filter and a complete green run are told apart', () => {
  const failed = runChild([], { CHILD_FAIL: '1' })
  expect(failed.status).toBe(1)
  expect(failed.record).toMatchObject({ complete: false, reason: 'failed' })
  expect(failed.output).toContain('Some tests failed, so they may still be needed: prune only after a green, unfiltered run.')

  const filtered = runChild(['-t', 'passes'])
  expect(filtered.status).toBe(0)
  expect(filtered.record).toMatchObject({ complete: false, reason: 'filtered' })

  const green = runChild([])
  expect(green.status).toBe(0)
  expect(green.record).toMatchObject({ complete: true })
  expect(green.record.reason).toBeUndefined()
  expect(green.output).toContain('Delete unused ones with: npx expect-llm fixtures prune')
}, 60_000)
