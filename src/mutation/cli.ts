/**
 * `expect-llm mutate <test file> [--seed N] [--min-score X]`: runs a test file through its runner (Vitest,
 * or Jest with `--runner jest`) with mutation testing switched on for every golden suite in it
 * (`EXPECT_LLM_MUTATE=1`, read by `describeGolden`), then prints each suite's mutation summary. The exit
 * code is the gate's.
 *
 * @module
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { formatMutationSummary, MUTATE_ENV, type MutationReport } from './run.js'

export const MUTATE_HELP = `Usage: expect-llm mutate <test file> [options] [-- <runner options>]

Mutation testing of a golden eval: runs the test file with mutation on for every describeGolden suite in
it (as the option { mutate: true } would; a suite's own mutate options still apply, and mutate: false
stays off). Each case's reference answer is turned into plausible wrong answers (mutants); every check
of the suite scores them as the output, and its mutation score is the share it rejects. Model-backed
checks replay their recordings like any other call (record them with EXPECT_LLM_REPLAY=record).

Options:
  --seed <n>            Seed of the operators' random choices (default: the suite's, else 1)
  --min-score <x>       Fail when a check's mutation score is below x (0 to 1)
  --runner <name>       vitest (default) or jest
  -h, --help            Print this help
Anything after -- goes to the runner (e.g. -- --config vitest.config.ts).

Exit codes:
  0  every suite ran its mutants, and every check meets --min-score (or the suite's minScore)
  1  a check is below the gate, a check failed on a mutant (e.g. a replay miss), or no suite ran mutants
  2  usage error: a missing test file, an unknown option or a bad value
`

/** Where the command writes. */
export interface MutateIo {
  out: (line: string) => void
  err: (line: string) => void
}

/** What the command needs besides its arguments (tests pass their own). */
export interface MutateRunOptions {
  cwd?: string
  env?: NodeJS.ProcessEnv
}

const OPTIONS = {
  seed: { type: 'string' },
  'min-score': { type: 'string' },
  runner: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

const usage = (io: MutateIo, argv: readonly string[], reason: string, fix: string): number => {
  io.err(`[expect-llm] Failed to run "expect-llm mutate${argv.length > 0 ? ` ${argv.join(' ')}` : ''}": ${reason}. ${fix}`)
  return 2
}

/** The runner's bin, resolved from the project (the user's own install), with the node flags it needs. */
function runnerCommand(runner: 'vitest' | 'jest', cwd: string, file: string, passthrough: string[]): { args: string[] } | { error: string } {
  const require = createRequire(join(cwd, 'package.json'))
  let pkgPath: string
  try {
    pkgPath = require.resolve(`${runner}/package.json`)
  } catch {
    return { error: `${runner} is not installed in ${cwd}` }
  }
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin?: string | Record<string, string> }
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[runner]
  if (!bin) return { error: `the ${runner} package has no "${runner}" bin` }
  const script = join(dirname(pkgPath), bin)
  // Jest runs expect-llm's replay in its ESM mode (msw is ESM-only), which needs this flag.
  if (runner === 'jest') return { args: ['--experimental-vm-modules', script, '--runTestsByPath', file, ...passthrough] }
  return { args: [script, 'run', file, ...passthrough] }
}

/**
 * Runs `expect-llm mutate` and returns the exit code.
 *
 * @example
 * ```ts
 * await runMutateCli(['test/golden.test.ts', '--min-score', '0.8'], { out: console.log, err: console.error })
 * ```
 */
