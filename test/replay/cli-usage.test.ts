// How the `expect-llm` command answers a command line it cannot run: help on a missing (sub)command,
// exit code 2 for every usage error (1 is kept for "problems found"), 0 for --help.
import { describe, expect, test } from 'vitest'
import { runCli } from '../../src/replay/cli.js'

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
})
