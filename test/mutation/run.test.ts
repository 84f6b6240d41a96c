// The mutation run (src/mutation/run.ts) on hand-made operators, the way a user brings their own: which
// checks score mutants, the mutation score per check, survivors with the checks that let them pass, blind
// operators, the gate at its boundary, errors kept (not swallowed), and the option's validation.
import { describe, expect, test } from 'vitest'
import { defineCheck } from '../../src/checks/define.js'
import { createLimiter } from '../../src/golden/run.js'
import { createScorerEnv, planScorers } from '../../src/golden/scorers.js'
import type { GoldenCase } from '../../src/golden/types.js'
import {
  checkLine,
  formatMutationSummary,
  mutationCheckFailure,
  mutationChecks,
  resolveMutation,
  runMutation,
  type MutationSettings,
} from '../../src/mutation/run.js'
import type { MutationOperator } from '../../src/mutation/types.js'
import { double as number, negate } from './user-operators.js'

/** For an unanswerable case: a confident answer instead of the refusal. */
const answer: MutationOperator = {
  name: 'my-answer',
  description: 'refusal → answer',
  mutate: ({ source }) => (source.unanswerable ? [{ operator: 'my-answer', text: 'Yes, our store is at 1 Main Street.', change: 'refusal → answer' }] : []),
}

const cases = [
  { id: 'refund', input: 'How long for a refund?', expected: 'You can ask for a refund within 30 days.', keywords: ['refund', '30 days'] },
  { id: 'cancel', input: 'Can I cancel?', expected: 'You can cancel within 2 hours of ordering.', keywords: ['cancel'] },
  { id: 'store', input: 'Do you have a store?', answerable: false },
  { id: 'no-reference', input: 'Hi' },
] satisfies GoldenCase[]

const settings = (over: Partial<MutationSettings> = {}): MutationSettings => ({
  seed: 1,
  operators: [negate, number, answer],
  minScore: null,
  source: 'option',
  ...over,
})

async function run(scorers: Parameters<typeof planScorers>[0], over: Partial<MutationSettings> = {}, list: GoldenCase[] = cases) {
  const plans = planScorers(scorers)
  return runMutation({ cases: list, plans, env: createScorerEnv(plans, () => list), settings: settings(over), limit: createLimiter(2) })
}

/** Rejects an answer that says "cannot" where the reference says "can" (a stand-in for a strong check). */
const negationAware = defineCheck({
  name: 'negation-aware',
  threshold: 1,
  run: (output, c) => (typeof c.expected === 'string' && /\bcannot\b/.test(output) !== /\bcannot\b/.test(c.expected) ? 0 : 1),
})

