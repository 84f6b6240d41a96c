// Under Jest, a test file that fails to load never runs the afterAll that stops its replay session. The next
// file of the same worker starts its own session; the leftover one must not keep intercepting with the
// dead file's configuration, which let the next file's replay-mode requests through to the network.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@jest/globals'

const repo = fileURLToPath(new URL('../..', import.meta.url))

test('after a file that failed to load, a replay-mode request of the next file never reaches the network', () => {
  const run = spawnSync(
    process.execPath,
    ['--experimental-vm-modules', join(repo, 'node_modules/jest/bin/jest.js'), '--config', join(repo, 'test/jest/failed-load/jest.config.cjs'), '--runInBand'],
    {
      cwd: repo,
      env: { ...process.env, EXPECT_LLM_REPLAY: '' },
      encoding: 'utf8',
    },
  )
  const output = `${run.stdout}${run.stderr}`
  expect(output).toContain("Cannot find module './this-module-does-not-exist.mjs'")
  expect(output).toMatch(/PASS .*b-replays\.child\.mjs/)
  expect(output).toContain('REQUESTS_THAT_REACHED_THE_SERVER=0')
  expect(run.status).toBe(1) // the file that failed to load
}, 60_000)
