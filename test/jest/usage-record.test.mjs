// Under Jest (ESM mode), the usage record that `expect-llm fixtures prune` trusts says whether the test
// file's run was complete and green: a failing test or a -t filter makes prune leave its fixtures alone.
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from '@jest/globals'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const root = mkdtempSync(join(tmpdir(), 'expect-llm-jest-usage-'))

afterAll(() => rmSync(root, { recursive: true, force: true }))

// One fixture in the child file's folder, so that its run has something to report (it is unused): a
// recorded POST https://api.openai.com/v1/chat/completions with body {"model":"m"} (the key and file name
// are the library's internals, so the fixture is committed rather than built here).
const unused = 'chat-completions.b9947e73bf127c39.json'
const folder = join(root, 'usage.child.mjs')
mkdirSync(folder, { recursive: true })
copyFileSync(join(repo, 'test/jest/child/fixtures', unused), join(folder, unused))

function runChild(args, env = {}) {
  const run = spawnSync(
    process.execPath,
    ['--experimental-vm-modules', join(repo, 'node_modules/jest/bin/jest.js'), '--config', join(repo, 'test/jest/child/jest.config.cjs'), ...args],
    {
      cwd: repo,
      env: { ...process.env, CHILD_ROOT: root, EXPECT_LLM_REPLAY: '', ...env },
      encoding: 'utf8',
    },
  )
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
