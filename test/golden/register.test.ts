// describeGolden and compareGolden (the Vitest and Jest bindings, src/golden/register.ts) driven in this
// process through a recording runner: the runner objects' describe/test/afterAll are replaced by spies that
// collect the suite's tests, which this file then runs one by one the way the runner would, with each test's
// error caught. So the failing paths (a case failing its test, a threshold or baseline failing the aggregate,
// a comparison failing, the mutation block, a filtered final test) are observed here, where the mutation
// run can see them, instead of only in child Vitest and Jest runs (vitest-runner.test.ts, jest-runner.test.ts).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { resetConfig } from '../../src/config.js'
import { resetLedger } from '../../src/ledger.js'
import { jestRunner } from '../../src/runners/jest.js'
import type { TestRunner, UpdateMode } from '../../src/runners/types.js'
import { vitestRunner } from '../../src/runners/vitest.js'
import * as jestBinding from '../../src/golden/jest.js'
import * as vitestBinding from '../../src/golden/vitest.js'
import { baselinePath } from '../../src/golden/baseline.js'
import * as register from '../../src/golden/register.js'
import type { CaseResult } from '../../src/golden/run.js'

const dir = mkdtempSync(join(tmpdir(), 'golden-register-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
beforeEach(() => {
  resetLedger()
  resetConfig()
})
afterEach(() => vi.restoreAllMocks())

interface Registered {
  path: string[]
  title: string
  fn: (ctx: any) => Promise<void>
  options: { concurrent: boolean; timeout?: number }
}
interface Ran {
  title: string
  path: string[]
  error: Error | undefined
  ctx: FakeContext
}
interface FakeContext {
  task: { meta: Record<string, unknown> }
  annotate: ReturnType<typeof vi.fn>
}

let files = 0

/**
 * Replaces the runner's registration calls with a recorder. `collect()` runs the registered describe blocks
 * (awaiting async ones, as Vitest does); `run()` runs the tests in order (or those `only` keeps) and then the
 * afterAll hooks, and gives each test's error.
 */
function recordingRunner(runner: TestRunner<any>, { updateMode = 'new' as UpdateMode, testPath = join(dir, `t${++files}.test.ts`) } = {}) {
  const tests: Registered[] = []
  const hooks: Array<() => unknown> = []
  const blocks: Array<{ path: string[]; fn: () => void | Promise<void> }> = []
  let path: string[] = []
  let collecting = false
  // A describe inside a collected block runs at once (as the runners do); a top-level one when collected.
  vi.spyOn(runner, 'describe').mockImplementation((name, fn) => {
    if (!collecting) return void blocks.push({ path: [...path, name], fn })
    const outer = path
    path = [...outer, name]
    void fn()
    path = outer
  })
  vi.spyOn(runner, 'test').mockImplementation((title, fn, options) => void tests.push({ path, title, fn, options }))
  vi.spyOn(runner, 'afterAll').mockImplementation((fn) => void hooks.push(() => fn({ testPath, completeness: () => ({ complete: true }) })))
  vi.spyOn(runner, 'testPath').mockReturnValue(testPath)
  vi.spyOn(runner, 'updateMode').mockReturnValue(updateMode)
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
  return {
    tests,
    log,
    testPath,
    /** Runs the describe blocks registered so far (and those they register), in order. */
    async collect(): Promise<void> {
      while (blocks.length > 0) {
        const block = blocks.shift()!
        path = block.path
        collecting = true
        try {
          await block.fn()
        } finally {
          collecting = false
          path = []
        }
      }
    },
    async run(only: (t: Registered) => boolean = () => true): Promise<Ran[]> {
      const ran: Ran[] = []
      for (const t of tests.filter(only)) {
        const ctx: FakeContext = { task: { meta: {} }, annotate: vi.fn(async () => undefined) }
        let error: Error | undefined
        try {
          await t.fn(ctx)
        } catch (e) {
          error = e as Error
        }
        ran.push({ title: t.title, path: t.path, error, ctx })
      }
      for (const hook of hooks) await hook()
      return ran
    },
    /** What the suite printed with console.log (the summary; Jest's case lines). */
    printed: () => log.mock.calls.map((c) => String(c[0])),
  }
}

const answers: Record<string, string> = {
  refund: 'You can ask for a refund within 30 days.',
  ship: 'Shipping costs five dollars.',
}
const cases = [
  { id: 'refund', input: 'refund', expected: 'You can ask for a refund within 30 days.' },
  { id: 'ship', input: 'ship', expected: 'Shipping is free on orders over $50.' },
]
const task = (input: string) => answers[input] ?? ''
const report = () => ({ dir: join(dir, 'reports') })

/** The stack frames of an error, without its message. */
const frames = (e: Error) => (e.stack ?? '').slice(`${e.name}: ${e.message}\n`.length)

describe('describeGolden under Vitest', () => {
  test('registers the suite as a describe: one test per case titled "<id>: <input>", then "aggregate", in order', async () => {
    const r = recordingRunner(vitestRunner)
    vitestBinding.describeGolden('bot', { dataset: cases, task, scorers: { exact: true }, report: false, thresholds: { passRate: 0 } })
    await r.collect()
    expect(r.tests.map((t) => [t.path.join(' > '), t.title, t.options])).toStrictEqual([
      ['bot', 'refund: refund', { concurrent: false }],
      ['bot', 'ship: ship', { concurrent: false }],
      ['bot', 'aggregate', { concurrent: false }],
    ])
  })

  test('concurrency > 1 makes the case tests concurrent (never the aggregate), and timeout goes to each case test', async () => {
    const r = recordingRunner(vitestRunner)
    vitestBinding.describeGolden('bot', { dataset: cases, task, scorers: { exact: true }, report: false, concurrency: 2, timeout: 1234 })
    await r.collect()
    expect(r.tests.map((t) => t.options)).toEqual([{ concurrent: true, timeout: 1234 }, { concurrent: true, timeout: 1234 }, { concurrent: false }])
  })

  test('a case below its threshold fails its own test with the scores, input, expected and actual, pointing at the describeGolden call', async () => {
    const r = recordingRunner(vitestRunner)
    vitestBinding.describeGolden('bot', { dataset: cases, task, scorers: { exact: true }, report: report() })
    await r.collect()
    const [refund, ship, aggregate] = await r.run()
    expect(refund!.error).toBeUndefined()
    expect(aggregate!.error).toBeUndefined()
    expect(ship!.error?.message).toBe(
      [
        '[expect-llm] Golden case "ship" failed.',
        '  exact: 0 < 1 (no acceptable answer matches after normalization (expected "Shipping is free on orders over $50."))',
        '  input:    ship',
        '  expected: Shipping is free on orders over $50.',
        '  actual:   Shipping costs five dollars.',
      ].join('\n'),
    )
    // The stack is the user's call site: its first frame is this file, not the library.
    expect(frames(ship!.error!).split('\n')[0]).toContain('register.test.ts')
    expect(frames(ship!.error!)).not.toContain('src/golden/register.ts')
  })

  test('an error thrown by the runner rather than by the case (a publish failure) is rethrown as it is', async () => {
    const r = recordingRunner(vitestRunner)
    const broken = new Error('annotate broke')
    vi.spyOn(vitestRunner, 'annotate').mockRejectedValue(broken)
    vitestBinding.describeGolden('bot', { dataset: [cases[0]!], task, scorers: { exact: true }, report: false })
    await r.collect()
    const [refund] = await r.run()
    expect(refund!.error).toBe(broken)
  })

  test('with thresholds.passRate, a failing case passes its test and the aggregate fails with every failed check numbered', async () => {
    const r = recordingRunner(vitestRunner)
    vitestBinding.describeGolden('bot', {
      dataset: cases,
      task,
      scorers: { exact: true },
      thresholds: { passRate: 0.75, mean: { exact: 0.9 } },
      report: report(),
    })
    await r.collect()
    const [refund, ship, aggregate] = await r.run()
    expect(refund!.error).toBeUndefined()
    expect(ship!.error).toBeUndefined()
    const message = aggregate!.error!.message
    expect(message.split('\n')[0]).toBe('[expect-llm] Golden suite "bot" failed 2 checks:')
    expect(message).toContain('\n\n1. pass rate 1/2 = 50.0% is below 75.0%. Failing cases, worst first:\n  - ship: exact 0<1  ship\n\n')
    expect(message).toContain('\n\n2. mean exact 0.500 is below 0.9. Cases below 0.9, worst first:\n  - ship: exact 0  ship')
    expect(message).toMatch(/\n\nReport: .*bot\.json$/)
    expect(frames(aggregate!.error!).split('\n')[0]).toContain('register.test.ts')
  })

  test('one failed check is "1 check", and the summary is printed once, by the aggregate test', async () => {
    const r = recordingRunner(vitestRunner)
    vitestBinding.describeGolden('bot', { dataset: cases, task, scorers: { exact: true }, thresholds: { passRate: 0.75 }, report: report() })
    await r.collect()
    const ran = await r.run()
    expect(ran.at(-1)!.error!.message.split('\n')[0]).toBe('[expect-llm] Golden suite "bot" failed 1 check:')
    const printed = r.printed()
    expect(printed).toHaveLength(1)
    expect(printed[0]).toMatch(/^golden › bot \(2 cases\)\n {2}✗ ship {2}exact 0<1\n/)
  })

  test('report: { console: false } and report: false print nothing', async () => {
    for (const option of [{ dir: join(dir, 'quiet'), console: false }, false] as const) {
      const r = recordingRunner(vitestRunner)
      vitestBinding.describeGolden('quiet bot', { dataset: cases, task, scorers: { exact: true }, thresholds: { passRate: 0 }, report: option })
      await r.collect()
      const ran = await r.run()
      expect(ran.map((t) => t.error)).toEqual([undefined, undefined, undefined])
      expect(r.printed()).toEqual([])
      vi.restoreAllMocks()
    }
  })

  test('when the aggregate test is filtered out, the summary of the cases that ran is printed after the suite', async () => {
    const r = recordingRunner(vitestRunner)
    vitestBinding.describeGolden('bot', { dataset: cases, task, scorers: { exact: true }, thresholds: { passRate: 0 }, report: report() })
    await r.collect()
    await r.run((t) => t.title === 'refund: refund')
    const printed = r.printed()
    expect(printed).toHaveLength(1)
    expect(printed[0]).toContain('golden › bot')
    expect(printed[0]).toMatch(/1 of 2 cases|1\/1|ran 1/)
  })

  test('when no case ran either, nothing is printed after the suite', async () => {
    const r = recordingRunner(vitestRunner)
    vitestBinding.describeGolden('bot', { dataset: cases, task, scorers: { exact: true }, report: report() })
    await r.collect()
    await r.run(() => false)
    expect(r.printed()).toEqual([])
  })

  test('task.meta.golden of a case test: its scores, runs and mean latency; the annotation line with its scores', async () => {
    const r = recordingRunner(vitestRunner)
    const latencies = [10, 30]
    vitestBinding.describeGolden('bot', {
      dataset: [cases[0]!],
      task: (input: string) => ({ output: task(input), latencyMs: latencies.shift()! }),
      scorers: { exact: true },
      repeat: 2,
      report: false,
    })
    await r.collect()
    const [refund] = await r.run()
    expect(refund!.error).toBeUndefined()
    expect(refund!.ctx.task.meta.golden).toEqual({
      suite: 'bot',
      id: 'refund',
      pass: true,
      runs: 2,
      passes: 2,
      flaky: false,
      scores: { exact: { score: 1, threshold: 1, pass: true } },
      latencyMs: 20,
    })
    expect(refund!.ctx.annotate).toHaveBeenCalledTimes(1)
    expect(refund!.ctx.annotate).toHaveBeenCalledWith('exact 1 ✓ · 2/2 runs passed', 'golden')
  })

  test('annotate: false keeps task.meta.golden but adds no annotation line', async () => {
    const r = recordingRunner(vitestRunner)
    vitestBinding.describeGolden('bot', { dataset: [cases[0]!], task, scorers: { exact: true }, report: false, annotate: false })
    await r.collect()
    const [refund] = await r.run()
    expect(refund!.ctx.task.meta.golden).toMatchObject({ id: 'refund', pass: true })
    expect(refund!.ctx.annotate).not.toHaveBeenCalled()
  })

  test('a dataset loader function is loaded before the tests are registered', async () => {
    const r = recordingRunner(vitestRunner)
    vitestBinding.describeGolden('bot', { dataset: async () => [cases[1]!], task, scorers: { exact: true }, report: false, thresholds: { passRate: 0 } })
    await r.collect()
    expect(r.tests.map((t) => t.title)).toEqual(['ship: ship', 'aggregate'])
  })

  test("a missing baseline fails the aggregate when the runner does not write snapshots (CI), and the runner's test path places it", async () => {
    const r = recordingRunner(vitestRunner, { updateMode: 'none' })
    vitestBinding.describeGolden('bot', { dataset: [cases[0]!], task, scorers: { exact: true }, baseline: true, report: false })
    await r.collect()
    const ran = await r.run()
    const path = baselinePath(r.testPath, 'bot')
    expect(ran.at(-1)!.error!.message).toContain(`the baseline ${path} is missing, and snapshots are not written in CI`)
    expect(existsSync(path)).toBe(false)
  })

  test('the baseline is written next to the test file the runner names, and a later drop beyond the tolerance fails', async () => {
    const testPath = join(dir, 'baseline.test.ts')
    const first = recordingRunner(vitestRunner, { testPath })
    vitestBinding.describeGolden('bot', { dataset: [cases[0]!], task, scorers: { rougeL: null }, baseline: { tolerance: 0.1 }, report: false })
    await first.collect()
    expect((await first.run()).map((t) => t.error)).toEqual([undefined, undefined])
    const path = baselinePath(testPath, 'bot')
    expect(JSON.parse(readFileSync(path, 'utf8')).cases.refund.scores).toEqual({ rougeL: 1 })
    vi.restoreAllMocks()

    const second = recordingRunner(vitestRunner, { testPath })
    vitestBinding.describeGolden('bot', {
      dataset: [cases[0]!],
      task: () => 'You can ask for a refund.',
      scorers: { rougeL: null },
      baseline: { tolerance: 0.1 },
      report: false,
    })
    await second.collect()
    const ran = await second.run()
    expect(ran[0]!.error).toBeUndefined()
    expect(ran[1]!.error!.message).toMatch(/rougeL/)
    expect(ran[1]!.error!.message).toContain(path)
  })
})

describe('the mutation block of describeGolden', () => {
  test('without a case that has a reference, one "no mutants" test fails and says why', async () => {
    const r = recordingRunner(vitestRunner)
    vitestBinding.describeGolden('bot', { dataset: [{ id: 'q', input: 'hi' }], task, scorers: { contains: true }, mutate: true, report: false })
    await r.collect()
    expect(r.tests.map((t) => [t.path.join(' > '), t.title])).toEqual([
      ['bot', 'q: hi'],
      ['bot > mutation', 'no mutants'],
      ['bot', 'aggregate'],
    ])
    const ran = await r.run()
    const noMutants = ran[1]!.error!
    expect(noMutants.message).toBe(
      '[expect-llm] Failed to run the mutation testing of "bot": no case has a reference answer or is unanswerable. ' +
        'Give the cases an "expected" answer and the suite a check that scores it.',
    )
    expect(frames(noMutants).split('\n')[0]).toContain('register.test.ts')
  })

  test('when every check of the suite is skipped, "no mutants" names each check and its reason', async () => {
    const r = recordingRunner(vitestRunner)
    vitestBinding.describeGolden('bot', { dataset: [cases[0]!], task, scorers: { exact: null as never }, mutate: true, report: false })
    await r.collect()
    const ran = await r.run()
    expect(ran[1]!.title).toBe('no mutants')
    expect(ran[1]!.error!.message).toContain(
      'the checks of its cases do not score outputs (exact: its threshold is null: it is recorded only and never fails an answer)',
    )
  })

  test('"score the mutants" and then one test per check, each with the mutation timeout; a check below minScore fails its test', async () => {
    const r = recordingRunner(vitestRunner)
    vitestBinding.describeGolden('bot', {
      dataset: [cases[0]!],
      task,
      scorers: { exact: true, rougeL: 0.1 },
      mutate: { minScore: 1 },
      timeout: 1000,
      report: false,
    })
    await r.collect()
    const mutationTests = r.tests.filter((t) => t.path.at(-1) === 'mutation')
    expect(mutationTests.map((t) => t.title)).toEqual(['score the mutants', 'exact', 'rougeL'])
    for (const t of mutationTests) {
      expect(t.options.concurrent).toBe(false)
      expect(t.options.timeout).toBeGreaterThanOrEqual(1000)
      expect(t.options.timeout! % 1000).toBe(0)
    }
    const ran = await r.run()
    const by = Object.fromEntries(ran.map((t) => [t.title, t.error]))
    expect(by['score the mutants']).toBeUndefined()
    // exact rejects every changed answer; rougeL at 0.1 lets through mutants that keep most of the words.
    expect(by.exact).toBeUndefined()
    expect(by.rougeL?.message).toMatch(/^\[expect-llm\] Mutation score of rougeL is 0\.\d+, below minScore 1:/)
  })
})

describe('the mutation block, more', () => {
  test('"no mutants" runs alone (not concurrently) and lists every skipped check, separated by semicolons', async () => {
    const r = recordingRunner(vitestRunner)
    vitestBinding.describeGolden('bot', { dataset: [cases[0]!], task, scorers: { exact: null as never, contains: null as never }, mutate: true, report: false })
    await r.collect()
    expect(r.tests.find((t) => t.title === 'no mutants')!.options).toStrictEqual({ concurrent: false })
    const ran = await r.run()
    expect(ran.find((t) => t.title === 'no mutants')!.error!.message).toContain(
      'the checks of its cases do not score outputs (exact: its threshold is null: it is recorded only and never fails an answer; ' +
        'contains: its threshold is null: it is recorded only and never fails an answer)',
    )
  })

  test('"score the mutants" alone runs the mutation testing: its section is in the report', async () => {
    const r = recordingRunner(vitestRunner)
    const reports = join(dir, 'mutation-reports')
    vitestBinding.describeGolden('scored bot', { dataset: [cases[0]!], task, scorers: { exact: true }, mutate: true, report: { dir: reports, console: false } })
    await r.collect()
    const ran = await r.run((t) => t.title !== 'exact')
    expect(ran.map((t) => [t.title, t.error])).toEqual([
      ['refund: refund', undefined],
      ['score the mutants', undefined],
      ['aggregate', undefined],
    ])
    const written = readdirSync(reports, { recursive: true })
      .map(String)
      .find((f) => f.endsWith('scored-bot.json'))!
    const saved = JSON.parse(readFileSync(join(reports, written), 'utf8'))
    expect(saved.mutation.checks.map((c: { check: string }) => c.check)).toEqual(['exact'])
  })
})

describe('describeGolden under Jest', () => {
  test('each case logs one line with its verdict and scores; a failing case fails its test', async () => {
    const r = recordingRunner(jestRunner)
    jestBinding.describeGolden('bot', { dataset: cases, task, scorers: { exact: true, rougeL: null }, report: report() })
    await r.collect()
    const ran = await r.run()
    expect(ran.map((t) => t.title)).toEqual(['refund: refund', 'ship: ship', 'aggregate'])
    expect(ran[1]!.error!.message).toMatch(/^\[expect-llm\] Golden case "ship" failed\./)
    const printed = r.printed()
    expect(printed[0]).toBe('golden › bot › refund: pass · exact 1 ✓ · rougeL 1 ✓')
    expect(printed[1]).toMatch(/^golden › bot › ship: FAIL · exact 0 ✗ · rougeL 0\.\d+ ✓$/)
    expect(printed).toHaveLength(3)
    expect(printed[2]).toContain('golden › bot')
  })

  test('repeats show the passing runs, and a case without scorer says so', async () => {
    const r = recordingRunner(jestRunner)
    let n = 0
    jestBinding.describeGolden('bot', {
      dataset: [cases[0]!, { id: 'free', input: 'free' }],
      task: (input: string) => (input === 'free' ? 'ok' : n++ % 2 === 0 ? task(input) : 'no'),
      scorers: { exact: true },
      repeat: 2,
      passAt: 1,
      report: { dir: join(dir, 'reports') },
    })
    await r.collect()
    const ran = await r.run()
    expect(ran.map((t) => t.error)).toEqual([undefined, undefined, undefined])
    expect(r.printed().slice(0, 2)).toEqual([
      'golden › bot › refund: pass · exact 0.50 ✓ · 1/2 runs passed (flaky)',
      'golden › bot › free: pass · no scorer · 2/2 runs passed',
    ])
  })

  test('report: { console: false } logs no case line and no summary', async () => {
    const r = recordingRunner(jestRunner)
    jestBinding.describeGolden('bot', {
      dataset: cases,
      task,
      scorers: { exact: true },
      thresholds: { passRate: 0 },
      report: { dir: join(dir, 'q'), console: false },
    })
    await r.collect()
    await r.run()
    expect(r.printed()).toEqual([])
  })

  test('report: false logs no case line either', async () => {
    const r = recordingRunner(jestRunner)
    jestBinding.describeGolden('bot', { dataset: cases, task, scorers: { exact: true }, thresholds: { passRate: 0 }, report: false })
    await r.collect()
    await r.run()
    expect(r.printed()).toEqual([])
  })

  test('a dataset loader function is refused: Jest collects tests synchronously', async () => {
    const r = recordingRunner(jestRunner)
    jestBinding.describeGolden('bot', { dataset: async () => cases, task, scorers: { exact: true } })
    await expect(r.collect()).rejects.toThrow(
      '[expect-llm] Failed to load the golden dataset: Jest collects tests synchronously, so "dataset" cannot be a loader function. ' +
        'Load it first with `const cases = await loadDataset(loader)` at the top level of an ESM test file (or load a file path), and pass the cases.',
    )
  })
})

describe('compareGolden', () => {
  const variants = { terse: () => 'Yes.', full: (input: string) => task(input) }

  test('one test per case, then "comparison", which prints the summary and passes when the expectation holds', async () => {
    const r = recordingRunner(vitestRunner)
    vitestBinding.compareGolden('cmp', { dataset: cases, variants, scorers: { rougeL: null }, report: report(), resamples: 200 })
    await r.collect()
    const ran = await r.run()
    expect(ran.map((t) => [t.title, t.error])).toEqual([
      ['refund: refund', undefined],
      ['ship: ship', undefined],
      ['comparison', undefined],
    ])
    expect(r.printed()).toHaveLength(1)
    expect(r.printed()[0]).toMatch(/^compare › cmp \(2 cases; variants terse, full\)/)
  })

  test("the comparison's report is placed by the test file the runner names", async () => {
    // A test file under the working directory: its report goes to <dir>/<path from the working directory>/, and
    // the report names the file by that path.
    const testPath = join(process.cwd(), 'test', 'placed', 'placed-compare.test.ts')
    const r = recordingRunner(vitestRunner, { testPath })
    vitestBinding.compareGolden('placed cmp', {
      dataset: cases,
      variants,
      scorers: { rougeL: null },
      report: { dir: join(dir, 'placed'), console: false },
      resamples: 100,
    })
    await r.collect()
    await r.run()
    const written = readdirSync(join(dir, 'placed'), { recursive: true }).map(String)
    expect(written.filter((f) => f.endsWith('.json'))).toEqual([join('test', 'placed', 'placed-compare.test.ts', 'placed-cmp.json')])
    expect(JSON.parse(readFileSync(join(dir, 'placed', written.find((f) => f.endsWith('.json'))!), 'utf8'))).toMatchObject({
      runner: 'vitest',
      file: 'test/placed/placed-compare.test.ts',
    })
  })

  test('a variant that throws fails the case test with each variant error, at the compareGolden call', async () => {
    const r = recordingRunner(jestRunner)
    jestBinding.compareGolden('cmp', {
      dataset: [cases[0]!],
      variants: {
        a: () => {
          throw new Error('model down')
        },
        b: (input: string) => task(input),
      },
      scorers: { rougeL: null },
      report: false,
    })
    await r.collect()
    const [refund, comparison] = await r.run()
    expect(refund!.error!.message).toBe('[expect-llm] Failed to compare golden case "refund":\n  - a: the task threw: model down')
    expect(frames(refund!.error!).split('\n')[0]).toContain('register.test.ts')
    expect(comparison!.error).toBeUndefined()
  })

  test('an expectation the data do not support fails the comparison test at the compareGolden call', async () => {
    const r = recordingRunner(vitestRunner)
    vitestBinding.compareGolden('cmp', { dataset: cases, variants, scorers: { rougeL: null }, expect: { better: 'terse' }, report: false, resamples: 200 })
    await r.collect()
    const ran = await r.run()
    const error = ran.at(-1)!.error!
    expect(error.message.split('\n')[0]).toBe('[expect-llm] Golden comparison "cmp" failed:')
    expect(error.message).toContain('terse')
    expect(frames(error).split('\n')[0]).toContain('register.test.ts')
  })
})

describe('callSite and the stack of a failure', () => {
  test("callSite starts at the caller's caller: the frames of the function passed are left out", () => {
    function userCall(): Error {
      return register.callSite(userCall)
    }
    const site = userCall()
    const frames = (site.stack ?? '').split('\n').slice(1)
    expect(frames[0]).toContain('register.test.ts')
    expect(frames.join('\n')).not.toContain('userCall')
  })

  /** The error of the failing case "ship", registered through describeGoldenWith with `site` as the call site. */
  async function failureWithSite(site: Error | undefined): Promise<Error> {
    const r = recordingRunner(vitestRunner)
    const adapter = { runner: vitestRunner, publishCase: async () => undefined, print: () => undefined }
    register.describeGoldenWith(adapter, 'bot', { dataset: [cases[1]!], task, scorers: { exact: true }, report: false }, site)
    await r.collect()
    const [ship] = await r.run()
    return ship!.error!
  }
  const siteWithStack = (stack: string | undefined) => Object.assign(new Error('site'), { stack })

  test('without a call site (describeGoldenWith called directly), a failing case keeps its own stack', async () => {
    const error = await failureWithSite(undefined)
    expect(error.message).toMatch(/^\[expect-llm\] Golden case "ship" failed\./)
    expect(frames(error)).toContain('src/golden/register.ts')
  })

  test("a failure's stack is the message, then exactly the call site's frames", async () => {
    const error = await failureWithSite(siteWithStack('Error: site\n    at userSuite (/app/bot.test.ts:3:1)\n    at /app/bot.test.ts:10:1'))
    expect(error.stack).toBe(`Error: ${error.message}\n    at userSuite (/app/bot.test.ts:3:1)\n    at /app/bot.test.ts:10:1`)
  })

  test('a call site whose stack is missing, or has no frames, leaves the stack as it is', async () => {
    for (const site of [siteWithStack(undefined), siteWithStack('Error: site')]) {
      const error = await failureWithSite(site)
      expect(error.message).toMatch(/^\[expect-llm\] Golden case "ship" failed\./)
      expect(frames(error)).toContain('src/golden/register.ts')
    }
  })
})

describe('scoreLine (the annotation of a case test)', () => {
  const result = (scores: CaseResult['scores'], runs = 1, passes = runs, flaky = false): CaseResult =>
    ({ c: { id: 'a', input: 'q' }, runs: Array.from({ length: runs }, () => ({})), passes, pass: true, flaky, scores, errored: false }) as unknown as CaseResult

  test('each scorer with its score and mark, the threshold of a failed one', () => {
    expect(
      vitestBinding.scoreLine(
        result({
          rougeL: { score: 0.625, threshold: 0.5, pass: true },
          semantic: { score: 0.71, threshold: 0.8, pass: false },
          judge: { score: 0.2, threshold: null, pass: false },
        }),
      ),
    ).toBe('rougeL 0.63 ✓ · semantic 0.71 ✗ (< 0.80) · judge 0.20 ✗')
  })

  test('no scorer, and the runs of a repeated case (flaky or not)', () => {
    expect(vitestBinding.scoreLine(result({}))).toBe('no scorer')
    expect(vitestBinding.scoreLine(result({}, 3, 2, true))).toBe('no scorer · 2/3 runs passed (flaky)')
    expect(vitestBinding.scoreLine(result({ exact: { score: 1, threshold: 1, pass: true } }, 2))).toBe('exact 1 ✓ · 2/2 runs passed')
  })
})
