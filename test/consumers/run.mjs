// The package as users install it. Packs this repository (`npm pack`, the built dist/), installs the
// tarball into fresh projects under os.tmpdir(), outside the repository (so nothing resolves from its
// node_modules), and runs a small suite in each:
//
//   vitest-5     Vitest 5, msw 3, openai 7, ai 7: `tsc --noEmit` (strict), then the suite
//   vitest-4.1   Vitest 4.1, msw 2, openai 6, ai 7: `tsc --noEmit` (strict), then the suite
//   jest-30      Jest 30, msw 3, openai 7, without ai: the CommonJS tests, then the ESM tests (replay) with --experimental-vm-modules
//
// The Vitest suites also test apps built on the Vercel AI SDK, LangChain and the Anthropic SDK
// (test/clients.test.ts), whose requests replay like the judge's.
//
// Every suite registers the setup file, uses lexical and model-backed matchers replayed from committed
// recordings (projects/vitest/test/__llm_fixtures__, recorded with `npm run test:consumers:record`) and
// one describeGolden. CI=true forces replay: no key, no network.
//
// Installs are slow, so each project's dependencies are installed once into
// node_modules/.cache/expect-llm-consumers/<project> (keyed by the dependency versions and expect-llm's
// own dependencies, together with the tarball) and copied into the fresh project; when the cache is
// from an earlier build, the freshly packed tarball is installed over the copy with `npm install
// <tarball>`. Delete the cache folder to start from scratch.
//
// Usage: node test/consumers/run.mjs [project ...]
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const here = fileURLToPath(new URL('.', import.meta.url))
const cacheRoot = join(root, 'node_modules/.cache/expect-llm-consumers')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

const common = { '@types/node': '^22.0.0', typescript: '^5.9.0' }
// The AI SDK judge test (test/ai-sdk-judge.test.ts); the Jest project goes without it, so its suites also
// show that nothing loads `ai` unless an AI SDK model is configured.
// @types/json-schema: the AI SDK's own types import 'json-schema', which strict projects (skipLibCheck off) must provide.
const aiSdk = { ai: '^7.0.0', '@ai-sdk/openai-compatible': '^3.0.0', '@types/json-schema': '^7.0.15' }
// Apps on other clients than openai (test/clients.test.ts): the AI SDK's OpenAI provider, LangChain, the Anthropic SDK.
const clients = { ...aiSdk, '@ai-sdk/openai': '^4.0.0', '@langchain/openai': '^1.0.0', '@langchain/core': '^1.0.0', '@anthropic-ai/sdk': '^1.0.0' }
// The changed prompt of miss/changed-prompt.*: the test fails (exit 1) with the miss exactly once, and none
// of the SDK error's repetitions (its message, Vitest's "Caused by" and "Serialized Error", Jest's "Cause:").
const missChecks = {
  exitCode: 1,
  once: ['[expect-llm] Failed to replay POST /v1/chat/completions (model gpt-4.1-mini)', '+ actual:   "Summarize this ticket in one sentence: the parcel arrived damaged."'],
  mustNotPrint: ['Serialized Error', 'Caused by', 'Cause:', '404 [expect-llm]'],
  // The lines of the failure report: from the first failure to the summary.
  report: (plain) => {
    const from = plain.search(/^\s*(FAIL|●) /m)
    const lines = plain.slice(from).split('\n').filter((l) => l.trim() && !/^\s*(Test Files|Tests|Test Suites|Snapshots|Time|Start at|Duration|Ran all)\b/.test(l))
    return `${lines.length} lines for the miss`
  },
}

