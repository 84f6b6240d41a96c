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
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { joinNegativeValues } from '../cli-args.js'
import { nodeArgs, type RunnerCommandLine, resolveRunnerBin, runnerCommandLine } from '../runners/command.js'
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

/** A usage error: what is wrong and how to fix it (printed by the command, exit code 2). */
export interface MutateUsageError {
  reason: string
  fix: string
}

/** A valid `expect-llm mutate` invocation. */
export interface MutateRequest {
  /** The test file as the user wrote it (for messages). */
  given: string
  /** The test file, absolute. */
  file: string
  seed: string | undefined
  minScore: string | undefined
  runner: RunnerCommandLine
  /** What came after `--`, for the runner. */
  passthrough: string[]
}

/** The command's own arguments and those after `--`, which go to the runner. */
export function splitPassthrough(argv: readonly string[]): { own: string[]; passthrough: string[] } {
  const dash = argv.indexOf('--')
  return dash === -1 ? { own: [...argv], passthrough: [] } : { own: argv.slice(0, dash), passthrough: argv.slice(dash + 1) }
}

/**
 * Parses and checks the arguments of `expect-llm mutate` (pure: `isFile` answers whether a path is a file).
 *
 * @example
 * ```ts
 * parseMutateArgs(['t.test.ts', '--seed', '7'], '/p', () => true) // { given: 't.test.ts', file: '/p/t.test.ts', seed: '7', ... }
 * ```
 */
export function parseMutateArgs(argv: readonly string[], cwd: string, isFile: (path: string) => boolean): MutateRequest | MutateUsageError | 'help' {
  const { own, passthrough } = splitPassthrough(argv)
  let values: { seed?: string; 'min-score'?: string; runner?: string; help?: boolean }
  let positionals: string[]
  try {
    ;({ values, positionals } = parseArgs({ args: joinNegativeValues(own, OPTIONS), options: OPTIONS, allowPositionals: true, strict: true }))
  } catch (error) {
    const reason = (error as Error).message.split(/\.(?:\s|$)/)[0]!
    return { reason, fix: 'Options: --seed <n>, --min-score <x>, --runner vitest|jest, --help.' }
  }
  if (values.help) return 'help'
  if (positionals.length === 0) return { reason: 'the test file is missing', fix: 'Pass it: expect-llm mutate test/golden.test.ts.' }
  if (positionals.length > 1)
    return { reason: `one test file at a time, got ${positionals.length}`, fix: 'Run the command once per file (runner options go after --).' }
  const given = positionals[0]!
  const file = resolve(cwd, given)
  if (!isFile(file)) return { reason: `the test file ${given} does not exist`, fix: 'Check the path (relative to the current directory).' }
  const seed = values.seed
  if (seed !== undefined && !/^-?\d+$/.test(seed)) return { reason: `--seed must be a whole number, got "${seed}"`, fix: 'Pass for example --seed 7.' }
  const minScore = values['min-score']
  if (minScore !== undefined && (!/^\d+(\.\d+)?$/.test(minScore) || Number(minScore) > 1))
    return { reason: `--min-score must be a number from 0 to 1, got "${minScore}"`, fix: 'Pass for example --min-score 0.8.' }
  const runnerName = values.runner ?? 'vitest'
  const runner = runnerCommandLine(runnerName)
  if (!runner) return { reason: `--runner must be vitest or jest, got "${runnerName}"`, fix: 'Pass --runner jest for a Jest suite.' }
  return { given, file, seed, minScore, runner, passthrough }
}

/**
 * The child's environment: `base` with mutation on, its report written to `out`, and the seed and gate
 * of this run (those of the parent's environment dropped).
 *
 * @example
 * ```ts
 * mutateEnv({ PATH: '/bin' }, '/tmp/m.jsonl', '7', undefined) // { PATH: '/bin', EXPECT_LLM_MUTATE: '1', ..., EXPECT_LLM_MUTATE_SEED: '7' }
 * ```
 */
