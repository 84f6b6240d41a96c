// The replayed suites with no network at all: `unshare -rn` runs them in a new network namespace where
// even the loopback interface is down, so a request that a fixture did not answer cannot reach anything,
// not even a local server. CI=true forces replay mode. (The same suites also run in `npm run test:unit`,
// where their clients point at a closed port on 127.0.0.1.)
//
// Where user namespaces are not permitted (some containers), it says so and exits 0: it is an extra
// guarantee on top of the closed-port check, not the only one.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const files = ['test/agents/agent-loops.replay.test.ts', 'test/matchers/model-matchers.replay.test.ts']

const probe = spawnSync('unshare', ['-rn', 'true'], { stdio: 'ignore' })
if (probe.error || probe.status !== 0) {
  console.log('[offline] skipped: `unshare -rn` is not permitted here (no user namespaces); the closed-port replay check in test:unit still ran.')
  process.exit(0)
}
// The order-agent example (examples/order-agent): a real tool loop whose model steps and judge calls
// all come from its recordings.
const runs = [
  ['--typecheck.enabled=false', ...files],
  ['--config', 'examples/order-agent/vitest.config.ts'],
]
console.log(`[offline] running ${files.length} replayed suites and the order-agent example with no network (unshare -rn)`)
for (const args of runs) {
  const run = spawnSync('unshare', ['-rn', process.execPath, 'node_modules/vitest/vitest.mjs', 'run', ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, CI: 'true', EXPECT_LLM_REPLAY: 'replay' },
  })
  if (run.status !== 0) process.exit(run.status ?? 1)
}
