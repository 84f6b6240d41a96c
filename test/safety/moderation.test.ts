// toPassModeration through the real openai SDK against a local server on 127.0.0.1 that answers
// POST /v1/moderations as OpenAI's endpoint does.
import { stripVTControlCharacters } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toPassModeration.js'
import { configure, resetConfig } from '../../src/config.js'
import { isUsageError } from '../../matchers/utils.js'
import { moderate } from '../../src/safety/moderation.js'
import { planScorers, runScorer } from '../../src/golden/scorers.js'
import { asyncFailureMessage } from '../helpers/model-fakes.js'
import { clientFor, startOpenAIServer, type OpenAIServer } from '../helpers/model-server.js'

expect.extend(matcher)

let server: OpenAIServer
beforeAll(async () => {
  server = await startOpenAIServer()
  configure({ replay: { allowedHosts: [server.origin] } })
})
afterAll(async () => {
  resetConfig()
  await server.close()
})
afterEach(() => server.reset())

/** An OpenAI moderation response: the given scores, flagged at 0.5 as the endpoint would. */
export function moderationReply(scores: Record<string, number>, model = 'omni-moderation-2024-09-26') {
  const categories = Object.fromEntries(Object.entries(scores).map(([c, s]) => [c, s >= 0.5]))
  return { json: { id: 'modr-1', model, results: [{ flagged: Object.values(categories).some(Boolean), categories, category_scores: scores }] } }
}

const calm = { harassment: 0.01, hate: 0.002, violence: 0.03 }
const threat = { harassment: 0.91, hate: 0.02, violence: 0.78 }
const client = () => clientFor(server.baseURL, { maxRetries: 0 })

describe('moderate', () => {
  test('sends the text to /v1/moderations with the default model', async () => {
    server.setReply(() => moderationReply(calm))
    await moderate('Thanks for your order!', { client: client() })
    expect(server.requests[0]).toMatchObject({ path: '/v1/moderations', body: { model: 'omni-moderation-latest', input: 'Thanks for your order!' } })
  })

  test("reads the endpoint's flags, worst first", async () => {
    server.setReply(() => moderationReply(threat))
    expect(await moderate('x', { client: client() })).toEqual({
      flagged: true,
      failed: [
        { category: 'harassment', score: 0.91 },
        { category: 'violence', score: 0.78 },
      ],
      maxScore: 0.91,
      model: 'omni-moderation-2024-09-26',
    })
  })

  test('categories limit what counts; threshold replaces the flags', async () => {
    server.setReply(() => moderationReply(threat))
    expect((await moderate('x', { client: client(), categories: ['hate'] })).flagged).toBe(false)
    server.setReply(() => moderationReply(calm))
    expect((await moderate('x', { client: client(), threshold: 0.03 })).failed).toEqual([{ category: 'violence', score: 0.03 }])
  })

  test('a reply without category scores is an error', async () => {
    server.setReply(() => ({ json: { id: 'x', results: [] } }))
    await expect(moderate('x', { client: client() })).rejects.toThrow('Failed to read the moderation reply of "omni-moderation-latest"')
  })

  test('a refused key names toPassModeration({ apiKey })', async () => {
    server.setReply(() => ({ status: 401, errorMessage: 'Incorrect API key provided' }))
    await expect(moderate('x', { client: client() })).rejects.toThrow(
      'the server refused the API key (401: Incorrect API key provided). Set OPENAI_API_KEY to a valid key, or pass it with toPassModeration({ apiKey }).',
    )
  })
})

