// `expect-llm mutate`: usage errors in the library's format (in process), and real runs of the command in
// child processes on a sandboxed golden suite through Vitest: the summary, the gate's exit code and a file
// without golden suites.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { runMutateCli } from '../../src/mutation/cli.js'
import { childEnv, copyInto, repo, runChild, vitestSandbox } from '../golden/helpers.js'

const dir = vitestSandbox(['mutate.golden.ts'], 'test/mutation/child')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const cli = async (args: string[]) => {
  const out: string[] = []
  const err: string[] = []
  const code = await runMutateCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) }, { cwd: dir })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

describe('usage errors exit 2 with the library message', () => {
  test.each([
    [[], 'Failed to run "expect-llm mutate": the test file is missing. Pass it: expect-llm mutate test/golden.test.ts.'],
    [['nope.test.ts'], 'the test file nope.test.ts does not exist. Check the path (relative to the current directory).'],
    [['mutate.golden.ts', '--gate', '1'], `Unknown option '--gate'. Options: --seed <n>, --min-score <x>, --runner vitest|jest, --help.`],
    [['mutate.golden.ts', '--min-score', '1.5'], '--min-score must be a number from 0 to 1, got "1.5". Pass for example --min-score 0.8.'],
    [['mutate.golden.ts', '--min-score'], "Option '--min-score <value>' argument missing"],
    [['mutate.golden.ts', '--seed', 'x'], '--seed must be a whole number, got "x"'],
    [['mutate.golden.ts', '--runner', 'mocha'], '--runner must be vitest or jest, got "mocha"'],
    [['a.ts', 'b.ts'], 'one test file at a time, got 2'],
  ])('%j', async (args, message) => {
    const run = await cli(args)
    expect(run.code).toBe(2)
    expect(run.err).toMatch(/^\[expect-llm\] Failed to run "expect-llm mutate/)
    expect(run.err).toContain(message)
  })

  test('--help prints the usage and exits 0', async () => {
    const run = await cli(['--help'])
    expect(run).toMatchObject({ code: 0, err: '' })
    expect(run.out).toContain('Usage: expect-llm mutate <test file> [options] [-- <runner options>]')
  })
})

describe('child runs of the command', () => {
  const command = (args: string[]) => runChild(['--import', 'tsx', join(repo, 'src/entries/cli.ts'), 'mutate', ...args], dir, childEnv({}))

  test('prints the summary; the gate decides the exit code, at its boundary', async () => {
    const weak = await command(['mutate.golden.ts', '--min-score', '0.5'])
    expect(weak.code, weak.output).toBe(1)
    expect(weak.output).toContain(
      'expect-llm mutate mutate.golden.ts\ngolden › mutated bot\n\n  mutation (seed 1): 4 mutants of 2 cases, 2 operators, gate 0.50',
    )
    expect(weak.output).toContain('  ✗ keywords let 3 of 4 mutants pass (score 0.25; my-negation 2 of 2, my-number 1 of 2); blind to my-negation')
    expect(weak.output).toContain('  ✓ exact let 0 of 4 mutants pass (score 1)')
    expect(weak.output).toContain('  ✗ below minScore 0.5: keywords')
    const ok = await command(['mutate.golden.ts', '--min-score', '0.25', '--seed', '3'])
    expect(ok.code, ok.output).toBe(0)
    expect(ok.output).toContain('mutation (seed 3): 4 mutants of 2 cases, 2 operators, gate 0.25')
  }, 120_000)

  test('a file without golden suites exits 1 and says why', async () => {
    writeFileSync(join(dir, 'plain.golden.ts'), "import { test } from 'vitest'\ntest('plain', () => {})\n")
    const run = await command(['plain.golden.ts'])
    expect(run.code).toBe(1)
    expect(run.output).toContain('[expect-llm] Failed to run the mutation testing of plain.golden.ts: no golden suite scored mutants (vitest exited with 0).')
  }, 60_000)
})

test('--runner jest: a Jest ESM suite (against the built package, dist/), the gate deciding the exit code', async () => {
  const dist = process.env.GOLDEN_DIST ?? join(repo, 'dist')
  const jestDir = mkdtempSync(join(tmpdir(), 'mutate-jest-'))
  try {
    copyInto(jestDir, join(repo, 'test/mutation/child/mutate.golden.test.mjs'))
    symlinkSync(join(repo, 'node_modules'), join(jestDir, 'node_modules'), 'dir')
    writeFileSync(
      join(jestDir, 'jest.config.cjs'),
      `module.exports = ${JSON.stringify({
        rootDir: jestDir,
        testEnvironment: 'node',
        testMatch: ['<rootDir>/*.golden.test.mjs'],
        setupFilesAfterEnv: [join(dist, 'jest.js')],
        moduleNameMapper: { '^expect-llm/jest$': join(dist, 'jest.js') },
        transform: {},
      })}\n`,
    )
    const args = ['--import', 'tsx', join(repo, 'src/entries/cli.ts'), 'mutate', 'mutate.golden.test.mjs', '--runner', 'jest', '--min-score', '0.5']
    const run = await runChild([...args, '--', '--config', 'jest.config.cjs'], jestDir, childEnv({ NODE_NO_WARNINGS: '1' }))
    expect(run.code, run.output).toBe(1)
    expect(run.output).toContain('golden › mutated bot under jest\n\n  mutation (seed 1): 2 mutants of 2 cases, 1 operators, gate 0.50')
    expect(run.output).toContain('  ✗ keywords let 2 of 2 mutants pass (score 0; my-negation 2 of 2); blind to my-negation')
    expect(run.output).toContain('  ✓ exact let 0 of 2 mutants pass (score 1)')
    expect(run.output).toMatch(/✕ keywords/)
  } finally {
    rmSync(jestDir, { recursive: true, force: true })
  }
}, 120_000)
