// The Vitest setup entry loaded where no test runs (globalSetup, the config file, a script) says where
// it belongs, instead of Vitest's "failed to find the current suite". Against the build (dist/).
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { childEnv, repo, runChild } from './golden/helpers.js'

test("'expect-llm/vitest' outside a test worker fails with the fix", async () => {
  const entry = join(process.env.GOLDEN_DIST ?? join(repo, 'dist'), 'vitest.js')
  const run = await runChild(['--input-type=module', '-e', `await import(${JSON.stringify(entry)})`], repo, childEnv({}))
  expect(run.code).toBe(1)
  expect(run.output).toContain(
    "[expect-llm] Failed to register the expect-llm matchers: 'expect-llm/vitest' was loaded outside a Vitest test worker (from globalSetup, the config file or a script). List it under test.setupFiles",
  )
})
