// replay.maxAge: a fixture recorded longer ago than maxAge still replays, with one warning naming it and the
// command that records it again; `fixtures verify --max-age` fails on the same file; bad ages are refused.
import { readFile, writeFile } from 'node:fs/promises'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { configure, resetConfig } from '../../src/config.js'
import { cliIn, client, fixtureFiles, optionsFor, startReplay, useReplaySandbox } from './helpers.js'

const sandbox = useReplaySandbox()
const ask = { model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user' as const, content: 'Capital of France?' }] }
const DAY = 86_400_000

afterEach(() => {
  vi.restoreAllMocks()
  resetConfig()
})

/** Records one chat completion, then dates its fixture `days` days back. */
async function recordAged(days: number): Promise<string> {
  const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
  try {
    await client(sandbox.server.baseURL).chat.completions.create(ask)
    await rec.replay.flush()
  } finally {
    rec.close()
  }
  const [file] = await fixtureFiles(sandbox.root)
  const fixture = JSON.parse(await readFile(file!, 'utf8'))
  fixture.meta.recordedAt = new Date(Date.now() - days * DAY).toISOString()
  await writeFile(file!, JSON.stringify(fixture, null, 2))
  return file!
}

/** Replays the request twice with `maxAge`; returns what it answered and the warnings printed. */
async function replayWith(maxAge: string | number): Promise<{ text: string | null | undefined; warnings: string[] }> {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  const rep = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay', { maxAge }))
  try {
    const before = sandbox.server.requests.length
    const first = await client(sandbox.server.baseURL).chat.completions.create(ask)
    await client(sandbox.server.baseURL).chat.completions.create(ask)
    expect(sandbox.server.requests.length).toBe(before)
    rep.replay.assertNoProblems()
    return { text: first.choices[0]?.message.content, warnings: warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('maxAge')) }
  } finally {
    rep.close()
  }
}

describe('replay.maxAge', () => {
  test('a fixture older than maxAge replays, with one warning naming the file, its age and the record command', async () => {
    await recordAged(100)
    const { text, warnings } = await replayWith('90d')
    expect(text).toBeTruthy()
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      /^\[expect-llm\] test\/__llm_fixtures__\/example\.test\.ts\/chat-completions\.[0-9a-f]{16}\.json was recorded 100d ago, longer than replay\.maxAge \(90d\): it still replays, but the model or its API may have changed since\. Record it again with EXPECT_LLM_REPLAY=rerecord npx vitest run test\/example\.test\.ts\.$/,
    )
  })

  test('a fixture younger than maxAge replays silently (boundary: 89 days against 90d, and a number of ms)', async () => {
    await recordAged(89)
    expect((await replayWith('90d')).warnings).toEqual([])
    expect((await replayWith(90 * DAY)).warnings).toEqual([])
    expect((await replayWith(88 * DAY)).warnings).toHaveLength(1)
  })

  test('a fixture exactly maxAge old replays silently; one millisecond older, it warns', async () => {
    await recordAged(0)
    const [file] = await fixtureFiles(sandbox.root)
    const recordedAt = Date.parse(JSON.parse(await readFile(file!, 'utf8')).meta.recordedAt)
    const now = vi.spyOn(Date, 'now').mockReturnValue(recordedAt + 1000)
    expect((await replayWith(1000)).warnings).toEqual([])
    now.mockReturnValue(recordedAt + 1001)
    expect((await replayWith(1000)).warnings).toHaveLength(1)
  })

  test('fixtures verify --max-age fails on the same fixture', async () => {
    await recordAged(100)
    const { code, err } = await cliIn(sandbox.root, 'fixtures', 'verify', '--max-age', '90d')
    expect(code).toBe(1)
    expect(err).toContain('stale: recorded 100d ago (max age 90d)')
  })

  test('configure() refuses a maxAge that is not an age', () => {
    expect(() => configure({ replay: { maxAge: 'ninety days' } })).toThrow(
      `[expect-llm] Failed to configure expect-llm: "replay.maxAge" must be an age such as '90d', '12h' or '30m', or milliseconds >= 0, got a string ("ninety days"). Change it, or leave it out for the default.`,
    )
    expect(() => configure({ replay: { maxAge: -1 } })).toThrow('"replay.maxAge" must be an age such as')
    expect(() => configure({ replay: { maxAge: '12h' } })).not.toThrow()
  })
})
