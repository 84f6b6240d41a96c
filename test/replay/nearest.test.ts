// The recording a miss is compared with: the same test file, host, model and client first, then the
// smallest text distance; never simply the newest recording.
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { createOpenAI } from '@ai-sdk/openai'
import { generateText } from 'ai'
import { afterEach, describe, expect, test } from 'vitest'
import * as matchers from '../../matchers/index.js'
import { configure, resetConfig } from '../../src/config.js'
import { jsonVerdict } from '../helpers/model-server.js'
import { client, fixtureFiles, optionsFor, startReplay, useReplaySandbox } from './helpers.js'

expect.extend(matchers)
const sandbox = useReplaySandbox()
afterEach(() => resetConfig())

/** Records `calls` in order (so the last one is the newest), then replays `miss` and returns the problem's message. */
async function nearestFor(calls: Array<() => Promise<unknown>>, miss: () => Promise<unknown>): Promise<string> {
  const rec = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'record'))
  try {
    for (const call of calls) {
      await call()
      await new Promise((r) => setTimeout(r, 5)) // distinct recordedAt times
    }
    rec.replay.assertNoProblems()
  } finally {
    rec.close()
  }
  const rep = startReplay(optionsFor(sandbox.root, sandbox.server.origin, 'replay'))
  try {
    await miss().catch(() => undefined)
    const problems = rep.replay.takeProblems()
    expect(problems.map((p) => p.kind)).toEqual(['miss'])
    return problems[0]!.message
  } finally {
    rep.close()
  }
}

describe('the nearest recording of a miss', () => {
  test("an openai prompt is compared with openai's recording, not with a newer, textually closer one from the AI SDK", async () => {
    const openai = (content: string) => () =>
      client(sandbox.server.baseURL).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] })
    const aiSdk = (prompt: string) => () =>
      generateText({ model: createOpenAI({ apiKey: 'local-key', baseURL: sandbox.server.baseURL }).chat('gpt-4o-mini'), prompt, maxRetries: 0 })
    const message = await nearestFor([openai('Capital of France?'), aiSdk('Capital of Italy!')], openai('Capital of Italy?'))
    expect(message).toContain('- recorded: "Capital of France?"')
    expect(message).toContain('+ actual:   "Capital of Italy?"')
  })

  test('a toPassJudge prompt is compared with the toPassJudge recording, not with a newer toRefuse one', async () => {
    sandbox.server.setReply(() => jsonVerdict(1, 'Fine.'))
    configure({ judge: { baseURL: sandbox.server.baseURL, apiKey: 'local-key', model: 'judge-model', maxRetries: 0 } })
    const answer = 'Thank you for waiting, your refund is on its way.'
    const message = await nearestFor(
      [
        () => expect(answer).toPassJudge('is polite'),
        () =>
          expect(answer)
            .toRefuse({ judge: true })
            .catch(() => undefined),
      ],
      () => expect(answer).toPassJudge('is courteous'),
    )
    expect(message).toMatch(/differs at 1 path\(s\):\n {4}\/body\/messages\/1\/content\n {6}- recorded: .*is polite/)
  })

  test('ties go to the file name, whatever order they were recorded in', async () => {
    const openai = (content: string) => () =>
      client(sandbox.server.baseURL).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] })
    const nearest = (message: string) => /Nearest recording: (\S+) differs/.exec(message)?.[1]
    // "Peru" and "Cuba" are both 4 edits from "Fiji".
    const oneOrder = nearest(await nearestFor([openai('Capital of Peru?'), openai('Capital of Cuba?')], openai('Capital of Fiji?')))
    const files = (await fixtureFiles(sandbox.root)).map((f) => f.slice(sandbox.root.length + 1)).sort()
    expect(files).toHaveLength(2)
    await rm(join(sandbox.root, 'test'), { recursive: true })
    const otherOrder = nearest(await nearestFor([openai('Capital of Cuba?'), openai('Capital of Peru?')], openai('Capital of Fiji?')))
    expect(oneOrder).toBe(files[0])
    expect(otherOrder).toBe(files[0])
  })
})
