// How the `expect-llm` command answers a command line it cannot run: help on a missing (sub)command,
// exit code 2 for every usage error (1 is kept for "problems found"), 0 for --help.
import { resolve } from 'node:path'
import { describe, expect, test, vi } from 'vitest'
import { runCli } from '../../src/replay/cli.js'
import { removeRoot, tempRoot } from './helpers.js'

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

describe('expect-llm command line usage', () => {
  test('`expect-llm fixtures` without a subcommand prints the help and exits 2', async () => {
    const { code, out, err } = await cli('fixtures')
    expect(code).toBe(2)
    expect(out).toContain('Usage: expect-llm fixtures <command> [options]')
    expect(out).toContain('ls       List fixtures')
    expect(err).toBe(
      '[expect-llm] Failed to run "expect-llm fixtures": a command is missing. Use one of: expect-llm fixtures ls | verify | prune (help above).',
    )
  })

  test('`expect-llm` without arguments prints the help and exits 2', async () => {
    const { code, out } = await cli()
    expect(code).toBe(2)
    expect(out).toContain('Usage: expect-llm fixtures <command> [options]')
  })

  test('an unknown command exits 2 with the list of commands', async () => {
    const { code, err } = await cli('fixtures', 'purge')
    expect(code).toBe(2)
    expect(err).toBe('[expect-llm] Failed to run "expect-llm fixtures purge": unknown command. Use one of: expect-llm fixtures ls | verify | prune.')
  })

  test('--help prints the help and exits 0', async () => {
    const { code, out } = await cli('fixtures', '--help')
    expect(code).toBe(0)
    expect(out).toContain('Exit codes:')
  })

  test('without an io, the help goes to console.log and a usage error to console.error', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      expect(await runCli(['fixtures', '--help'])).toBe(0)
      expect(await runCli(['fixtures', 'purge'])).toBe(2)
      expect(log.mock.calls).toEqual([[expect.stringMatching(/^Usage: expect-llm fixtures <command> \[options\]\n/)]])
      expect(error.mock.calls).toEqual([
        ['[expect-llm] Failed to run "expect-llm fixtures purge": unknown command. Use one of: expect-llm fixtures ls | verify | prune.'],
      ])
    } finally {
      log.mockRestore()
      error.mockRestore()
    }
  })

  test('`expect-llm report` runs the report command with the arguments after it', async () => {
    const root = await tempRoot()
    const reports = resolve(root, '.expect-llm/reports')
    try {
      expect(await cli('report', '--root', root)).toEqual({
        code: 1,
        out: '',
        err: `[expect-llm] ${reports} does not exist\n[expect-llm] Failed to write the HTML report: no describeGolden or compareGolden report under ${reports}. Run the golden suites first (they write .expect-llm/reports/), or name the folder or files`,
      })
    } finally {
      await removeRoot(root)
    }
  })

  test('`expect-llm mutate` runs the mutate command with the arguments after it', async () => {
    expect(await cli('mutate')).toEqual({
      code: 2,
      out: '',
      err: '[expect-llm] Failed to run "expect-llm mutate": the test file is missing. Pass it: expect-llm mutate test/golden.test.ts.',
    })
  })
})
