// describeGolden under real Vitest, in child processes: the test list, exit codes, annotations in the
// JUnit report, task.meta in the JSON report, the JSON golden report, and the baseline across runs
// (written when missing, a regression failing the run, -u updating it).
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { repo, runVitest, vitestSandbox } from './helpers.js'

const dir = vitestSandbox(['basic.golden.ts'])
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const env = { GOLDEN_DATASET: join(repo, 'fixtures/golden/handbook.jsonl') }
const baseline = join(dir, '__golden__', 'basic.golden.ts', 'handbook-bot.json')
const reportFile = join(dir, '.expect-llm', 'reports', 'basic.golden.ts', 'handbook-bot.json')

test('one test per case, then the aggregate; scores in annotations, task.meta and the report; baseline regression and -u', async () => {
  const first = await runVitest(dir, env)
  expect(first.code, first.output).toBe(0)
  const all = first.json.testResults[0]!.assertionResults
  const results = all.filter((r) => r.fullName.startsWith('handbook bot '))
  expect(results.map((r) => r.title)).toEqual([
    'refund-window: How long do I have to ask for a refund?',
    'shipping-cost: How much is shipping?',
    "ceo-address: What is the CEO's home address?",
    'aggregate',
  ])
  // The fourth case is filtered out by id.
  expect(results.every((r) => r.status === 'passed')).toBe(true)
  expect(results[1]!.meta).toMatchObject({
    golden: { suite: 'handbook bot', id: 'shipping-cost', pass: false, scores: { rougeL: { threshold: 0.5, pass: false } } },
  })
  // Annotations reach the JUnit reporter as properties.
  expect(first.junit).toMatch(/<property name="golden" value="tokenF1 1 ✓ · rougeL 1 ✓ · keywords 1 ✓"/)
  expect(first.junit).toMatch(/<property name="golden" value="tokenF1 0\.20 ✓ · rougeL 0\.20 ✗ \(&lt; 0\.50\)"/)
  expect(first.output).toContain('golden › handbook bot (3 cases, 1 filtered out)')
  // annotate: false: the case test carries task.meta.golden, and the JUnit report has no annotation for it.
  const quiet = all.find((r) => r.fullName === 'quiet suite refund-window: How long do I have to ask for a refund?')
  expect(quiet?.meta).toMatchObject({ golden: { suite: 'quiet suite', id: 'refund-window', scores: { rougeL: { score: 1 } } } })
  expect(first.junit).toMatch(
    /<testcase classname="basic\.golden\.ts" name="quiet suite &gt; refund-window: How long do I have to ask for a refund\?" time="[\d.]+">\s*<\/testcase>/,
  )
  expect(first.output).toContain('pass rate: 2/3 (66.7%)')

  const report = JSON.parse(readFileSync(reportFile, 'utf8'))
  expect(report).toMatchObject({
    schemaVersion: 1,
    kind: 'golden',
    suite: 'handbook bot',
    file: 'basic.golden.ts',
    runner: 'vitest',
    git: { commit: null, branch: null },
    summary: { cases: 3, ran: 3, filteredOut: 1, passed: 2, passRate: 2 / 3 },
    baseline: { status: 'created' },
    usage: { latencyMs: { sources: { task: 3 } } },
  })
  expect(report.cases.map((c: { id: string }) => c.id)).toEqual(['refund-window', 'shipping-cost', 'ceo-address'])
  expect(existsSync(baseline)).toBe(true)

  const regressed = await runVitest(dir, { ...env, GOLDEN_VARIANT: 'worse' })
  expect(regressed.code).toBe(1)
  const byTitle = Object.fromEntries(
    regressed.json.testResults[0]!.assertionResults.filter((r) => r.fullName.startsWith('handbook bot ')).map((r) => [r.title, r]),
  )
  expect(byTitle['refund-window: How long do I have to ask for a refund?']?.status).toBe('passed')
  const failure = byTitle.aggregate?.failureMessages.join('\n') ?? ''
  expect(failure).toContain('[expect-llm] Golden suite "handbook bot" failed 1 check:')
  expect(failure).toMatch(/rougeL: mean 0\.\d+ vs 0\.\d+ \(-0\.\d+, tolerance 0\.05\) over 2 cases/)
  expect(failure).toContain('Regressed cases:\n  - refund-window: tokenF1 1 → 0\n  - refund-window: rougeL 1 → 0')
  // The failure points at the describeGolden call in the test file (its code frame), not into the library.
  expect(failure).toMatch(/\n {4}at .*basic\.golden\.ts:14:1\n/)
  expect(failure).not.toMatch(/src\/golden\/|expect-llm\/dist\//)
  expect(regressed.output).toMatch(/❯ basic\.golden\.ts:14:1\n/)
  const before = readFileSync(baseline, 'utf8')

  const updated = await runVitest(dir, { ...env, GOLDEN_VARIANT: 'worse' }, ['-u'])
  expect(updated.code, updated.output).toBe(0)
  expect(JSON.parse(readFileSync(reportFile, 'utf8')).baseline.status).toBe('updated')
  expect(readFileSync(baseline, 'utf8')).not.toBe(before)
  expect(JSON.parse(readFileSync(baseline, 'utf8')).cases['refund-window'].pass).toBe(false)
}, 90_000)
