// How each runner runs one test file from the command line (used by `expect-llm mutate`).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { binOf, nodeArgs, resolveRunnerBin, runnerCommandLine } from '../../src/runners/command.js'

describe('runnerCommandLine', () => {
  test('vitest runs one file with `run <file>` and no Node flags', () => {
    const line = runnerCommandLine('vitest')!
    expect(line.name).toBe('vitest')
    expect(nodeArgs(line, '/bin/vitest.mjs', 'a.test.ts', ['--config', 'v.ts'])).toEqual(['/bin/vitest.mjs', 'run', 'a.test.ts', '--config', 'v.ts'])
  })

  test('jest runs one file by path, with the VM modules flag before its script', () => {
    const line = runnerCommandLine('jest')!
    expect(nodeArgs(line, '/bin/jest.js', 'a.test.ts', ['-t', 'x'])).toEqual([
      '--experimental-vm-modules',
      '/bin/jest.js',
      '--runTestsByPath',
      'a.test.ts',
      '-t',
      'x',
    ])
  })

  test('an unknown name, or a name inherited from Object, is not a runner', () => {
    expect(runnerCommandLine('mocha')).toBeUndefined()
    expect(runnerCommandLine('toString')).toBeUndefined()
    expect(runnerCommandLine('')).toBeUndefined()
  })
})

describe('binOf', () => {
  test('reads a string bin or the entry named after the runner', () => {
    expect(binOf({ bin: 'cli.js' }, 'jest')).toBe('cli.js')
    expect(binOf({ bin: { vitest: 'vitest.mjs', other: 'o.js' } }, 'vitest')).toBe('vitest.mjs')
  })

  test('is undefined without a bin of that name', () => {
    expect(binOf({}, 'jest')).toBeUndefined()
    expect(binOf({ bin: { other: 'o.js' } }, 'jest')).toBeUndefined()
  })
})

describe('resolveRunnerBin', () => {
  const dir = mkdtempSync(join(tmpdir(), 'expect-llm-runner-bin-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'package.json'), '{"name":"p"}')

  test("resolves the bin from the project's own node_modules", () => {
    mkdirSync(join(dir, 'node_modules/vitest'), { recursive: true })
    writeFileSync(join(dir, 'node_modules/vitest/package.json'), JSON.stringify({ name: 'vitest', bin: { vitest: './vitest.mjs' } }))
    expect(resolveRunnerBin(runnerCommandLine('vitest')!, dir)).toEqual({ script: join(dir, 'node_modules/vitest/vitest.mjs') })
  })

  test('says when the runner is not installed', () => {
    const empty = mkdtempSync(join(tmpdir(), 'expect-llm-runner-none-'))
    try {
      expect(resolveRunnerBin(runnerCommandLine('jest')!, empty)).toEqual({ error: `jest is not installed in ${empty}` })
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  })

  test('says when the package has no bin of its name', () => {
    mkdirSync(join(dir, 'node_modules/jest'), { recursive: true })
    writeFileSync(join(dir, 'node_modules/jest/package.json'), JSON.stringify({ name: 'jest', bin: { other: './o.js' } }))
    expect(resolveRunnerBin(runnerCommandLine('jest')!, dir)).toEqual({ error: 'the jest package has no "jest" bin' })
  })
})