describe('runMutation', () => {
  test('scores every applicable check on every mutant; the score is the share rejected, worst check first', async () => {
    const report = await run({ keywords: true, refusal: true, exact: true })
    expect(report).toMatchObject({ seed: 1, operators: ['my-negation', 'my-number', 'my-answer'], cases: 3, mutants: 5, minScore: null, weak: [] })
    expect(report.byOperator).toEqual({ 'my-negation': 2, 'my-number': 2, 'my-answer': 1 })
    const byKey = Object.fromEntries(report.checks.map((c) => [c.check, c]))
    // keywords: both negations keep every keyword and pass; "30 → 60" loses "30 days"; "2 → 4" keeps "cancel".
    expect(byKey.keywords).toMatchObject({ mutants: 4, rejected: 1, score: 0.25, blindTo: ['my-negation'] })
    expect(byKey.keywords?.byOperator).toEqual({ 'my-negation': { mutants: 2, rejected: 0 }, 'my-number': { mutants: 2, rejected: 1 } })
    // exact rejects every mutant of the answerable cases; refusal (listed: it also checks that answerable
    // cases are not refused) rejects the confident answer to the unanswerable case and lets the others pass.
    expect(byKey.exact).toMatchObject({ mutants: 4, rejected: 4, score: 1, blindTo: [] })
    expect(byKey.refusal).toMatchObject({ mutants: 5, rejected: 1, score: 0.2, blindTo: ['my-negation', 'my-number'] })
    expect(report.checks.map((c) => c.check)).toEqual(['refusal', 'keywords', 'exact'])
  })

  test('survivors list the checks that let each mutant pass; survivedSuite when none rejected it', async () => {
    const report = await run({ keywords: true, 'judge-free': negationAware })
    const negated = report.survivors.find((s) => s.case === 'refund' && s.operator === 'my-negation')
    expect(negated).toEqual({
      case: 'refund',
      operator: 'my-negation',
      change: 'can → cannot',
      text: 'You cannot ask for a refund within 30 days.',
      passedBy: ['keywords'],
      rejectedBy: ['judge-free'],
      survivedSuite: false,
    })
    // "2 → 4 hours" keeps "cancel" and has no negation: both checks pass it.
    expect(report.survivors[0]).toMatchObject({ case: 'cancel', operator: 'my-number', passedBy: ['keywords', 'judge-free'], survivedSuite: true })
    expect(report.survivedSuite).toBe(1)
  })

  test('retrieval and recorded-only checks are skipped and said so', async () => {
    const list: GoldenCase[] = [{ ...cases[0]!, relevant: ['refunds'] }]
    const report = await run({ retrieval: true, rougeL: null, keywords: true }, {}, list)
    expect(report.skipped).toEqual([
      { check: 'rougeL', reason: 'its threshold is null: it is recorded only and never fails an answer' },
      { check: 'retrieval', reason: 'it scores what retrieval returned, not the output' },
    ])
    expect(report.checks.map((c) => c.check)).toEqual(['keywords'])
    expect(formatMutationSummary(report).join('\n')).toContain('- retrieval skipped: it scores what retrieval returned, not the output')
  })

  test('a check that throws on a mutant keeps the error on the check (not in the score) and fails its test', async () => {
    const flaky = defineCheck({
      name: 'model-backed',
      threshold: 1,
      run: (output) => {
        if (output.includes('60')) throw new Error('no recording for this request')
        return 1
      },
    })
    const report = await run({ 'model-backed': flaky })
    const check = report.checks.find((c) => c.check === 'model-backed')!
    expect(check).toMatchObject({ check: 'model-backed', mutants: 4, rejected: 0 })
    expect(check.errors).toEqual([
      {
        case: 'refund',
        operator: 'my-number',
        text: 'You can ask for a refund within 60 days.',
        error: expect.stringContaining('threw: no recording for this request'),
      },
    ])
    expect(report.survivors.find((s) => s.text.includes('60'))).toBeUndefined()
    expect(mutationCheckFailure(report, 'model-backed')).toMatch(
      /^\[expect-llm\] Failed to score the mutants with model-backed: 1 check run failed\.\n {2}refund \[my-number\]/,
    )
  })

  test('the gate: a check below minScore fails, one at it passes (inclusive boundary)', async () => {
    // keywords rejects 1 of 4 (0.25); exact rejects 5 of 5.
    const at = await run({ keywords: true, exact: true }, { minScore: 0.25 })
    expect(at.checks.map((c) => [c.check, c.score, c.gate])).toEqual([
      ['keywords', 0.25, true],
      ['exact', 1, true],
      ['refusal', 1, true],
    ])
    expect(mutationCheckFailure(at, 'keywords')).toBeUndefined()
    const above = await run({ keywords: true, exact: true }, { minScore: 0.26 })
    expect(above.weak).toEqual(['keywords'])
    expect(mutationCheckFailure(above, 'exact')).toBeUndefined()
    expect(mutationCheckFailure(above, 'keywords')).toMatchInlineSnapshot(`
      "[expect-llm] Mutation score of keywords is 0.25, below minScore 0.26: keywords let 3 of 4 mutants pass (score 0.25; my-negation 2 of 2, my-number 1 of 2); blind to my-negation.
        refund [my-negation: can → cannot] You cannot ask for a refund within 30 days.
        cancel [my-negation: can → cannot] You cannot cancel within 2 hours of ordering.
        cancel [my-number: 2 → 4] You can cancel within 4 hours of ordering.
        Strengthen the check (a judge against the reference, a higher threshold), or lower mutate.minScore."
    `)
  })

  test('the same seed gives the same report; operators see the seeded random', async () => {
    const draws: number[][] = []
    const random: MutationOperator = {
      name: 'random-word',
      description: 'appends a drawn number',
      mutate: ({ source, random: r }) => {
        const n = Math.floor(r() * 1000)
        draws.push([n])
        return source.text ? [{ operator: 'random-word', text: `${source.text} (${n})`, change: `+ ${n}` }] : []
      },
    }
    const a = await run({ exact: true }, { operators: [random], seed: 5 })
    const b = await run({ exact: true }, { operators: [random], seed: 5 })
    expect(b).toEqual(a)
    expect(draws.slice(0, 3)).toEqual(draws.slice(3, 6))
    const c = await run({ exact: true }, { operators: [random], seed: 6 })
    expect(c.survivors.map((s) => s.text)).not.toEqual(a.survivors.map((s) => s.text))
  })

  test('checkLine and the console summary, worst check first', async () => {
    const report = await run({ keywords: true, exact: true }, { minScore: 0.5 })
    expect(checkLine(report.checks[0]!)).toBe('keywords let 3 of 4 mutants pass (score 0.25; my-negation 2 of 2, my-number 1 of 2); blind to my-negation')
    expect(formatMutationSummary(report).join('\n')).toMatchInlineSnapshot(`
      "
        mutation (seed 1): 5 mutants of 3 cases, 3 operators, gate 0.50
        ✗ keywords let 3 of 4 mutants pass (score 0.25; my-negation 2 of 2, my-number 1 of 2); blind to my-negation
        ✓ exact let 0 of 4 mutants pass (score 1)
        ✓ refusal let 0 of 1 mutant pass (score 1)
        surviving mutants (0 passed every check of their case):
            refund [my-negation: can → cannot] You cannot ask for a refund within 30 days.  passed by keywords
            cancel [my-negation: can → cannot] You cannot cancel within 2 hours of ordering.  passed by keywords
            cancel [my-number: 2 → 4] You can cancel within 4 hours of ordering.  passed by keywords"
    `)
  })
})

