// describeGolden with `mutate` under real Vitest, in child processes: the `mutation` block (one test per
// check, after the cases and before the aggregate), the gate failing a weak check and passing a strong
// one at its boundary, the environment switch of `expect-llm mutate`, and the report's mutation section.
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { runVitest, vitestSandbox } from '../golden/helpers.js'

const dir = vitestSandbox(['mutate.golden.ts', 'mutate-miss.golden.ts'], 'test/mutation/child')
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const reportFile = join(dir, '.expect-llm', 'reports', 'mutate.golden.ts', 'mutated-bot.json')
const statuses = (run: Awaited<ReturnType<typeof runVitest>>) =>
  Object.fromEntries(run.json.testResults.flatMap((f) => f.assertionResults).map((r) => [r.fullName, r.status]))

test('without a gate: a mutation test per check after the cases, the summary and the report section', async () => {
  const run = await runVitest(dir, {}, ['mutate.golden.ts'])
  expect(run.code, run.output).toBe(0)
  expect(statuses(run)).toEqual({
    'mutated bot refund: How long for a refund?': 'passed',
    'mutated bot cancel: Can I cancel?': 'passed',
    'mutated bot mutation score the mutants': 'passed',
    'mutated bot mutation keywords': 'passed',
    'mutated bot mutation exact': 'passed',
    'mutated bot aggregate': 'passed',
  })
  expect(run.output).toContain('mutation (seed 1): 4 mutants of 2 cases, 2 operators')
  expect(run.output).toContain('· keywords let 3 of 4 mutants pass (score 0.25; my-negation 2 of 2, my-number 1 of 2); blind to my-negation')
  expect(run.output).toContain('- rougeL skipped: its threshold is null: it is recorded only and never fails an answer')
  const report = JSON.parse(readFileSync(reportFile, 'utf8'))
  expect(report.schemaVersion).toBe(1)
  expect(report.mutation).toMatchObject({ seed: 1, operators: ['my-negation', 'my-number'], mutants: 4, minScore: null, weak: [] })
  expect(report.mutation.checks.map((c: { check: string; score: number }) => [c.check, c.score])).toEqual([
    ['keywords', 0.25],
    ['exact', 1],
  ])
}, 60_000)

test('the gate fails the weak check and passes the strong one; a score equal to minScore passes', async () => {
  const weak = await runVitest(dir, { MIN_SCORE: '0.5' }, ['mutate.golden.ts'])
  expect(weak.code).toBe(1)
  expect(statuses(weak)).toMatchObject({ 'mutated bot mutation keywords': 'failed', 'mutated bot mutation exact': 'passed', 'mutated bot aggregate': 'passed' })
  const failure = weak.json.testResults.flatMap((f) => f.assertionResults).find((r) => r.title === 'keywords')!.failureMessages[0]!
  expect(failure).toContain('[expect-llm] Mutation score of keywords is 0.25, below minScore 0.50')
  expect(failure).toContain('refund [my-negation: can → cannot] You cannot ask for a refund within 30 days.')
  expect(JSON.parse(readFileSync(reportFile, 'utf8')).mutation.weak).toEqual(['keywords'])

  const boundary = await runVitest(dir, { MIN_SCORE: '0.25' }, ['mutate.golden.ts'])
  expect(boundary.code, boundary.output).toBe(0)
}, 120_000)

test('EXPECT_LLM_MUTATE_MIN_SCORE (expect-llm mutate --min-score) overrides the option', async () => {
  const run = await runVitest(dir, { MIN_SCORE: '0.1', EXPECT_LLM_MUTATE: '1', EXPECT_LLM_MUTATE_MIN_SCORE: '0.3' }, ['mutate.golden.ts'])
  expect(run.code).toBe(1)
  expect(statuses(run)['mutated bot mutation keywords']).toBe('failed')
}, 60_000)

test('a replay miss of a model-backed check on a mutant fails its mutation test with the miss (not a pass, not a rejection)', async () => {
  const run = await runVitest(dir, { EXPECT_LLM_REPLAY: 'replay', CI: '1' }, ['mutate-miss.golden.ts'])
  expect(run.code).toBe(1)
  const results = run.json.testResults.flatMap((f) => f.assertionResults)
  const judge = results.find((r) => r.fullName === 'judge without recordings mutation judge')!
  expect(judge.status).toBe('failed')
  expect(judge.failureMessages[0]).toContain('[expect-llm] Failed to score the mutants with judge: 1 check run failed.')
  expect(judge.failureMessages[0]).toContain('refund [my-negation] You cannot ask for a refund within 30 days.')
  expect(judge.failureMessages[0]).toMatch(/Failed to replay POST \/v1\/chat\/completions/)
  // The replay engine fails the test that was running when the miss happened: the one that scores the mutants.
  expect(results.find((r) => r.fullName === 'judge without recordings mutation score the mutants')?.failureMessages[0]).toContain(
    'Failed to replay POST /v1/chat/completions',
  )
  expect(results.find((r) => r.fullName === 'judge without recordings mutation exact')?.status).toBe('passed')
  const report = JSON.parse(readFileSync(join(dir, '.expect-llm', 'reports', 'mutate-miss.golden.ts', 'judge-without-recordings.json'), 'utf8'))
  expect(report.mutation.checks.find((c: { check: string }) => c.check === 'judge')).toMatchObject({ mutants: 0, rejected: 0, score: null })
}, 60_000)
