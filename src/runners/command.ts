/**
 * How each runner runs one test file from the command line (`expect-llm mutate`): which package's bin,
 * the Node flags it needs and the arguments that select the file. Free of the runners' own modules, so
 * that a CLI can use it outside a test run; the adapters' `recordCommand` says the same in `npx` form.
 *
 * @module
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { RunnerName } from './types.js'

/** How one runner is started from the command line on a single test file. */
export interface RunnerCommandLine {
  readonly name: RunnerName
  /** Node flags put before the runner's script. */
  readonly nodeFlags: readonly string[]
  /** The runner's arguments that run exactly `file`, followed by the user's own (`passthrough`). */
  fileArgs(file: string, passthrough: readonly string[]): string[]
}

const COMMAND_LINES: Readonly<Record<RunnerName, RunnerCommandLine>> = {
  vitest: { name: 'vitest', nodeFlags: [], fileArgs: (file, passthrough) => ['run', file, ...passthrough] },
  // Jest runs expect-llm's replay in its ESM mode (msw is ESM-only), which needs the VM modules flag.
  jest: {
    name: 'jest',
    nodeFlags: ['--experimental-vm-modules'],
    fileArgs: (file, passthrough) => ['--runTestsByPath', file, ...passthrough],
  },
}

/**
 * The command line of a runner by name, or `undefined` for a name expect-llm does not bind to.
 *
 * @example
 * ```ts
 * runnerCommandLine('jest')?.fileArgs('test/a.test.ts', []) // ['--runTestsByPath', 'test/a.test.ts']
 * runnerCommandLine('mocha') // undefined
 * ```
 */
export function runnerCommandLine(name: string): RunnerCommandLine | undefined {
  return Object.hasOwn(COMMAND_LINES, name) ? COMMAND_LINES[name as RunnerName] : undefined
}

/**
 * The arguments of `node` that run `file` with the runner whose bin script is `script`.
 *
 * @example
 * ```ts
 * nodeArgs(runnerCommandLine('vitest')!, '/p/vitest.mjs', 'a.test.ts', ['--config', 'v.ts'])
 * // ['/p/vitest.mjs', 'run', 'a.test.ts', '--config', 'v.ts']
 * ```
 */
export function nodeArgs(line: RunnerCommandLine, script: string, file: string, passthrough: readonly string[]): string[] {
  return [...line.nodeFlags, script, ...line.fileArgs(file, passthrough)]
}

/**
 * The bin named after the runner in its `package.json` (`bin` as a string or a map), or `undefined`.
 *
 * @example
 * ```ts
 * binOf({ bin: { jest: './bin/jest.js' } }, 'jest') // './bin/jest.js'
 * ```
 */
export function binOf(pkg: { bin?: string | Record<string, string> }, name: RunnerName): string | undefined {
  return typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[name]
}

/**
 * The runner's bin script, resolved from the project in `cwd` (the user's own install), or why not.
 *
 * @example
 * ```ts
 * const bin = resolveRunnerBin(runnerCommandLine('vitest')!, process.cwd())
 * if ('script' in bin) console.log(bin.script)
 * ```
 */
export function resolveRunnerBin(line: RunnerCommandLine, cwd: string): { script: string } | { error: string } {
  const require = createRequire(join(cwd, 'package.json'))
  let pkgPath: string
  try {
    pkgPath = require.resolve(`${line.name}/package.json`)
  } catch {
    return { error: `${line.name} is not installed in ${cwd}` }
  }
  const bin = binOf(JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin?: string | Record<string, string> }, line.name)
  if (!bin) return { error: `the ${line.name} package has no "${line.name}" bin` }
  return { script: join(dirname(pkgPath), bin) }
}