const projects = {
  'vitest-5': {
    template: 'vitest',
    deps: { ...common, vitest: '^5.1.0', msw: '^3.0.0', openai: '^7.0.0', ...clients },
    steps: [
      ['tsc --noEmit (strict)', ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json']],
      ['vitest run', ['node_modules/vitest/vitest.mjs', 'run']],
      // What a replay miss looks like: one block per changed prompt, not the SDK's error repeating it.
      ['a changed prompt (fails on purpose)', ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.miss.config.ts'], missChecks],
    ],
  },
  'vitest-4.1': {
    template: 'vitest',
    deps: { ...common, vitest: '~4.1.0', msw: '^2.15.0', openai: '^6.0.0', ...clients },
    steps: [
      ['tsc --noEmit (strict)', ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json']],
      ['vitest run', ['node_modules/vitest/vitest.mjs', 'run']],
      // What a replay miss looks like: one block per changed prompt, not the SDK's error repeating it.
      ['a changed prompt (fails on purpose)', ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.miss.config.ts'], missChecks],
    ],
  },
  'jest-30': {
    template: 'jest',
    deps: { jest: '^30.0.0', '@jest/globals': '^30.0.0', msw: '^3.0.0', openai: '^7.0.0' },
    steps: [
      // Replay cannot start under CommonJS; that is said only when a model request goes out (model-request.test.cjs), never at start-up.
      ['jest (CommonJS)', ['node_modules/jest/bin/jest.js', '--selectProjects', 'cjs'], { mustNotPrint: ['[expect-llm] Failed to start record/replay', 'msw could not be loaded'] }],
      ['jest (ESM mode, replay)', ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--selectProjects', 'esm']],
      ['a changed prompt (fails on purpose)', ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--selectProjects', 'miss'], missChecks],
    ],
  },
}

const selected = process.argv.slice(2)
for (const name of selected) if (!projects[name]) throw new Error(`[consumers] unknown project "${name}"; known: ${Object.keys(projects).join(', ')}`)
const names = selected.length > 0 ? selected : Object.keys(projects)

const npm = (args, cwd) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } }).toString()
const seconds = (start) => `${((performance.now() - start) / 1000).toFixed(1)} s`
const version = (dir, name) => JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version

// 1. Pack the built package, as `npm publish` would.
if (!existsSync(join(root, 'dist/index.js'))) throw new Error('[consumers] dist/ is missing: run `npm run build` first (npm test does).')
mkdirSync(cacheRoot, { recursive: true })
for (const f of readdirSync(cacheRoot)) if (f.endsWith('.tgz')) rmSync(join(cacheRoot, f))
const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', cacheRoot], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }).toString())[0]
const tarball = join(cacheRoot, packed.filename)
console.log(`[consumers] packed ${packed.filename}: ${packed.entryCount} files, ${(packed.size / 1024).toFixed(0)} kB`)

let failed = 0
for (const name of names) {
  const project = projects[name]
  const started = performance.now()
  // 2. The dependency install, cached: a project with the tarball and the peers, installed once per key.
  const key = createHash('sha256').update(JSON.stringify({ deps: project.deps, expectLlmDeps: pkg.dependencies, node: process.versions.node.split('.')[0] })).digest('hex').slice(0, 16)
  const cached = join(cacheRoot, name)
  const manifest = (deps) => `${JSON.stringify({ name: `expect-llm-consumer-${name}`, private: true, ...(project.template === 'vitest' ? { type: 'module' } : {}), dependencies: deps }, null, 2)}\n`
  if (!existsSync(join(cached, `.key-${key}`))) {
    rmSync(cached, { recursive: true, force: true })
    mkdirSync(cached, { recursive: true })
    writeFileSync(join(cached, 'package.json'), manifest(project.deps))
    console.log(`[consumers] ${name}: installing ${Object.entries(project.deps).map(([k, v]) => `${k}@${v}`).join(', ')} and the tarball (cached for later runs)`)
    npm(['install', tarball], cached)
    writeFileSync(join(cached, `.key-${key}`), '')
    writeFileSync(join(cached, '.tarball'), packed.integrity)
  }
  // The cached copy already holds this very tarball when it was installed in this run (always so in CI).
  const fresh = existsSync(join(cached, '.tarball')) && readFileSync(join(cached, '.tarball'), 'utf8') === packed.integrity

  // 3. A fresh project outside the repository: the suite, the recordings, the cached dependencies, and
  //    the tarball of this build installed over them.
  const dir = mkdtempSync(join(tmpdir(), `expect-llm-consumer-${name}-`))
  let ok = false
  let detail = ''
  try {
    // The template's own files only: not what a local run left in it (node_modules/.vite, .expect-llm).
    const template = join(here, 'projects', project.template)
    cpSync(template, dir, { recursive: true, filter: (src) => !/(?:^|[\\/])(?:node_modules|\.expect-llm)(?:[\\/]|$)/.test(src.slice(template.length)) })
    if (project.template !== 'vitest') {
      cpSync(join(here, 'projects/vitest/test/__llm_fixtures__'), join(dir, 'test/__llm_fixtures__'), { recursive: true })
      cpSync(join(here, 'projects/vitest/miss/__llm_fixtures__'), join(dir, 'miss/__llm_fixtures__'), { recursive: true })
    }
    // When nothing will be installed into the copy, hard links are enough (and several times faster than
    // copying some 250 MB): the suites only read node_modules, and what they write there is new files.
    const linked = fresh && process.platform === 'linux' && spawnSync('cp', ['-al', join(cached, 'node_modules'), join(dir, 'node_modules')]).status === 0
    if (!linked) {
      rmSync(join(dir, 'node_modules'), { recursive: true, force: true })
      cpSync(join(cached, 'node_modules'), join(dir, 'node_modules'), { recursive: true, verbatimSymlinks: true })
    }
    cpSync(join(cached, 'package-lock.json'), join(dir, 'package-lock.json'))
    writeFileSync(join(dir, 'package.json'), manifest(project.deps))
    if (!fresh) {
      npm(['install', '--prefer-offline', tarball], dir)
    }
    const installed = JSON.parse(readFileSync(join(dir, 'node_modules/expect-llm/package.json'), 'utf8'))
    if (installed.version !== pkg.version || existsSync(join(dir, 'node_modules/expect-llm/src'))) throw new Error('the installed expect-llm is not the packed one')

    // 4. The steps, with CI=true (replay only) and no key.
    const env = { ...process.env, CI: 'true', NODE_OPTIONS: '' }
    for (const k of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'EXPECT_LLM_REPLAY', 'EXPECT_LLM_ALLOW_RECORD_IN_CI', 'EXPECT_LLM_SCRIPTED_MODEL', 'VITEST', 'JEST_WORKER_ID']) delete env[k]
    const results = []
    for (const [label, args, checks = {}] of project.steps) {
      const stepStarted = performance.now()
      const run = spawnSync(process.execPath, args, { cwd: dir, env, encoding: 'utf8', timeout: 180_000 })
      const output = `${run.stdout}${run.stderr}`
      const plain = output.replace(/\x1b\[[0-9;]*m/g, '')
      if (run.status !== (checks.exitCode ?? 0)) {
        detail = `${label} failed (exit ${run.status ?? run.signal}, expected ${checks.exitCode ?? 0}):\n${output}`
        throw new Error(detail)
      }
      for (const text of checks.mustNotPrint ?? []) {
        if (plain.includes(text)) {
          detail = `${label} printed "${text}":\n${output}`
          throw new Error(detail)
        }
      }
      for (const text of checks.once ?? []) {
        const count = plain.split(text).length - 1
        if (count !== 1) {
          detail = `${label} printed "${text}" ${count} times, not once:\n${output}`
          throw new Error(detail)
        }
      }
      if (checks.report) {
        results.push(`${label}: ${checks.report(plain)} (${seconds(stepStarted)})`)
        continue
      }
      // Vitest: "Tests  7 passed (7)"; Jest: "Tests:       5 passed, 5 total".
      const tests = /Tests:?\s+(\d+ passed)/.exec(plain)?.[1]
      results.push(`${label}: ${tests ?? 'ok'} (${seconds(stepStarted)})`)
    }
    const versions = ['vitest', 'jest', 'msw', 'openai', 'ai'].filter((d) => project.deps[d]).map((d) => `${d} ${version(dir, d)}`).join(', ')
    detail = `${versions}; ${results.join('; ')}`
    ok = true
  } catch (error) {
    detail ||= error instanceof Error ? error.message : String(error)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  if (!ok) failed++
  console.log(`[consumers] ${ok ? '✓' : '✗'} ${name} (${seconds(started)}): ${detail}`)
}

if (failed > 0) {
  console.error(`[consumers] ${failed} of ${names.length} consumer projects failed`)
  process.exit(1)
}
console.log(`[consumers] all ${names.length} consumer projects passed against ${packed.filename}`)
