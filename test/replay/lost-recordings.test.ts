// Ways a recording could be lost: prune deleting a fixture a test needs, identical concurrent requests
// overwriting each other, a killed writer's temporary files.
import { spawn } from 'node:child_process'
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test, vi } from 'vitest'
import { removeStaleTempFiles, tempFileName } from '../../src/replay/store.js'
import { writeUsageRecord } from '../../src/replay/summary.js'
import { cliIn, client, fixtureFiles, listFiles, optionsFor, startReplay, useReplaySandbox } from './helpers.js'

const sandbox = useReplaySandbox()
const ask = (content: string, temperature = 0) => ({ model: 'gpt-4o-mini', temperature, messages: [{ role: 'user' as const, content }] })
const testPath = () => join(sandbox.root, 'test', 'example.test.ts')
const folder = () => join(sandbox.root, 'test', '__llm_fixtures__', 'example.test.ts')

async function record(...prompts: string[]): Promise<void> {
  const phase = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
  try {
    for (const p of prompts) await client(sandbox.server.baseURL).chat.completions.create(ask(p))
    phase.replay.assertNoProblems()
  } finally {
    phase.close()
  }
}

const cli = (...args: string[]) => cliIn(sandbox.root, ...args)

describe('prune never deletes a fixture a test still needs', () => {
  test('a corrupt fixture that a test looked up counts as used, and prune keeps it', async () => {
    await record('Capital of France?', 'Capital of Spain?')
    const [corrupt, other] = await fixtureFiles(sandbox.root)
    await writeFile(corrupt!, '{ "schemaVersion": 1, ')
    const rep = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay'))
    try {
      // Whichever prompt maps to the corrupt file: one lookup reads it.
      for (const p of ['Capital of France?', 'Capital of Spain?'])
        await client(sandbox.server.baseURL)
          .chat.completions.create(ask(p))
          .catch(() => undefined)
      expect(rep.replay.takeProblems().map((p) => p.kind)).toEqual(['corrupt'])
      const [summary] = await rep.replay.summary(testPath())
      expect(summary!.used.sort()).toEqual([corrupt, other].sort())
      expect(summary!.unused).toEqual([])
    } finally {
      rep.close()
    }
    // Even a usage record that does not list it (an older run) does not get it deleted.
    await writeUsageRecord(sandbox.root, { testPath: testPath(), folder: folder(), used: [], created: [], unused: [] }, { complete: true })
    const { out } = await cli('fixtures', 'prune')
    expect(out).toContain(`keep test/__llm_fixtures__/example.test.ts/${corrupt!.split('/').pop()}: it is corrupt (it is not valid JSON`)
    expect(await fixtureFiles(sandbox.root)).toContain(corrupt)
  })

  test('prune skips the folder of a test file whose last run failed', async () => {
    await record('Capital of France?')
    await writeUsageRecord(sandbox.root, { testPath: testPath(), folder: folder(), used: [], created: [], unused: [] }, { complete: false, reason: 'failed' })
    const { out } = await cli('fixtures', 'prune')
    expect(out).toContain('skip test/__llm_fixtures__/example.test.ts: its last run had failing tests; prune after a green run')
    expect(await fixtureFiles(sandbox.root)).toHaveLength(1)
  })

  test('prune keeps a fixture that changed after the last run of its test file', async () => {
    await record('Capital of France?')
    const [file] = await fixtureFiles(sandbox.root)
    await writeUsageRecord(sandbox.root, { testPath: testPath(), folder: folder(), used: [], created: [], unused: [file!] }, { complete: true })
    const later = new Date(Date.now() + 60_000)
    await utimes(file!, later, later)
    const { out } = await cli('fixtures', 'prune')
    expect(out).toContain('it changed after the last run of its test file; run the suite again first')
    expect(await fixtureFiles(sandbox.root)).toEqual([file])
  })
})

