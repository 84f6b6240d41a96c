// The end of a golden suite and of a comparison where it meets the disk and the runner: a report that
// cannot be written, a baseline without a test file, the baseline statuses, a suite that never ran, the
// aggregate message, and a shard whose slice cannot decide the gates.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { afterAll, afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { resetConfig } from '../../src/config.js'
import { clearEmbeddingCache } from '../../src/embedders/batch.js'
import { recordModelUsage, resetLedger } from '../../src/ledger.js'
import { baselinePath } from '../../src/golden/baseline.js'
import { CompareSuite, formatCompareSummary } from '../../src/golden/compare.js'
import { validateCases } from '../../src/golden/dataset.js'
import { GoldenSuite, type UpdateMode } from '../../src/golden/suite.js'
import type { CompareOptions, GoldenOptions } from '../../src/golden/types.js'

const dir = mkdtempSync(join(tmpdir(), 'golden-finish-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
beforeEach(() => {
  resetLedger()
  resetConfig()
})
afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

const cases = [
  { id: 'a', input: 'qa', expected: 'right' },
  { id: 'b', input: 'qb', expected: 'right' },
]
const notAFolder = join(dir, 'not-a-folder')
writeFileSync(notAFolder, 'a file where the report folder should be')

async function finish(
  options: Partial<GoldenOptions<any, any, any>>,
  ctx: { testPath?: string; updateMode?: UpdateMode; run?: boolean; env?: Record<string, string> } = {},
) {
  const suite = new GoldenSuite('bot', { dataset: [], task: () => 'right', scorers: { exact: true }, report: false, ...options })
  suite.setCases(validateCases(cases))
  if (ctx.run !== false) for (const c of suite.cases) await suite.runCase(c)
  const outcome = suite.finish({ runner: 'vitest', testPath: ctx.testPath, updateMode: ctx.updateMode ?? 'new', env: ctx.env ?? {} })
  return { suite, outcome, message: GoldenSuite.failureMessage('bot', outcome) }
}

describe('GoldenSuite.finish', () => {
  test('a report that cannot be written fails the aggregate with the path and the fix, and no report file is named', async () => {
    const { outcome, message } = await finish({ report: { dir: notAFolder, console: false } }, { testPath: join(dir, 'x.test.ts') })
    expect(outcome.reportFile).toBeUndefined()
    expect(outcome.failures).toHaveLength(1)
    expect(outcome.failures[0]).toMatch(
      /^the JSON report could not be written to .*not-a-folder.*bot\.json: .+\. Check that the folder is writable, or pass report: \{ dir \}\.$/,
    )
    expect(message).toMatch(/^\[expect-llm\] Golden suite "bot" failed 1 check:\n\n1\. the JSON report could not be written/)
    expect(message).not.toContain('Report:')
    expect(message).toBe(`[expect-llm] Golden suite "bot" failed 1 check:\n\n1. ${outcome.failures[0]}`)
  })

  test('a baseline needs the test file: without it the baseline check fails and says so', async () => {
    const { outcome } = await finish({ baseline: true })
    expect(outcome.report.baseline).toBeNull()
    expect(outcome.report.checks).toEqual([{ name: 'baseline', ok: false, message: 'baseline: the test file is unknown' }])
    expect(outcome.failures).toEqual(['the baseline needs the test file path, which the runner did not give. Run the suite from a test file.'])
  })

  test('baseline statuses: created (written), compared, updated with -u; baseline: false reads and writes nothing', async () => {
    const testPath = join(dir, 'status.test.ts')
    const path = baselinePath(testPath, 'bot')
    const none = await finish({ baseline: false }, { testPath })
    expect(none.outcome.report.baseline).toBeNull()
    expect(existsSync(path)).toBe(false)
    const created = await finish({ baseline: true }, { testPath })
    expect(created.outcome.report.baseline).toEqual({ path, status: 'created' })
    expect(created.outcome.report.checks).toEqual([{ name: 'baseline', ok: true, message: `baseline written: ${path}` }])
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ version: 1, suite: 'bot', cases: { a: { pass: true, scores: { exact: 1 } } } })
    const compared = await finish({ baseline: { tolerance: 0 } }, { testPath })
    expect(compared.outcome.report.baseline).toMatchObject({ path, status: 'compared', comparison: { regressions: [] } })
    expect(compared.outcome.failures).toEqual([])
    const updated = await finish({ baseline: true, task: () => 'wrong' }, { testPath, updateMode: 'all' })
    expect(updated.outcome.report.baseline).toEqual({ path, status: 'updated' })
    expect(updated.outcome.report.checks.at(-1)).toEqual({ name: 'baseline', ok: true, message: `baseline updated: ${path}` })
    expect(JSON.parse(readFileSync(path, 'utf8')).cases.a).toEqual({ pass: false, scores: { exact: 0 } })
  })

  test('a missing baseline in CI (update mode none) fails the baseline check with its path, and writes nothing', async () => {
    const testPath = join(dir, 'missing.test.ts')
    const path = baselinePath(testPath, 'bot')
    const { outcome } = await finish({ baseline: true }, { testPath, updateMode: 'none' })
    expect(outcome.report.baseline).toEqual({ path, status: 'missing' })
    expect(outcome.report.checks).toEqual([{ name: 'baseline', ok: false, message: `baseline ${path} is missing` }])
    expect(outcome.failures).toEqual([
      `the baseline ${path} is missing, and snapshots are not written in CI. Run the suite locally (it writes the baseline) and commit the file.`,
    ])
    expect(existsSync(path)).toBe(false)
  })

  test('CI without -u writes a first baseline and warns of nothing; only -u in CI is refused', async () => {
    const testPath = join(dir, 'ci-new.test.ts')
    const path = baselinePath(testPath, 'bot')
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const created = await finish({ baseline: true }, { testPath, env: { CI: 'true' } })
    expect(created.outcome.report.baseline).toEqual({ path, status: 'created' })
    expect(warn).not.toHaveBeenCalled()
    const refused = await finish({ baseline: true, task: () => 'wrong' }, { testPath, updateMode: 'all', env: { CI: 'true' } })
    expect(refused.outcome.report.baseline).toMatchObject({ path, status: 'compared' })
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]![0])).toContain(`Failed to update the golden baseline ${path}: CI is set`)
  })

  test('a drop against the baseline with tolerance 0 fails the baseline check; per-scorer tolerances override it', async () => {
    const testPath = join(dir, 'tolerance.test.ts')
    await finish({ baseline: true }, { testPath })
    const strict = await finish({ baseline: { tolerance: 0 }, task: (i: string) => (i === 'qa' ? 'wrong' : 'right') }, { testPath })
    expect(strict.outcome.report.checks.at(-1)).toMatchObject({ name: 'baseline', ok: false, message: 'baseline: exact mean 0.50 vs 1' })
    expect(strict.message).toContain(`scores regressed against the baseline ${baselinePath(testPath, 'bot')}:`)
    const loose = await finish({ baseline: { tolerance: 0, tolerances: { exact: 0.5 } }, task: (i: string) => (i === 'qa' ? 'wrong' : 'right') }, { testPath })
    expect(loose.outcome.report.checks.at(-1)).toMatchObject({ name: 'baseline', ok: true })
    const defaulted = await finish({ baseline: true, task: (i: string) => (i === 'qa' ? 'wrong' : 'right') }, { testPath })
    expect(defaulted.outcome.report.baseline).toMatchObject({ comparison: { scorers: [{ scorer: 'exact', tolerance: 0.05 }] } })
  })

  test('a suite whose cases never ran: no duration, no pass rate, and finish gives the same outcome twice', async () => {
    const { suite, outcome } = await finish({}, { run: false })
    expect(outcome.report.durationMs).toBe(0)
    expect(outcome.report.summary).toMatchObject({ cases: 2, ran: 0, passRate: null })
    expect(suite.finish({ runner: 'vitest', testPath: undefined, updateMode: 'new' })).toBe(outcome)
  })

  test('the report names the test file relative to the working directory, and its runner', async () => {
    const { outcome } = await finish({}, { testPath: join(process.cwd(), 'test/golden/x.test.ts') })
    expect(outcome.report).toMatchObject({ file: 'test/golden/x.test.ts', runner: 'vitest' })
    const outside = await finish({}, { testPath: join(dir, 'y.test.ts') })
    expect(outside.outcome.report.file).toBe(join(dir, 'y.test.ts'))
    expect((await finish({})).outcome.report.file).toBeNull()
  })

  test('the failure message numbers every failed check and ends with the report file, relative to the working directory', () => {
    const message = GoldenSuite.failureMessage('bot', {
      report: {} as never,
      failures: ['first', 'second\nwith a second line'],
      summary: '',
      reportFile: join(process.cwd(), '.expect-llm/reports/bot.json'),
    })
    expect(message).toBe(
      '[expect-llm] Golden suite "bot" failed 2 checks:\n\n1. first\n\n2. second\nwith a second line\n\nReport: .expect-llm/reports/bot.json',
    )
    expect(GoldenSuite.failureMessage('bot', { report: {} as never, failures: [], summary: '' })).toBeUndefined()
  })

  test("a shard's slice leaves the gates, the budget and the baseline to the merge", async () => {
    vi.stubEnv('EXPECT_LLM_SHARD', '1/2')
    const testPath = join(dir, 'shard.test.ts')
    const { outcome, suite } = await finish(
      {
        task: () => 'wrong',
        thresholds: { passRate: 1, mean: { exact: 1 } },
        budget: { maxTokens: 0, p95LatencyMs: 0 },
        baseline: true,
        report: { dir: join(dir, 'shards'), console: false },
      },
      { testPath },
    )
    expect(suite.cases).toHaveLength(1)
    expect(outcome.failures).toEqual([])
    expect(outcome.report.checks).toEqual([])
    expect(outcome.report.baseline).toBeNull()
    expect(existsSync(baselinePath(testPath, 'bot'))).toBe(false)
    expect(outcome.report.shard).toMatchObject({ index: 1, count: 2, total: 2, positions: [cases.findIndex((c) => c.id === suite.cases[0]!.id)] })
    expect(outcome.report.summary).toMatchObject({ cases: 1, ran: 1, filteredOut: 0 })
    expect(outcome.reportFile).toMatch(/[/\\]shard\.test\.ts[/\\]bot\.shard-1-of-2\.json$/)
  })
})

