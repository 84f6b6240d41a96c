// The pure steps of `expect-llm mutate` (the command itself is tested end to end in cli.test.ts).
import { describe, expect, test } from 'vitest'
import { mutateEnv, mutationOutcome, noSuiteMessage, parseMutateArgs, parseSuiteMutations, splitPassthrough } from '../../src/mutation/cli.js'
import type { MutationReport } from '../../src/mutation/run.js'

const exists = () => true

describe('splitPassthrough', () => {
  test('everything after -- goes to the runner', () => {
    expect(splitPassthrough(['a.ts', '--seed', '1', '--', '--config', 'v.ts'])).toEqual({ own: ['a.ts', '--seed', '1'], passthrough: ['--config', 'v.ts'] })
  })

  test('without -- nothing does', () => {
    expect(splitPassthrough(['a.ts'])).toEqual({ own: ['a.ts'], passthrough: [] })
  })
})

describe('parseMutateArgs', () => {
  test('a valid invocation resolves the file and the runner, vitest by default', () => {
    const request = parseMutateArgs(['t.test.ts', '--seed=-3', '--min-score', '0.8', '--', '-t', 'x'], '/p', exists)
    expect(request).toMatchObject({ given: 't.test.ts', file: '/p/t.test.ts', seed: '-3', minScore: '0.8', passthrough: ['-t', 'x'] })
    expect(request).toHaveProperty('runner.name', 'vitest')
  })

  test('--runner jest picks the jest command line', () => {
    expect(parseMutateArgs(['t.test.ts', '--runner', 'jest'], '/p', exists)).toHaveProperty('runner.name', 'jest')
  })

  test('--help wins over a missing file', () => {
    expect(parseMutateArgs(['--help'], '/p', exists)).toBe('help')
  })

  test('a missing file is reported with the path as given', () => {
    expect(parseMutateArgs(['nope.ts'], '/p', () => false)).toEqual({
      reason: 'the test file nope.ts does not exist',
      fix: 'Check the path (relative to the current directory).',
    })
  })

  test.each([
    [['a.ts', '--seed', '1.5'], '--seed must be a whole number, got "1.5"'],
    [['a.ts', '--min-score', '1.2'], '--min-score must be a number from 0 to 1, got "1.2"'],
    [['a.ts', '--runner', 'mocha'], '--runner must be vitest or jest, got "mocha"'],
    [['a.ts', 'b.ts'], 'one test file at a time, got 2'],
    [[], 'the test file is missing'],
  ])('%j is a usage error: %s', (argv, reason) => {
    expect(parseMutateArgs(argv, '/p', exists)).toHaveProperty('reason', reason)
  })

  test('an unknown option is a usage error naming it', () => {
    expect(parseMutateArgs(['a.ts', '--bogus'], '/p', exists)).toHaveProperty('reason', "Unknown option '--bogus'")
  })
})

describe('mutateEnv', () => {
  test("switches mutation on and replaces the parent's seed and gate with this run's", () => {
    const base = { PATH: '/bin', EXPECT_LLM_MUTATE_SEED: '9', EXPECT_LLM_MUTATE_MIN_SCORE: '0.1' }
    expect(mutateEnv(base, '/tmp/m.jsonl', '7', undefined)).toEqual({
      PATH: '/bin',
      EXPECT_LLM_MUTATE: '1',
      EXPECT_LLM_MUTATE_OUT: '/tmp/m.jsonl',
      EXPECT_LLM_MUTATE_SEED: '7',
    })
    expect(base.EXPECT_LLM_MUTATE_SEED).toBe('9')
  })
})

const report = (over: Partial<MutationReport> = {}): MutationReport => ({
  seed: 1,
  operators: ['negate'],
  minScore: 0.5,
  cases: 1,
  mutants: 2,
  byOperator: { negate: 2 },
  survivedSuite: 0,
  checks: [{ check: 'keywords', mutants: 2, rejected: 2, score: 1, byOperator: { negate: { mutants: 2, rejected: 2 } }, blindTo: [], errors: [], gate: true }],
  skipped: [],
  survivors: [],
  weak: [],
  ...over,
})

describe('parseSuiteMutations', () => {
  test('reads one suite per JSON line and skips blank lines', () => {
    const line = JSON.stringify({ suite: 's', file: null, mutation: report() })
    expect(parseSuiteMutations(`${line}\n\n${line}\n`)).toHaveLength(2)
  })
})

describe('mutationOutcome', () => {
  test('passes when every check meets its gate', () => {
    const { lines, failed } = mutationOutcome('t.ts', [{ suite: 's', file: null, mutation: report() }], 'vitest', 0)
    expect(failed).toBe(false)
    expect(lines.slice(0, 3)).toEqual(['', 'expect-llm mutate t.ts', 'golden › s'])
  })

  test('fails on a check below minScore and names it', () => {
    const { lines, failed } = mutationOutcome('t.ts', [{ suite: 's', file: null, mutation: report({ weak: ['keywords'] }) }], 'vitest', 0)
    expect(failed).toBe(true)
    expect(lines).toContain('  ✗ below minScore 0.5: keywords')
  })

  test('fails on a check that errored on a mutant', () => {
    const errors = [{ case: 'c', operator: 'negate', text: 't', error: 'replay miss' }]
    const mutation = report({ checks: [{ ...report().checks[0]!, errors }] })
    const { lines, failed } = mutationOutcome('t.ts', [{ suite: 's', file: null, mutation }], 'jest', 0)
    expect(failed).toBe(true)
    expect(lines).toContain('  ✗ failed on some mutants (see the test output above): keywords')
  })

  test("notes the runner's failure exit when the gate itself passed", () => {
    const { lines, failed } = mutationOutcome('t.ts', [{ suite: 's', file: null, mutation: report() }], 'jest', 1)
    expect(failed).toBe(false)
    expect(lines.at(-1)).toBe('  note: jest exited with 1: other tests of the file failed (the mutation scores above are complete).')
  })
})

test('noSuiteMessage names the file, the runner and its exit code', () => {
  expect(noSuiteMessage('t.ts', 'vitest', 1)).toMatch(
    /^\[expect-llm\] Failed to run the mutation testing of t\.ts: no golden suite scored mutants \(vitest exited with 1\)\. Check/,
  )
})
