// Unawaited expect-llm assertions fail their test under Vitest (source build, child runs).
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { childEnv, repo, runChild } from '../golden/helpers.js'

interface Result {
  title: string
  status: string
  failureMessages: string[]
}
let results: Record<string, Result> = {}
let output = ''
let outside: { status: string; message: string } = { status: '', message: '' }
const dir = mkdtempSync(join(tmpdir(), 'unawaited-vitest-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

beforeAll(async () => {
  for (const f of ['unawaited.child.ts', 'outside.child.ts']) {
    const text = readFileSync(join(repo, 'test/unawaited/child', f), 'utf8').replaceAll("'../../../src/", `'${repo}src/`)
    writeFileSync(join(dir, f), text)
  }
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir')
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    `export default { test: { include: ['*.child.ts'], setupFiles: [${JSON.stringify(`${repo}src/entries/vitest.ts`)}] } }\n`,
  )
  const run = await runChild(
    [
      join(repo, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--root',
      dir,
      '--config',
      join(dir, 'vitest.config.mjs'),
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=report.json',
    ],
    dir,
    childEnv({}),
  )
  output = run.output
  const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
    testResults: Array<{ name: string; status: string; message: string; assertionResults: Result[] }>
  }
  const main = json.testResults.find((r) => r.name.endsWith('unawaited.child.ts'))!
  results = Object.fromEntries(main.assertionResults.map((r) => [r.title, r]))
  const other = json.testResults.find((r) => r.name.endsWith('outside.child.ts'))!
  outside = { status: other.status, message: `${other.message}\n${other.assertionResults.flatMap((r) => r.failureMessages).join('\n')}` }
}, 60_000)

const failure = (title: string) => {
  expect(results[title]?.status, `${title}\n${output}`).toBe('failed')
  return results[title]!.failureMessages.join('\n')
}

describe('a test that leaves an assertion unawaited fails', () => {
  test('a failing judge still running at the end: the message names the line', () => {
    expect(failure('unawaited failing judge')).toMatch(
      /^Error: \[expect-llm\] toPassJudge\(\.\.\.\) was not awaited: add await \(unawaited\.child\.ts:14:26\)\. The test ended before it finished, so its result was never checked\.\n {4}at .*unawaited\.child\.ts:14:26/,
    )
  })

  test('.not', () => {
    expect(failure('unawaited .not')).toContain('[expect-llm] not.toPassJudge(...) was not awaited: add await (unawaited.child.ts:18:30).')
  })

  test('a rejection is reported once, with its error', () => {
    const message = failure('unawaited rejection')
    expect(message).toContain('[expect-llm] toPassJudge(...) was not awaited: add await (unawaited.child.ts:22:26). It failed after the test had moved on:')
    expect(message).toContain('Failed to run toPassJudge: the criteria are an empty string')
    expect(output).not.toContain('Unhandled')
  })

  test('one that passed this time', () => {
    expect(failure('unawaited, passing quickly')).toContain(
      '[expect-llm] toRefuse(...) was not awaited: add await (unawaited.child.ts:26:17). It passed this time, but a failure would have gone unnoticed.',
    )
  })

  test('.resolves and .rejects', () => {
    expect(failure('unawaited .resolves')).toContain('[expect-llm] resolves.toPassJudge(...) was not awaited: add await (unawaited.child.ts:31:52).')
    expect(failure('unawaited .rejects')).toContain('[expect-llm] rejects.toPassJudge(...) was not awaited: add await (unawaited.child.ts:35:50).')
    expect(output).not.toContain('Promise returned by')
  })

  test('expect.soft', () => {
    expect(failure('unawaited expect.soft')).toContain('[expect-llm] toPassJudge(...) was not awaited: add await (unawaited.child.ts:39:31).')
  })

  test('.then() without await or return', () => {
    expect(failure('then() without await')).toContain('[expect-llm] toPassJudge(...) was not awaited: add await (unawaited.child.ts:43:26).')
  })

  test('two in one test: both listed', () => {
    const message = failure('two unawaited')
    expect(message).toContain('[expect-llm] 2 assertions were not awaited:\n  - toPassJudge(...) was not awaited: add await (unawaited.child.ts:47:26).')
    expect(message).toContain('  - toBeSemanticallySimilar(...) was not awaited: add await (unawaited.child.ts:48:27).')
  })

  test('outside a test (beforeAll): the file fails from afterAll', () => {
    expect(outside.message).toContain('[expect-llm] toPassJudge(...) was not awaited: add await (outside.child.ts:8:24).')
  })
})

describe('an assertion that is waited for passes', () => {
  test.each(['awaited', 'returned', 'Promise.all', 'awaited later', 'awaited .resolves.not', 'lexical matchers need no await'])('%s', (title) => {
    expect(results[title]?.status, `${title}\n${output}`).toBe('passed')
  })

  test('an awaited failure fails with the matcher message only', () => {
    const message = failure('awaited failing assertion fails as usual')
    expect(message).toContain('expect(output).toPassJudge(criteria)')
    expect(message).not.toContain('not awaited')
  })
})