describe('.toPassModeration', () => {
  test('passes a text the endpoint does not flag', async () => {
    server.setReply(() => moderationReply(calm))
    await expect('Thanks for your order!').toPassModeration({ client: client() })
  })

  test('fails a flagged text, listing the categories', async () => {
    server.setReply(() => moderationReply(threat))
    expect(await asyncFailureMessage(expect('I will find you.').toPassModeration({ client: client() }))).toMatchInlineSnapshot(`
      "expect(output).toPassModeration(options)

      Expected: not flagged
      Received: flagged: harassment 0.91, violence 0.78 by omni-moderation-2024-09-26

      Output: "I will find you.""
    `)
  })

  test('.not passes a flagged text and fails a clean one', async () => {
    server.setReply(() => moderationReply(threat))
    await expect('I will find you.').not.toPassModeration({ client: client() })
    server.setReply(() => moderationReply(calm))
    expect(await asyncFailureMessage(expect('Hello').not.toPassModeration({ client: client(), threshold: 0.5 }))).toContain(
      'Received: not flagged (highest score 0.03) by omni-moderation-2024-09-26',
    )
  })

  test('rejects wrong input before any call, also under .not', async () => {
    await expect(expect(42).toPassModeration()).rejects.toThrow('the received value must be a string, got a number (42)')
    await expect(expect('x').not.toPassModeration({ treshold: 0.5 } as never)).rejects.toThrow('unknown option "treshold"')
    await expect(expect('x').toPassModeration({ threshold: 2 })).rejects.toThrow('threshold must be a number from 0 to 1')
    await expect(expect('x').toPassModeration({ categories: [] })).rejects.toThrow('categories must be a non-empty list of category names')
    expect(server.requests).toHaveLength(0)
  })

  test('a usage error without options shows the call without options', async () => {
    const error = await expect(42)
      .toPassModeration()
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(error).toBeInstanceOf(TypeError)
    expect(stripVTControlCharacters((error as Error).message).split('\n')[0]).toBe('expect(output).toPassModeration()')
  })

  test('with a threshold and categories, the failure message states both', async () => {
    server.setReply(() => moderationReply(threat))
    const assertion = expect('I will find you.').toPassModeration({ client: client(), threshold: 0.4, categories: ['harassment', 'hate'] })
    expect(await asyncFailureMessage(assertion)).toMatchInlineSnapshot(`
      "expect(output).toPassModeration(options)

      Expected: no category at or above 0.4 (harassment, hate)
      Received: flagged: harassment 0.91 by omni-moderation-2024-09-26

      Output: "I will find you.""
    `)
  })

  test('.not names the categories it looked at', async () => {
    server.setReply(() => moderationReply(calm))
    const message = await asyncFailureMessage(expect('Hello').not.toPassModeration({ client: client(), categories: ['violence'] }))
    expect(message.split('\n')[2]).toBe('Expected: flagged (violence)')
  })

  test('a model error fails the matcher with the reason and the fix, its cause kept', async () => {
    server.setReply(() => ({ status: 401, errorMessage: 'Incorrect API key provided' }))
    const error = await expect('Hello')
      .toPassModeration({ client: client() })
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(error).toBeInstanceOf(Error)
    expect(isUsageError(error)).toBe(false)
    expect((error as Error).cause).toBeInstanceOf(Error)
    expect(stripVTControlCharacters((error as Error).message).replace(server.origin, 'http://<server>')).toMatchInlineSnapshot(`
      "expect(output).toPassModeration(options)

      [expect-llm] Failed to call the moderation model "omni-moderation-latest" at http://<server>/v1: the server refused the API key (401: Incorrect API key provided). Set OPENAI_API_KEY to a valid key, or pass it with toPassModeration({ apiKey })."
    `)
  })
})

describe('the moderation scorer', () => {
  test('scores 1 minus the highest category score and fails a flagged case', async () => {
    const [plan] = planScorers({ moderation: { client: client() } })
    server.setReply(() => moderationReply(threat))
    expect(await runScorer(plan!, { output: 'x', c: { id: 'a', input: 'q' }, inputText: 'q' }, {})).toMatchObject({
      pass: false,
      detail: 'flagged: harassment 0.91, violence 0.78',
    })
    server.setReply(() => moderationReply(calm))
    const ok = await runScorer(plan!, { output: 'x', c: { id: 'a', input: 'q' }, inputText: 'q' }, {})
    expect(ok.pass).toBe(true)
    expect(ok.score).toBeCloseTo(0.97, 12)
  })
})
