import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { relPath } from './engine.js'
import { writeFileAtomic } from './store.js'
import type { FixtureSummary } from './types.js'
import type { RunCompleteness } from '../runners/types.js'

/** Folder (under the project root) where each test file's fixture usage from its last run is kept, for `prune`. */
export const USAGE_DIR = join('.expect-llm', 'replay', 'usage')

/** One test file's fixture usage from its last run. */
export interface UsageRecord {
  /** Test file, relative to the root (POSIX separators). */
  testFile: string
  /** Its fixture folder, relative to the root. */
  folder: string
  used: string[]
  created: string[]
  /**
   * `true` when every test of the file ran (no filter, skip or `.only`) and passed: only then may `prune`
   * delete its unused fixtures.
   */
  complete: boolean
  /** Why the run was not complete: tests were `filtered` out or skipped, or a test `failed`. */
  reason?: 'filtered' | 'failed'
  finishedAt: string
}

/**
 * Formats fixture summaries, one line per test file with anything to report:
 * `[expect-llm] Replay fixtures for test/a.test.ts: 3 used, 1 new, 2 unused in test/__llm_fixtures__/a.test.ts.`
 * Unused fixtures are offered to `prune` only after a complete, green run (`run`); otherwise the line
 * says why they cannot be judged unused.
 */
export function formatSummary(summaries: FixtureSummary[], rootDir: string, run: RunCompleteness = { complete: true }): string {
  const lines: string[] = []
  for (const s of summaries) {
    if (s.used.length + s.created.length + s.unused.length === 0) continue
    const name = s.testPath ? relPath(rootDir, s.testPath) : '(outside tests)'
    let line =
      `[expect-llm] Replay fixtures for ${name}: ${s.used.length} used, ${s.created.length} new, ` +
      `${s.unused.length} unused in ${relPath(rootDir, s.folder)}.`
    if (s.created.length > 0) line += ' Commit the new files.'
    if (s.unused.length > 0) {
      line += run.complete
        ? ' Delete unused ones with: npx expect-llm fixtures prune'
        : run.reason === 'failed'
          ? ' Some tests failed, so they may still be needed: prune only after a green, unfiltered run.'
          : ' Tests were filtered or skipped, so they may still be needed: prune only after a full, unfiltered run.'
    }
    lines.push(line)
  }
  return lines.join('\n')
}

/** Writes one test file's usage record (atomically; one file per test file, so parallel workers never share one). */
export async function writeUsageRecord(rootDir: string, summary: FixtureSummary, run: RunCompleteness): Promise<void> {
  if (!summary.testPath) return
  const testFile = relPath(rootDir, summary.testPath)
  const record: UsageRecord = {
    testFile,
    folder: relPath(rootDir, summary.folder),
    used: summary.used.map((f) => relPath(rootDir, f)),
    created: summary.created.map((f) => relPath(rootDir, f)),
    complete: run.complete,
    ...(run.complete ? {} : { reason: run.reason }),
    finishedAt: new Date().toISOString(),
  }
  const name = `${createHash('sha256').update(testFile).digest('hex').slice(0, 16)}.json`
  await writeFileAtomic(join(rootDir, USAGE_DIR, name), `${JSON.stringify(record, null, 2)}\n`)
}

/** Reads every usage record under the root. */
export async function readUsageRecords(rootDir: string): Promise<UsageRecord[]> {
  const dir = join(rootDir, USAGE_DIR)
  let names: string[]
  try {
    names = await readdir(dir)
  } catch {
    return []
  }
  const out: UsageRecord[] = []
  for (const n of names.filter((x) => x.endsWith('.json'))) {
    try {
      out.push(JSON.parse(await readFile(join(dir, n), 'utf8')) as UsageRecord)
    } catch {
      // a torn or foreign file: ignored
    }
  }
  return out
}