describe('mutationChecks', () => {
  test('lists the checks of the cases that have mutants, in report order, and the skipped ones', () => {
    const plans = planScorers({ rougeL: null, judge: true, retrieval: true })
    const list: GoldenCase[] = [
      { id: 'a', input: 'q', expected: 'x', keywords: ['x'], relevant: ['d'] },
      { id: 'b', input: 'q2', answerable: false },
    ]
    expect(mutationChecks(list, plans)).toEqual({
      checks: ['keywords', 'judge', 'refusal'],
      skipped: [
        { check: 'rougeL', reason: 'its threshold is null: it is recorded only and never fails an answer' },
        { check: 'retrieval', reason: 'it scores what retrieval returned, not the output' },
      ],
    })
  })
})

describe('resolveMutation', () => {
  test('off unless the option or EXPECT_LLM_MUTATE=1 says so; mutate: false stays off', () => {
    expect(resolveMutation(undefined, {})).toBeUndefined()
    expect(resolveMutation(false, { EXPECT_LLM_MUTATE: '1' })).toBeUndefined()
    expect(resolveMutation(true, {})).toMatchObject({ seed: 1, minScore: null, source: 'option' })
    expect(resolveMutation(undefined, { EXPECT_LLM_MUTATE: '1' })).toMatchObject({ seed: 1, minScore: null, source: 'env' })
  })

  test('the environment of expect-llm mutate overrides seed and minScore', () => {
    const env = { EXPECT_LLM_MUTATE: '1', EXPECT_LLM_MUTATE_SEED: '9', EXPECT_LLM_MUTATE_MIN_SCORE: '0.6' }
    expect(resolveMutation({ seed: 2, minScore: 0.9, operators: [negate] }, env)).toEqual({ seed: 9, minScore: 0.6, operators: [negate], source: 'option' })
    // Without the switch, stray variables do nothing.
    expect(resolveMutation({ seed: 2 }, { EXPECT_LLM_MUTATE_SEED: '9' })).toMatchObject({ seed: 2 })
  })

  test('wrong values fail with the library message', () => {
    expect(() => resolveMutation('yes', {})).toThrowErrorMatchingInlineSnapshot(
      `[TypeError: [expect-llm] Failed to set up describeGolden: "mutate" must be true, false or { seed?, operators?, minScore? }, got a string ("yes"). Pass for example { mutate: { minScore: 0.8 } }.]`,
    )
    expect(() => resolveMutation({ minScore: 1.5 }, {})).toThrow('mutate.minScore must be a number from 0 to 1, got a number (1.5)')
    expect(() => resolveMutation({ seed: 1.5 }, {})).toThrow('mutate.seed must be a whole number')
    // The operators are checked when the suite is declared, before any case runs.
    expect(() => resolveMutation({ operators: ['negaton'] }, {})).toThrow('unknown mutation operator "negaton" (did you mean "negation"?)')
    expect(() => resolveMutation({ operators: [negate, negate] }, {})).toThrow('the mutation operator "my-negation" is listed twice')
    expect(() => resolveMutation({ gate: 1 }, {})).toThrow('unknown mutate option "gate". Valid options are: seed, operators, minScore.')
    expect(() => resolveMutation(undefined, { EXPECT_LLM_MUTATE: '1', EXPECT_LLM_MUTATE_MIN_SCORE: 'high' })).toThrow(
      'EXPECT_LLM_MUTATE_MIN_SCORE must be a number from 0 to 1, got a string ("high")',
    )
  })
})

