// Golden agent cases under Jest 30 in ESM mode, against the built package (dist/, as users get it), in a
// child process: the tool checks pass on the right runs and fail, with the reason, on the sloppy one.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { childEnv, copyInto, repo, runChild } from './helpers.js'

const dist = process.env.GOLDEN_DIST ?? join(repo, 'dist')
const dir = mkdtempSync(join(tmpdir(), 'golden-agent-jest-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function runJest(variant: string) {
  const run = await runChild(
    [
      '--experimental-vm-modules',
      join(repo, 'node_modules/jest/bin/jest.js'),
      '--config',
      join(dir, 'jest.config.cjs'),
      '--json',
      `--outputFile=${join(dir, 'jest.json')}`,
    ],
    dir,
    childEnv({
      AGENT_DATASET: join(repo, 'fixtures/golden/agents.jsonl'),
      AGENT_RUNS: join(repo, 'fixtures/golden/agent-runs.json'),
      AGENT_VARIANT: variant,
      NODE_NO_WARNINGS: '1',
    }),
  )
  const json = JSON.parse(readFileSync(join(dir, 'jest.json'), 'utf8')) as {
    testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>
  }
  return { ...run, results: json.testResults[0]!.assertionResults }
}

test('agent cases and a conversation under Jest ESM: pass on the right runs, fail with the reason on the sloppy one', async () => {
  copyInto(dir, join(repo, 'test/golden/child/agents.golden.test.mjs'))
  writeFileSync(
    join(dir, 'jest.config.cjs'),
    `module.exports = ${JSON.stringify({
      rootDir: dir,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/*.golden.test.mjs'],
      setupFilesAfterEnv: [join(dist, 'jest.js')],
      moduleNameMapper: { '^expect-llm/jest$': join(dist, 'jest.js'), '^expect-llm$': join(dist, 'index.js') },
      transform: {},
    })}\n`,
  )
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