export function mutateEnv(base: NodeJS.ProcessEnv, out: string, seed: string | undefined, minScore: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, [MUTATE_ENV.on]: '1', [MUTATE_ENV.out]: out }
  delete env[MUTATE_ENV.seed]
  delete env[MUTATE_ENV.minScore]
  if (seed !== undefined) env[MUTATE_ENV.seed] = seed
  if (minScore !== undefined) env[MUTATE_ENV.minScore] = minScore
  return env
}

/** One suite's line of the report file the golden suites append to. */
export interface SuiteMutation {
  suite: string
  file: string | null
  mutation: MutationReport
}

/** Parses the JSON lines of the report file (blank lines skipped). */
export function parseSuiteMutations(text: string): SuiteMutation[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as SuiteMutation)
}

/**
 * The printed summary of a run and whether it fails the gate (a check below its minimum score, or one
 * that failed on a mutant). `code` is the runner's exit code.
 *
 * @example
 * ```ts
 * const { lines, failed } = mutationOutcome('t.test.ts', suites, 'vitest', 0)
 * ```
 */
export function mutationOutcome(given: string, suites: readonly SuiteMutation[], runner: string, code: number | null): { lines: string[]; failed: boolean } {
  const lines = ['', `expect-llm mutate ${given}`]
  let failed = false
  for (const { suite, mutation } of suites) {
    lines.push(`golden › ${suite}`, ...formatMutationSummary(mutation, 30))
    const errored = mutation.checks.filter((c) => c.errors.length > 0).map((c) => c.check)
    if (mutation.weak.length > 0) lines.push(`  ✗ below minScore ${mutation.minScore}: ${mutation.weak.join(', ')}`)
    if (errored.length > 0) lines.push(`  ✗ failed on some mutants (see the test output above): ${errored.join(', ')}`)
    if (mutation.weak.length > 0 || errored.length > 0) failed = true
  }
  if (!failed && code !== 0) lines.push(`  note: ${runner} exited with ${code}: other tests of the file failed (the mutation scores above are complete).`)
  return { lines, failed }
}

/** The message when no suite of the file scored mutants. */
export function noSuiteMessage(given: string, runner: string, code: number | null): string {
  return (
    `[expect-llm] Failed to run the mutation testing of ${given}: no golden suite scored mutants (${runner} exited with ${code}). ` +
    'Check that the file calls describeGolden, that the run reached the mutation tests (see its output above), and that -t does not filter them out.'
  )
}

const isFile = (path: string): boolean => existsSync(path) && statSync(path).isFile()

/** Runs `node args` in `cwd` with the output inherited, and resolves with its exit code. */
function runNode(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise<number | null>((done, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: 'inherit' })
    child.on('error', reject)
    child.on('close', done)
  })
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
  const request = parseMutateArgs(argv, cwd, isFile)
  if (request === 'help') {
    io.out(MUTATE_HELP)
    return 0
  }
  if ('reason' in request) return usage(io, argv, request.reason, request.fix)
  const { given, file, seed, minScore, runner, passthrough } = request
  const bin = resolveRunnerBin(runner, cwd)
  if ('error' in bin) return usage(io, argv, bin.error, `Install it (npm i -D ${runner.name}), or pass --runner.`)

  const tmp = mkdtempSync(join(tmpdir(), 'expect-llm-mutate-'))
  const out = join(tmp, 'mutation.jsonl')
  try {
    const env = mutateEnv(options.env ?? process.env, out, seed, minScore)
    const code = await runNode(nodeArgs(runner, bin.script, relative(cwd, file), passthrough), cwd, env)
    const suites = existsSync(out) ? parseSuiteMutations(readFileSync(out, 'utf8')) : []
    if (suites.length === 0) {
      io.err(noSuiteMessage(given, runner.name, code))
      return 1
    }
    const { lines, failed } = mutationOutcome(given, suites, runner.name, code)
    for (const line of lines) io.out(line)
    return failed ? 1 : 0
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}