describe('GoldenSuite with mutate', () => {
  test("the checks' model calls on mutants are the mutation section's usage, not the suite's usage or budget", async () => {
    const { GoldenSuite } = await import('../../src/golden/suite.js')
    const { validateCases } = await import('../../src/golden/dataset.js')
    const { recordModelUsage, resetLedger } = await import('../../src/ledger.js')
    resetLedger()
    const modelBacked = defineCheck({
      name: 'model-backed',
      threshold: 1,
      run: (output, c) => {
        recordModelUsage({ kind: 'judge', model: 'gpt-4o-mini', inputTokens: 100, outputTokens: 10 })
        return output === c.expected ? 1 : 0
      },
    })
    const list = cases.slice(0, 2)
    const suite = new GoldenSuite('usage', {
      dataset: list,
      task: (_i: unknown, c: GoldenCase) => String(c.expected),
      scorers: { judged: modelBacked },
      mutate: { operators: [negate, number] },
      budget: { maxTokens: 220 },
      report: false,
    })
    suite.setCases(validateCases(list))
    for (const c of suite.cases) await suite.runCase(c)
    const mutation = await suite.runMutation()
    const { report, failures } = suite.finish({ runner: 'vitest', testPath: undefined, updateMode: 'none', env: {} })
    expect(mutation.usage).toEqual({ calls: 4, inputTokens: 400, outputTokens: 40, costUsd: expect.any(Number) })
    expect(report.usage.evaluator.calls).toBe(2)
    expect(report.usage.total.totalTokens).toBe(220)
    expect(failures).toEqual([])
    expect(report.mutation?.checks.map((c) => [c.check, c.score])).toEqual([
      ['keywords', 0.25],
      ['judged', 1],
    ])
  })
})

describe('evaluate with mutate', () => {
  test('the report has the mutation section, and a check below minScore is a failure', async () => {
    const { evaluate } = await import('../../src/golden/evaluate.js')
    const list = cases.slice(0, 2)
    const task = (_i: unknown, c: GoldenCase) => String(c.expected)
    const report = await evaluate(list, { task, scorers: { exact: true }, mutate: { operators: [negate, number], minScore: 0.5 } })
    expect(report.mutation?.weak).toEqual(['keywords'])
    expect(report.ok).toBe(false)
    expect(report.failures).toEqual([expect.stringContaining('[expect-llm] Mutation score of keywords is 0.25, below minScore 0.50')])
    const plain = await evaluate(list, { task, scorers: { exact: true } })
    expect(plain).toMatchObject({ ok: true, failures: [] })
    expect(plain.mutation).toBeUndefined()
  })
})
