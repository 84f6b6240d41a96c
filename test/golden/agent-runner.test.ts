// Golden agent and multi-turn cases under real Vitest, in a child process (test/golden/child/agents.golden.ts):
// one test per case, the tool checks in task.meta and the JSON report, a gate on toolF1's mean, the
// baseline catching a sloppier agent, and compareGolden deciding on toolF1.
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { repo, runVitest, vitestSandbox } from './helpers.js'

const dir = vitestSandbox(['agents.golden.ts'])
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const env = { AGENT_DATASET: join(repo, 'fixtures/golden/agents.jsonl'), AGENT_RUNS: join(repo, 'fixtures/golden/agent-runs.json') }
const reportFile = join(dir, '.expect-llm', 'reports', 'agents.golden.ts', 'refund-agent.json')

test('agent cases pass on the right runs; the sloppy agent fails its cases, the toolF1 gate and the baseline; compareGolden picks the right agent', async () => {
  const first = await runVitest(dir, env)
  expect(first.code, first.output).toBe(0)
  const results = first.json.testResults[0]!.assertionResults
  expect(results.map((r) => [r.fullName, r.status])).toEqual([
    ['refund agent refund: Please refund order A17, it arrived broken.', 'passed'],
    ['refund agent refund-anthropic: Please refund order A17, it arrived broken.', 'passed'],
    ['refund agent remembers-order: system: You are a support bot.⏎user: Hi, m…der number again?', 'passed'],
    ['refund agent aggregate', 'passed'],
    ['right vs sloppy agent refund: Please refund order A17, it arrived broken.', 'passed'],
    ['right vs sloppy agent comparison', 'passed'],
  ])
  expect(results[0]!.meta).toMatchObject({
    golden: { id: 'refund', pass: true, scores: { toolF1: { score: 1 }, 'toolF1:names': { score: 1 }, toolOrder: { score: 1 }, toolArguments: { score: 1 } } },
  })
  const report = JSON.parse(readFileSync(reportFile, 'utf8'))
  expect(report.scorers.toolF1).toMatchObject({ count: 2, mean: 1 })
  expect(report.cases.find((c: { id: string }) => c.id === 'remembers-order')).toMatchObject({
    output: 'Your order number is A17.',
    scores: { keywords: { score: 1 } },
  })
  expect(report.baseline.status).toBe('created')

  const sloppy = await runVitest(dir, { ...env, AGENT_VARIANT: 'sloppy' })
  expect(sloppy.code).toBe(1)
  const byName = Object.fromEntries(sloppy.json.testResults[0]!.assertionResults.map((r) => [r.fullName.replace(/:.*$/, ''), r]))
  expect(byName['refund agent refund']!.status).toBe('failed')
  expect(byName['refund agent refund']!.failureMessages.join('\n')).toContain(
    'toolOrder: 0 < 1 (expected call 1 lookupOrder({"orderId": "A17"}): call 2 matches it, but not in the expected order',
  )
  expect(byName['refund agent remembers-order']!.failureMessages.join('\n')).toContain('keywords: 0 < 1 (missing "A17")')
  const aggregate = byName['refund agent aggregate']!.failureMessages.join('\n')
  // The sloppy run: toolF1 0.5 on "refund" (1 of 2 calls right at argument level), 1 on "refund-anthropic".
  expect(aggregate).toContain('mean toolF1 0.750 is below 0.9. Cases below 0.9, worst first:\n  - refund: toolF1 0.50')
  expect(aggregate).toContain('toolF1: mean 0.750 vs 1.000 (-0.250, tolerance 0.05) over 2 cases')
  expect(aggregate).toContain('Regressed cases:\n  - remembers-order: keywords 1 → 0\n  - refund: toolOrder 1 → 0')
}, 120_000)
