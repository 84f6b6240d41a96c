import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, test } from 'vitest'
import { writeUsageRecord } from '../../src/replay/summary.js'
import { cliIn, client, fixtureFiles, optionsFor, startReplay, useReplaySandbox } from './helpers.js'

const sandbox = useReplaySandbox()

// Registered after the sandbox's own beforeEach, so the server and root exist here.
beforeEach(async () => {
  // Two chat fixtures and one embeddings fixture for test/example.test.ts.
  const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
  try {
    const c = client(sandbox.server.baseURL)
    await c.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Capital of France?' },
      ],
    })
    await c.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Capital of Spain?' }] })
    await c.embeddings.create({ model: 'text-embedding-3-small', input: ['hello'] })
    phase.replay.assertNoProblems()
  } finally {
    phase.close()
  }
})

const cli = (...args: string[]) => cliIn(sandbox.root, ...args)

describe('expect-llm fixtures ls', () => {
  test('lists endpoint, model, first user message, age and size of every fixture', async () => {
    const { code, out } = await cli('fixtures', 'ls')
    expect(code).toBe(0)
    const lines = out.split('\n')
    expect(lines[0]).toMatch(/^ENDPOINT\s+MODEL\s+MESSAGE\s+AGE\s+SIZE\s+FILE$/)
    expect(out).toMatch(
      /chat-completions\s+gpt-4o-mini\s+Capital of France\?\s+0m\s+\d+\.\d KB\s+test\/__llm_fixtures__\/example\.test\.ts\/chat-completions\.[0-9a-f]{16}\.json/,
    )
    expect(out).toMatch(/embeddings\s+text-embedding-3-small\s+hello\s+0m/)
    expect(lines.at(-1)).toMatch(/^3 fixture\(s\), \d+\.\d KB$/)
  })
})

describe('expect-llm fixtures verify', () => {
  test('passes on clean fixtures', async () => {
    const { code, out } = await cli('fixtures', 'verify')
    expect(code).toBe(0)
    expect(out).toBe('3 fixture(s) verified: no problems.')
  })

  test('reports a corrupt file, a secret and a stale fixture, and exits 1', async () => {
    const files = await fixtureFiles(sandbox.root)
    const [a, c] = files.filter((f) => f.includes('chat-completions.'))
    const b = files.find((f) => f.includes('embeddings.'))
    await writeFile(a!, '{ "schemaVersion": 1, ')
    const withSecret = JSON.parse(await readFile(b!, 'utf8'))
    withSecret.response.json.data[0].object = `${'Bear' + 'er'} abcdefghijklmnopqrstuvwxyz` // assembled: no scanner hit on this file
    await writeFile(b!, JSON.stringify(withSecret))
    const old = JSON.parse(await readFile(c!, 'utf8'))
    old.meta.recordedAt = new Date(Date.now() - 40 * 86400e3).toISOString()
    await writeFile(c!, JSON.stringify(old))
    const { code, err, out } = await cli('fixtures', 'verify', '--max-age', '30d')
    expect(code).toBe(1)
    expect(err).toMatch(/chat-completions\.[0-9a-f]{16}\.json: corrupt: it is not valid JSON/)
    expect(err).toMatch(/embeddings\.[0-9a-f]{16}\.json: secret: a bearer token at \/response\/json\/data\/0\/object/)
    expect(err).toMatch(/: stale: recorded 40d ago \(max age 30d\)/)
    expect(out).toBe('3 fixture(s) checked: 3 problem(s).')
  })
})

describe('expect-llm command line', () => {
  test('rejects an unknown option with exit code 2 and deletes nothing', async () => {
    const before = await fixtureFiles(sandbox.root)
    const { code, err } = await cli('fixtures', 'prune', '--rot', 'elsewhere')
    expect(code).toBe(2)
    expect(err).toContain(
      `[expect-llm] Failed to run "expect-llm fixtures prune --rot elsewhere --root ${sandbox.root}": Unknown option '--rot'. Options: --root <dir>`,
    )
    expect(await fixtureFiles(sandbox.root)).toEqual(before)
  })

  test('rejects an option without its value', async () => {
    // cli() appends `--root <dir>`, which must not be taken as the value of --max-age.
    const { code, err } = await cli('fixtures', 'verify', '--max-age')
    expect(code).toBe(2)
    expect(err).toContain("Option '--max-age' argument is ambiguous. Options: --root <dir>")
  })
})

describe('expect-llm fixtures prune', () => {
  test('deletes only fixtures unused by a complete run of their test file', async () => {
    const files = await fixtureFiles(sandbox.root)
    const folder = join(sandbox.root, 'test', '__llm_fixtures__', 'example.test.ts')
    await writeUsageRecord(
      sandbox.root,
      { testPath: join(sandbox.root, 'test', 'example.test.ts'), folder, used: [files[0]!], created: [], unused: files.slice(1) },
      { complete: true },
    )
    const dry = await cli('fixtures', 'prune', '--dry-run')
    expect(dry.out).toContain('Would delete 2 unused fixture(s).')
    expect(await fixtureFiles(sandbox.root)).toHaveLength(3)
    const { code, out } = await cli('fixtures', 'prune')
    expect(code).toBe(0)
    expect(out).toContain('Deleted 2 unused fixture(s).')
    expect(await fixtureFiles(sandbox.root)).toEqual([files[0]])
  })

  test('keeps every fixture of a test file whose last run was filtered', async () => {
    const files = await fixtureFiles(sandbox.root)
    const folder = join(sandbox.root, 'test', '__llm_fixtures__', 'example.test.ts')
    await writeUsageRecord(
      sandbox.root,
      { testPath: join(sandbox.root, 'test', 'example.test.ts'), folder, used: [files[0]!], created: [], unused: [] },
      { complete: false, reason: 'filtered' },
    )
    const { out } = await cli('fixtures', 'prune')
    expect(out).toContain('skip test/__llm_fixtures__/example.test.ts: its last run was filtered or skipped tests')
    expect(out).toContain('Deleted 0 unused fixture(s).')
    expect(await fixtureFiles(sandbox.root)).toHaveLength(3)
  })
})
