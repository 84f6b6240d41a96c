// Record/replay under Jest's ESM mode, through the built `expect-llm/jest` setup file, which awaits
// replay start-up before this file is imported: a client created at module level is intercepted;
// record, stop the server, replay identical results with zero requests; an unrecorded prompt is a
// miss that never reaches the network.
import { afterAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { configure, getReplaySession, resetConfig } from 'expect-llm'
// Loading the setup entry again (its ESM build, after setupFilesAfterEnv loaded the CommonJS one) must
// neither start a second server nor register the replay hooks twice.
import 'expect-llm/jest'
import { startModelServer } from './model-server.mjs'

const server = await startModelServer(({ prompt }) => ({ text: `You asked: ${prompt}` }))
const root = mkdtempSync(join(tmpdir(), 'expect-llm-jest-replay-'))
const origin = new URL(server.baseURL).origin
configure({ replay: { hosts: [origin], rootDir: root, dir: 'fixtures' } })
// Built at module level, as apps often do: it must still be intercepted.
const client = new OpenAI({ apiKey: 'sk-test-jest-replay', baseURL: server.baseURL, maxRetries: 0 })
const ask = async (content) =>
  (await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] })).choices[0].message.content
const setMode = (mode) => {
  process.env.EXPECT_LLM_REPLAY = mode
  process.env.EXPECT_LLM_ALLOW_RECORD_IN_CI = '1' // CI forces replay; this suite records on purpose
}

afterAll(async () => {
  delete process.env.EXPECT_LLM_REPLAY
  delete process.env.EXPECT_LLM_ALLOW_RECORD_IN_CI
  resetConfig()
  await server.close()
  rmSync(root, { recursive: true, force: true })
})

describe('record/replay under Jest ESM', () => {
  test('the setup file started a replay session that intercepts: in replay mode an unrecorded prompt never reaches the server', async () => {
    setMode('replay')
    await expect(ask('Asked before anything was recorded')).rejects.toMatchObject({ status: 404 })
    expect(server.requests).toHaveLength(0)
    expect(
      getReplaySession()
        .replay.takeProblems()
        .map((p) => p.kind),
    ).toEqual(['miss'])
  })

  test('records a module-level client through the setup file, then replays it with zero requests', async () => {
    setMode('record')
    const live = await ask('Capital of France?')
    expect(server.requests).toHaveLength(1)
    const files = readdirSync(join(root, 'fixtures', 'replay.test.mjs'))
    expect(files).toEqual([expect.stringMatching(/^chat-completions\.[0-9a-f]{16}\.json$/)])
    expect(readFileSync(join(root, 'fixtures', 'replay.test.mjs', files[0]), 'utf8')).not.toContain('sk-test-jest-replay')

    setMode('replay')
    await expect(ask('Capital of France?')).resolves.toBe(live)
    expect(server.requests).toHaveLength(1)
  })

  test('a miss in replay mode fails at once without reaching the server, with the record command', async () => {
    setMode('replay')
    await expect(ask('Never recorded')).rejects.toMatchObject({ status: 404 })
    expect(server.requests).toHaveLength(1)
    const problems = getReplaySession().replay.takeProblems()
    expect(problems).toHaveLength(1)
    expect(problems[0].kind).toBe('miss')
    expect(problems[0].message).toContain('EXPECT_LLM_REPLAY=record npx jest')
    expect(problems[0].message).toContain('- recorded: "Capital of France?"')
  })
})