describe('CompareSuite.finish', () => {
  test('a report that cannot be written is a failure of the comparison', async () => {
    const suite = new CompareSuite('cmp', {
      dataset: [],
      variants: { a: () => 'right', b: () => 'right' },
      scorers: { exact: true },
      resamples: 100,
      report: { dir: notAFolder, console: false },
    })
    suite.setCases(validateCases(cases))
    for (const c of suite.cases) await suite.runCase(c)
    const outcome = suite.finish({ runner: 'vitest', testPath: join(dir, 'c.test.ts') })
    expect(outcome.reportFile).toBeUndefined()
    expect(outcome.failure).toMatch(
      /^\[expect-llm\] Golden comparison "cmp" failed:\n {2}- the JSON report could not be written to .*cmp\.json: .+\n\ncompare › cmp/,
    )
    expect(outcome.report.file).toBe(join(dir, 'c.test.ts'))
  })

  test('the report: variants, each variant usage, rows with outputs, passes, scores and details; a suite that never ran has no duration', async () => {
    const suite = new CompareSuite('cmp', {
      dataset: [],
      variants: {
        a: () => ({ output: 'right', usage: { inputTokens: 10, outputTokens: 2, model: 'gpt-4o-mini' } }),
        b: () => ({ output: 'wrong', usage: { inputTokens: 5, outputTokens: 1, model: 'my-local-model' } }),
      },
      scorers: { exact: true },
      resamples: 100,
      report: false,
    })
    suite.setCases(validateCases([{ id: 'a', input: 'qa', expected: 'right', tags: ['t'] }]))
    const never = new CompareSuite('never', { dataset: [], variants: { a: () => '', b: () => '' }, report: false })
    never.setCases(validateCases(cases))
    expect(never.finish({ runner: 'jest', testPath: undefined }).report.durationMs).toBe(0)
    await suite.runCase(suite.cases[0]!)
    const { report } = suite.finish({ runner: 'jest', testPath: undefined })
    expect(report).toMatchObject({ kind: 'compare', runner: 'jest', file: null, variants: ['a', 'b'], cases: 1 })
    expect(report.models.app).toEqual({ a: ['gpt-4o-mini'], b: ['my-local-model'] })
    expect(report.usage.app.a).toMatchObject({ calls: 0, inputTokens: 10, outputTokens: 2, totalTokens: 12, unpricedModels: [] })
    expect(report.usage.app.a!.costUsd).toBeGreaterThan(0)
    expect(report.usage.app.b).toMatchObject({ inputTokens: 5, outputTokens: 1, totalTokens: 6, costUsd: null, unpricedModels: ['my-local-model'] })
    expect(report.rows).toEqual([
      {
        id: 'a',
        input: 'qa',
        expected: 'right',
        tags: ['t'],
        outputs: { a: 'right', b: 'wrong' },
        pass: { a: true, b: false },
        scores: { a: { exact: 1 }, b: { exact: 0 } },
        details: { b: { exact: expect.stringContaining('no acceptable answer matches') } },
      },
    ])
    expect(report.options).toEqual({ resamples: 100, seed: 42, confidence: 0.95 })
  })
  /** A comparison of 'right' (a) against 'wrong' (b) on `all`, every case run, not finished yet. */
  const ranCompare = async (options: Partial<CompareOptions<any, any, any>>, all: Array<{ id: string; input: string; expected?: string }> = cases) => {
    const suite = new CompareSuite('cmp', { dataset: [], variants: { a: () => 'right', b: () => 'wrong' }, resamples: 100, report: false, ...options })
    suite.setCases(validateCases(all))
    for (const c of suite.cases) await suite.runCase(c)
    return suite
  }
  const finishCompare = async (options: Partial<CompareOptions<any, any, any>>, all?: Array<{ id: string; input: string; expected?: string }>) =>
    (await ranCompare(options, all)).finish({ runner: 'vitest', testPath: undefined }).report

  test('the report keeps the scorer named in expect, and the expectation is decided on it', async () => {
    const report = await finishCompare({ scorers: { exact: true, contains: true }, expect: { better: 'b', scorer: 'contains' } })
    expect(report.options).toStrictEqual({ resamples: 100, seed: 42, confidence: 0.95, expect: { better: 'b', scorer: 'contains' } })
    expect(report.expectation).toMatchObject({ scorer: 'contains' })
  })

  test('the report keeps no expect.scorer key when none is named', async () => {
    const report = await finishCompare({ scorers: { exact: true }, expect: { better: 'b', minDelta: 0.1 } })
    expect(report.options).toStrictEqual({ resamples: 100, seed: 42, confidence: 0.95, expect: { better: 'b', minDelta: 0.1 } })
  })

  test('a row without expected, tags or details has no such keys', async () => {
    const report = await finishCompare({ variants: { a: () => 'same', b: () => 'same' } }, [{ id: 'a', input: 'qa' }])
    expect(report.rows).toStrictEqual([{ id: 'a', input: 'qa', outputs: { a: 'same', b: 'same' }, pass: { a: true, b: true }, scores: { a: {}, b: {} } }])
  })

  test("a shard's slice leaves the expectation to the merge, and nothing without one", async () => {
    vi.stubEnv('EXPECT_LLM_SHARD', '1/2')
    const shardOf = async (e?: { better: string }) => (await finishCompare({ scorers: { exact: true }, ...(e ? { expect: e } : {}) })).shard
    expect((await shardOf())?.deferred).toEqual([])
    expect((await shardOf({ better: 'b' }))?.deferred).toEqual(['expectation'])
  })

  test("a shard's slice does not fail on an expectation its cases do not meet: the merge decides it", async () => {
    vi.stubEnv('EXPECT_LLM_SHARD', '1/2')
    const suite = await ranCompare({ scorers: { exact: true }, expect: { better: 'b' } })
    const outcome = suite.finish({ runner: 'vitest', testPath: undefined })
    expect(outcome.report.expectation).toMatchObject({ better: 'b', ok: false })
    expect(outcome.failure).toBeUndefined()
  })

  test("a shard's summary ends with the shard line; without a shard, the summary is the comparison's alone", async () => {
    const summaryOf = async () => (await ranCompare({ scorers: { exact: true } })).finish({ runner: 'vitest', testPath: undefined })
    const whole = await summaryOf()
    expect(whole.summary).toBe(formatCompareSummary(whole.report))
    vi.stubEnv('EXPECT_LLM_SHARD', '2/2')
    const shard = await summaryOf()
    expect(shard.summary).toBe(`${formatCompareSummary(shard.report)}\n  shard 2/2: 1 of 2 cases`)
  })

  test('the duration runs from the first case to finish, not from a later case', async () => {
    let clock = 1000
    vi.spyOn(performance, 'now').mockImplementation(() => clock)
    const suite = new CompareSuite('cmp', {
      dataset: [],
      variants: { a: () => 'right', b: () => 'right' },
      scorers: { exact: true },
      resamples: 100,
      report: false,
    })
    suite.setCases(validateCases(cases))
    await suite.runCase(suite.cases[0]!)
    clock = 1500
    await suite.runCase(suite.cases[1]!)
    clock = 1750.4
    expect(suite.finish({ runner: 'vitest', testPath: undefined }).report.durationMs).toBe(750)
  })

  test('the evaluator usage counts the judge calls of the cases, not the calls recorded before the first case', async () => {
    recordModelUsage({ kind: 'judge', model: 'gpt-4o', inputTokens: 1000, outputTokens: 100 })
    const judge = () => {
      recordModelUsage({ kind: 'judge', model: 'gpt-4o-mini', inputTokens: 10, outputTokens: 1 })
      return { score: 1, reasoning: 'ok' }
    }
    const report = await finishCompare({ scorers: { judge: { criteria: 'Correct.', judge } } })
    expect(report.usage.evaluator).toMatchObject({ calls: 4, inputTokens: 40, outputTokens: 4, totalTokens: 44 })
    expect(report.models.judge).toEqual(['gpt-4o-mini'])
  })

  test("the semantic check's warm-up embeds the references of all the comparison's cases first, in one request", async () => {
    clearEmbeddingCache()
    const embedded: string[][] = []
    const embedder = (texts: string[]) => {
      embedded.push(texts)
      return texts.map((t) => (t === 'right' ? [1, 0] : [0, 1]))
    }
    const suite = new CompareSuite('cmp', {
      dataset: [],
      variants: { a: () => 'right', b: () => 'fine' },
      scorers: { semantic: { embedder } },
      resamples: 100,
      report: false,
    })
    suite.setCases(validateCases([cases[0]!, { id: 'b', input: 'qb', expected: 'fine' }]))
    for (const c of suite.cases) expect(suite.caseErrors(await suite.runCase(c))).toBeUndefined()
    expect(embedded[0]).toEqual(['fine', 'right'])
    expect(suite.finish({ runner: 'vitest', testPath: undefined }).report.rows?.map((r) => r.scores)).toEqual([
      { a: { semantic: 1 }, b: { semantic: 0 } },
      { a: { semantic: 0 }, b: { semantic: 1 } },
    ])
  })
})
