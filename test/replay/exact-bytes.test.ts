// Exact bytes: a response body replays byte for byte whatever its content type; JSON is stored as JSON only
// when serializing it again gives the same bytes; multipart requests are keyed by their parts.
import { readFile } from 'node:fs/promises'
import { toFile } from 'openai'
import { describe, expect, test } from 'vitest'
import { buildKey } from '../../src/replay/key.js'
import { client, fixtureFiles, optionsFor, startReplay, useReplaySandbox } from './helpers.js'

const sandbox = useReplaySandbox()

/** Fetches `path` from the sandbox server in record mode, stops the server, fetches it again in replay mode. */
async function recordThenReplayRaw(
  path: string,
): Promise<{ recorded: Uint8Array; replayed: Uint8Array; recordedType: string | null; replayedType: string | null; fixture: any }> {
  const url = `${sandbox.server.origin}${path}`
  const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
  let recorded: Response
  let recordedBytes: Uint8Array
  try {
    recorded = await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
    recordedBytes = new Uint8Array(await recorded.arrayBuffer())
    rec.replay.assertNoProblems()
  } finally {
    rec.close()
  }
  await sandbox.server.close()
  const rep = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay'))
  try {
    const replayed = await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
    const replayedBytes = new Uint8Array(await replayed.arrayBuffer())
    rep.replay.assertNoProblems()
    const [file] = await fixtureFiles(sandbox.root)
    return {
      recorded: recordedBytes,
      replayed: replayedBytes,
      recordedType: recorded.headers.get('content-type'),
      replayedType: replayed.headers.get('content-type'),
      fixture: JSON.parse(await readFile(file!, 'utf8')),
    }
  } finally {
    rep.close()
  }
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

describe('response bodies replay byte for byte', () => {
  test('an application/octet-stream body that looks like JSON is kept as bytes, not re-serialized', async () => {
    const body = '{ "price": 1.50, "items": [ 1,2 ] }\n'
    sandbox.server.setReply(() => ({ raw: { body, headers: { 'content-type': 'application/octet-stream' } } }))
    const { recorded, replayed, fixture } = await recordThenReplayRaw('/download')
    expect(text(recorded)).toBe(body) // while recording too
    expect(text(replayed)).toBe(body)
    expect(fixture.response.base64).toBe(Buffer.from(body).toString('base64'))
    expect(fixture.response.json).toBeUndefined()
  })

  test('JSON with an integer beyond 2^53 replays exactly, stored as text', async () => {
    const body = '{"id":12345678901234567890,"ok":true}'
    sandbox.server.setReply(() => ({ raw: { body, headers: { 'content-type': 'application/json' } } }))
    const { recorded, replayed, fixture } = await recordThenReplayRaw('/big')
    expect(text(recorded)).toBe(body)
    expect(text(replayed)).toBe(body)
    expect(fixture.response.text).toBe(body)
  })

  test("JSON that serializes back to the same bytes is stored as JSON, with the server's indentation", async () => {
    const pretty = `${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' } }] }, null, 2)}\n`
    sandbox.server.setReply(() => ({ raw: { body: pretty, headers: { 'content-type': 'application/json; charset=utf-8' } } }))
    const { replayed, fixture, replayedType } = await recordThenReplayRaw('/pretty')
    expect(text(replayed)).toBe(pretty)
    expect(replayedType).toBe('application/json; charset=utf-8')
    expect(fixture.response).toMatchObject({ json: { id: 'chatcmpl-1' }, jsonSpace: 2, jsonNewline: true })
  })

  test('JSON with escapes or decimals that would change is kept as its exact text', async () => {
    const body = '{"name":"caf\\u00e9","ratio":2.50}'
    sandbox.server.setReply(() => ({ raw: { body, headers: { 'content-type': 'application/json' } } }))
    const { replayed, fixture } = await recordThenReplayRaw('/escaped')
    expect(text(replayed)).toBe(body)
    expect(fixture.response.text).toBe(body)
  })

  test('binary bytes that are not UTF-8 replay exactly', async () => {
    const body = new Uint8Array([0, 255, 254, 10, 123, 34, 128])
    sandbox.server.setReply(() => ({ raw: { body, headers: { 'content-type': 'audio/mpeg' } } }))
    const { replayed } = await recordThenReplayRaw('/audio')
    expect([...replayed]).toEqual([...body])
  })
})

describe('request keys', () => {
  test('integers beyond 2^53 that differ give different keys', () => {
    const key = (n: string) => buildKey('POST', new URL('https://api.openai.com/v1/x'), new TextEncoder().encode(`{"seed":${n}}`), 'application/json', {})
    expect(key('12345678901234567890').hash).not.toBe(key('12345678901234567891').hash)
    expect(key('12345678901234567890').material.body).toEqual({ seed: { $bigint: '12345678901234567890' } })
    expect(key('42').material.body).toEqual({ seed: 42 })
  })

  test('a multipart upload (audio.transcriptions.create) replays although its boundary is random, keyed by its parts', async () => {
    const transcribe = async (bytes: string) =>
      client(sandbox.server.baseURL).audio.transcriptions.create({
        model: 'whisper-1',
        language: 'en',
        file: await toFile(Buffer.from(bytes), 'hello.wav', { type: 'audio/wav' }),
      })
    const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
    const recorded = await transcribe('RIFF fake wave').finally(() => rec.close())
    await sandbox.server.close()
    const rep = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay'))
    try {
      expect(await transcribe('RIFF fake wave')).toEqual(recorded)
      rep.replay.assertNoProblems()
      const [fixture] = await Promise.all((await fixtureFiles(sandbox.root)).map(async (f) => JSON.parse(await readFile(f, 'utf8'))))
      expect(fixture.key.bodyType).toBe('multipart')
      expect(fixture.key.body).toEqual([
        { name: 'model', value: 'whisper-1' },
        { name: 'language', value: 'en' },
        { name: 'file', filename: 'hello.wav', contentType: 'audio/wav', size: 14, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      ])
      // Other audio: a miss whose diff names the part, not base64.
      await transcribe('RIFF other wave').catch(() => undefined)
      const [problem] = rep.replay.takeProblems()
      expect(problem?.message).toContain('/body/2/sha256')
      expect(problem?.message).toContain('/body/2/size')
      expect(problem?.message).not.toContain(Buffer.from('RIFF other wave').toString('base64'))
      expect(problem?.message).toContain('- recorded: 14\n      + actual:   15')
    } finally {
      rep.close()
    }
  })
})
