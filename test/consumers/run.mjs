// The package as users install it. Packs this repository (`npm pack`, the built dist/), installs the
// tarball into fresh projects under os.tmpdir(), outside the repository (so nothing resolves from its
// node_modules), and runs a small suite in each:
//
//   vitest-5          Vitest 5, msw 3, openai 7, ai 7: `tsc --noEmit` (strict), the suite, then what must fail
//   vitest-4.1        Vitest 4.1, msw 2, openai 6, ai 7: the same
//   jest-30           Jest 30, msw 3, openai 7, without ai, "type": "module", the README's jest.config.cjs: the CommonJS
//                     tests, the ESM tests (replay) with --experimental-vm-modules, then what must fail
//   types-vitest-5    tsc only: Vitest 5 and expect-llm, nothing else (no openai, msw or @types/node), under
//   types-vitest-4.1  TypeScript 5.9 and 7, skipLibCheck false and true, moduleResolution bundler and node16;
//   types-jest-30     Jest 30 (@jest/globals and @types/jest, with the @types/node Jest itself installs).
//                     Each also checks that without the tsconfig's
//                     "types" entry the test files get no matcher types (so they rely on that one step).
//
// The Vitest suites also test apps built on the Vercel AI SDK, LangChain and the Anthropic SDK
// (test/clients.test.ts), whose requests replay like the judge's.
//
// The suites register the setup file, use lexical and model-backed matchers replayed from committed
// recordings (projects/vitest/test/__llm_fixtures__ and miss/__llm_fixtures__, recorded with
// `npm run test:consumers:record`) and describeGolden. CI=true forces replay: no key, no network. Steps
// that must fail (an unawaited matcher, a golden failure's code frame, -u in CI, a forgotten setup file,
// the CLI without a command, negative option values out of range, a changed prompt that must fail with
// one block) pass when the output says what the README says.
//
// Installs are slow, so each project's dependencies are installed once into
// node_modules/.cache/expect-llm-consumers/<project> (keyed by the dependency versions and expect-llm's
// own dependencies, together with the tarball) and copied into the fresh project; when the cache is
// from an earlier build, the freshly packed tarball is installed over the copy with `npm install
// <tarball>`. Delete the cache folder to start from scratch. The missing installs run side by side
// (CONSUMERS_INSTALLS, default 4), then the projects, one per core (CONSUMERS_JOBS), each project's
// steps in order; CONSUMERS_TIMING=1 prints each step's time.
//
// Usage: node test/consumers/run.mjs [project ...]
import { execFile, execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { cp } from 'node:fs/promises'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const here = fileURLToPath(new URL('.', import.meta.url))
const cacheRoot = join(root, 'node_modules/.cache/expect-llm-consumers')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const readme = readFileSync(join(root, 'README.md'), 'utf8')

/** The README's Jest config snippet (Install > Jest): its file name and its text. */
function readmeJestConfig() {
  const m = /### Jest\n\n```js\n\/\/ (jest\.config\.\w+)\n([\s\S]*?)```/.exec(readme)
  if (!m) throw new Error('[consumers] README.md: no Jest config snippet under "### Jest"')
  return { name: m[1], text: m[2] }
}

const common = { '@types/node': '^22.0.0', typescript: '~5.9.0' }
// The AI SDK judge test (test/ai-sdk-judge.test.ts); the Jest project goes without it, so its suites also
// show that nothing loads `ai` unless an AI SDK model is configured.
// @types/json-schema: the AI SDK's own types import 'json-schema', which strict projects (skipLibCheck off) must provide.
const aiSdk = { ai: '^7.0.0', '@ai-sdk/openai-compatible': '^3.0.0', '@types/json-schema': '^7.0.15' }
// Apps on other clients than openai (test/clients.test.ts): the AI SDK's OpenAI provider, LangChain, the Anthropic SDK.
const clients = { ...aiSdk, '@ai-sdk/openai': '^4.0.0', '@langchain/openai': '^1.0.0', '@langchain/core': '^1.0.0', '@anthropic-ai/sdk': '^1.0.0' }
const typescripts = { typescript: '~5.9.0', 'typescript-7': 'npm:typescript@^7.0.2' }

// Steps: [label, args] must exit 0; { label, args, fails: true, output, absent, check } must exit non-zero
// with every `output` pattern in its output, none of `absent`, and `check(dir)` returning nothing. More
// fields of a step object: `env` (added to the environment), `exit` (the exact exit code), `once` (texts printed exactly once), `report(plain)`
// (a note for the summary, from the output without colours). A step object without `fails` must exit 0.

// The changed prompt of miss/changed-prompt.*: the test fails (exit 1) with the miss exactly once, one
// Provider line (the provider table of the replay hosts names it), and none of the SDK error's repetitions
// (its message, Vitest's "Caused by" and "Serialized Error", Jest's "Cause:").
const missChecks = {
  fails: true,
  exit: 1,
  once: [
    '[expect-llm] Failed to replay POST /v1/chat/completions (model gpt-4.1-mini)',
    'Provider:',
    '+ actual:   "Summarize this ticket in one sentence: the parcel arrived damaged."',
  ],
  output: ['  Provider:      OpenAI\n'],
  absent: ['Serialized Error', 'Caused by', 'Cause:', '404 [expect-llm]'],
  // The lines of the failure report: from the first failure to the summary.
  report: (plain) => {
    const from = plain.search(/^\s*(FAIL|●) /m)
    const lines = plain
      .slice(from)
      .split('\n')
      .filter((l) => l.trim() && !/^\s*(Test Files|Tests|Test Suites|Snapshots|Time|Start at|Duration|Ran all)\b/.test(l))
    return `${lines.length} lines for the miss`
  },
}

const vitestSteps = [
  ['tsc --noEmit (strict)', ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json']],
  // The matcher tests alone (nothing imports expect-llm/vitest): types from the tsconfig step only. The
  // declarations were checked by the step above; skipping them here saves two thirds of the time.
  ['tsc, matcher tests only', ['node_modules/typescript/bin/tsc', '--noEmit', '--skipLibCheck', '-p', 'tsconfig.matchers.json']],
  ['vitest run', ['node_modules/vitest/vitest.mjs', 'run']],
  // The README's "HTML report and history": the run above appended to the history and wrote the JSON
  // reports; `expect-llm report` draws the page from them.
  {
    label: 'expect-llm report (the HTML page from the reports and their history)',
    args: ['node_modules/expect-llm/dist/cli.js', 'report'],
    output: [/^HTML report of \d+ suites?: \.expect-llm\/report\.html$/m],
    check: (dir) => {
      const history = join(dir, '.expect-llm/history/test/golden.test.ts/refund-and-delivery-answers.jsonl')
      if (!existsSync(history) || readFileSync(history, 'utf8').trim().split('\n').length !== 1) return `${history}: not one run`
      const data = pageData(join(dir, '.expect-llm/report.html'))
      const suite = data.suites.find((x) => x.name === 'refund and delivery answers')
      if (!suite || suite.summary.ran !== 2 || suite.history.runs.length !== 1)
        return `the page does not show the suite's 2 cases and 1 run: ${JSON.stringify(suite?.summary)}`
      return undefined
    },
  },
  // The README's shard-and-merge recipe: each shard runs its slice of the cases (EXPECT_LLM_SHARD), the
  // merge recomputes the gates over all of them.
  {
    label: 'EXPECT_LLM_SHARD=1/2',
    args: ['node_modules/vitest/vitest.mjs', 'run', 'test/golden.test.ts'],
    env: { EXPECT_LLM_SHARD: '1/2' },
    check: (dir) => {
      const file = join(dir, '.expect-llm/reports/test/golden.test.ts/refund-and-delivery-answers.shard-1-of-2.json')
      const report = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined
      return report?.cases.length === 1 && report.shard?.index === 1 ? undefined : `${file}: not shard 1's one case`
    },
  },
  {
    label: 'EXPECT_LLM_SHARD=2/2',
    args: ['node_modules/vitest/vitest.mjs', 'run', 'test/golden.test.ts'],
    env: { EXPECT_LLM_SHARD: '2/2' },
  },
  {
    label: 'expect-llm report --merge',
    args: ['node_modules/expect-llm/dist/cli.js', 'report', '--merge', '.expect-llm/reports', '--out', 'merged.html'],
    output: ['✓ refund and delivery answers (test/golden.test.ts): merged from 2 shards, 2 cases, pass rate 100.0%', 'HTML report: merged.html'],
    check: (dir) => {
      const suite = pageData(join(dir, 'merged.html')).suites.find((x) => x.name === 'refund and delivery answers')
      return suite?.shards === 2 && suite.checks.some((c) => c.name === 'passRate' && c.ok) ? undefined : `the merged page: ${JSON.stringify(suite?.checks)}`
    },
  },
  // What a replay miss looks like: one block per changed prompt, not the SDK's error repeating it.
  { label: 'a changed prompt (must fail with one block)', args: ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.miss.config.ts'], ...missChecks },
  // The README's "Replaying agent loops": a tool that returns something else than when the loop was
  // recorded makes the next model request a miss, whose diff and hint point at that tool's message.
  {
    label: 'a changed tool result in a replayed agent loop (must fail, naming the tool)',
    args: ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.miss-tool.config.ts'],
    fails: true,
    exit: 1,
    once: ['[expect-llm] Failed to replay POST /v1/chat/completions (model gpt-4.1-mini)'],
    output: [
      'differs at 1 path(s):\n    /body/messages/4/content\n',
      /- recorded: .*R-100/,
      /\+ actual: {3}.*R-999/,
      /Hint: messages\[4\] is the result of the tool refundOrder \(call [\w-]+\), and it differs from the recording: the tool returned something else this time\./,
    ],
    absent: ['Serialized Error', 'Caused by'],
  },
  {
    label: 'unawaited matcher and golden failure (must fail)',
    args: ['node_modules/vitest/vitest.mjs', 'run', '--config', 'trust/vitest.config.ts', 'trust/unawaited.trust.ts'],
    fails: true,
    output: [
      '[expect-llm] toPassJudge(...) was not awaited: add await (trust/unawaited.trust.ts:9:23).',
      // The golden failure's code frame points at the describeGolden call, not into node_modules.
      '[expect-llm] Golden suite "answers below the pass rate" failed 1 check:',
      /❯ trust\/unawaited\.trust\.ts:12:1\n/,
    ],
    absent: ['node_modules/expect-llm/dist', 'Unhandled'],
  },
  {
    label: '-u with CI=true (must fail on the regression, baseline kept)',
    args: ['node_modules/vitest/vitest.mjs', 'run', '--config', 'trust/vitest.config.ts', '-u', 'trust/baseline.trust.ts'],
    fails: true,
    output: [
      'CI is set, so baselines are not rewritten in CI (-u is ignored; the run is compared with the committed baseline)',
      'scores regressed against the baseline',
    ],
    check: (dir) => {
      const path = 'trust/__golden__/baseline.trust.ts/refund-answers.json'
      if (readFileSync(join(dir, path), 'utf8') !== readFileSync(join(here, 'projects/vitest', path), 'utf8')) return `${path} was rewritten`
      return undefined
    },
  },
  {
    label: 'no setup file (must fail as the README Troubleshooting says)',
    args: ['node_modules/vitest/vitest.mjs', 'run', '--config', 'trust/no-setup.config.ts'],
    fails: true,
    output: ['Invalid Chai property: toHaveRougeLAbove'],
    check: () => (readme.includes('`Invalid Chai property: toHaveRougeLAbove`') ? undefined : 'README.md does not name the error in Troubleshooting'),
  },
  // How strong is my eval? (README): the mutate command with a gate the keyword check fails, then without one.
  {
    label: 'expect-llm mutate --min-score 0.9 (must fail: the keyword check is weak)',
    args: ['node_modules/expect-llm/dist/cli.js', 'mutate', 'mutate/refunds.mutate.ts', '--min-score', '0.9', '--', '--config', 'mutate/vitest.config.ts'],
    fails: true,
    exit: 1,
    output: [
      'expect-llm mutate mutate/refunds.mutate.ts',
      /✗ keywords let \d+ of \d+ mutants pass \(score 0\.\d\d; [^)]*negation \d+ of \d+/,
      /✓ exact let 0 of \d+ mutants pass \(score 1\)/,
      '✗ below minScore 0.9: keywords',
      /hedge: \+ It depends\] It depends, but possibly: You can ask for a refund/,
    ],
  },
  // A seed is any whole number: a negative one, written `--seed -3` (not only `--seed=-3`), is its value.
  {
    label: 'expect-llm mutate --seed -3 without a gate: the report has the mutation section',
    args: ['node_modules/expect-llm/dist/cli.js', 'mutate', 'mutate/refunds.mutate.ts', '--seed', '-3', '--', '--config', 'mutate/vitest.config.ts'],
    check: (dir) => {
      const file = join(dir, '.expect-llm/reports/mutate/refunds.mutate.ts/refund-answers.json')
      const m = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).mutation : undefined
      const names = m?.checks.map((c) => c.check).join(',')
      return m?.seed === -3 && names === 'keywords,exact' && m.operators.includes('hedge')
        ? undefined
        : `${file}: mutation section ${JSON.stringify(m)?.slice(0, 300)}`
    },
  },
  // A negative number after an option that takes one is read as its value, then range-checked: the
  // user sees what is wrong with the value (not Node's "argument is ambiguous").
  ...[
    [
      ['mutate', 'mutate/refunds.mutate.ts', '--seed', '-3.5'],
      2,
      'Failed to run "expect-llm mutate mutate/refunds.mutate.ts --seed -3.5": --seed must be a whole number, got "-3.5". Pass for example --seed 7.',
    ],
    [
      ['mutate', 'mutate/refunds.mutate.ts', '--min-score', '-0.5', '--', '--config', 'mutate/vitest.config.ts'],
      2,
      'Failed to run "expect-llm mutate mutate/refunds.mutate.ts --min-score -0.5 -- --config mutate/vitest.config.ts": --min-score must be a number from 0 to 1, got "-0.5". Pass for example --min-score 0.8.',
    ],
    [['report', '--keep', '-3'], 2, 'Failed to run expect-llm report: --keep "-3" is not a whole number >= 1. Pass for example --keep 50'],
    [['fixtures', 'verify', '--max-age', '-3'], 1, 'Failed to verify fixtures: --max-age "-3" is not an age. Use a number with a unit, e.g. 30d, 12h or 90m.'],
  ].map(([args, exit, message]) => ({
    label: `expect-llm ${args.join(' ')} (must fail on the value, exit ${exit})`,
    args: ['node_modules/expect-llm/dist/cli.js', ...args],
    fails: true,
    exit,
    output: [`[expect-llm] ${message}\n`],
    absent: ['ambiguous', 'Usage:'],
  })),
  {
    label: 'expect-llm fixtures without a command (help, exit 2)',
    args: ['node_modules/expect-llm/dist/cli.js', 'fixtures'],
    fails: true,
    exit: 2,
    output: ['Usage: expect-llm fixtures <command> [options]', 'a command is missing'],
  },
]

/**
 * tsc runs, each with moduleResolution bundler and node16: TypeScript 7 for every program, with skipLibCheck
 * false and true; TypeScript 5.9 (slower) with skipLibCheck false, for `ts59` (the programs merged into one
 * where one program can hold them). skipLibCheck true only skips checking declaration files, so a program
 * that compiles with false compiles with true. TypeScript 5.9 runs with --incremental (its info kept in the
 * cache), so that a rerun over an unchanged build is quick.
 */
function typeMatrix(programs, ts59 = programs) {
  const files = {}
  const steps = []
  const resolutions = { bundler: { module: 'ESNext', moduleResolution: 'bundler' }, node16: { module: 'Node16', moduleResolution: 'Node16' } }
  const config = (program, options, skipLibCheck) =>
    JSON.stringify(
      { compilerOptions: { target: 'ES2022', ...options, strict: true, noEmit: true, skipLibCheck, types: program.types }, files: program.files },
      null,
      2,
    )
  for (const [resolution, options] of Object.entries(resolutions)) {
    for (const program of programs) {
      for (const skipLibCheck of [false, true]) {
        const name = `tsconfig.${program.name}.${resolution}.${skipLibCheck ? 'skip' : 'check'}.json`
        files[name] = config(program, options, skipLibCheck)
        steps.push({
          label: `TS 7 ${program.name} ${resolution} skipLibCheck=${skipLibCheck}`,
          args: ['node_modules/typescript-7/bin/tsc', '-p', name],
          group: 'tsc',
        })
      }
    }
    for (const program of ts59) {
      const name = `tsconfig.${program.name}.${resolution}.ts59.json`
      files[name] = config(program, options, false)
      const info = (project) => join(cacheRoot, project, '.tsbuildinfo', name)
      steps.push({
        label: `TS 5.9 ${program.name} ${resolution} skipLibCheck=false`,
        args: (project) => ['node_modules/typescript/bin/tsc', '-p', name, '--incremental', '--tsBuildInfoFile', info(project)],
        group: 'tsc',
      })
    }
  }
  for (const program of programs) {
    // Without the "types" entry the same files get no matcher types: they rely on that one step.
    const without = `tsconfig.${program.name}.without-types.json`
    files[without] = JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'Node16',
          moduleResolution: 'Node16',
          strict: true,
          noEmit: true,
          types: program.types.filter((t) => !t.startsWith('expect-llm')),
        },
        files: program.files,
      },
      null,
      2,
    )
    steps.push({
      label: `${program.name} without the types entry (must fail)`,
      args: ['node_modules/typescript-7/bin/tsc', '-p', without],
      fails: true,
      output: [/Property 'toHaveRougeLAbove' does not exist/],
      group: 'tsc',
    })
  }
  return { files, steps }
}

