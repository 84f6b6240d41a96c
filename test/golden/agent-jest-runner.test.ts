// Golden agent cases under Jest 30 in ESM mode, against the built package (dist/, as users get it), in a
// child process: the tool checks pass on the right runs and fail, with the reason, on the sloppy one.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { copyInto, repo, runGoldenJest, writeGoldenJestConfig } from './helpers.js'

const dist = process.env.GOLDEN_DIST ?? join(repo, 'dist')
const dir = mkdtempSync(join(tmpdir(), 'golden-agent-jest-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const env = { AGENT_DATASET: join(repo, 'fixtures/golden/agents.jsonl'), AGENT_RUNS: join(repo, 'fixtures/golden/agent-runs.json') }

async function runJest(variant: string) {
  const run = await runGoldenJest(dir, { ...env, AGENT_VARIANT: variant })
  return { ...run, results: run.json.testResults[0]!.assertionResults }
}

test('agent cases and a conversation under Jest ESM: pass on the right runs, fail with the reason on the sloppy one', async () => {
  copyInto(dir, join(repo, 'test/golden/child/agents.golden.test.mjs'))
  writeGoldenJestConfig(dir, dist)
  const right = await runJest('right')
  expect(right.code, right.output).toBe(0)
  expect(right.results.map((r) => [r.title, r.status])).toEqual([
    ['refund: Please refund order A17, it arrived broken.', 'passed'],
    ['refund-anthropic: Please refund order A17, it arrived broken.', 'passed'],
    ['remembers-order: system: You are a support bot.⏎user: Hi, m…der number again?', 'passed'],
    ['aggregate', 'passed'],
  ])
  expect(right.output).toContain(
    'golden › refund agent under jest › refund: pass · keywords 1 ✓ · toolF1 1 ✓ · toolF1:names 1 ✓ · toolOrder 1 ✓ · toolArguments 1 ✓',
  )

  const sloppy = await runJest('sloppy')
  expect(sloppy.code).toBe(1)
  expect(sloppy.results.map((r) => r.status)).toEqual(['failed', 'passed', 'passed', 'failed'])
  expect(sloppy.results[0]!.failureMessages.join('\n')).toContain(
    'toolArguments: 0.50 < 1 (1/2 right; refundOrder (call 1): /amount: expected 30, received -25)',
  )
  expect(sloppy.results[3]!.failureMessages.join('\n')).toContain('mean toolF1 0.750 is below 0.9')
}, 90_000)
