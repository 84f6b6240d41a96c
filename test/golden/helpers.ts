// Child runs of real Vitest on golden suites copied into a sandbox folder (so that baselines and reports
// land there, outside the repository and outside git).
import { spawn } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const repo = fileURLToPath(new URL('../..', import.meta.url))

/** Environment of a child run: no CI variables (the runner would not write snapshots), no colours, plus `extra`. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...extra }
  for (const key of [
    'CI',
    'GITHUB_ACTIONS',
    'GITHUB_SHA',
    'GITHUB_REF_NAME',
    'GITHUB_HEAD_REF',
    'CI_COMMIT_SHA',
    'CI_COMMIT_REF_NAME',
    'CONTINUOUS_INTEGRATION',
    'BUILD_NUMBER',
    'RUN_ID',
    'VITEST',
    'VITEST_WORKER_ID',
    'VITEST_POOL_ID',
    'TEST',
    'NODE_ENV',
  ]) {
    if (!(key in extra)) delete env[key]
  }
  return env
}

/** A sandbox with the given child suites (from `from`, test/golden/child/ by default) and a Vitest config using src/entries/vitest.ts. */
export function vitestSandbox(files: string[], from = 'test/golden/child'): string {
  const dir = mkdtempSync(join(tmpdir(), 'golden-child-'))
  for (const f of files) {
    const text = readFileSync(join(repo, from, f), 'utf8').replaceAll("'../../../src/", `'${repo}src/`)
    writeFileSync(join(dir, f), text)
  }
  // Bare imports in the suites (openai) resolve through the repository's packages.
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir')
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    `export default { test: { include: ['*.golden.ts'], setupFiles: [${JSON.stringify(`${repo}src/entries/vitest.ts`)}] } }\n`,
  )
  return dir
}

export function copyInto(dir: string, from: string, name = from.split('/').at(-1) as string): string {
  copyFileSync(from, join(dir, name))
  return join(dir, name)
}

export interface ChildRun {
  code: number | null
  output: string
}

/** Runs a command to completion, collecting stdout and stderr together. */
export function runChild(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}

/** Runs Vitest in `dir` with the JSON and JUnit reporters; returns their parsed/plain outputs too. */
export async function runVitest(dir: string, env: Record<string, string>, extraArgs: string[] = []): Promise<ChildRun & { json: VitestJson; junit: string }> {
  const run = await runChild(
    [
      join(repo, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--root',
      dir,
      '--config',
      join(dir, 'vitest.config.mjs'),
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=report.json',
      '--reporter=junit',
      '--outputFile.junit=junit.xml',
      ...extraArgs,
    ],
    dir,
    childEnv(env),
  )
  let json: VitestJson
  try {
    json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as VitestJson
  } catch {
    throw new Error(`the child Vitest run wrote no JSON report (exit ${run.code}):\n${run.output}`)
  }
  return { ...run, json, junit: readFileSync(join(dir, 'junit.xml'), 'utf8') }
}

export interface VitestJson {
  numFailedTests: number
  numPassedTests: number
  testResults: Array<{
    assertionResults: Array<{ title: string; fullName: string; status: string; failureMessages: string[]; meta?: Record<string, unknown> }>
  }>
}

/** The results of a child Jest run (its `--json` output). */
export interface JestJson {
  testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>
}

/** Writes a Jest config in `dir` for the `*.golden.test.mjs` files there, with the built package (`dist`) as `expect-llm/jest` (and `expect-llm`). */
export function writeGoldenJestConfig(dir: string, dist: string): void {
  writeFileSync(
    join(dir, 'jest.config.cjs'),
    `module.exports = ${JSON.stringify({
      rootDir: dir,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/*.golden.test.mjs'],
      setupFilesAfterEnv: [join(dist, 'jest.js')],
      moduleNameMapper: { '^expect-llm/jest$': join(dist, 'jest.js'), '^expect-llm$': join(dist, 'index.js') },
      transform: {},
    })}\n`,
  )
}

/** Runs Jest (ESM mode) in `dir` with the config of {@link writeGoldenJestConfig}; returns the output and the JSON results. */
export async function runGoldenJest(dir: string, env: Record<string, string>): Promise<ChildRun & { json: JestJson }> {
  const run = await runChild(
    [
      '--experimental-vm-modules',
      join(repo, 'node_modules/jest/bin/jest.js'),
      '--config',
      join(dir, 'jest.config.cjs'),
      '--json',
      `--outputFile=${join(dir, 'jest.json')}`,
    ],
    dir,
    childEnv({ NODE_NO_WARNINGS: '1', ...env }),
  )
  return { ...run, json: JSON.parse(readFileSync(join(dir, 'jest.json'), 'utf8')) as JestJson }
}