export async function runMutateCli(argv: string[], io: MutateIo, options: MutateRunOptions = {}): Promise<number> {
  const cwd = options.cwd ?? process.cwd()
  const dash = argv.indexOf('--')
  const own = dash === -1 ? argv : argv.slice(0, dash)
  const passthrough = dash === -1 ? [] : argv.slice(dash + 1)
  let values: { seed?: string; 'min-score'?: string; runner?: string; help?: boolean }
  let positionals: string[]
  try {
    ;({ values, positionals } = parseArgs({ args: own, options: OPTIONS, allowPositionals: true, strict: true }))
  } catch (error) {
    return usage(io, argv, (error as Error).message.split(/\.(?:\s|$)/)[0]!, 'Options: --seed <n>, --min-score <x>, --runner vitest|jest, --help.')
  }
  if (values.help) {
    io.out(MUTATE_HELP)
    return 0
  }
  if (positionals.length === 0) return usage(io, argv, 'the test file is missing', 'Pass it: expect-llm mutate test/golden.test.ts.')
  if (positionals.length > 1)
    return usage(io, argv, `one test file at a time, got ${positionals.length}`, 'Run the command once per file (runner options go after --).')
  const file = resolve(cwd, positionals[0]!)
  if (!existsSync(file) || !statSync(file).isFile())
    return usage(io, argv, `the test file ${positionals[0]} does not exist`, 'Check the path (relative to the current directory).')
  const seed = values.seed
  if (seed !== undefined && !/^-?\d+$/.test(seed)) return usage(io, argv, `--seed must be a whole number, got "${seed}"`, 'Pass for example --seed 7.')
  const minScore = values['min-score']
  if (minScore !== undefined && (!/^\d+(\.\d+)?$/.test(minScore) || Number(minScore) > 1))
    return usage(io, argv, `--min-score must be a number from 0 to 1, got "${minScore}"`, 'Pass for example --min-score 0.8.')
  const runner = values.runner ?? 'vitest'
  if (runner !== 'vitest' && runner !== 'jest')
    return usage(io, argv, `--runner must be vitest or jest, got "${runner}"`, 'Pass --runner jest for a Jest suite.')
  const command = runnerCommand(runner, cwd, relative(cwd, file), passthrough)
  if ('error' in command) return usage(io, argv, command.error, `Install it (npm i -D ${runner}), or pass --runner.`)

  const tmp = mkdtempSync(join(tmpdir(), 'expect-llm-mutate-'))
  const out = join(tmp, 'mutation.jsonl')
  try {
    const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env), [MUTATE_ENV.on]: '1', [MUTATE_ENV.out]: out }
    delete env[MUTATE_ENV.seed]
    delete env[MUTATE_ENV.minScore]
    if (seed !== undefined) env[MUTATE_ENV.seed] = seed
    if (minScore !== undefined) env[MUTATE_ENV.minScore] = minScore
    const code = await new Promise<number | null>((done, reject) => {
      const child = spawn(process.execPath, command.args, { cwd, env, stdio: 'inherit' })
      child.on('error', reject)
      child.on('close', done)
    })
    const suites = existsSync(out)
      ? readFileSync(out, 'utf8')
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as { suite: string; file: string | null; mutation: MutationReport })
      : []
    if (suites.length === 0) {
      io.err(
        `[expect-llm] Failed to run the mutation testing of ${positionals[0]}: no golden suite scored mutants (${runner} exited with ${code}). Check that the file calls describeGolden, that the run reached the mutation tests (see its output above), and that -t does not filter them out.`,
      )
      return 1
    }
    let failed = false
    io.out('')
    io.out(`expect-llm mutate ${positionals[0]}`)
    for (const { suite, mutation } of suites) {
      io.out(`golden › ${suite}`)
      for (const line of formatMutationSummary(mutation, 30)) io.out(line)
      const errored = mutation.checks.filter((c) => c.errors.length > 0).map((c) => c.check)
      if (mutation.weak.length > 0) io.out(`  ✗ below minScore ${mutation.minScore}: ${mutation.weak.join(', ')}`)
      if (errored.length > 0) io.out(`  ✗ failed on some mutants (see the test output above): ${errored.join(', ')}`)
      if (mutation.weak.length > 0 || errored.length > 0) failed = true
    }
    if (!failed && code !== 0) io.out(`  note: ${runner} exited with ${code}: other tests of the file failed (the mutation scores above are complete).`)
    return failed ? 1 : 0
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}
