// User checks (defineCheck), named instances and composites in golden suites, driven through the
// runner-agnostic core (no child runner).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, expectTypeOf, test } from 'vitest'
import { defineCheck } from '../../src/checks/define.js'
import { resetConfig } from '../../src/config.js'
import { resetLedger } from '../../src/ledger.js'
import { CompareSuite } from '../../src/golden/compare.js'
import { validateCases } from '../../src/golden/dataset.js'
import { GoldenSuite, type UpdateMode } from '../../src/golden/suite.js'
import type { GoldenCaseInput, GoldenOptions, GoldenScorers } from '../../src/golden/types.js'
import type { describeGolden } from '../../src/golden/vitest.js'

const dir = mkdtempSync(join(tmpdir(), 'user-checks-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
beforeEach(() => {
  resetLedger()
  resetConfig()
})

let n = 0
async function run(
  options: Omit<GoldenOptions<any, any, any>, 'dataset'>,
  cases: GoldenCaseInput<any, any, any>[],
  updateMode: UpdateMode = 'new',
  testPath = join(dir, `t${++n}.test.ts`),
) {
  const suite = new GoldenSuite('bot', { dataset: cases, report: { dir: join(dir, 'reports'), console: false }, ...options })
  suite.setCases(validateCases(cases))
  const results = []
  for (const c of suite.cases) results.push(await suite.runCase(c))
  const outcome = suite.finish({ runner: 'vitest', testPath, updateMode, env: {} })
  return { results, outcome, testPath, message: GoldenSuite.failureMessage('bot', outcome) }
}

// The LangSmith-style code evaluator: shorter than twice the reference, in characters.
const concise = defineCheck({
  name: 'concise',
  threshold: 1,
  run: (output, c) => {
    const max = 2 * String(c.expected).length
    return output.length < max ? 1 : { score: 0, reason: `${output.length} characters, at least ${max}` }
  },
})
const cases = [
  { id: 'a', input: 'a', expected: 'Refunds within 30 days.' },
  { id: 'b', input: 'b', expected: 'Free shipping.' },
]
const short = { a: 'Within 30 days.', b: 'It is free.' }
const long = { a: 'Within 30 days.', b: 'Shipping is free on every order, whatever its size or destination.' }

describe('a user check in describeGolden', () => {
  test('is scored by its key, with its threshold, detail, mean and report entry', async () => {
    const { results, outcome } = await run({ task: (i: 'a' | 'b') => long[i], scorers: { short: concise } }, cases)
    expect(results[0]!.scores.short).toMatchObject({ score: 1, threshold: 1, pass: true })
    expect(results[1]!.scores.short).toEqual({ score: 0, threshold: 1, pass: false, detail: '66 characters, at least 28' })
    expect(outcome.report.scorers.short).toMatchObject({ count: 2, mean: 0.5, min: 0, max: 1, threshold: 1, passRate: 0.5 })
    expect(outcome.report.options.scorers).toEqual({ short: 1 })
  })

  test('is gated by thresholds.mean.<key>', async () => {
    const { outcome, message } = await run(
      { task: (i: 'a' | 'b') => long[i], scorers: { short: concise.with({ threshold: null }) }, thresholds: { mean: { short: 0.9 } } },
      cases,
    )
    expect(outcome.report.checks).toEqual([{ name: 'mean.short', ok: false, message: 'mean short 0.50 < 0.90' }])
    expect(message).toContain('mean short 0.500 is below 0.9. Cases below 0.9, worst first:\n  - b: short 0')
  })

  test('a mean at or above the gate passes', async () => {
    const { outcome } = await run({ task: (i: 'a' | 'b') => short[i], scorers: { short: concise }, thresholds: { mean: { short: 1 } } }, cases)
    expect(outcome.failures).toEqual([])
  })

  test('a baseline records it and fails on its regression', async () => {
    const testPath = join(dir, 'baseline.test.ts')
    const first = await run({ task: (i: 'a' | 'b') => short[i], scorers: { short: concise }, baseline: true }, cases, 'new', testPath)
    expect(first.outcome.report.baseline?.status).toBe('created')
    const second = await run({ task: (i: 'a' | 'b') => long[i], scorers: { short: concise }, baseline: { tolerances: { short: 0.1 } } }, cases, 'new', testPath)
    expect(second.outcome.report.checks.find((c) => c.name === 'baseline')).toMatchObject({ ok: false, message: 'baseline: short mean 0.50 vs 1' })
  })

  test('compareGolden compares variants on it and decides an expectation by its key', async () => {
    const suite = new CompareSuite('cmp', {
      dataset: cases,
      variants: { long: (i: 'a' | 'b') => long[i], short: (i: 'a' | 'b') => short[i] },
      scorers: { short: concise },
      expect: { better: 'short', scorer: 'short' },
      report: false,
    })
    suite.setCases(validateCases(cases))
    for (const c of suite.cases) await suite.runCase(c)
    const outcome = suite.finish({ runner: 'vitest', testPath: join(dir, 'cmp.test.ts') })
    expect(outcome.report.scorers.map((s) => [s.scorer, s.means])).toEqual([['short', { long: 0.5, short: 1 }]])
    expect(outcome.report.expectation).toMatchObject({ better: 'short', scorer: 'short', ok: false })
  })

  test('async checks get the context: references, input text, context documents and options', async () => {
    const seen: unknown[] = []
    const check = defineCheck({
      name: 'probe',
      options: { factor: 2 },
      run: async (output, c, ctx) => {
        seen.push({ output, id: c.id, ...ctx })
        return 0.5
      },
    })
    await run({ task: () => ({ output: 'x', context: ['doc'] }), scorers: { probe: check.with({ options: { factor: 3 } }) } }, [
      { id: 'a', input: { q: 1 }, expected: 'e', acceptable: ['f'] },
    ])
    expect(seen).toEqual([{ output: 'x', id: 'a', key: 'probe', inputText: '{"q":1}', references: ['e', 'f'], context: ['doc'], options: { factor: 3 } }])
  })

  test.each([
    ['a score above 1', 1.5, 'Failed to run check "bad": it returned 1.5, outside [0, 1]. Return a number from 0 to 1, or { score, reason? }.'],
    ['NaN', Number.NaN, 'Failed to run check "bad": it returned NaN.'],
    ['no score', { reason: 'x' }, 'Failed to run check "bad": it returned an object, which has no score.'],
  ])('%s errors the case, naming the check', async (_, value, error) => {
    const bad = defineCheck({ name: 'bad', run: () => value as number })
    const { results } = await run({ task: () => 'x', scorers: { bad } }, [{ id: 'a', input: 'a' }])
    expect(results[0]!.errored).toBe(false)
    expect(results[0]!.pass).toBe(false)
    expect(results[0]!.runs[0]!.error).toContain(`scorer bad failed: [expect-llm] ${error}`)
  })

  test('a throwing run errors the case with the check named', async () => {
    const bad = defineCheck({
      name: 'bad',
      run: () => {
        throw new Error('boom')
      },
    })
    const { results } = await run({ task: () => 'x', scorers: { bad } }, [{ id: 'a', input: 'a' }])
    expect(results[0]!.runs[0]!.error).toBe('scorer bad failed: [expect-llm] Failed to run check "bad": its run function threw: boom')
  })

  test('thresholds naming a key that is neither listed nor built in are rejected before any case runs', () => {
    expect(() => new GoldenSuite('s', { dataset: [], task: () => '', scorers: { short: concise }, thresholds: { mean: { shrot: 0.5 } as never } })).toThrow(
      'thresholds.mean names an unknown scorer "shrot". Valid scorers are: exact, contains, tokenF1, rougeL, rouge1, rouge2, bleu, chrF, ter, edit, keywords, schema, length, semantic, judge, relevance, faithfulness, refusal, retrieval, secrets, pii, moderation, toolF1, toolOrder, toolArguments, goal, composite, short.',
    )
  })

  test('thresholds.mean is typed by the keys of scorers', () => {
    type Options<S extends GoldenScorers> = Parameters<typeof describeGolden<unknown, unknown, Record<string, unknown>, S>>[1]
    expectTypeOf<NonNullable<NonNullable<Options<{ short: typeof concise; rougeL: true }>['thresholds']>['mean']>>().toEqualTypeOf<
      Partial<Record<'short' | 'rougeL' | 'refusal' | 'keywords' | 'retrieval' | 'judge' | 'toolF1' | 'toolOrder' | 'toolArguments', number>>
    >()
  })
})

describe('defineCheck', () => {
  test('rejects a missing name, a missing run, a bad threshold and unknown keys', () => {
    expect(() => defineCheck({ run: () => 1 } as never)).toThrow(
      "[expect-llm] Failed to define the check: the check has no name (got undefined). Pass { name: 'short', run }",
    )
    expect(() => defineCheck({ name: 'x' } as never)).toThrow('check "x" has no run function (got undefined)')
    expect(() => defineCheck({ name: 'x', run: () => 1, threshold: 2 })).toThrow('the threshold of check "x" must be a number from 0 to 1 or null, got 2')
    expect(() => defineCheck({ name: 'x', run: () => 1, treshold: 1 } as never)).toThrow('unknown option "treshold" of check "x"')
  })

  test('with() makes an independent instance; the original is unchanged and frozen', () => {
    const base = defineCheck({ name: 'x', run: () => 1, threshold: 0.5, options: { a: 1 } })
    const other = base.with({ threshold: 0.9, options: { b: 2 } as never })
    expect([base.threshold, base.options, other.threshold, other.options]).toEqual([0.5, { a: 1 }, 0.9, { a: 1, b: 2 }])
    expect(Object.isFrozen(base)).toBe(true)
  })
})

describe('named instances of a built-in check', () => {
  test('two judges in one suite each get their own criteria, threshold and mean', async () => {
    const asked: string[] = []
    const judge = (req: { criteria?: string; output: string }) => {
      asked.push(req.criteria ?? '')
      return req.criteria === 'Is correct' ? { score: true, reason: 'right' } : { score: 2, reason: 'rambling' }
    }
    const { results, outcome } = await run(
      {
        task: () => 'Within 30 days.',
        scorers: {
          'judge:correctness': { criteria: 'Is correct', judge },
          'judge:coherence': { criteria: 'Is coherent', scale: '1-5', threshold: 0.5, judge },
        },
      },
      [{ id: 'a', input: 'refund window?' }],
    )
    expect(asked.sort()).toEqual(['Is coherent', 'Is correct'])
    expect(Object.keys(results[0]!.scores)).toEqual(['judge:correctness', 'judge:coherence'])
    expect(results[0]!.scores['judge:correctness']).toMatchObject({ score: 1, threshold: 0.7, pass: true, detail: 'right' })
    expect(results[0]!.scores['judge:coherence']).toMatchObject({ score: 0.25, threshold: 0.5, pass: false, detail: 'rambling' })
    expect(Object.keys(outcome.report.scorers)).toEqual(['judge:correctness', 'judge:coherence'])
  })

  test('an unknown check before the colon is rejected', () => {
    expect(() => new GoldenSuite('s', { dataset: [], task: () => '', scorers: { 'jugde:x': true } as never })).toThrow('unknown scorer "jugde:x"')
  })

  test('several retrieval metrics in one suite', async () => {
    const { results } = await run(
      {
        task: () => ({ output: 'x', retrieved: ['d3', 'd1', 'd9'] }),
        scorers: { 'retrieval:recall': { metric: 'recall', k: 2 }, 'retrieval:mrr': { metric: 'mrr' }, 'retrieval:f1': { metric: 'f1', k: 2 } },
      },
      [{ id: 'a', input: 'q', relevant: ['d1', 'd2'] }],
    )
    expect(results[0]!.scores['retrieval:recall']!.score).toBe(0.5)
    expect(results[0]!.scores['retrieval:mrr']!.score).toBe(0.5)
    expect(results[0]!.scores['retrieval:f1']!.score).toBe(0.5) // P@2 = 1/2, R@2 = 1/2
    // The case is not given a plain `retrieval` scorer on top: the suite lists the check.
    expect(Object.keys(results[0]!.scores)).toEqual(['retrieval:recall', 'retrieval:mrr', 'retrieval:f1'])
  })
})

describe('composite', () => {
  test('is the weighted mean of the named scorers, and gates like any scorer', async () => {
    const judge = () => ({ score: 4, reason: 'good' })
    const { results, outcome } = await run(
      {
        task: () => 'You can ask for a refund within 30 days.',
        scorers: {
          'judge:quality': { criteria: 'Good', scale: '1-5', judge },
          short: concise,
          'composite:overall': { weights: { 'judge:quality': 2, short: 1 }, threshold: 0.9 },
        },
      },
      [{ id: 'a', input: 'q', expected: 'Refunds within 30 days.' }],
    )
    // judge 4 on 1-5 = 0.75, short 1: (2 × 0.75 + 1) / 3
    expect(results[0]!.scores['composite:overall']).toEqual({
      score: 2.5 / 3,
      threshold: 0.9,
      pass: false,
      detail: 'judge:quality 0.75 × 0.667 + short 1 × 0.333',
    })
    expect(outcome.report.scorers['composite:overall']!.mean).toBeCloseTo(2.5 / 3, 12)
  })

  test('does not score a case that one of its parts did not score', async () => {
    const { results } = await run(
      { task: () => 'x', scorers: { rougeL: true, short: concise.with({ threshold: null }), composite: { weights: { rougeL: 1, short: 1 } } } },
      [{ id: 'a', input: 'q' }],
    )
    // rougeL needs a reference, which the case lacks: no composite score, only the user check's.
    expect(Object.keys(results[0]!.scores)).toEqual(['short'])
  })

  test('weights must name other scorers of the suite', () => {
    expect(() => new GoldenSuite('s', { dataset: [], task: () => '', scorers: { rougeL: true, composite: { weights: { rogueL: 1 } } } })).toThrow(
      'composite.weights names "rogueL", which is not another scorer of the suite. Weight the keys listed in "scorers": rougeL.',
    )
    expect(() => new GoldenSuite('s', { dataset: [], task: () => '', scorers: { rougeL: true, composite: { weights: { rougeL: 0 } } } })).toThrow(
      'composite.weights.rougeL must be a number > 0, got 0',
    )
  })
})

describe('safety checks in a suite', () => {
  test('pii and secrets score 1 for a clean output and 0 otherwise, with the findings masked', async () => {
    const key = ['sk', 'proj', 'abcdefghijklmnopqrstuvwx'].join('-')
    const outputs: Record<string, string> = { clean: 'Your order 4000012345 ships on 2024-05-01.', leak: `Use ${key}, or mail jane@example.com` }
    const { results } = await run({ task: (i: string) => outputs[i]!, scorers: { pii: true, secrets: true } }, [
      { id: 'clean', input: 'clean' },
      { id: 'leak', input: 'leak' },
    ])
    expect(results[0]!.scores).toMatchObject({ pii: { score: 1, pass: true }, secrets: { score: 1, pass: true } })
    expect(results[1]!.scores.pii).toMatchObject({ score: 0, pass: false, detail: 'contains email j***@example.com' })
    expect(results[1]!.scores.secrets).toMatchObject({ score: 0, pass: false, detail: 'leaks an "sk-..." API key' })
    expect(JSON.stringify(results[1]!.scores)).not.toContain(key)
  })
})
