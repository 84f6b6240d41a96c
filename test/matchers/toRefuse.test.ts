import { stripVTControlCharacters } from 'node:util'
import { afterEach, describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toRefuse.js'
import { configure, resetConfig } from '../../src/config.js'
import { asyncFailureMessage, fixedJudge } from '../helpers/model-fakes.js'

expect.extend(matcher)

afterEach(() => resetConfig())

const refusal = 'Sorry, the context doesn’t mention parking fees.'
const answer = 'Parking is free for customers.'
const politeDodge = 'That is something our team handles personally; please reach out to them.'

describe('.toRefuse', () => {
  test('passes on a refusal phrase without calling a judge', async () => {
    const judge = fixedJudge(0)
    await expect(refusal).toRefuse({ judge })
    expect(judge.requests).toHaveLength(0)
  })

  test('passes on a refusal in other words when the judge finds one', async () => {
    await expect(politeDodge).toRefuse({ judge: fixedJudge(1) })
  })

  test('asks the configured judge with { judge: true }, using the refusal template', async () => {
    const judge = fixedJudge(1)
    configure({ judge })
    await expect(politeDodge).toRefuse({ judge: true, input: 'How much is parking?' })
    expect(judge.requests[0]).toMatchObject({ template: 'refusal', input: 'How much is parking?', output: politeDodge })
  })

  test('fails on an answer when no judge is asked', async () => {
    expect(await asyncFailureMessage(expect(answer).toRefuse())).toMatchInlineSnapshot(`
      "expect(output).toRefuse()

      Expected: a refusal (declines, or says it does not know)
      Received: no refusal phrase matched (no judge asked; pass { judge: true } to catch refusals in other words)

      Output: "Parking is free for customers.""
    `)
  })

  test('fails on an answer the judge does not find a refusal', async () => {
    expect(await asyncFailureMessage(expect(answer).toRefuse({ judge: fixedJudge(0, 'It states a fact about parking.') }))).toMatchInlineSnapshot(`
      "expect(output).toRefuse(options)

      Expected: a refusal (declines, or says it does not know)
      Received: no refusal phrase matched; the judge found an answer

      Expected judge score: >= 0.7
      Received judge score:    0 (FAIL, judge fake-judge)

      Judge's reasoning: "It states a fact about parking."

      Output: "Parking is free for customers.""
    `)
  })
})

describe('.not.toRefuse', () => {
  test('passes on an answer', async () => {
    await expect(answer).not.toRefuse()
  })

  test('fails on a refusal phrase and names the rule', async () => {
    expect(await asyncFailureMessage(expect(refusal).not.toRefuse())).toMatchInlineSnapshot(`
      "expect(output).not.toRefuse()

      Expected: an answer, not a refusal
      Received: a refusal (rule "context-does-not-mention": says the context does not mention it; matched "the context doesn't mention")

      Output: "Sorry, the context doesn’t mention parking fees.""
    `)
  })

  test('fails on a refusal in other words found by the judge', async () => {
    const message = await asyncFailureMessage(expect(politeDodge).not.toRefuse({ judge: fixedJudge(1, 'It deflects to another team.') }))
    expect(message).toContain('Received: no refusal phrase matched; the judge found a refusal')
    expect(message).toContain(`Judge's reasoning: "It deflects to another team."`)
  })
})

describe('toRefuse usage errors', () => {
  test('rejects a received value that is not a string', async () => {
    await expect(expect(undefined).toRefuse()).rejects.toThrow('[expect-llm] Failed to run toRefuse: the received value must be a string, got undefined.')
  })

  test('rejects a judge option that is not a judge', async () => {
    await expect(expect(answer).toRefuse({ judge: 'yes' as never })).rejects.toThrow(
      `"judge" must be true/false or a judge, got a string ("yes"). Pass { judge: true } to use the configured judge.`,
    )
  })

  test('rejects an unknown option', async () => {
    await expect(expect(answer).toRefuse({ llm: true } as never)).rejects.toThrow(
      'unknown option "llm". Valid options are: judge, input, threshold, judgeFirst.',
    )
  })
})

describe('toRefuse options reach the judge', () => {
  afterEach(() => resetConfig())

  test('{ judge: false } asks no judge, even a configured one', async () => {
    const judge = fixedJudge(1)
    configure({ judge })
    expect(await asyncFailureMessage(expect(politeDodge).toRefuse({ judge: false }))).toContain('Received: no refusal phrase matched (no judge asked;')
    expect(judge.requests).toHaveLength(0)
  })

  test('a judge function is accepted', async () => {
    await expect(politeDodge).toRefuse({ judge: () => ({ score: true }) })
  })

  test.each([
    ['a string ("gpt-4o")', 'gpt-4o'],
    ['null', null],
    ['a number (1)', 1],
  ])('a judge option that is %s is refused', async (shown, judge) => {
    expect(await asyncFailureMessage(expect(politeDodge).toRefuse({ judge: judge as never }))).toBe(
      `expect(output).toRefuse(options)\n\n[expect-llm] Failed to run toRefuse: "judge" must be true/false or a judge, got ${shown}. Pass { judge: true } to use the configured judge.`,
    )
  })

  test('the threshold is passed to the judge call (and checked there)', async () => {
    expect(await asyncFailureMessage(expect(politeDodge).toRefuse({ judge: fixedJudge(1), threshold: 2 }))).toContain(
      'the threshold must be a number from 0 to 1, got 2.',
    )
  })

  test('a model error of the judge fails the matcher with its message and cause', async () => {
    const cause = new Error('429 Too Many Requests: retry later')
    const judge = { name: 'busy-judge', evaluate: async () => Promise.reject(cause) }
    const error = await expect(politeDodge)
      .toRefuse({ judge })
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(error).toBeInstanceOf(Error)
    expect(stripVTControlCharacters((error as Error).message)).toBe('expect(output).toRefuse(options)\n\n429 Too Many Requests: retry later')
    expect((error as Error).cause).toBe(cause)
  })

  test('a usage error raised in the judge call is thrown as is, not wrapped as a model error', async () => {
    const error = await expect(politeDodge)
      .toRefuse({ judge: fixedJudge(1), threshold: 2 })
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(error).toBeInstanceOf(Error)
    const message = stripVTControlCharacters((error as Error).message)
    expect(message.startsWith('expect(output).toRefuse(options)\n\n[expect-llm] Failed to run toRefuse: ')).toBe(true)
    expect(message.match(/expect\(output\)\.toRefuse/g)).toHaveLength(1)
  })

  test('.not on an answer the judge calls a refusal says so', async () => {
    const message = await asyncFailureMessage(expect(politeDodge).not.toRefuse({ judge: fixedJudge(1) }))
    expect(message.split('\n').slice(2, 4)).toEqual(['Expected: an answer, not a refusal', 'Received: no refusal phrase matched; the judge found a refusal'])
  })
})

describe('toRefuse { judgeFirst }', () => {
  const notARefusal = 'No, the context does not mention PayPal: we accept cards only.'

  test('asks the judge even when a phrase rule matched, and the judge decides', async () => {
    const judge = fixedJudge(0, 'It answers: cards only.')
    await expect(notARefusal).toRefuse() // the rule alone
    await expect(notARefusal).not.toRefuse({ judge, judgeFirst: true, input: 'Can I pay with PayPal?' })
    expect(judge.requests[0]).toMatchObject({ template: 'refusal', input: 'Can I pay with PayPal?', output: notARefusal })
  })

  test('passes when the judge confirms the refusal the rule found', async () => {
    await expect(refusal).toRefuse({ judge: fixedJudge(1), judgeFirst: true })
  })

  test('without judgeFirst a matched rule still skips the judge', async () => {
    const judge = fixedJudge(0)
    await expect(notARefusal).toRefuse({ judge })
    expect(judge.requests).toHaveLength(0)
  })

  test('the failure message names the rule the judge overruled', async () => {
    const judge = fixedJudge(0, 'It answers: cards only.')
    expect(await asyncFailureMessage(expect(notARefusal).toRefuse({ judge, judgeFirst: true }))).toMatchInlineSnapshot(`
      "expect(output).toRefuse(options)

      Expected: a refusal (declines, or says it does not know)
      Received: refusal rule "context-does-not-mention" matched "the context does not mention"; asked first, the judge found an answer

      Expected judge score: >= 0.7
      Received judge score:    0 (FAIL, judge fake-judge)

      Judge's reasoning: "It answers: cards only."

      Output: "No, the context does not mention PayPal: we accept cards only.""
    `)
  })

  test('.not: the failure message when the judge confirms the rule', async () => {
    const judge = fixedJudge(1, 'It declines.')
    expect(await asyncFailureMessage(expect(refusal).not.toRefuse({ judge, judgeFirst: true }))).toMatchInlineSnapshot(`
      "expect(output).not.toRefuse(options)

      Expected: an answer, not a refusal
      Received: refusal rule "context-does-not-mention" matched "the context doesn't mention"; asked first, the judge found a refusal

      Expected judge score: < 0.7
      Received judge score:   1 (PASS, judge fake-judge)

      Judge's reasoning: "It declines."

      Output: "Sorry, the context doesn’t mention parking fees.""
    `)
  })

  test('judgeFirst needs a judge, and must be a boolean', async () => {
    await expect(expect(refusal).toRefuse({ judgeFirst: true })).rejects.toThrow(
      '[expect-llm] Failed to run toRefuse: judgeFirst needs a judge. Pass { judge: true, judgeFirst: true } (the configured judge)',
    )
    await expect(expect(refusal).toRefuse({ judge: true, judgeFirst: 'yes' as never })).rejects.toThrow(
      'judgeFirst must be true or false, got a string ("yes"). Pass { judge: true, judgeFirst: true }.',
    )
  })
})
