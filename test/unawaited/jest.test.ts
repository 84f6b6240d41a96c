// Unawaited expect-llm assertions fail their test under Jest 30, in CommonJS and in ESM mode, through the
// built package (dist/, as users get it), in child processes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { childEnv, repo, runChild } from '../golden/helpers.js'

const dist = process.env.GOLDEN_DIST ?? join(repo, 'dist')
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

async function runJest(mode: 'cjs' | 'esm'): Promise<{ output: string; results: Record<string, { status: string; failureMessages: string[] }> }> {
  const dir = mkdtempSync(join(tmpdir(), `unawaited-jest-${mode}-`))
  dirs.push(dir)
  // One set of cases for both module systems: the ESM file is the CommonJS one with imports.
  const cjs = readFileSync(join(repo, 'test/unawaited/child/unawaited.jest.test.cjs'), 'utf8')
  const text =
    mode === 'cjs'
      ? cjs
      : cjs
          .replace("const { expect, test } = require('@jest/globals')", "import { expect, test } from '@jest/globals'")
          .replace("const { configure } = require('expect-llm')", "import { configure } from 'expect-llm'")
  writeFileSync(join(dir, `unawaited.jest.test.${mode === 'cjs' ? 'cjs' : 'mjs'}`), text)
  const ext = mode === 'cjs' ? 'cjs' : 'js'
  writeFileSync(
    join(dir, 'jest.config.cjs'),
    `module.exports = ${JSON.stringify({
      rootDir: dir,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/*.jest.test.?(c|m)js'],
      setupFilesAfterEnv: [join(dist, `jest.${ext}`)],
      moduleNameMapper: { '^expect-llm/jest$': join(dist, `jest.${ext}`), '^expect-llm$': join(dist, `index.${ext}`) },
      transform: {},
    })}\n`,
  )
  const run = await runChild(
    [
      ...(mode === 'esm' ? ['--experimental-vm-modules'] : []),
      join(repo, 'node_modules/jest/bin/jest.js'),
      '--config',
      join(dir, 'jest.config.cjs'),
      '--json',
      `--outputFile=${join(dir, 'jest.json')}`,
    ],
    dir,
    childEnv({ NODE_NO_WARNINGS: '1' }),
  )
  const json = JSON.parse(readFileSync(join(dir, 'jest.json'), 'utf8')) as {
    testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>
  }
  return { output: run.output, results: Object.fromEntries(json.testResults[0]!.assertionResults.map((r) => [r.title, r])) }
}

describe.each(['cjs', 'esm'] as const)('Jest 30 (%s)', (mode) => {
  let run: Awaited<ReturnType<typeof runJest>>
  const failure = (title: string) => {
    expect(run.results[title]?.status, `${title}\n${run.output}`).toBe('failed')
    return run.results[title]!.failureMessages.join('\n')
  }
  const file = `unawaited.jest.test.${mode === 'cjs' ? 'cjs' : 'mjs'}`

  test('runs', async () => {
    run = await runJest(mode)
    expect(Object.keys(run.results)).toHaveLength(8)
  }, 60_000)

  test('a failing judge still running at the end fails the test, naming the line', () => {
    const message = failure('unawaited failing judge')
    expect(message).toContain(`[expect-llm] toPassJudge(...) was not awaited: add await (${file}:9:26). The test ended before it finished`)
    expect(message).toMatch(new RegExp(`\\n\\s+at .*${file.replace('.', '\\.')}:9:26`))
  })

  test('.not, a rejection, and one that passed this time', () => {
    expect(failure('unawaited .not')).toContain(`[expect-llm] not.toPassJudge(...) was not awaited: add await (${file}:13:30).`)
    expect(failure('unawaited rejection')).toContain('It failed after the test had moved on:')
    expect(failure('unawaited rejection')).toContain('Failed to run toPassJudge: the criteria are an empty string')
    expect(failure('unawaited, passing quickly')).toContain('toRefuse(...) was not awaited: add await')
  })

  test('.resolves still running when the test ends', () => {
    expect(failure('unawaited .resolves, still running at the end')).toContain('[expect-llm] resolves.toPassJudge(...) was not awaited: add await.')
  })

  test.each(['awaited', 'returned', 'awaited .resolves'])('%s passes', (title) => {
    expect(run.results[title]?.status, `${title}\n${run.output}`).toBe('passed')
  })
})