const vitestTypes = typeMatrix([{ name: 'vitest', files: ['test/matchers.test.ts'], types: ['expect-llm/vitest'] }])
// Jest's own declarations (@jest/environment) need Node's, which Jest installs (@types/node): "node" is listed.
const jestGlobals = { name: 'jest-globals', files: ['test/globals.test.ts'], types: ['node', 'expect-llm/jest'] }
const typesJest = { name: 'types-jest', files: ['test/types-jest.test.ts'], types: ['node', 'jest', 'expect-llm/jest'] }
const jestTypes = typeMatrix([jestGlobals, typesJest], [{ name: 'jest', files: [...jestGlobals.files, ...typesJest.files], types: typesJest.types }])

const jestConfig = readmeJestConfig()
const projects = {
  'vitest-5': {
    template: 'vitest',
    deps: { ...common, vitest: '^5.1.0', msw: '^3.0.0', openai: '^7.0.0', ...clients },
    steps: vitestSteps,
  },
  'vitest-4.1': {
    template: 'vitest',
    deps: { ...common, vitest: '~4.1.0', msw: '^2.15.0', openai: '^6.0.0', ...clients },
    steps: vitestSteps,
  },
  'jest-30': {
    template: 'jest',
    deps: { jest: '^30.0.0', '@jest/globals': '^30.0.0', msw: '^3.0.0', openai: '^7.0.0' },
    // The README's config, as it is, in a "type": "module" package (where a jest.config.js would be ESM).
    files: { [jestConfig.name]: jestConfig.text },
    steps: [
      // Replay cannot start under CommonJS; that is said only when a model request goes out (model-request.test.cjs), never at start-up.
      {
        label: 'jest (CommonJS)',
        args: ['node_modules/jest/bin/jest.js', '--config', jestConfig.name, '--roots', '<rootDir>/test', '--testPathPatterns', '\\.test\\.cjs$'],
        absent: ['[expect-llm] Failed to start record/replay', 'msw could not be loaded'],
      },
      [
        'jest (ESM mode, replay)',
        [
          '--experimental-vm-modules',
          'node_modules/jest/bin/jest.js',
          '--config',
          jestConfig.name,
          '--roots',
          '<rootDir>/test',
          '--testPathPatterns',
          '\\.test\\.mjs$',
        ],
      ],
      {
        label: 'a changed prompt (must fail with one block)',
        args: [
          '--experimental-vm-modules',
          'node_modules/jest/bin/jest.js',
          '--config',
          jestConfig.name,
          '--roots',
          '<rootDir>/miss',
          '--testPathPatterns',
          '\\.test\\.mjs$',
        ],
        ...missChecks,
      },
      {
        label: 'unawaited matcher and golden failure, CommonJS (must fail)',
        args: ['node_modules/jest/bin/jest.js', '--config', jestConfig.name, '--roots', '<rootDir>/trust', '--testPathPatterns', '\\.test\\.cjs$'],
        fails: true,
        output: [
          '[expect-llm] toPassJudge(...) was not awaited: add await (trust/unawaited.test.cjs:8:23). The test ended before it finished',
          '[expect-llm] Golden suite "answers below the pass rate" failed 1 check:',
          // Jest's code frame and stack point at the describeGolden call.
          /> 14 \| describeGolden\('answers below the pass rate', \{/,
          /Golden suite "answers below the pass rate" failed[\s\S]*?\n\s+at Object\.<anonymous> \(trust\/unawaited\.test\.cjs:14:1\)/,
        ],
      },
      {
        label: 'unawaited matcher, ESM mode (must fail)',
        args: [
          '--experimental-vm-modules',
          'node_modules/jest/bin/jest.js',
          '--config',
          jestConfig.name,
          '--roots',
          '<rootDir>/trust',
          '--testPathPatterns',
          '\\.test\\.mjs$',
        ],
        fails: true,
        output: ['[expect-llm] toPassJudge(...) was not awaited: add await (trust/unawaited.test.mjs:8:23). The test ended before it finished'],
      },
    ],
  },
  // expect-llm/expect in plain Node: @vitest/expect (the optional peer) and no test runner at all.
  'expect-node': {
    template: 'expect',
    without: ['vitest', 'jest'],
    deps: { '@vitest/expect': '^5.1.0' },
    steps: [
      ['node script (ESM)', ['script.mjs']],
      ['node script (CommonJS)', ['script.cjs']],
    ],
  },
  // Type checks only; `without`: packages that must not be installed (checked).
  'types-vitest-5': {
    template: 'types-vitest',
    stableDir: true,
    without: ['openai', 'msw', '@types/node'],
    deps: { ...typescripts, vitest: '^5.1.0' },
    ...vitestTypes,
  },
  'types-vitest-4.1': {
    template: 'types-vitest',
    stableDir: true,
    without: ['openai', 'msw', '@types/node'],
    deps: { ...typescripts, vitest: '~4.1.0' },
    ...vitestTypes,
  },
  'types-jest-30': {
    template: 'types-jest',
    stableDir: true,
    without: ['openai', 'msw'],
    deps: { ...typescripts, '@jest/globals': '^30.0.0', '@types/jest': '^30.0.0' },
    ...jestTypes,
  },
}

const selected = process.argv.slice(2)
for (const name of selected) if (!projects[name]) throw new Error(`[consumers] unknown project "${name}"; known: ${Object.keys(projects).join(', ')}`)
const names = selected.length > 0 ? selected : Object.keys(projects)

/** Runs npm (asynchronously, so that installs of several projects overlap); rejects with its output. */
const npm = (args, cwd) =>
  new Promise((resolve, reject) => {
    execFile(
      'npm',
      [...args, '--no-audit', '--no-fund', '--loglevel=error'],
      { cwd, env: { ...process.env, npm_config_update_notifier: 'false' }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => (error ? reject(new Error(`npm ${args.join(' ')} in ${cwd}: ${error.message}\n${stdout}${stderr}`)) : resolve(stdout)),
    )
  })

/** Runs `items` through `work`, at most `limit` at a time, in order of start; resolves to the results in order. */
async function pool(items, limit, work) {
  const results = new Array(items.length)
  let next = 0
  const lane = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await work(items[i], i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
  return results
}

/** A child process's exit status, signal and output (stdout then stderr), killed after `timeout` ms. */
function run(file, args, options, timeout) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGTERM'), timeout)
    child.on('error', (error) => (stderr += String(error)))
    child.on('close', (status, signal) => {
      clearTimeout(timer)
      resolve({ status, signal, stdout, stderr })
    })
  })
}
const seconds = (start) => `${((performance.now() - start) / 1000).toFixed(1)} s`
const version = (dir, name) => JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version

// 1. Pack the built package, as `npm publish` would (--ignore-scripts: `prepack` would build again; npm test has built).
if (!existsSync(join(root, 'dist/index.js'))) throw new Error('[consumers] dist/ is missing: run `npm run build` first (npm test does).')
mkdirSync(cacheRoot, { recursive: true })
for (const f of readdirSync(cacheRoot)) if (f.endsWith('.tgz')) rmSync(join(cacheRoot, f))
const packed = JSON.parse(
  execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', cacheRoot], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }).toString(),
)[0]
const tarball = join(cacheRoot, packed.filename)
console.log(`[consumers] packed ${packed.filename}: ${packed.entryCount} files, ${(packed.size / 1024).toFixed(0)} kB`)

/** The data of an HTML report page (JSON, gzipped, base64, in its report-data block). */
function pageData(file) {
  const m = /id="report-data" data-encoding="gzip\+base64">([A-Za-z0-9+/=]*)</.exec(readFileSync(file, 'utf8'))
  if (!m) throw new Error(`[consumers] ${file} has no report-data block`)
  return JSON.parse(gunzipSync(Buffer.from(m[1], 'base64')).toString('utf8'))
}

/** Runs one step; returns a problem, or undefined. */
async function runStep(step, dir, env, project) {
  const {
    label,
    args: given,
    fails = false,
    exit,
    output = [],
    absent = [],
    once = [],
    check,
    report,
    env: extra,
  } = Array.isArray(step) ? { label: step[0], args: step[1] } : step
  const args = typeof given === 'function' ? given(project) : given
  const started = performance.now()
  const ran = await run(process.execPath, args, { cwd: dir, env: { ...env, ...extra } }, 300_000)
  if (process.env.CONSUMERS_TIMING) console.log(`[consumers]   ${project} ${label}: ${seconds(started)}`)
  const text = `${ran.stdout}${ran.stderr}`
  const plain = text.replace(/\x1b\[[0-9;]*m/g, '')
  const problems = []
  if (!fails && ran.status !== 0) problems.push(`exit ${ran.status ?? ran.signal}`)
  if (fails && (ran.status === 0 || ran.status === null)) problems.push(`exit ${ran.status ?? ran.signal}, expected a failure`)
  if (exit !== undefined && ran.status !== exit) problems.push(`exit ${ran.status}, expected ${exit}`)
  for (const p of output) if (typeof p === 'string' ? !plain.includes(p) : !p.test(plain)) problems.push(`no ${p} in the output`)
  for (const p of absent) if (plain.includes(p)) problems.push(`"${p}" in the output`)
  for (const p of once) {
    const count = plain.split(p).length - 1
    if (count !== 1) problems.push(`"${p}" printed ${count} times, not once`)
  }
  const checked = check?.(dir)
  if (checked) problems.push(checked)
  if (problems.length > 0) return { problem: `${label}: ${problems.join('; ')}:\n${text}` }
  // Vitest: "Tests  7 passed (7)"; Jest: "Tests:       5 passed, 5 total".
  const tests = /Tests:?\s+(\d+ passed)/.exec(plain)?.[1]
  const outcome = [fails ? 'failed as expected' : (tests ?? 'ok'), report?.(plain)].filter(Boolean).join(', ')
  return { summary: `${label}: ${outcome} (${seconds(started)})`, group: step.group }
}

const manifest = (name, deps) => `${JSON.stringify({ name: `expect-llm-consumer-${name}`, private: true, type: 'module', dependencies: deps }, null, 2)}\n`
/** The cache key of a project's install: its dependencies, expect-llm's own and Node's major version. */
const cacheKey = (project) =>
  createHash('sha256')
    .update(JSON.stringify({ deps: project.deps, expectLlmDeps: pkg.dependencies, node: process.versions.node.split('.')[0] }))
    .digest('hex')
    .slice(0, 16)

// 2. The dependency installs, cached: a project with the tarball and the peers, installed once per key.
//    They wait on the network and the disk more than on the CPU, so the missing ones (all of them on a
//    clean clone, as in CI) are installed side by side: CONSUMERS_INSTALLS at a time (default 4).
const installs = names.filter((name) => !existsSync(join(cacheRoot, name, `.key-${cacheKey(projects[name])}`)))
await pool(installs, Number(process.env.CONSUMERS_INSTALLS) || 4, async (name) => {
  const { deps } = projects[name]
  const cached = join(cacheRoot, name)
  const started = performance.now()
  rmSync(cached, { recursive: true, force: true })
  mkdirSync(cached, { recursive: true })
  writeFileSync(join(cached, 'package.json'), manifest(name, deps))
  const list = Object.entries(deps).map(([k, v]) => `${k}@${v}`)
  console.log(`[consumers] ${name}: installing ${list.join(', ')} and the tarball (cached for later runs)`)
  await npm(['install', tarball], cached)
  writeFileSync(join(cached, `.key-${cacheKey(projects[name])}`), '')
  writeFileSync(join(cached, '.tarball'), packed.integrity)
  console.log(`[consumers] ${name}: installed (${seconds(started)})`)
})

/** Runs one project (a fresh copy, its steps in order); resolves to whether it passed and its summary line. */
async function runProject(name) {
  const project = projects[name]
  const started = performance.now()
  const cached = join(cacheRoot, name)
  // The cached copy already holds this very tarball when it was installed in this run (always so in CI).
  const fresh = existsSync(join(cached, '.tarball')) && readFileSync(join(cached, '.tarball'), 'utf8') === packed.integrity

  // 3. A fresh project outside the repository: the suite, the recordings, the cached dependencies, and
  //    the tarball of this build installed over them.
  //    Never inside this repository: module resolution would find its node_modules (openai, msw,
  //    @types/node) by walking up. Type-check projects use a folder whose path stays the same from run to
  //    run (named after the checkout), so that TypeScript's --incremental info in the cache stays valid.
  const dir = project.stableDir
    ? join(tmpdir(), `expect-llm-consumer-${name}-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`)
    : mkdtempSync(join(tmpdir(), `expect-llm-consumer-${name}-`))
  if (project.stableDir) {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir)
  }
  let ok = false
  let detail = ''
  try {
    // The template's own files only: not what a local run left in it (node_modules/.vite, .expect-llm).
    const template = join(here, 'projects', project.template)
    cpSync(template, dir, { recursive: true, filter: (src) => !/(?:^|[\\/])(?:node_modules|\.expect-llm)(?:[\\/]|$)/.test(src.slice(template.length)) })
    if (project.template === 'jest') {
      cpSync(join(here, 'projects/vitest/test/__llm_fixtures__'), join(dir, 'test/__llm_fixtures__'), { recursive: true })
      cpSync(join(here, 'projects/vitest/miss/__llm_fixtures__'), join(dir, 'miss/__llm_fixtures__'), { recursive: true })
    }
    for (const [file, text] of Object.entries(project.files ?? {})) writeFileSync(join(dir, file), text)
    // When nothing will be installed into the copy, hard links are enough (and several times faster than
    // copying some 250 MB): the suites only read node_modules, and what they write there is new files.
    const linked =
      fresh && process.platform === 'linux' && (await run('cp', ['-al', join(cached, 'node_modules'), join(dir, 'node_modules')], {}, 180_000)).status === 0
    if (!linked) {
      rmSync(join(dir, 'node_modules'), { recursive: true, force: true })
      await cp(join(cached, 'node_modules'), join(dir, 'node_modules'), { recursive: true, verbatimSymlinks: true })
    }
    cpSync(join(cached, 'package-lock.json'), join(dir, 'package-lock.json'))
    writeFileSync(join(dir, 'package.json'), manifest(name, project.deps))
    if (!fresh) {
      const t = performance.now()
      await npm(['install', '--prefer-offline', tarball], dir)
      if (process.env.CONSUMERS_TIMING) console.log(`[consumers]   npm install <tarball> over the cached install: ${seconds(t)}`)
    }
    for (const dep of ['openai', 'msw', '@types/node']) {
      if (project.without?.includes(dep) && existsSync(join(dir, 'node_modules', dep)))
        throw new Error(`${dep} is installed, but this project must compile without it`)
    }
    const installed = JSON.parse(readFileSync(join(dir, 'node_modules/expect-llm/package.json'), 'utf8'))
    if (installed.version !== pkg.version || existsSync(join(dir, 'node_modules/expect-llm/src')))
      throw new Error('the installed expect-llm is not the packed one')

    // 4. The steps, with CI=true (replay only) and no key.
    const env = { ...process.env, CI: 'true', NODE_OPTIONS: '' }
    for (const k of [
      'OPENAI_API_KEY',
      'OPENAI_BASE_URL',
      'EXPECT_LLM_REPLAY',
      'EXPECT_LLM_ALLOW_RECORD_IN_CI',
      'EXPECT_LLM_ALLOW_BASELINE_UPDATE_IN_CI',
      'EXPECT_LLM_SCRIPTED_MODEL',
      'VITEST',
      'VITEST_WORKER_ID',
      'VITEST_POOL_ID',
      'JEST_WORKER_ID',
    ])
      delete env[k]
    const results = []
    const grouped = new Map()
    // CONSUMERS_KEEP_GOING=1 runs every step and lists each failure (to see what a build gets wrong).
    const failures = []
    for (const step of project.steps) {
      const result = await runStep(step, dir, env, name)
      if (result.problem && process.env.CONSUMERS_KEEP_GOING) {
        failures.push(result.problem.split('\n')[0])
        continue
      }
      if (result.problem) {
        detail = result.problem
        throw new Error(detail)
      }
      if (result.group) grouped.set(result.group, (grouped.get(result.group) ?? 0) + 1)
      else results.push(result.summary)
    }
    for (const [group, n] of grouped) results.push(`${group}: ${n} runs as expected`)
    if (failures.length > 0) {
      detail = `${failures.length} step(s) failed:\n  - ${failures.join('\n  - ')}`
      throw new Error(detail)
    }
    const versions = ['vitest', 'jest', '@jest/globals', 'msw', 'openai', 'ai', 'typescript', 'typescript-7']
      .filter((d) => project.deps[d])
      .map((d) => `${d} ${version(dir, d)}`)
      .join(', ')
    detail = `${versions}; ${results.join('; ')}`
    ok = true
  } catch (error) {
    detail ||= error instanceof Error ? error.message : String(error)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return { ok, line: `[consumers] ${ok ? '✓' : '✗'} ${name} (${seconds(started)}): ${detail}` }
}

// 5. The projects, CONSUMERS_JOBS at a time (default: one per core), each printed when it ends. Their
//    steps are mostly single-threaded (tsc, a Vitest or Jest run of a few files), so two projects side
//    by side keep two cores busy.
let failed = 0
await pool(names, Number(process.env.CONSUMERS_JOBS) || availableParallelism(), async (name) => {
  const { ok, line } = await runProject(name)
  if (!ok) failed++
  console.log(line)
})

if (failed > 0) {
  console.error(`[consumers] ${failed} of ${names.length} consumer projects failed`)
  process.exit(1)
}
console.log(`[consumers] all ${names.length} consumer projects passed against ${packed.filename}`)
