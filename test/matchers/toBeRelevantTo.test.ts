import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toBeRelevantTo.js'
import { asyncFailureMessage, fixedJudge, sampledJudge } from '../helpers/model-fakes.js'

expect.extend(matcher)

const query = 'How long do I have to ask for a refund?'
const answer = 'You can ask for a refund within 30 days of purchase.'
const docs = ['Refunds are accepted within 30 days of purchase.', 'Shipping takes 3-5 days.']

describe('.toBeRelevantTo', () => {
  test('passes when the judge finds the answer relevant', async () => {
    await expect(answer).toBeRelevantTo(query, { judge: fixedJudge(1) })
  })

  test('shows the judge the query and the retrieved context with the relevance template', async () => {
    const judge = fixedJudge(1)
    await expect(answer).toBeRelevantTo(query, { context: docs, judge })
    expect(judge.requests[0]).toMatchObject({ template: 'relevance', input: query, context: docs, scale: 'binary' })
    expect(judge.requests[0]?.prompt).toContain(
      '<retrieved_context>\n[1] Refunds are accepted within 30 days of purchase.\n\n[2] Shipping takes 3-5 days.\n</retrieved_context>',
    )
  })

  test('fails when the judge finds the answer off topic', async () => {
    expect(
      await asyncFailureMessage(
        expect('Shipping takes 3-5 days.').toBeRelevantTo(query, {
          context: docs,
          judge: fixedJudge(0, 'It answers a shipping question, not the refund window.'),
        }),
      ),
    ).toMatchInlineSnapshot(`
      "expect(output).toBeRelevantTo(query, options)

      Expected relevance: >= 0.7
      Received relevance:    0 (FAIL, judge fake-judge)

      Judge's reasoning: "It answers a shipping question, not the refund window."

      Query:   "How long do I have to ask for a refund?"
      Context: 2 documents, first "Refunds are accepted within 30 days of purchase."
      Output:  "Shipping takes 3-5 days.""
    `)
  })

  test('fails when most samples find the answer off topic', async () => {
    const message = await asyncFailureMessage(expect(answer).toBeRelevantTo(query, { samples: 3, judge: sampledJudge([0, 1, 0]) }))
    expect(message).toContain('Samples: 3, 1 passed (agreement 67%, majority FAIL); scores 0, 1, 0')
  })
})

describe('.not.toBeRelevantTo', () => {
  test('passes when the judge finds the answer off topic', async () => {
    await expect('We sell shoes.').not.toBeRelevantTo(query, { judge: fixedJudge(0) })
  })

  test('fails when the judge finds the answer relevant', async () => {
    const message = await asyncFailureMessage(expect(answer).not.toBeRelevantTo(query, { judge: fixedJudge(1, 'Directly answers.') }))
    expect(message.split('\n').slice(0, 4)).toEqual([
      'expect(output).not.toBeRelevantTo(query, options)',
      '',
      'Expected relevance: < 0.7',
      'Received relevance:   1 (PASS, judge fake-judge)',
    ])
  })
})

describe('toBeRelevantTo usage errors', () => {
  test('rejects a missing query', async () => {
    await expect((expect(answer).toBeRelevantTo as (...args: unknown[]) => Promise<void>)()).rejects.toThrow(
      '[expect-llm] Failed to run toBeRelevantTo: the query must be a non-empty string, got undefined. Pass the question the answer should address.',
    )
  })

  test('rejects an empty context list', async () => {
    await expect(expect(answer).toBeRelevantTo(query, { context: [], judge: fixedJudge(1) })).rejects.toThrow(
      'the context must be a non-empty string or an array of non-empty strings, got an empty array.',
    )
  })

  test('rejects an unknown option', async () => {
    await expect(expect(answer).toBeRelevantTo(query, { criteria: 'x' } as never)).rejects.toThrow(
      'unknown option "criteria". Valid options are: context, threshold, judge, samples.',
    )
  })
})

describe('toBeRelevantTo, case by case', () => {
  test('without context the message has no context line', async () => {
    expect(await asyncFailureMessage(expect('We sell shoes.').toBeRelevantTo(query, { judge: fixedJudge(0, 'Off topic.') }))).toBe(
      [
        'expect(output).toBeRelevantTo(query, options)',
        '',
        'Expected relevance: >= 0.7',
        'Received relevance:    0 (FAIL, judge fake-judge)',
        '',
        `Judge's reasoning: "Off topic."`,
        '',
        'Query:   "How long do I have to ask for a refund?"',
        'Output:  "We sell shoes."',
      ].join('\n'),
    )
  })

  test('the threshold decides each sample: at 0 every sample passes', async () => {
    await expect(answer).toBeRelevantTo(query, { samples: 3, threshold: 0, judge: sampledJudge([0, 0, 1]) })
    await expect(answer).not.toBeRelevantTo(query, { samples: 3, judge: sampledJudge([0, 0, 1]) })
  })

  test.each([
    ['a blank string', ' \n', 'a string (" \\n")'],
    ['a number', 3, 'a number (3)'],
  ])('a query that is %s is refused', async (_, bad, shown) => {
    expect(await asyncFailureMessage(expect(answer).toBeRelevantTo(bad as string, { judge: fixedJudge(1) }))).toBe(
      `expect(output).toBeRelevantTo(query, options)\n\n[expect-llm] Failed to run toBeRelevantTo: the query must be a non-empty string, got ${shown}. Pass the question the answer should address.`,
    )
  })

  test('a judge error fails with the matcher hint', async () => {
    const judge = { name: 'down', evaluate: () => Promise.reject(new Error('429 Too Many Requests')) }
    expect(await asyncFailureMessage(expect(answer).not.toBeRelevantTo(query, { judge }))).toBe(
      'expect(output).not.toBeRelevantTo(query, options)\n\n429 Too Many Requests',
    )
  })

  test('a received value that is not a string is refused, and without options the hint has no options argument', async () => {
    expect(await asyncFailureMessage(expect(3).toBeRelevantTo(query))).toBe(
      'expect(output).toBeRelevantTo(query)\n\n[expect-llm] Failed to run toBeRelevantTo: the received value must be a string, got a number (3). Pass the model output text to expect().',
    )
  })

  test('a usage error raised in the judge call is thrown as it is, with the hint once, not as a model error', async () => {
    expect(await asyncFailureMessage(expect(answer).toBeRelevantTo(query, { samples: 0, judge: fixedJudge(1) }))).toBe(
      'expect(output).toBeRelevantTo(query, options)\n\n[expect-llm] Failed to run toBeRelevantTo: "samples" must be a whole number from 1 to 25 or a list of judges, got 0. Pass for example { samples: 3 } (an odd number avoids ties).',
    )
  })
})
