#!/usr/bin/env node
// `npm test`: every suite CI runs, as the npm scripts of package.json, side by side where they can be.
// Most of them are one single-threaded process (tsc, a Node script, a Vitest or Jest run of a few files),
// so on two cores two of them run at once; `test:unit` (Vitest over the whole test/ folder, which spreads
// over every core itself) runs alone. A suite starts once the suites it needs have passed (`after`): the
// build first, the examples before the offline run (both run the order-agent example, which writes its
// reports), the type tests (which install the compat packages) before msw2.
//
// Each suite's output is printed, whole, when it ends (so that two suites' lines do not interleave),
// with its time; a table of the times closes the run. The first failure stops the run: the suites still
// running are stopped, and the command exits 1.
//
// Usage: node scripts/test.mjs [--jobs N] [script ...]   (scripts: only those, in the order below; their
// `after` suites are not added). TEST_JOBS=N as --jobs; --jobs 1 runs one suite at a time, in order.
import { spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'

/** The suites, in the order they start when ready. `cores: 'all'`: runs alone. */
// Every suite but lint reads dist/ somewhere (this repository's own imports of `expect-llm` resolve to
// it, e.g. in the type checks), so each waits for the build, which empties dist/ first.
const SUITES = [
  { script: 'build' },
  { script: 'lint' },
  { script: 'test:unit', after: ['build'], cores: 'all' },
  { script: 'test:consumers', after: ['build'] },
  { script: 'typecheck', after: ['build'] },
  { script: 'test:examples', after: ['build'] },
  { script: 'test:types', after: ['build'] },
  { script: 'test:jest', after: ['build'] },
  { script: 'test:offline', after: ['test:examples'] },
  { script: 'test:msw2', after: ['test:types'] },
  { script: 'lint:package', after: ['build'] },
]

const args = process.argv.slice(2)
const jobsAt = args.indexOf('--jobs')
const jobs = Number(jobsAt >= 0 ? args[jobsAt + 1] : process.env.TEST_JOBS) || availableParallelism()
const only = jobsAt >= 0 ? [...args.slice(0, jobsAt), ...args.slice(jobsAt + 2)] : args
for (const name of only) {
  if (!SUITES.some((s) => s.script === name)) {
    console.error(`[test] unknown suite "${name}"; known: ${SUITES.map((s) => s.script).join(', ')}`)
    process.exit(2)
  }
}
const suites = only.length > 0 ? SUITES.filter((s) => only.includes(s.script)) : SUITES

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`
const started = performance.now()
const done = new Map() // script -> { ok, ms }
const running = new Map() // script -> child
let failure

/** Stops the running suites: each runs in its own process group (npm, its shell and their children). */
function stopAll() {
  for (const child of running.values()) {
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {}
  }
}
// Ctrl-C reaches this process only (the suites have process groups of their own): stop them too.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopAll()
    process.exit(130)
  })
}

/** Runs one suite (`npm run <script>`, its output collected); resolves when it has ended. */
function start(suite) {
  const t = performance.now()
  console.log(`[test] ▶ ${suite.script}`)
  const child = spawn('npm', ['run', suite.script], { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  running.set(suite.script, child)
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (d) => (output += d))
  child.stderr.setEncoding('utf8').on('data', (d) => (output += d))
  return new Promise((resolve) => {
    child.on('close', (status, signal) => {
      running.delete(suite.script)
      const ms = performance.now() - t
      const ok = status === 0
      done.set(suite.script, { ok, ms, stopped: failure !== undefined && !ok })
      if (failure === undefined || ok) {
        process.stdout.write(`\n[test] ── ${suite.script}: ${ok ? 'passed' : `FAILED (${status ?? signal})`} in ${seconds(ms)} ──\n${output}\n`)
      }
      if (!ok && failure === undefined) {
        failure = suite.script
        stopAll()
      }
      resolve()
    })
  })
}

/** The first waiting suite that may start now: its `after` suites passed and there are cores for it. */
function next(waiting, busy) {
  for (const suite of waiting) {
    const ready = (suite.after ?? []).every((a) => done.get(a)?.ok || !suites.some((s) => s.script === a))
    if (!ready) continue
    const cores = suite.cores === 'all' ? jobs : 1
    // A suite that needs every core waits for the others to end, and the suites after it wait for it.
    if (busy + cores > jobs) return suite.cores === 'all' ? null : undefined
    return suite
  }
  return undefined
}

const waiting = [...suites]
const inFlight = new Set()
let busy = 0
while ((waiting.length > 0 || inFlight.size > 0) && failure === undefined) {
  let suite = next(waiting, busy)
  while (suite) {
    waiting.splice(waiting.indexOf(suite), 1)
    const cores = suite.cores === 'all' ? jobs : 1
    busy += cores
    const p = start(suite).then(() => {
      busy -= cores
      inFlight.delete(p)
    })
    inFlight.add(p)
    suite = next(waiting, busy)
  }
  if (inFlight.size === 0) break
  await Promise.race(inFlight)
}
await Promise.all(inFlight)

const rows = suites.map((s) => {
  const d = done.get(s.script)
  const state = !d ? 'not run' : d.ok ? 'passed' : d.stopped ? 'stopped' : 'FAILED'
  return `  ${s.script.padEnd(16)} ${d ? seconds(d.ms).padStart(8) : '       -'}  ${state}`
})
console.log(`\n[test] ${jobs} at a time; ${seconds(performance.now() - started)} in all\n${rows.join('\n')}`)
if (failure !== undefined || done.size < suites.length) {
  console.error(`[test] failed: ${failure ?? 'not every suite ran'}`)
  process.exit(1)
}
