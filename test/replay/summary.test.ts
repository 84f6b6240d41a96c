// The fixture summary printed after each test file, and the usage record `expect-llm fixtures prune` trusts
// (src/replay/summary.ts). Unused fixtures are offered for deletion only after a complete, green run.
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { formatSummary, readUsageRecords, USAGE_DIR, writeUsageRecord } from '../../src/replay/summary.js'
import type { FixtureSummary } from '../../src/replay/types.js'

const root = '/p'
const folder = '/p/test/__llm_fixtures__/a.test.ts'
const f = (name: string) => `${folder}/${name}.0123456789abcdef.json`
const summary = (over: Partial<FixtureSummary> = {}): FixtureSummary => ({ testPath: '/p/test/a.test.ts', folder, used: [], created: [], unused: [], ...over })

describe('formatSummary', () => {
  test('counts per test file, paths relative to the root', () => {
    expect(formatSummary([summary({ used: [f('a'), f('b')] })], root)).toBe(
      '[expect-llm] Replay fixtures for test/a.test.ts: 2 used, 0 new, 0 unused in test/__llm_fixtures__/a.test.ts.',
    )
  })

  test('new fixtures: commit them', () => {
    expect(formatSummary([summary({ created: [f('a')] })], root)).toBe(
      '[expect-llm] Replay fixtures for test/a.test.ts: 0 used, 1 new, 0 unused in test/__llm_fixtures__/a.test.ts. Commit the new files.',
    )
  })

  test('unused fixtures after a complete, green run (the default): prune them', () => {
    expect(formatSummary([summary({ used: [f('a')], unused: [f('b')] })], root)).toBe(
      '[expect-llm] Replay fixtures for test/a.test.ts: 1 used, 0 new, 1 unused in test/__llm_fixtures__/a.test.ts. Delete unused ones with: npx expect-llm fixtures prune',
    )
  })

  test('unused fixtures after a failed run: not yet', () => {
    expect(formatSummary([summary({ unused: [f('b')] })], root, { complete: false, reason: 'failed' })).toBe(
      '[expect-llm] Replay fixtures for test/a.test.ts: 0 used, 0 new, 1 unused in test/__llm_fixtures__/a.test.ts. Some tests failed, so they may still be needed: prune only after a green, unfiltered run.',
    )
  })

  test('unused fixtures after a filtered run: not yet', () => {
    expect(formatSummary([summary({ unused: [f('b')] })], root, { complete: false, reason: 'filtered' })).toBe(
      '[expect-llm] Replay fixtures for test/a.test.ts: 0 used, 0 new, 1 unused in test/__llm_fixtures__/a.test.ts. Tests were filtered or skipped, so they may still be needed: prune only after a full, unfiltered run.',
    )
  })

  test('new and unused together, a request outside tests, and files with nothing to report left out', () => {
    const text = formatSummary(
      [
        summary({ created: [f('a')], unused: [f('b')] }),
        summary({ testPath: '/p/test/empty.test.ts' }),
        summary({ testPath: null, folder: '/p/__llm_fixtures__/_no-test-file', used: [f('c')] }),
      ],
      root,
    )
    expect(text.split('\n')).toEqual([
      '[expect-llm] Replay fixtures for test/a.test.ts: 0 used, 1 new, 1 unused in test/__llm_fixtures__/a.test.ts. Commit the new files. Delete unused ones with: npx expect-llm fixtures prune',
      '[expect-llm] Replay fixtures for (outside tests): 1 used, 0 new, 0 unused in __llm_fixtures__/_no-test-file.',
    ])
    expect(formatSummary([summary()], root)).toBe('')
  })
})

describe('usage records', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'expect-llm-usage-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  const inDir = (s: Partial<FixtureSummary> = {}): FixtureSummary => ({
    testPath: join(dir, 'test', 'a.test.ts'),
    folder: join(dir, 'test', '__llm_fixtures__', 'a.test.ts'),
    used: [join(dir, 'test', '__llm_fixtures__', 'a.test.ts', 'x.0123456789abcdef.json')],
    created: [join(dir, 'test', '__llm_fixtures__', 'a.test.ts', 'y.0123456789abcdef.json')],
    unused: [join(dir, 'test', '__llm_fixtures__', 'a.test.ts', 'z.0123456789abcdef.json')],
    ...s,
  })

  test('a complete run: one file named by the hash of the test file, relative paths, no reason, and no unused list', async () => {
    const before = Date.now()
    await writeUsageRecord(dir, inDir(), { complete: true })
    const name = `${createHash('sha256').update('test/a.test.ts').digest('hex').slice(0, 16)}.json`
    expect(await readdir(join(dir, USAGE_DIR))).toEqual([name])
    const text = await readFile(join(dir, USAGE_DIR, name), 'utf8')
    expect(text.endsWith('}\n')).toBe(true)
    const record = JSON.parse(text)
    expect(record).toEqual({
      testFile: 'test/a.test.ts',
      folder: 'test/__llm_fixtures__/a.test.ts',
      used: ['test/__llm_fixtures__/a.test.ts/x.0123456789abcdef.json'],
      created: ['test/__llm_fixtures__/a.test.ts/y.0123456789abcdef.json'],
      complete: true,
      finishedAt: expect.any(String),
    })
    expect(Date.parse(record.finishedAt)).toBeGreaterThanOrEqual(before - 1000)
    expect(await readUsageRecords(dir)).toEqual([record])
  })

  test('an incomplete run keeps its reason; the next run of the file replaces the record', async () => {
    await writeUsageRecord(dir, inDir(), { complete: true })
    await writeUsageRecord(dir, inDir(), { complete: false, reason: 'failed' })
    const records = await readUsageRecords(dir)
    expect(records).toHaveLength(1)
    expect(records[0]).toMatchObject({ complete: false, reason: 'failed' })
  })

  test('no record outside a test file', async () => {
    await writeUsageRecord(dir, inDir({ testPath: null }), { complete: true })
    expect(await readUsageRecords(dir)).toEqual([])
  })

  test('readUsageRecords: every JSON record; torn or foreign files are skipped; none without the folder', async () => {
    expect(await readUsageRecords(dir)).toEqual([])
    await writeUsageRecord(dir, inDir(), { complete: true })
    await writeUsageRecord(dir, inDir({ testPath: join(dir, 'test', 'b.test.ts') }), { complete: true })
    await mkdir(join(dir, USAGE_DIR), { recursive: true })
    await writeFile(join(dir, USAGE_DIR, 'torn.json'), '{"testFile":')
    await writeFile(join(dir, USAGE_DIR, 'notes.txt'), '{"testFile":"x"}')
    expect((await readUsageRecords(dir)).map((r) => r.testFile).sort()).toEqual(['test/a.test.ts', 'test/b.test.ts'])
  })
})
