// describeGolden's and compareGolden's option checks (every refused value, with its exact message, and the
// accepted boundary values), case selection with `filter`, a case's own failure message in its variants
// (errors, repeats, soft mode), and the comparison's errored cases and console summary.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { defineCheck } from '../../src/checks/define.js'
import { resetConfig } from '../../src/config.js'
import { resetLedger } from '../../src/ledger.js'
import { CompareSuite } from '../../src/golden/compare.js'
import type { CaseResult, CaseRun } from '../../src/golden/run.js'
import { validateCases } from '../../src/golden/dataset.js'
import { SCORER_NAMES } from '../../src/golden/scorers.js'
import { applyFilter, baselineUpdateRefused, caseTitle, GoldenSuite } from '../../src/golden/suite.js'
import type { CompareOptions, GoldenCase, GoldenCaseInput, GoldenOptions } from '../../src/golden/types.js'

const dir = mkdtempSync(join(tmpdir(), 'golden-setup-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
beforeEach(() => {
  resetLedger()
  resetConfig()
})

const task = () => 'answer'
const golden = (options: Record<string, unknown>, name: unknown = 's') =>
  new GoldenSuite(name as string, { dataset: [], task, ...options } as GoldenOptions<any, any, any>)
const setupError = (reason: string) => `[expect-llm] Failed to set up describeGolden: ${reason}`

describe('GoldenSuite options', () => {
  test('the name and the options object', () => {
    expect(() => golden({}, '  ')).toThrow(
      new TypeError(`${setupError('the suite name must be a non-empty string, got a string ("  ")')}. Call describeGolden('support bot', { ... }).`),
    )
    expect(() => golden({}, 3)).toThrow(setupError('the suite name must be a non-empty string, got a number (3)'))
    expect(() => new GoldenSuite('s', null as never)).toThrow(`${setupError('the options must be an object, got null')}. Pass { dataset, task, scorers, ... }.`)
    expect(() => new GoldenSuite('s', 'x' as never)).toThrow(setupError('the options must be an object, got a string ("x")'))
  })

  test('unknown options are listed with the valid ones', () => {
    expect(() => golden({ treshold: 1, retries: 2 })).toThrow(
      `${setupError('unknown option "treshold", "retries"')}. Valid options are: dataset, task, scorers, assert, filter, concurrency, timeout, report, annotate, thresholds, repeat, passAt, baseline, budget, mutate.`,
    )
    for (const key of ['scorers', 'filter', 'timeout', 'annotate', 'mutate']) expect(() => golden({ [key]: undefined })).not.toThrow()
  })

  test('task and assert must be functions', () => {
    expect(() => golden({ task: 'x' })).toThrow(
      `${setupError('"task" must be a function (input, case) => output, got a string ("x")')}. Pass the function that runs your app on one input.`,
    )
    expect(() => golden({ assert: {} })).toThrow(
      `${setupError('"assert" must be a function (output, case) => void, got an object')}. Pass a function with your expect() calls.`,
    )
    expect(() => golden({ assert: () => undefined })).not.toThrow()
  })

  test('repeat, passAt and concurrency: whole numbers >= 1; passAt defaults to repeat', () => {
    for (const [name, value, shown] of [
      ['repeat', 0, 'a number (0)'],
      ['repeat', 1.5, 'a number (1.5)'],
      ['concurrency', '2', 'a string ("2")'],
      ['passAt', -1, 'a number (-1)'],
    ] as const) {
      expect(() => golden({ [name]: value })).toThrow(`${setupError(`"${name}" must be a whole number >= 1, got ${shown}`)}. Pass for example { ${name}: 2 }.`)
    }
    const s = golden({ repeat: 3, concurrency: 1 })
    expect([s.repeat, s.passAt, s.concurrency]).toEqual([3, 3, 1])
    expect(golden({ repeat: 3, passAt: 1 }).passAt).toBe(1)
    expect(golden({ repeat: 3, passAt: 3 }).passAt).toBe(3)
    expect(() => golden({ repeat: 3, passAt: 4 })).toThrow(
      `${setupError('"passAt" (4) is more than "repeat" (3)')}. A case cannot pass more runs than it has: lower passAt or raise repeat.`,
    )
    expect(() => golden({ passAt: 2 })).toThrow('"passAt" (2) is more than "repeat" (1)')
  })

  test('thresholds: an object of fractions from 0 to 1 on known scorers', () => {
    expect(() => golden({ thresholds: 0.9 })).toThrow(
      `${setupError('"thresholds" must be an object, got a number (0.9)')}. Pass for example { passRate: 0.9, mean: { rougeL: 0.4 } }.`,
    )
    expect(() => golden({ thresholds: null })).toThrow(setupError('"thresholds" must be an object, got null'))
    expect(() => golden({ thresholds: { passRate: 1.01 } })).toThrow(
      `${setupError('"thresholds.passRate" must be a number from 0 to 1, got a number (1.01)')}. Pass for example thresholds.passRate: 0.9.`,
    )
    expect(() => golden({ thresholds: { passRate: -0.01 } })).toThrow('"thresholds.passRate" must be a number from 0 to 1')
    expect(() => golden({ thresholds: { passRate: Number.NaN } })).toThrow('"thresholds.passRate" must be a number from 0 to 1, got a number (NaN)')
    expect(() => golden({ thresholds: { passRate: '0.5' } })).toThrow('"thresholds.passRate" must be a number from 0 to 1, got a string ("0.5")')
    expect(() => golden({ thresholds: { passRate: 0, mean: { rougeL: 1 }, min: { exact: 0 } }, scorers: { rougeL: 0.5 } })).not.toThrow()
    expect(() => golden({ thresholds: { mean: { rougeL: 2 } } })).toThrow('"thresholds.mean.rougeL" must be a number from 0 to 1, got a number (2)')
    expect(() => golden({ thresholds: { min: { rouge: 0.5 } }, scorers: { exact: true } })).toThrow(
      `${setupError('thresholds.min names an unknown scorer "rouge"')}. Valid scorers are: exact, contains,`,
    )
  })

  test('thresholds may name a user check key, listed among the valid scorers when a name is wrong', () => {
    const short = defineCheck({ name: 'short', threshold: 1, run: (o: string) => (o.length < 10 ? 1 : 0) })
    expect(() => golden({ scorers: { short }, thresholds: { mean: { short: 0.5 } } })).not.toThrow()
    expect(() => golden({ scorers: { short }, thresholds: { mean: { shrt: 0.5 } } })).toThrow(/Valid scorers are: exact, .*, short\.$/)
    // A configured built-in scorer is listed once, among the built-in names.
    expect(() => golden({ scorers: { exact: true, short }, thresholds: { mean: { shrt: 0.5 } } })).toThrow(
      `Valid scorers are: ${[...SCORER_NAMES, 'short'].join(', ')}.`,
    )
  })

  test('the baseline (true, false or an object of tolerances) and budget', () => {
    expect(() => golden({ baseline: { tolerance: 1.5 } })).toThrow('"baseline.tolerance" must be a number from 0 to 1, got a number (1.5)')
    expect(() => golden({ baseline: { tolerances: { rougeL: -1 } } })).toThrow('"baseline.tolerances.rougeL" must be a number from 0 to 1, got a number (-1)')
    expect(() => golden({ baseline: { tolerance: 0, tolerances: { rougeL: 1 } } })).not.toThrow()
    expect(() => golden({ baseline: true })).not.toThrow()
    expect(() => golden({ baseline: false })).not.toThrow()
    expect(() => golden({ baseline: null })).toThrow(
      new TypeError(`${setupError('"baseline" must be true, false or an object, got null')}. Pass for example { tolerance: 0.05 }.`),
    )
    expect(() => golden({ baseline: 'yes' })).toThrow(setupError('"baseline" must be true, false or an object, got a string ("yes")'))
    expect(() => golden({ budget: { maxTokenz: 5 } })).toThrow(
      `${setupError('unknown budget option "maxTokenz"')}. Valid options are: p95LatencyMs, maxTokens, maxCostUsd.`,
    )
    expect(() => golden({ budget: { maxTokens: -1 } })).toThrow(
      `${setupError('budget.maxTokens must be a number >= 0, got a number (-1)')}. Pass for example { maxTokens: 1000 }.`,
    )
    expect(() => golden({ budget: { maxCostUsd: Number.NaN } })).toThrow('budget.maxCostUsd must be a number >= 0, got a number (NaN)')
    expect(() => golden({ budget: { p95LatencyMs: '5' } })).toThrow('budget.p95LatencyMs must be a number >= 0, got a string ("5")')
    expect(() => golden({ budget: { p95LatencyMs: 0, maxTokens: 0, maxCostUsd: 0 } })).not.toThrow()
  })

  test('the thresholds.passRate option makes the case tests soft', () => {
    expect(golden({ thresholds: { passRate: 0 } }).soft).toBe(true)
    expect(golden({ thresholds: { mean: {} } }).soft).toBe(false)
    expect(golden({}).soft).toBe(false)
  })
})

describe('filter and titles', () => {
  const cases: GoldenCase[] = validateCases([
    { id: 'a', input: 'qa', tags: ['refunds'] },
    { id: 'b', input: 'qb', tags: ['shipping', 'refunds'] },
    { id: 'c', input: 'qc' },
  ])

  test('by tags (any of them), by ids, both at once, or by a function', () => {
    expect(applyFilter(cases, undefined)).toBe(cases)
    expect(applyFilter(cases, { tags: ['shipping'] }).map((c) => c.id)).toEqual(['b'])
    expect(applyFilter(cases, { tags: ['refunds', 'none'] }).map((c) => c.id)).toEqual(['a', 'b'])
    expect(applyFilter(cases, { ids: ['c', 'a'] }).map((c) => c.id)).toEqual(['a', 'c'])
    expect(applyFilter(cases, { tags: ['refunds'], ids: ['b', 'c'] }).map((c) => c.id)).toEqual(['b'])
    expect(applyFilter(cases, {}).map((c) => c.id)).toEqual(['a', 'b', 'c'])
    expect(applyFilter(cases, (c) => c.id !== 'b').map((c) => c.id)).toEqual(['a', 'c'])
  })

  test('a filter that is not an object, and ids no case has', () => {
    expect(() => applyFilter(cases, 'refunds' as never)).toThrow(
      `${setupError('"filter" must be { tags?, ids? } or a function, got a string ("refunds")')}. Pass for example { tags: ['refunds'] }.`,
    )
    expect(() => applyFilter(cases, null as never)).toThrow('"filter" must be { tags?, ids? } or a function, got null')
    expect(() => applyFilter(cases, { ids: ['a', 'x', 'y'] })).toThrow(
      `${setupError('filter.ids lists "x", "y", which no case has')}. Check the ids in the dataset (cases without an id get "case-<hash>").`,
    )
  })

  test('a filter that selects nothing fails setCases with the number of cases', () => {
    const suite = golden({ filter: { tags: ['none'] } })
    expect(() => suite.setCases(cases)).toThrow(`${setupError('"filter" selects none of the 3 cases')}. Check the tags and ids in the filter.`)
    const compare = new CompareSuite('c', { dataset: [], variants: { a: task, b: task }, filter: () => false })
    expect(() => compare.setCases(cases)).toThrow(
      new TypeError('[expect-llm] Failed to set up compareGolden: "filter" selects none of the 3 cases. Check the tags and ids in the filter.'),
    )
  })

  test('the case title is the id and the input clipped to 60 characters', () => {
    expect(caseTitle({ id: 'a', input: 'short' })).toBe('a: short')
    const input = `${'a'.repeat(50)}${'b'.repeat(50)}`
    expect(caseTitle({ id: 'long', input })).toBe(`long: ${'a'.repeat(42)}…${'b'.repeat(17)}`)
    expect(caseTitle({ id: 'obj', input: { q: 'hi' } })).toBe('obj: {"q":"hi"}')
  })

  test('a baseline update in CI is refused unless allowed with EXPECT_LLM_ALLOW_BASELINE_UPDATE_IN_CI=1', () => {
    expect(baselineUpdateRefused({ CI: 'true' })).toBe(true)
    expect(baselineUpdateRefused({ CI: 'true', EXPECT_LLM_ALLOW_BASELINE_UPDATE_IN_CI: '1' })).toBe(false)
    expect(baselineUpdateRefused({ CI: 'true', EXPECT_LLM_ALLOW_BASELINE_UPDATE_IN_CI: 'true' })).toBe(true)
    expect(baselineUpdateRefused({})).toBe(false)
  })
})

describe("a case's own failure", () => {
  async function runCase(options: Record<string, unknown>, c: GoldenCaseInput<any, any, any>) {
    const suite = golden({ report: false, ...options })
    suite.setCases(validateCases([c]))
    const result = await suite.runCase(suite.cases[0]!)
    return { suite, result, message: suite.caseFailure(result) }
  }

  test('a task that threw on every run: one error is one sentence', async () => {
    const { message, result } = await runCase(
      {
        task: () => {
          throw new Error('model down')
        },
      },
      { id: 'a', input: 'q' },
    )
    expect(result.errored).toBe(true)
    expect(message).toBe('[expect-llm] Failed to run golden case "a": the task threw: model down')
  })

  test('different errors on different runs are listed, one item each, continuation lines indented', async () => {
    let n = 0
    const { message } = await runCase(
      {
        task: () => {
          throw new Error(n++ === 0 ? 'first\nsecond line' : 'other')
        },
        repeat: 3,
      },
      { id: 'a', input: 'q' },
    )
    expect(message).toBe('[expect-llm] Failed to run golden case "a":\n  - the task threw: first\n    second line\n  - the task threw: other')
  })

  test('with repeats, the message tells how many runs passed and how many were needed', async () => {
    let n = 0
    const { message, result } = await runCase(
      { task: () => (n++ === 0 ? 'right' : 'wrong'), scorers: { exact: true }, repeat: 3, passAt: 2 },
      { id: 'a', input: 'q', expected: 'right' },
    )
    expect(result).toMatchObject({ passes: 1, pass: false, flaky: true })
    expect(message!.split('\n')[0]).toBe('[expect-llm] Golden case "a" failed: 1 of 3 runs passed, 2 needed.')
    expect(message).toContain('\n  actual:   right')
  })

  test('a failed assert is in the message; a case without expected has no expected line', async () => {
    const { message } = await runCase(
      {
        assert: () => {
          throw new Error('expected a greeting')
        },
      },
      { id: 'a', input: 'hi' },
    )
    expect(message).toBe(['[expect-llm] Golden case "a" failed.', '  assert: expected a greeting', '  input:    hi', '  actual:   answer'].join('\n'))
  })

  test('a scorer without a threshold shows its score alone, and its detail', async () => {
    const short = defineCheck({ name: 'short', threshold: 0.5, run: () => ({ score: 0.25, reason: 'too long' }) })
    const { message } = await runCase({ scorers: { short, rougeL: null } }, { id: 'a', input: 'hi', expected: 'hello there' })
    expect(message).toContain('\n  short: 0.25 < 0.50 (too long)\n')
    expect(message).not.toContain('rougeL')
  })

  test('a flagged moderation check (it has no threshold) shows its score and detail, with no bound', async () => {
    const reply = { model: 'm', results: [{ flagged: true, categories: { harassment: true }, category_scores: { harassment: 0.91 } }] }
    const client = { moderations: { create: async () => reply } }
    const { message } = await runCase({ scorers: { moderation: { client } } }, { id: 'a', input: 'hi' })
    expect(message).toContain('\n  moderation: 0.09 (flagged: harassment 0.91)\n')
  })

  // A result made by hand: a case that is not errored always has a run with an output.
  const handRun = (over: Partial<CaseRun>): CaseRun => ({
    scores: {},
    pass: false,
    latencyMs: 1,
    latencySource: 'measured',
    usage: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, models: [] },
    ...over,
  })
  const handResult = (runs: CaseRun[], over: Partial<CaseResult>): CaseResult => ({
    c: { id: 'a', input: 'q' },
    runs,
    passes: 0,
    pass: false,
    flaky: false,
    scores: {},
    errored: false,
    ...over,
  })

  test('a failed case none of whose runs gave an output says so', () => {
    const result = handResult([handRun({})], { scores: { exact: { score: 0, threshold: 1, pass: false } } })
    expect(golden({ report: false }).caseFailure(result)).toBe(
      ['[expect-llm] Golden case "a" failed.', '  exact: 0 < 1', '  input:    q', '  actual:   (no output)'].join('\n'),
    )
  })

  test('in soft mode (passRate) a case below its thresholds passes its test, but one whose scorer errored fails it', async () => {
    const soft = await runCase({ scorers: { exact: true }, thresholds: { passRate: 0 } }, { id: 'a', input: 'q', expected: 'other' })
    expect(soft.result.pass).toBe(false)
    expect(soft.message).toBeUndefined()
    const errored = await runCase(
      {
        scorers: { broken: defineCheck({ name: 'broken', run: () => Promise.reject(new Error('judge down')) }) },
        thresholds: { passRate: 0 },
      },
      { id: 'a', input: 'q' },
    )
    expect(errored.message).toMatch(/^\[expect-llm\] Golden case "a" failed\.\n {2}error: scorer broken failed: .*: judge down\n/)
  })

  test('a case that passed has no failure', async () => {
    expect((await runCase({}, { id: 'a', input: 'q' })).message).toBeUndefined()
  })

  test('a run with no output shows "(no output)" when the case is not errored on every run', async () => {
    let n = 0
    const { message } = await runCase(
      {
        task: () => {
          if (n++ === 0) throw new Error('flaky network')
          return 'answer'
        },
        scorers: { exact: true },
        repeat: 2,
      },
      { id: 'a', input: 'q', expected: 'right' },
    )
    expect(message).toContain('  error: the task threw: flaky network')
    expect(message).toContain('  actual:   answer')
  })
})

describe('CompareSuite options', () => {
  const compareError = (reason: string) => `[expect-llm] Failed to set up compareGolden: ${reason}`
  const compare = (options: Record<string, unknown>, name: unknown = 'c') =>
    new CompareSuite(name as string, { dataset: [], variants: { a: task, b: task }, ...options } as CompareOptions<any, any, any>)

  test('the name, the options object and unknown options', () => {
    expect(() => compare({}, '')).toThrow(
      `${compareError('the suite name must be a non-empty string, got a string ("")')}. Call compareGolden('prompt v1 vs v2', { ... }).`,
    )
    expect(() => new CompareSuite('c', undefined as never)).toThrow(
      `${compareError('the options must be an object, got undefined')}. Pass { dataset, variants, scorers, ... }.`,
    )
    expect(() => compare({ task })).toThrow(
      `${compareError('unknown option "task"')}. Valid options are: dataset, variants, scorers, assert, filter, concurrency, timeout, report, expect, resamples, seed, confidence.`,
    )
    expect(() => compare({ task, retries: 2 })).toThrow(`${compareError('unknown option "task", "retries"')}. Valid options are: dataset,`)
  })

  test('a name that is not text or only spaces, and null options', () => {
    expect(() => compare({}, 3)).toThrow(
      `${compareError('the suite name must be a non-empty string, got a number (3)')}. Call compareGolden('prompt v1 vs v2', { ... }).`,
    )
    expect(() => compare({}, '  ')).toThrow(`${compareError('the suite name must be a non-empty string, got a string ("  ")')}. Call compareGolden(`)
    expect(() => new CompareSuite('c', null as never)).toThrow(
      `${compareError('the options must be an object, got null')}. Pass { dataset, variants, scorers, ... }.`,
    )
  })

  test('a new suite has no cases until they are set', () => {
    expect(compare({}).cases).toEqual([])
  })

  test('the report options are checked as compareGolden', () => {
    expect(() => compare({ report: { html: '' } })).toThrow(`${compareError('report.html must be true, false or a file path, got a string ("")')}. Pass`)
  })

  test('variants: at least two functions', () => {
    expect(() => compare({ variants: null })).toThrow(
      `${compareError('"variants" must be an object with at least two tasks, got null')}. Pass for example { variants: { v1: answerV1, v2: answerV2 } }.`,
    )
    expect(() => compare({ variants: 'ab' })).toThrow(`${compareError('"variants" must be an object with at least two tasks, got a string ("ab")')}. Pass`)
    expect(() => compare({ variants: { a: task, b: 'x' } })).toThrow(
      `${compareError('variant "b" must be a task function, got a string ("x")')}. Pass (input, case) => output for every variant.`,
    )
    expect(compare({ variants: { a: task, b: task, c: task } }).variants).toEqual(['a', 'b', 'c'])
  })

  test('concurrency, and the expectation: minDelta a finite number, scorer a known key, a scorer to decide on', () => {
    expect(() => compare({ concurrency: 0 })).toThrow(
      `${compareError('"concurrency" must be a whole number >= 1, got a number (0)')}. Pass for example { concurrency: 4 }.`,
    )
    expect(() => compare({ concurrency: 1.5 })).toThrow('"concurrency" must be a whole number >= 1')
    expect(compare({}).concurrency).toBe(1)
    expect(compare({ concurrency: 1 }).concurrency).toBe(1)
    expect(compare({ concurrency: 3 }).concurrency).toBe(3)
    expect(() => compare({ scorers: { exact: true }, expect: { better: 'a', minDelta: Number.POSITIVE_INFINITY } })).toThrow(
      `${compareError('expect.minDelta must be a number, got a number (Infinity)')}. Pass for example { minDelta: 0.05 }.`,
    )
    expect(() => compare({ scorers: { exact: true }, expect: { better: 'a', minDelta: '0.1' } })).toThrow(
      'expect.minDelta must be a number, got a string ("0.1")',
    )
    expect(() => compare({ scorers: { exact: true }, expect: { better: 'a', scorer: 'rouge' } })).toThrow(
      `${compareError('expect.scorer "rouge" is not a scorer')}. Valid scorers are: exact,`,
    )
    expect(() => compare({ expect: { better: 'a' } })).toThrow(
      `${compareError('expect needs a scorer to decide on, and "scorers" lists none')}. List the scorers, or pass expect.scorer.`,
    )
    expect(() => compare({ expect: { better: 'a', scorer: 'exact' } })).not.toThrow()
  })
})

describe('the comparison outcome', () => {
  const data = [
    { id: 'q1', input: 'one', expected: 'right one' },
    { id: 'q2', input: 'two', expected: 'right two' },
  ]
  async function compare(options: Record<string, unknown>) {
    const suite = new CompareSuite('v1 vs v2', { dataset: data, report: false, resamples: 200, ...options } as unknown as CompareOptions<any, any, any>)
    suite.setCases(validateCases(data))
    for (const c of suite.cases) await suite.runCase(c)
    return suite.finish({ runner: 'jest', testPath: undefined })
  }

  test('cases where a variant errored are left out of the comparison, and with an expectation that is a failure', async () => {
    const variants = {
      v1: (input: string) => {
        if (input === 'two') throw new Error('down')
        return `right ${input}`
      },
      v2: (input: string) => `right ${input}`,
    }
    const plain = await compare({ variants, scorers: { exact: true } })
    expect(plain.failure).toBeUndefined()
    const expecting = await compare({ variants, scorers: { exact: true }, expect: { better: 'v2' } })
    expect(expecting.failure).toContain('\n  - 1 case errored for some variant and are left out of the comparison')
  })

  test('the summary: header, table, pass rates, McNemar, the differing cases with their outputs', async () => {
    const outcome = await compare({ variants: { v1: () => 'wrong', v2: (input: string) => `right ${input}` }, scorers: { exact: true } })
    const lines = outcome.summary.split('\n')
    expect(lines[0]).toBe('compare › v1 vs v2 (2 cases; variants v1, v2)')
    expect(lines[1]).toBe('  scorer   v1     v2     Δ v2−v1     95% CI              W/T/L')
    expect(lines[2]).toBe('  exact    0      1      +1.000      [+1.000, +1.000]  2/0/0')
    expect(lines).toContain('  pass rate: v1 0.0%, v2 100.0%')
    expect(lines).toContain('  McNemar v2 vs v1: 2 discordant (v1 only 0, v2 only 2), p = 0.5000 (exact binomial)')
    expect(lines).toContain('  differing cases: 2 of 2')
    expect(lines).toContain('    q1  one')
    expect(lines).toContain('      ✗ v1       exact 0                      wrong')
    expect(lines).toContain('      ✓ v2       exact 1                      right one')
  })

  test('maxConsoleCases cuts the differing cases and points at the JSON report', async () => {
    const suite = new CompareSuite('cut', {
      dataset: data,
      variants: { v1: () => 'wrong', v2: (input: string) => `right ${input}` },
      scorers: { exact: true },
      resamples: 200,
      report: { dir: join(dir, 'reports'), maxConsoleCases: 1, console: false },
    })
    suite.setCases(validateCases(data))
    for (const c of suite.cases) await suite.runCase(c)
    const outcome = suite.finish({ runner: 'vitest', testPath: join(dir, 'cut.test.ts') })
    expect(outcome.summary).toContain('\n    … 1 more: see the JSON report')
    expect(outcome.summary).toMatch(/\n {2}report: .*cut\.json\n/)
    expect(outcome.reportFile).toMatch(/cut\.json$/)
    // finish runs once: a second call gives the same outcome.
    expect(suite.finish({ runner: 'vitest', testPath: join(dir, 'cut.test.ts') })).toBe(outcome)
  })
})
