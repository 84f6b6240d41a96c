// A negative number as the value of an option (src/cli-args.ts), in each command line: `expect-llm mutate`,
// `expect-llm fixtures` and `expect-llm report`. Node's parseArgs refuses `--seed -3` as ambiguous.
import { resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { joinNegativeValues } from '../src/cli-args.js'
import { parseMutateArgs } from '../src/mutation/cli.js'
import { parseCliArgs, planCommand } from '../src/replay/cli.js'
import { readReportArgs } from '../src/report/cli.js'

const OPTIONS = { seed: { type: 'string' }, json: { type: 'boolean' } } as const

describe('joinNegativeValues', () => {
  test('joins an option that takes a value with the negative number after it', () => {
    expect(joinNegativeValues(['a.ts', '--seed', '-3'], OPTIONS)).toEqual(['a.ts', '--seed=-3'])
    expect(joinNegativeValues(['--seed', '-0.5'], OPTIONS)).toEqual(['--seed=-0.5'])
    expect(joinNegativeValues(['--seed', '-.5'], OPTIONS)).toEqual(['--seed=-.5'])
    expect(joinNegativeValues(['--seed', '-30d'], OPTIONS)).toEqual(['--seed=-30d'])
  })

  test('leaves a boolean option, an unknown option, another option and the joined form as they are', () => {
    expect(joinNegativeValues(['--json', '-3'], OPTIONS)).toEqual(['--json', '-3'])
    expect(joinNegativeValues(['--bogus', '-3'], OPTIONS)).toEqual(['--bogus', '-3'])
    expect(joinNegativeValues(['--seed', '--json'], OPTIONS)).toEqual(['--seed', '--json'])
    expect(joinNegativeValues(['--seed', '-h'], OPTIONS)).toEqual(['--seed', '-h'])
    expect(joinNegativeValues(['--seed=-3'], OPTIONS)).toEqual(['--seed=-3'])
    expect(joinNegativeValues(['--seed'], OPTIONS)).toEqual(['--seed'])
  })

  test('nothing after -- is touched; an inherited property is not an option', () => {
    expect(joinNegativeValues(['--', '--seed', '-3'], OPTIONS)).toEqual(['--', '--seed', '-3'])
    expect(joinNegativeValues(['--seed', '-1', '--', '--seed', '-2'], OPTIONS)).toEqual(['--seed=-1', '--', '--seed', '-2'])
    expect(joinNegativeValues(['--toString', '-3'], OPTIONS)).toEqual(['--toString', '-3'])
  })
})

describe('expect-llm mutate', () => {
  const exists = () => true
  test('--seed -3 is the seed -3, as --seed=-3 is', () => {
    expect(parseMutateArgs(['t.test.ts', '--seed', '-3'], '/p', exists)).toMatchObject({ seed: '-3', passthrough: [] })
  })

  test('--min-score -0.5 is refused for its range, not as ambiguous', () => {
    expect(parseMutateArgs(['t.test.ts', '--min-score', '-0.5'], '/p', exists)).toEqual({
      reason: '--min-score must be a number from 0 to 1, got "-0.5"',
      fix: 'Pass for example --min-score 0.8.',
    })
  })

  test('a negative number after -- goes to the runner unchanged', () => {
    expect(parseMutateArgs(['t.test.ts', '--', '--seed', '-3'], '/p', exists)).toMatchObject({ seed: undefined, passthrough: ['--seed', '-3'] })
  })
})

describe('expect-llm fixtures', () => {
  test('--max-age -3 reaches the command as the value "-3" (which verify then refuses as no age)', () => {
    const parsed = parseCliArgs(['fixtures', 'verify', '--max-age', '-3'])
    expect(parsed).toEqual({ positional: ['fixtures', 'verify'], flags: new Map([['max-age', '-3']]) })
    expect(planCommand(['fixtures', 'verify', '--max-age', '-3'], parsed, '/repo')).toMatchObject({ command: 'verify', root: '/repo' })
  })

  test('an option still refuses another option as its value', () => {
    expect(parseCliArgs(['fixtures', 'verify', '--max-age', '--json'])).toEqual({ error: "Option '--max-age' argument is ambiguous" })
  })
})

describe('expect-llm report', () => {
  test('--keep -3 is refused for its range, not as ambiguous', () => {
    expect(readReportArgs(['--keep', '-3'])).toEqual({
      action: 'run expect-llm report',
      reason: '--keep "-3" is not a whole number >= 1',
      fix: 'Pass for example --keep 50',
      help: false,
    })
  })

  test('--max-age -2h is refused as no age; a title may start with a dash and a digit', () => {
    expect(readReportArgs(['--max-age', '-2h'])).toMatchObject({ reason: '--max-age "-2h" is not an age' })
    expect(readReportArgs(['--title', '-1 regression', '--root', 'p'])).toMatchObject({ title: '-1 regression', root: resolve('p') })
  })
})