describe('identical requests in one run', () => {
  test('20 identical concurrent requests are sent once while recording, and every caller gets the answer replay will give', async () => {
    sandbox.server.setReply((_req, i) => ({ text: `answer ${i}`, latencyMs: 30 }))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    let recorded: Array<string | null | undefined>
    try {
      const sdk = client(sandbox.server.baseURL)
      recorded = (await Promise.all(Array.from({ length: 20 }, () => sdk.chat.completions.create(ask('Pick a word', 1))))).map(
        (r) => r.choices[0]?.message.content,
      )
      await rec.replay.flush()
      rec.replay.assertNoProblems()
    } finally {
      rec.close()
    }
    expect(sandbox.server.requests).toHaveLength(1)
    expect(new Set(recorded)).toEqual(new Set(['answer 0']))
    const notices = warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('was sent again with the same body'))
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatch(
      /^\[expect-llm\] POST \/v1\/chat\/completions was sent again with the same body while recording, so it was not sent to the model again: every identical request of the run gets the one response recorded in test\/__llm_fixtures__\/example\.test\.ts\/chat-completions\.[0-9a-f]{16}\.json, now and in replay \(the same holds for the other repeated requests of this test file\)\. If the calls should get different answers \(sampling at temperature > 0\), set configure\(\{ replay: \{ sequence: true \} \}\) to record one response per call\.$/,
    )
    await sandbox.server.close()
    const rep = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay'))
    try {
      const sdk = client(sandbox.server.baseURL)
      const replayed = (await Promise.all(Array.from({ length: 20 }, () => sdk.chat.completions.create(ask('Pick a word', 1))))).map(
        (r) => r.choices[0]?.message.content,
      )
      expect(replayed).toEqual(recorded)
      rep.replay.assertNoProblems()
    } finally {
      rep.close()
    }
  })

  test('identical requests at temperature 0 share one recording without a notice', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    try {
      const sdk = client(sandbox.server.baseURL)
      await Promise.all(Array.from({ length: 3 }, () => sdk.chat.completions.create(ask('Grade this answer', 0))))
      await sdk.chat.completions.create(ask('Grade this answer', 0))
      rec.replay.assertNoProblems()
    } finally {
      rec.close()
    }
    expect(sandbox.server.requests).toHaveLength(1)
    expect(warn).not.toHaveBeenCalled()
  })

  test('in sequence mode, 20 concurrent callers each get back their own recorded answer, in the order they called', async () => {
    // Later calls are answered first, so recordings complete in reverse order.
    sandbox.server.setReply((_req, i) => ({ text: `sample ${i}`, latencyMs: 5 * (20 - i) }))
    const options = (mode: 'record' | 'replay') => optionsFor(sandbox.root, sandbox.server.origin, mode, { sequence: true, testName: () => 'samples' })
    const calls = async () => {
      const sdk = client(sandbox.server.baseURL)
      return (await Promise.all(Array.from({ length: 20 }, () => sdk.chat.completions.create(ask('Pick a word', 1))))).map((r) => r.choices[0]?.message.content)
    }
    const rec = startReplay(options('record'))
    const recorded = await calls().finally(async () => {
      await rec.replay.flush()
      rec.close()
    })
    expect(recorded).toEqual(Array.from({ length: 20 }, (_, i) => `sample ${i}`))
    await sandbox.server.close()
    const rep = startReplay(options('replay'))
    try {
      expect(await calls()).toEqual(recorded)
      rep.replay.assertNoProblems()
    } finally {
      rep.close()
    }
  })
})

describe('temporary files of a killed writer', () => {
  /** Starts a process that leaves a temporary fixture file (as a write in progress does), then kills it with SIGKILL. */
  async function killedWriter(target: string): Promise<string> {
    const script = `const fs = require('node:fs'); const f = process.argv[1] + '.' + process.pid + '.0.0123abcd.tmp'; fs.mkdirSync(require('node:path').dirname(f), { recursive: true }); fs.writeFileSync(f, '{ "half": '); console.log(f); setInterval(() => {}, 1000)`
    const child = spawn(process.execPath, ['-e', script, target], { stdio: ['ignore', 'pipe', 'inherit'] })
    const tmp = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())))
    child.kill('SIGKILL')
    await new Promise((r) => child.once('exit', r))
    return tmp
  }

  test("verify reports them, the next run removes them, prune deletes them, and a live writer's file is kept", async () => {
    await record('Capital of France?')
    const [fixture] = await fixtureFiles(sandbox.root)
    const stale = await killedWriter(fixture!)
    expect(stale).toMatch(/chat-completions\.[0-9a-f]{16}\.json\.\d+\.0\.0123abcd\.tmp$/)
    // This process's own temporary file: a write in progress, never removed.
    const live = tempFileName(fixture!)
    await writeFile(live, '{')

    const verify = await cli('fixtures', 'verify')
    expect(verify.code).toBe(1)
    expect(verify.err).toContain(
      `${stale.slice(sandbox.root.length + 1)}: leftover: a temporary file of a write that was interrupted (process ${stale.split('.').at(-4)} is gone); not a fixture. Delete it, or run expect-llm fixtures prune`,
    )
    expect(verify.err).not.toContain(live.slice(sandbox.root.length + 1))

    // The next run that summarizes the folder removes it.
    const rep = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay'))
    try {
      await client(sandbox.server.baseURL).chat.completions.create(ask('Capital of France?'))
      await rep.replay.summary(testPath())
    } finally {
      rep.close()
    }
    const names = await readdir(folder())
    expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([live.split('/').pop()])

    // prune deletes them too.
    const again = await killedWriter(fixture!)
    await writeUsageRecord(sandbox.root, { testPath: testPath(), folder: folder(), used: [fixture!], created: [], unused: [] }, { complete: true })
    const { out } = await cli('fixtures', 'prune')
    expect(out).toContain(`delete ${again.slice(sandbox.root.length + 1)} (temporary file of an interrupted write)`)
    expect((await listFiles(sandbox.root)).filter((f) => f.endsWith('.tmp'))).toEqual([live])
    expect(await removeStaleTempFiles(folder())).toEqual([])
    expect(JSON.parse(await readFile(fixture!, 'utf8')).schemaVersion).toBe(1)
  })
})
