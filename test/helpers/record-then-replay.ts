/**
 * Record a provider's calls against a local server, stop the server, and replay them offline: through
 * the replay session that the repository's setup file (expect-llm/vitest) started, as users get it.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, vi } from 'vitest'
import { configure, getConfig } from '../../src/config.js'
import { clearEmbeddingCache } from '../../src/embedders/batch.js'
import { getReplaySession } from '../../src/replay/session.js'
import type { Fixture, ReplayProblem } from '../../src/replay/types.js'

/**
 * For test files whose judges and embedders call local servers live: expect-llm would otherwise replay
 * their hosts (a judge's or embedder's host joins the replay hosts by itself), so before each test every
 * 127.0.0.1 port is an allowed host. `recordThenReplay` sets `hosts` explicitly, which wins.
 */
export function callLocalServersLive(): void {
  beforeEach(() => {
    configure({ replay: { ...getConfig().replay, allowedHosts: ['http://127.0.0.1:*'] } })
  })
}

/** Sets the replay mode for the session (and allows recording when CI is set). */
export function replayMode(mode: 'record' | 'replay'): void {
  vi.stubEnv('EXPECT_LLM_REPLAY', mode)
  vi.stubEnv('EXPECT_LLM_ALLOW_RECORD_IN_CI', '1')
}

/** Problems the session saw since the last call (misses, refused writes...). */
export function replayProblems(): ReplayProblem[] {
  return getReplaySession()!.replay.takeProblems()
}

/** Every fixture written under `root`, parsed. */
export async function fixturesUnder(root: string): Promise<Fixture[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])
  const files = entries.filter((e) => e.isFile() && /\.[0-9a-f]{16}\.json$/.test(e.name)).map((e) => join(e.parentPath, e.name))
  return Promise.all(files.sort().map(async (f) => JSON.parse(await readFile(f, 'utf8')) as Fixture))
}

/** What {@link recordThenReplay} returns. */
export interface RecordedAndReplayed<T> {
  recorded: T
  replayed: T
  fixtures: Fixture[]
}

/**
 * Runs `run` in record mode with `hosts` intercepted and fixtures under a fresh temporary root, then
 * calls `stop` (closing the servers), then runs `run` again in replay mode. `run` must build its judge or
 * embedder itself, so that the replay run starts from a fresh client and cache.
 */
export async function recordThenReplay<T>(hosts: string[], stop: () => Promise<void>, run: () => Promise<T>): Promise<RecordedAndReplayed<T>> {
  const root = await mkdtemp(join(tmpdir(), 'expect-llm-provider-replay-'))
  try {
    // A test path of its own per run: the engine keeps each test file's fixture folder for the process,
    // so a second run in the same test file would otherwise write under the first run's root.
    configure({ replay: { hosts, rootDir: root, dir: 'fixtures', testPath: () => join(root, 'provider.test.ts') } })
    replayMode('record')
    clearEmbeddingCache()
    const recorded = await run()
    await getReplaySession()!.replay.flush()
    const recordProblems = replayProblems()
    if (recordProblems.length > 0) throw new Error(`recording failed:\n${recordProblems.map((p) => p.message).join('\n')}`)
    const fixtures = await fixturesUnder(root)
    await stop()
    replayMode('replay')
    clearEmbeddingCache()
    const replayed = await run()
    const replayProblemsSeen = replayProblems()
    if (replayProblemsSeen.length > 0) throw new Error(`replay failed:\n${replayProblemsSeen.map((p) => p.message).join('\n')}`)
    return { recorded, replayed, fixtures }
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}
