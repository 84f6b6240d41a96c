// The runner-agnostic core of describeGolden and compareGolden, driven directly (no child runner).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, sep } from 'node:path'
import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { resetConfig } from '../../src/config.js'
import { clearEmbeddingCache } from '../../src/embedders/batch.js'
import { recordModelUsage, resetLedger } from '../../src/ledger.js'
import { baselinePath, readBaseline } from '../../src/golden/baseline.js'
import { CompareSuite } from '../../src/golden/compare.js'
import { validateCases } from '../../src/golden/dataset.js'
import { GoldenSuite, type UpdateMode } from '../../src/golden/suite.js'
import type { CompareOptions, GoldenCaseInput, GoldenOptions } from '../../src/golden/types.js'

const dir = mkdtempSync(join(tmpdir(), 'golden-suite-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
beforeEach(() => {
  resetLedger()
  resetConfig()
  clearEmbeddingCache()
})

let n = 0
async function run(
  options: Omit<GoldenOptions<any, any, any>, 'dataset'>,
  cases: GoldenCaseInput<any, any, any>[],
  updateMode: UpdateMode = 'new',
  testPath = join(dir, `t${++n}.test.ts`),
  env: Record<string, string | undefined> = {},
) {
  const suite = new GoldenSuite('support bot', { dataset: cases, report: { dir: join(dir, 'reports'), console: false }, ...options })
  suite.setCases(validateCases(cases))
  const results = []
  for (const c of suite.cases) results.push(await suite.runCase(c))
  const outcome = suite.finish({ runner: 'vitest', testPath, updateMode, env })
  return { suite, results, outcome, testPath, message: GoldenSuite.failureMessage('support bot', outcome) }
}

const answers: Record<string, string> = {
  refund: 'You can ask for a refund within 30 days.',
  ship: 'Shipping costs five dollars.',
  ceo: 'The CEO lives at 1 Main Street.',
  canada: 'Yes, we ship to Canada.',
}
const cases = [
  { id: 'refund', input: 'refund', expected: 'You can ask for a refund within 30 days.', keywords: ['30 days'] },
  { id: 'ship', input: 'ship', expected: 'Shipping is free on orders over $50.' },
  { id: 'ceo', input: 'ceo', answerable: false },
  { id: 'canada', input: 'canada', expected: 'Yes, we ship to Canada in 5 to 7 business days.', keywords: ['Canada', '5 to 7 business days'] },
]

describe('scorers and the defaults that follow the case', () => {
  test('refusal for answerable: false, keywords for keywords, lexical scorers only where there is a reference', async () => {
    const { results } = await run({ task: (i: string) => answers[i] as string, scorers: { rougeL: 0.5, exact: true } }, cases)
    const by = Object.fromEntries(results.map((r) => [r.c.id, r]))
    expect(Object.keys(by.refund!.scores)).toEqual(['exact', 'rougeL', 'keywords'])
    expect(by.refund!.pass).toBe(true)
    expect(Object.keys(by.ceo!.scores)).toEqual(['refusal'])
    expect(by.ceo!.scores.refusal).toMatchObject({ score: 0, pass: false, detail: expect.stringContaining('should refuse (answerable: false) but answered') })
    expect(by.canada!.scores.keywords).toMatchObject({ score: 0.5, pass: false, detail: 'missing "5 to 7 business days"' })
    expect(by.ship!.scores.exact).toMatchObject({ score: 0, pass: false })
  })

  test('a listed refusal scorer also catches a refused answerable question', async () => {
    const { results } = await run({ task: () => "I don't know.", scorers: { refusal: true } }, [
      { id: 'a', input: 'hours?' },
      { id: 'b', input: 'secret?', answerable: false },
    ])
    expect(results.map((r) => [r.c.id, r.scores.refusal?.pass])).toEqual([
      ['a', false],
      ['b', true],
    ])
    expect(results[0]!.scores.refusal?.detail).toContain('refused an answerable question')
  })

  test('retrieval with the lucky-tie guard, and the diagnosis of a wrong answer', async () => {
    const task = (input: string) =>
      input === 'lucky'
        ? {
            output: 'Refunds take 30 days.',
            retrieved: [
              { id: 'faq', score: 0.9 },
              { id: 'refunds', score: 0.7 },
              { id: 'shipping', score: 0.7 },
            ],
          }
        : input === 'misused'
          ? {
              output: 'Refunds take a year.',
              retrieved: [
                { id: 'refunds', score: 0.9 },
                { id: 'faq', score: 0.5 },
              ],
            }
          : { output: 'Refunds take 30 days.', retrieved: ['refunds'] }
    const { results } = await run({ task, scorers: { retrieval: { k: 2 }, contains: true } }, [
      { id: 'lucky', input: 'lucky', expected: '30 days', relevant: ['refunds'] },
      { id: 'misused', input: 'misused', expected: '30 days', relevant: ['refunds'] },
      { id: 'clean', input: 'clean', expected: '30 days', relevant: ['refunds'] },
    ])
    const [lucky, misused, clean] = results
    expect(lucky!.scores.retrieval).toMatchObject({ score: 0, pass: false, detail: expect.stringContaining('lucky tie') })
    expect(lucky!.runs[0]!.diagnosis).toBe('retrieval')
    expect(misused!.scores.retrieval?.pass).toBe(true)
    expect(misused!.runs[0]!.diagnosis).toBe('generation')
    expect(clean!.pass).toBe(true)
  })

  test('a passing run with a retrieval check has no diagnosis key', async () => {
    const { results } = await run(
      { task: () => ({ output: 'Refunds take 30 days.', retrieved: ['refunds'] }), scorers: { retrieval: { k: 2 }, contains: true } },
      [{ id: 'clean', input: 'clean', expected: '30 days', relevant: ['refunds'] }],
    )
    expect(results[0]!.pass).toBe(true)
    expect(Object.keys(results[0]!.runs[0]!)).not.toContain('diagnosis')
  })

  test('a case with relevant ids and a task without retrieved fails with the fix', async () => {
    const { results } = await run({ task: () => 'x' }, [{ id: 'r', input: 'q', relevant: ['doc'] }])
    expect(results[0]!.runs[0]!.error).toContain('case "r" lists relevant documents but the task returned no retrieved items')
  })

  test('semantic and judge scorers call the configured embedder and judge through the shared src functions', async () => {
    const embedded: string[][] = []
    const vectors: Record<string, number[]> = { 'Refunds within 30 days.': [1, 0], 'You have 30 days for a refund.': [0.9, 0.1], 'Shipping is free.': [0, 1] }
    const embedder = (texts: string[]) => {
      embedded.push(texts)
      return texts.map((t) => vectors[t] ?? [0.5, 0.5])
    }
    const judged: string[] = []
    const judge = (req: { criteria?: string; reference?: string; output: string }) => {
      judged.push(`${req.criteria ?? ''}|${req.reference ?? ''}`)
      return { score: req.output.includes('30') ? 1 : 0, reason: 'mentions the window' }
    }
    const { results } = await run(
      {
        task: (i: string) => (i === 'a' ? 'You have 30 days for a refund.' : 'Shipping is free.'),
        scorers: { semantic: { threshold: 0.8, embedder }, judge: { judge } },
        concurrency: 2,
      },
      [
        { id: 'a', input: 'a', expected: 'Refunds within 30 days.', criteria: 'States the refund window' },
        { id: 'b', input: 'b', expected: 'Refunds within 30 days.' },
      ],
    )
    expect(results[0]!.scores.semantic?.score).toBeCloseTo(0.9 / Math.hypot(0.9, 0.1), 12)
    expect(results[1]!.scores.semantic).toMatchObject({ score: 0, pass: false })
    // References first, together; then each output on its own.
    expect(embedded).toEqual([['Refunds within 30 days.'], ['You have 30 days for a refund.'], ['Shipping is free.']])
    expect(judged.sort()).toEqual(['States the refund window|Refunds within 30 days.', '|Refunds within 30 days.'].sort())
    expect(results[0]!.scores.judge).toMatchObject({ score: 1, pass: true, detail: 'mentions the window' })
  })

  test('unknown scorers and bad thresholds are rejected before any case runs', () => {
    expect(() => new GoldenSuite('s', { dataset: [], task: () => '', scorers: { rogueL: 0.3 } as never })).toThrow(
      '[expect-llm] Failed to set up the golden scorers: unknown scorer "rogueL". Valid scorers are: exact, contains, tokenF1, rougeL',
    )
    expect(() => new GoldenSuite('s', { dataset: [], task: () => '', scorers: { rougeL: 1.5 } })).toThrow(
      'the threshold of "rougeL" must be a number from 0 to 1 or null, got a number (1.5)',
    )
    expect(() => new GoldenSuite('s', { dataset: [], task: () => '', repeat: 2, passAt: 3 })).toThrow('"passAt" (3) is more than "repeat" (2)')
  })
})

describe('aggregate checks', () => {
  test('passRate fails with the failing cases listed worst first; case tests stay soft', async () => {
    const { outcome, message, suite, results } = await run(
      { task: (i: string) => answers[i] as string, scorers: { rougeL: 0.5 }, thresholds: { passRate: 0.9 } },
      cases,
    )
    expect(outcome.report.summary).toMatchObject({ ran: 4, passed: 1, failed: 3, passRate: 0.25 })
    expect(message).toContain('[expect-llm] Golden suite "support bot" failed 1 check:')
    expect(message).toContain('1. pass rate 1/4 = 25.0% is below 90.0%. Failing cases, worst first:')
    const listed = message!
      .split('\n')
      .filter((l) => l.startsWith('  - '))
      .map((l) => l.slice(4).split(':')[0])
    // ceo: refusal 0 (margin -1); canada: keywords 0.5 (margin -0.5); ship: rougeL 0.18 (margin -0.32).
    expect(listed).toEqual(['ceo', 'canada', 'ship'])
    expect(results.map((r) => suite.caseFailure(r))).toEqual([undefined, undefined, undefined, undefined])
  })

  test('passRate is met at exactly the threshold and missed just above it', async () => {
    // refund and canada pass exact; ship fails: 2/3 passed.
    const three = [cases[0]!, cases[1]!, { ...cases[3]!, expected: answers.canada, keywords: undefined }]
    const at = await run({ task: (i: string) => answers[i] as string, scorers: { exact: true }, thresholds: { passRate: 2 / 3 } }, three)
    expect(at.outcome.report.summary).toMatchObject({ ran: 3, passed: 2, passRate: 2 / 3 })
    expect(at.outcome.report.checks).toEqual([{ name: 'passRate', ok: true, message: 'pass rate 2/3 = 66.7% >= 66.7%' }])
    expect(at.message).toBeUndefined()
    const above = await run({ task: (i: string) => answers[i] as string, scorers: { exact: true }, thresholds: { passRate: 0.67 } }, three)
    expect(above.outcome.report.checks.map((c) => [c.name, c.ok])).toEqual([['passRate', false]])
    expect(above.message).toContain('1. pass rate 2/3 = 66.7% is below 67.0%. Failing cases, worst first:\n  - ship: exact 0<1  ship\n')
  })

  test('without passRate a failing case fails its own test with the scores, input, expected and actual', async () => {
    const { suite, results } = await run({ task: (i: string) => answers[i] as string, scorers: { rougeL: 0.5 } }, cases.slice(1, 2))
    expect(suite.caseFailure(results[0]!)).toMatch(
      /^\[expect-llm\] Golden case "ship" failed\.\n {2}rougeL: 0\.18 < 0\.50\n {2}input: {4}ship\n {2}expected: Shipping is free on orders over \$50\.\n {2}actual: {3}Shipping costs five dollars\.$/,
    )
  })

  test('scorer errors: each on its own lines, never cut in the middle, in the summary and the case failure', async () => {
    const judgeError = `[expect-llm] Failed to run the judge: the server answered 401 Unauthorized ${'(a long explanation of what went wrong) '.repeat(6)}Set OPENAI_API_KEY, or configure({ judge: { apiKey } }).`
    const embedderError = '[expect-llm] Failed to embed: connection refused by http://127.0.0.1:9/v1.\nStart the server, or check embedder.baseURL.'
    const { outcome, suite, results } = await run(
      {
        task: () => 'You can ask for a refund within 30 days.',
        scorers: {
          judge: { criteria: 'Polite', judge: () => Promise.reject(new Error(judgeError)) },
          semantic: { embedder: () => Promise.reject(new Error(embedderError)) },
        },
        report: { dir: join(dir, 'reports'), console: true },
      },
      [{ id: 'refund', input: 'refund', expected: 'Refunds within 30 days.' }],
    )
    // Scorers run in a fixed order (semantic before judge), whatever the order of the options.
    const summary = outcome.summary.split('\n')
    const at = summary.findIndex((l) => l.includes('error: scorer semantic failed:'))
    expect(at).toBeGreaterThan(0)
    expect(summary.slice(at, at + 3)).toEqual([
      '      error: scorer semantic failed: [expect-llm] Failed to embed: connection refused by http://127.0.0.1:9/v1.',
      '             Start the server, or check embedder.baseURL.',
      `      error: scorer judge failed: ${judgeError}`,
    ])
    expect(suite.caseFailure(results[0]!)).toBe(
      [
        '[expect-llm] Golden case "refund" failed.',
        `  error: scorer semantic failed: ${embedderError.replace('\n', '\n         ')}`,
        `  error: scorer judge failed: ${judgeError}`,
        '  input:    refund',
        '  expected: Refunds within 30 days.',
        '  actual:   You can ask for a refund within 30 days.',
      ].join('\n'),
    )
    expect(outcome.report.cases[0]?.errors).toEqual([`scorer semantic failed: ${embedderError}`, `scorer judge failed: ${judgeError}`])
    expect(results[0]!.runs[0]!.error).toBe(`scorer semantic failed: ${embedderError}\nscorer judge failed: ${judgeError}`)
  })

  test('per-scorer mean and min thresholds', async () => {
    const { outcome, message } = await run(
      { task: (i: string) => answers[i] as string, scorers: { rougeL: null }, thresholds: { mean: { rougeL: 0.9 }, min: { rougeL: 0.1 } } },
      cases,
    )
    expect(outcome.report.scorers.rougeL).toMatchObject({ count: 3, threshold: null, passRate: 1 })
    expect(outcome.report.checks.map((c) => [c.name, c.ok])).toEqual([
      ['mean.rougeL', false],
      ['min.rougeL', true],
    ])
    expect(message).toMatch(
      /mean rougeL 0\.\d+ is below 0\.9\. Cases below 0\.9, worst first:\n {2}- canada: rougeL 0\.63 {2}canada\n {2}- ship: rougeL 0\.18 {2}ship/,
    )
  })

  test('repeat and passAt: flaky cases are listed with their pass counts', async () => {
    const calls: Record<string, number> = {}
    const task = (i: string) => {
      calls[i] = (calls[i] ?? 0) + 1
      if (i === 'flaky') return calls[i] % 2 === 0 ? 'no' : 'yes'
      return i === 'good' ? 'yes' : 'no'
    }
    const { results, outcome } = await run({ task, scorers: { exact: true }, repeat: 3, passAt: 2 }, [
      { id: 'good', input: 'good', expected: 'yes' },
      { id: 'flaky', input: 'flaky', expected: 'yes' },
      { id: 'bad', input: 'bad', expected: 'yes' },
    ])
    expect(results.map((r) => [r.c.id, r.passes, r.runs.length, r.pass, r.flaky])).toEqual([
      ['good', 3, 3, true, false],
      ['flaky', 2, 3, true, true],
      ['bad', 0, 3, false, false],
    ])
    expect(results[1]!.scores.exact?.score).toBeCloseTo(2 / 3, 12)
    expect(outcome.summary).toContain('flaky: flaky (2/3)')
    expect(outcome.report.summary.flaky).toBe(1)
  })

  test('passAt holds per scorer too: a case whose scorer passed 1 run of 3 fails that scorer with passAt: 2', async () => {
    let call = 0
    const { results, outcome, suite } = await run({ task: () => (++call === 1 ? 'yes' : 'no'), scorers: { exact: true }, repeat: 3, passAt: 2 }, [
      { id: 'rare', input: 'q', expected: 'yes' },
    ])
    const [rare] = results
    expect(rare).toMatchObject({ passes: 1, pass: false, flaky: true })
    expect(rare!.scores.exact).toMatchObject({ pass: false, threshold: 1 })
    expect(rare!.scores.exact!.score).toBeCloseTo(1 / 3, 12)
    expect(outcome.report.scorers.exact).toMatchObject({ count: 1, passRate: 0 })
    expect(suite.caseFailure(rare!)).toContain('[expect-llm] Golden case "rare" failed: 1 of 3 runs passed, 2 needed.\n  exact: 0.33 < 1 (no acceptable')
  })

  test('budget: P95 latency, tokens and cost from app usage plus the evaluator ledger, reported apart', async () => {
    recordModelUsage({ kind: 'judge', model: 'stale-entry', inputTokens: 999_999 }) // before the suite: not counted
    const task = (i: string) => {
      recordModelUsage({ kind: 'judge', model: 'gpt-4o-mini', inputTokens: 1000, outputTokens: 100 })
      return { output: i, latencyMs: Number(i), usage: { inputTokens: 2000, outputTokens: 500, model: 'gpt-4o-mini' } }
    }
    const latencies = ['100', '200', '300', '400', '5000']
    const { outcome, message } = await run(
      { task, budget: { p95LatencyMs: 1000, maxTokens: 10_000, maxCostUsd: 1 } },
      latencies.map((l) => ({ id: `c${l}`, input: l })),
    )
    const u = outcome.report.usage
    // P95 of [100, 200, 300, 400, 5000] = 400 + 0.8 × 4600 = 4080
    expect(u.latencyMs).toMatchObject({ p50: 300, sources: { task: 5 } })
    expect(u.latencyMs.p95).toBeCloseTo(4080, 9)
    expect(u.app).toMatchObject({ inputTokens: 10_000, outputTokens: 2_500, totalTokens: 12_500 })
    expect(u.app.costUsd).toBeCloseTo((10_000 * 0.15 + 2_500 * 0.6) / 1e6, 12)
    expect(u.evaluator).toMatchObject({ calls: 5, inputTokens: 5_000, outputTokens: 500 })
    expect(u.total.totalTokens).toBe(18_000)
    expect(outcome.report.checks.map((c) => [c.name, c.ok])).toEqual([
      ['budget.p95LatencyMs', false],
      ['budget.maxTokens', false],
      ['budget.maxCostUsd', true],
    ])
    expect(message).toContain('P95 latency 4,080 ms is over the budget of 1,000 ms. Slowest cases:\n  - c5000: 5,000 ms')
    expect(message).toContain('tokens 18,000 > 10,000 (app 12,500, evaluator 5,500)')
  })

  test('a cost budget fails as unknown when an evaluator call reported no usage, even for a priced model', async () => {
    const task = () => {
      recordModelUsage({ kind: 'embedding', model: 'gemini-embedding-001' }) // Gemini embeddings report no usage
      return 'x'
    }
    const { outcome, message } = await run({ task, budget: { maxCostUsd: 1 } }, [{ input: 'q' }])
    expect(outcome.report.checks.map((c) => [c.name, c.ok])).toEqual([['budget.maxCostUsd', false]])
    expect(message).toContain('no price for gemini-embedding-001 (no token usage reported)')
  })

  test('a cost budget with an unpriced model fails and names the model', async () => {
    const { message } = await run({ task: () => ({ output: 'x', usage: { inputTokens: 10, model: 'my-local-llama' } }), budget: { maxCostUsd: 1 } }, [
      { input: 'q' },
    ])
    expect(message).toContain("no price for my-local-llama. Add them with configure({ pricing: { '<model>': { inputPerMTok, outputPerMTok } } })")
  })

  test("the task's usage without a model: its own cost, and no model", async () => {
    const { results } = await run({ task: () => ({ output: 'x', usage: { inputTokens: 10, outputTokens: 3, costUsd: 0.02 } }) }, [{ input: 'q' }])
    expect(results[0]!.runs[0]!.usage).toEqual({ calls: 0, inputTokens: 10, outputTokens: 3, costUsd: 0.02, models: [] })
  })

  test('writes the JSON report with the documented fields', async () => {
    const { outcome, testPath } = await run({ task: (i: string) => answers[i] as string, scorers: { rougeL: 0.5 } }, cases)
    // The test file sits outside the working directory: its report still lands under the report dir,
    // in a folder named after the file, with no '..' segment escaping it.
    expect(outcome.reportFile!.startsWith(join(dir, 'reports') + sep)).toBe(true)
    expect(outcome.reportFile!.endsWith(join(basename(testPath), 'support-bot.json'))).toBe(true)
    expect(outcome.reportFile!.split(sep)).not.toContain('..')
    const report = JSON.parse(readFileSync(outcome.reportFile!, 'utf8'))
    expect(report).toMatchObject({
      schemaVersion: 1,
      kind: 'golden',
      suite: 'support bot',
      runner: 'vitest',
      git: { commit: expect.stringMatching(/^[0-9a-f]{40}$/) },
      summary: { cases: 4, ran: 4 },
    })
    expect(report.cases[0]).toMatchObject({
      id: 'refund',
      input: 'refund',
      output: answers.refund,
      pass: true,
      scores: { rougeL: { score: 1, threshold: 0.5, pass: true } },
    })
    expect(Date.parse(report.createdAt)).not.toBeNaN()
  })

  test('a suite finished before its cases are set has none: its summary counts zero cases', () => {
    const suite = new GoldenSuite('support bot', { dataset: cases, task: () => '', report: false })
    const { report } = suite.finish({ runner: 'vitest', testPath: undefined, updateMode: 'none', env: {} })
    expect(report.summary).toEqual({ cases: 0, ran: 0, filteredOut: 0, passed: 0, failed: 0, errored: 0, passRate: null, flaky: 0 })
  })
})

describe('baseline', () => {
  const testPath = join(dir, 'baseline', 'bot.test.ts')
  const good = (i: string) => answers[i] as string
  const worse = (i: string) =>
    i === 'refund' ? 'Refunds are possible.' : i === 'canada' ? 'Yes, we ship to Canada in 5 to 7 business days.' : (answers[i] as string)
  const opts = { scorers: { rougeL: null }, baseline: { tolerance: 0.05 } }

  test('written when missing, compared next time, failing on a mean drop with regressed and improved cases, updated with -u', async () => {
    const first = await run({ task: good, ...opts }, cases, 'new', testPath)
    const path = baselinePath(testPath, 'support bot')
    expect(path).toBe(join(dir, 'baseline', '__golden__', 'bot.test.ts', 'support-bot.json'))
    expect(first.outcome.report.baseline).toMatchObject({ status: 'created' })
    expect(readBaseline(path)?.cases.refund).toEqual({ pass: true, scores: { rougeL: 1, keywords: 1 } })

    const same = await run({ task: good, ...opts }, cases, 'new', testPath)
    expect(same.outcome.report.baseline).toMatchObject({ status: 'compared', comparison: { regressions: [] } })
    expect(same.message).toBeUndefined()

    const regressed = await run({ task: worse, ...opts }, cases, 'new', testPath)
    expect(regressed.message).toContain('scores regressed against the baseline')
    expect(regressed.message).toMatch(/ {2}rougeL: mean 0\.\d+ vs 0\.\d+ \(-0\.\d+, tolerance 0\.05\) over 3 cases/)
    expect(regressed.message).toContain('Regressed cases:\n  - refund: rougeL 1 → 0\n  - refund: keywords 1 → 0\n  - refund: pass 1 → 0')
    expect(regressed.message).toContain('Improved cases:\n  - canada: pass 0 → 1\n  - canada: keywords 0.50 → 1\n  - canada: rougeL 0.63 → 1')
    expect(regressed.message).toContain('If the change is intended, update the baseline with -u.')

    const updated = await run({ task: worse, ...opts }, cases, 'all', testPath)
    expect(updated.outcome.report.baseline).toMatchObject({ status: 'updated' })
    expect(updated.message).toBeUndefined()
    expect(readBaseline(path)?.cases.canada?.scores.rougeL).toBe(1)
    const after = await run({ task: worse, ...opts }, cases, 'new', testPath)
    expect(after.message).toBeUndefined()
  })

  test('a drop within the tolerance passes; a missing baseline in CI fails without writing', async () => {
    const path2 = join(dir, 'tol', 'bot.test.ts')
    await run(
      { task: () => 'a b c d e f g h i j', scorers: { rougeL: null }, baseline: true },
      [{ id: 'x', input: 'x', expected: 'a b c d e f g h i j' }],
      'new',
      path2,
    )
    const slight = await run(
      { task: () => 'a b c d e f g h i j k', scorers: { rougeL: null }, baseline: true },
      [{ id: 'x', input: 'x', expected: 'a b c d e f g h i j' }],
      'new',
      path2,
    )
    expect(slight.outcome.report.baseline?.comparison?.scorers[0]?.delta).toBeCloseTo(20 / 21 - 1, 6)
    expect(slight.message).toBeUndefined()

    const ci = join(dir, 'ci', 'bot.test.ts')
    const missing = await run({ task: () => 'x', baseline: true }, [{ input: 'x' }], 'none', ci)
    expect(missing.message).toContain('is missing, and snapshots are not written in CI. Run the suite locally (it writes the baseline) and commit the file.')
    expect(existsSync(baselinePath(ci, 'support bot'))).toBe(false)
  })
})

describe('baseline update (-u) in CI', () => {
  test('is refused: the committed baseline stays and the run is compared with it', async () => {
    const testPath = join(dir, 'ci-update', 'bot.test.ts')
    const path = baselinePath(testPath, 'support bot')
    await run({ task: () => 'a b c', scorers: { rougeL: null }, baseline: true }, [{ id: 'x', input: 'x', expected: 'a b c' }], 'new', testPath)
    const before = readFileSync(path, 'utf8')
    const warnings: string[] = []
    const warn = console.warn
    console.warn = (m: string) => warnings.push(m)
    try {
      const worse = await run({ task: () => 'z', scorers: { rougeL: null }, baseline: true }, [{ id: 'x', input: 'x', expected: 'a b c' }], 'all', testPath, {
        CI: 'true',
      })
      expect(readFileSync(path, 'utf8')).toBe(before)
      expect(worse.outcome.report.baseline).toMatchObject({ status: 'compared' })
      expect(worse.message).toContain('scores regressed against the baseline')
      expect(worse.outcome.report.checks.find((c) => c.name === 'baseline')?.message).toMatch(/^baseline \(-u ignored: CI is set\): rougeL mean 0 vs 1$/)
    } finally {
      console.warn = warn
    }
    expect(warnings).toEqual([
      expect.stringContaining(
        `[expect-llm] Failed to update the golden baseline ${path}: CI is set, so baselines are not rewritten in CI (-u is ignored; the run is compared with the committed baseline).`,
      ),
    ])
    expect(warnings[0]).toContain('set EXPECT_LLM_ALLOW_BASELINE_UPDATE_IN_CI=1 to update it in CI on purpose')
  })

  test('a missing baseline is not written either', async () => {
    const testPath = join(dir, 'ci-missing', 'bot.test.ts')
    const missing = await run({ task: () => 'x', baseline: true }, [{ input: 'x' }], 'all', testPath, { CI: '1' })
    expect(missing.message).toContain('is missing, and snapshots are not written in CI.')
    expect(existsSync(baselinePath(testPath, 'support bot'))).toBe(false)
  })

  test('EXPECT_LLM_ALLOW_BASELINE_UPDATE_IN_CI=1 allows it on purpose', async () => {
    const testPath = join(dir, 'ci-allowed', 'bot.test.ts')
    await run({ task: () => 'a b c', scorers: { rougeL: null }, baseline: true }, [{ id: 'x', input: 'x', expected: 'a b c' }], 'new', testPath)
    const updated = await run({ task: () => 'z', scorers: { rougeL: null }, baseline: true }, [{ id: 'x', input: 'x', expected: 'a b c' }], 'all', testPath, {
      CI: 'true',
      EXPECT_LLM_ALLOW_BASELINE_UPDATE_IN_CI: '1',
    })
    expect(updated.outcome.report.baseline).toMatchObject({ status: 'updated' })
    expect(readBaseline(baselinePath(testPath, 'support bot'))?.cases.x?.scores.rougeL).toBe(0)
  })
})

describe('compareGolden core', () => {
  async function compare(options: Omit<CompareOptions<any, any, any>, 'dataset'>, data: GoldenCaseInput<any, any, any>[]) {
    const suite = new CompareSuite('v1 vs v2', { dataset: data, report: { dir: join(dir, 'reports'), console: false }, ...options })
    suite.setCases(validateCases(data))
    for (const c of suite.cases) await suite.runCase(c)
    return suite.finish({ runner: 'vitest', testPath: join(dir, 'cmp.test.ts') })
  }
  const data = Array.from({ length: 12 }, (_, i) => ({ id: `q${i}`, input: String(i), expected: `answer ${i} is right` }))
  const v1 = (i: string) => (Number(i) % 3 === 0 ? `answer ${i} is right` : 'no idea')
  const v2 = (i: string) => (Number(i) % 6 === 1 ? 'no idea' : `answer ${i} is right`)

  test('per-scorer means, paired difference with a seeded CI, wins/ties/losses, McNemar, only differing cases', async () => {
    const outcome = await compare({ variants: { v1, v2 }, scorers: { exact: true }, expect: { better: 'v2' } }, data)
    const row = outcome.report.scorers[0]!
    // v1 right on 0,3,6,9 (4/12); v2 wrong on 1,7 (10/12). Discordant: v2 only on 2,4,5,8,10,11 (6); v1 only: none.
    expect(row.means).toEqual({ v1: 4 / 12, v2: 10 / 12 })
    expect(row.pairs[0]).toMatchObject({ a: 'v1', b: 'v2', cases: 12, wins: 6, ties: 6, losses: 0 })
    expect(row.pairs[0]!.meanDiff).toBeCloseTo(0.5, 12)
    expect(row.pairs[0]!.ci.low).toBeGreaterThan(0)
    expect(outcome.report.mcnemar[0]).toMatchObject({ aOnly: 0, bOnly: 6, method: 'exact', pValue: 2 / 64 })
    expect(outcome.report.differing.map((d) => d.id)).toEqual(['q2', 'q4', 'q5', 'q8', 'q10', 'q11'])
    expect(outcome.failure).toBeUndefined()
    expect(outcome.summary).toContain('McNemar v2 vs v1: 6 discordant (v1 only 0, v2 only 6), p = 0.0313 (exact binomial)')
    // Reproducible: the same seed gives the same interval.
    expect((await compare({ variants: { v1, v2 }, scorers: { exact: true } }, data)).report.scorers[0]!.pairs[0]!.ci).toEqual(row.pairs[0]!.ci)
  })

  test('expect fails when the data do not support it', async () => {
    const outcome = await compare({ variants: { v1, v2 }, scorers: { exact: true }, expect: { better: 'v1' } }, data)
    expect(outcome.failure).toContain('[expect-llm] Golden comparison "v1 vs v2" failed:')
    expect(outcome.failure).toMatch(
      /v1 is not shown to be better than v2: v1 vs v2 on exact: mean difference -0\.500, 95% CI \[-0\.\d+, -0\.\d+\] does not lie above 0/,
    )
    const close = await compare({ variants: { v1, v2 }, scorers: { exact: true }, expect: { better: 'v2', minDelta: 0.6 } }, data)
    expect(close.failure).toContain('v2 is not shown to be better than v1 by more than 0.6')
  })

  test('expect: { better } decides on the CI lower bound: a positive mean difference whose interval straddles zero fails', async () => {
    // v2 right on q0-q2 where v1 is wrong, wrong on q3 where v1 is right, tied elsewhere: mean +2/12 > 0,
    // but the 95% interval reaches below zero, so the data do not show that v2 is better.
    const w1 = (i: string) => (i === '3' ? `answer ${i} is right` : 'no idea')
    const w2 = (i: string) => (['0', '1', '2'].includes(i) ? `answer ${i} is right` : 'no idea')
    const outcome = await compare({ variants: { v1: w1, v2: w2 }, scorers: { exact: true }, expect: { better: 'v2' } }, data)
    const pair = outcome.report.scorers[0]!.pairs[0]!
    expect(pair.meanDiff).toBeCloseTo(2 / 12, 12)
    expect(pair.ci.low).toBeLessThan(0)
    expect(pair.ci.high).toBeGreaterThan(0)
    expect(outcome.report.expectation).toMatchObject({ better: 'v2', ok: false })
    expect(outcome.failure).toMatch(
      /v2 is not shown to be better than v1: v2 vs v1 on exact: mean difference \+0\.167, 95% CI \[-0\.\d+, \+0\.\d+\] does not lie above 0/,
    )
  })

  test('a case error lists each variant error on its own line, unabridged', async () => {
    const suite = new CompareSuite('v1 vs v2', {
      dataset: [],
      report: false,
      variants: { v1: () => 'a', v2: () => Promise.reject(new Error('the model server is down.\nStart it first.')) },
      scorers: { exact: true },
    })
    suite.setCases(validateCases([{ id: 'q', input: 'q', expected: 'a' }]))
    const errors = suite.caseErrors(await suite.runCase(suite.cases[0]!))
    expect(errors).toBe('[expect-llm] Failed to compare golden case "q":\n  - v2: the task threw: the model server is down.\n    Start it first.')
  })

  test('a case where every variant fails lists one error per line, in the order of the variants', async () => {
    const suite = new CompareSuite('v1 vs v2', {
      dataset: [],
      report: false,
      variants: { v1: () => Promise.reject(new Error('timeout')), v2: () => Promise.reject(new Error('the model server is down.\nStart it first.')) },
      scorers: { exact: true },
    })
    suite.setCases(validateCases([{ id: 'q', input: 'q', expected: 'a' }]))
    const errors = suite.caseErrors(await suite.runCase(suite.cases[0]!))
    expect(errors).toBe(
      '[expect-llm] Failed to compare golden case "q":\n  - v1: the task threw: timeout\n  - v2: the task threw: the model server is down.\n    Start it first.',
    )
  })

  test('setup errors name the option', () => {
    expect(() => new CompareSuite('c', { dataset: [], variants: { only: () => '' } })).toThrow('"variants" must be an object with at least two tasks')
    expect(() => new CompareSuite('c', { dataset: [], variants: { a: () => '', b: () => '' }, scorers: { exact: true }, expect: { better: 'c' } })).toThrow(
      'expect.better is "c", which is not a variant. Name one of: a, b.',
    )
  })
})
