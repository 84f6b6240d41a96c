// `expect-llm fixtures prune` (src/replay/cli.ts) on the cases where it must not delete a recording: a dry
// run, a fixture the last run created, a fixture another test file's run used, a folder with no run
// recorded; and what it prints for each file it deletes, temporary files of a killed writer included.
import { readFile, truncate, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { USAGE_DIR, writeUsageRecord } from '../../src/replay/summary.js'
import { cliIn, client, fixtureFiles, listFiles, optionsFor, startReplay, useReplaySandbox } from './helpers.js'

const sandbox = useReplaySandbox()

/** Records one chat request per prompt for the test file `test/<name>`; returns the fixture files in prompt order. */
async function record(name: string, ...prompts: string[]): Promise<string[]> {
  const files: string[] = []
  for (const content of prompts) {
    const before = new Set(await fixtureFiles(sandbox.root))
    const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record', { testPath: () => join(sandbox.root, 'test', name) }))
    try {
      await client(sandbox.server.baseURL).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], temperature: 0 })
      phase.replay.assertNoProblems()
    } finally {
      phase.close()
    }
    files.push(...(await fixtureFiles(sandbox.root)).filter((f) => !before.has(f)))
  }
  return files
}

const folderOf = (name: string) => join(sandbox.root, 'test', '__llm_fixtures__', name)
const rel = (file: string) => file.slice(sandbox.root.length + 1)
/** Keeps a record of a complete, green run of `test/<name>` that used and created these files. */
const ran = (name: string, used: string[], created: string[] = []) =>
  writeUsageRecord(sandbox.root, { testPath: join(sandbox.root, 'test', name), folder: folderOf(name), used, created, unused: [] }, { complete: true })
// The temporary file of a writer that is gone: Linux pids never exceed 2^22 (4194304), so this one never runs.
const leftover = async (fixture: string) => {
  const tmp = `${fixture}.4194305.0.0123abcd.tmp`
  await writeFile(tmp, '{ "half": ')
  return tmp
}

describe('expect-llm fixtures prune', () => {
  test('--dry-run names each fixture and temporary file it would delete, and deletes none', async () => {
    const [used, unused] = await record('a.test.ts', 'Used', 'Unused')
    await ran('a.test.ts', [used!])
    const tmp = await leftover(used!)
    const before = await listFiles(sandbox.root)
    const { code, out } = await cliIn(sandbox.root, 'fixtures', 'prune', '--dry-run')
    expect(code).toBe(0)
    expect(out.split('\n')).toEqual([
      `would delete ${rel(unused!)}`,
      `would delete ${rel(tmp)} (temporary file of an interrupted write)`,
      'Would delete 1 unused fixture(s) and 1 temporary file(s).',
    ])
    expect(await listFiles(sandbox.root)).toEqual(before)
  })

  test('deletes the unused fixture and the temporary file, naming each', async () => {
    const [used, unused] = await record('a.test.ts', 'Used', 'Unused')
    await ran('a.test.ts', [used!])
    const tmp = await leftover(used!)
    const { code, out } = await cliIn(sandbox.root, 'fixtures', 'prune')
    expect(code).toBe(0)
    expect(out.split('\n')).toEqual([
      `delete ${rel(unused!)}`,
      `delete ${rel(tmp)} (temporary file of an interrupted write)`,
      'Deleted 1 unused fixture(s) and 1 temporary file(s).',
    ])
    expect(await fixtureFiles(sandbox.root)).toEqual([used])
    expect((await listFiles(sandbox.root)).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  test('keeps a fixture the last run created, and one that the run of another test file used', async () => {
    const [created, sharedFixture] = await record('a.test.ts', 'Created', 'Shared')
    await record('b.test.ts', 'Own')
    await ran('a.test.ts', [], [created!])
    // b.test.ts found a.test.ts's fixture by its hash (a moved or shared request): it is in use.
    const [own] = await fixtureFiles(folderOf('b.test.ts'))
    await ran('b.test.ts', [own!, sharedFixture!])
    const { out } = await cliIn(sandbox.root, 'fixtures', 'prune')
    expect(out).toBe('Deleted 0 unused fixture(s).')
    expect(await fixtureFiles(sandbox.root)).toHaveLength(3)
  })

  test('skips a folder whose test file has no recorded run, and prunes the others', async () => {
    const [kept] = await record('never-ran.test.ts', 'Kept')
    const [used, unused] = await record('a.test.ts', 'Used', 'Unused')
    await ran('a.test.ts', [used!])
    const { out } = await cliIn(sandbox.root, 'fixtures', 'prune')
    expect(out.split('\n')).toEqual([
      `delete ${rel(unused!)}`,
      'skip test/__llm_fixtures__/never-ran.test.ts: no run of its test file was recorded; run the full suite first',
      'Deleted 1 unused fixture(s).',
    ])
    expect(await fixtureFiles(sandbox.root)).toEqual([used, kept].sort())
  })

  test('keeps a fixture it cannot read, with the read error', async () => {
    const [used] = await record('a.test.ts', 'Used')
    // Node's readFile refuses a file over 2 GiB (this one is sparse: it takes no space), as it would one it may not read.
    const big = join(folderOf('a.test.ts'), 'chat-completions.0123456789abcdef.json')
    await writeFile(big, '')
    await truncate(big, 2 ** 31)
    const before = new Date(Date.now() - 60_000)
    await utimes(big, before, before)
    await ran('a.test.ts', [used!])
    const { out } = await cliIn(sandbox.root, 'fixtures', 'prune')
    expect(out.split('\n')).toEqual([
      `keep ${rel(big)}: it is corrupt (File size (2147483648) is greater than 2 GiB); fix it by hand or delete it yourself`,
      'Deleted 0 unused fixture(s).',
    ])
  })

  test('deletes a fixture last changed at the very time the run of its test file finished', async () => {
    const [used, unused] = await record('a.test.ts', 'Used', 'Unused')
    await ran('a.test.ts', [used!])
    // The run's end and the file's time on the same whole second (utimes sets whole seconds exactly).
    const finished = new Date('2026-01-01T00:00:00.000Z')
    const [usageFile] = await listFiles(join(sandbox.root, USAGE_DIR))
    const usage = JSON.parse(await readFile(usageFile!, 'utf8'))
    await writeFile(usageFile!, JSON.stringify({ ...usage, finishedAt: finished.toISOString() }))
    await utimes(unused!, finished, finished)
    const { out } = await cliIn(sandbox.root, 'fixtures', 'prune')
    expect(out.split('\n')).toEqual([`delete ${rel(unused!)}`, 'Deleted 1 unused fixture(s).'])
  })
})
