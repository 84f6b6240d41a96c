import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toBeFaithfulTo.js'
import type { Claim, JudgeRequest } from '../../src/judges/types.js'
import { asyncFailureMessage, fixedJudge } from '../helpers/model-fakes.js'

expect.extend(matcher)

const context = 'Refunds are accepted within 30 days of purchase. Refunds go back to the original payment method.'
const output = 'You can get a refund within 30 days, paid back to your card within 5 business days.'

/** A judge that reports the given claims (and a misleading overall score, which must be ignored). */
const claimsJudge = (claims: Claim[]) => (request: JudgeRequest) => {
  void request
  return { score: 1, reason: 'Checked each claim.', claims }
}

const claims: Claim[] = [
  { claim: 'Refunds are possible within 30 days.', supported: true, reason: 'stated in the context' },
  { claim: 'The refund is paid back to the card.', supported: true, reason: 'original payment method' },
  { claim: 'The refund arrives within 5 business days.', supported: false, reason: 'the context gives no processing time' },
]

describe('.toBeFaithfulTo', () => {
  test('passes when every claim is supported', async () => {
    await expect('Refunds are accepted within 30 days.').toBeFaithfulTo(context, {
      judge: claimsJudge([{ claim: 'Refunds within 30 days.', supported: true }]),
    })
  })

  test('asks the judge with the faithfulness template and every context document', async () => {
    const judge = fixedJudge(1)
    await expect(output).toBeFaithfulTo([context, 'Second doc.'], { judge, input: 'Refunds?' })
    expect(judge.requests[0]).toMatchObject({ template: 'faithfulness', scale: '0-1', context: [context, 'Second doc.'], input: 'Refunds?' })
  })

  test('fails on an unsupported claim and lists it, scoring the share of supported claims', async () => {
    expect(await asyncFailureMessage(expect(output).toBeFaithfulTo(context, { judge: claimsJudge(claims) }))).toMatchInlineSnapshot(`
      "expect(output).toBeFaithfulTo(context, options)

      Expected share of supported claims: >= 1
      Received share of supported claims:    0.6667 (judge function judge)

      Judge's reasoning: "Checked each claim."
      Claims: 2 of 3 supported

      Unsupported claims (1):
        - "The refund arrives within 5 business days." (the context gives no processing time)
      Context: 1 document, first "Refunds are accepted within 30 days of purchase. Refunds go back to the original payment method."
      Output:  "You can get a refund within 30 days, paid back to your card within 5 business days.""
    `)
  })

  test('passes with a lower threshold when enough claims are supported', async () => {
    await expect(output).toBeFaithfulTo(context, { threshold: 0.6, judge: claimsJudge(claims) })
  })
})

describe('.not.toBeFaithfulTo', () => {
  test('passes when a claim is unsupported', async () => {
    await expect(output).not.toBeFaithfulTo(context, { judge: claimsJudge(claims) })
  })

  test('fails when every claim is supported and lists the supported claims', async () => {
    const message = await asyncFailureMessage(expect('Refunds within 30 days.').not.toBeFaithfulTo(context, { judge: claimsJudge([claims[0] as Claim]) }))
    expect(message).toContain('Supported claims (1):\n  - "Refunds are possible within 30 days." (stated in the context)')
  })
})

describe('toBeFaithfulTo usage errors', () => {
  test('rejects a missing context', async () => {
    await expect((expect(output).toBeFaithfulTo as (...args: unknown[]) => Promise<void>)()).rejects.toThrow(
      '[expect-llm] Failed to run toBeFaithfulTo: the context must be a non-empty string or an array of non-empty strings, got undefined.',
    )
  })

  test('rejects a context array with an empty document', async () => {
    await expect(expect(output).toBeFaithfulTo([context, ' '], { judge: fixedJudge(1) })).rejects.toThrow('got an array containing a string (" ")')
  })
})

describe('toBeFaithfulTo messages and errors, case by case', () => {
  test('a judge that lists no claims: its score is taken as given, and the message says so', async () => {
    const judge = function silentJudge() {
      return { score: 0.5, reason: '' }
    }
    expect(await asyncFailureMessage(expect('Refunds within 30 days.').toBeFaithfulTo(context, { judge }))).toMatchInlineSnapshot(`
      "expect(output).toBeFaithfulTo(context, options)

      Expected share of supported claims: >= 1
      Received share of supported claims:    0.5 (judge silentJudge)

      Judge's reasoning: (none given)
      Claims: the judge listed none (score 0.5 as given)

      Context: 1 document, first "Refunds are accepted within 30 days of purchase. Refunds go back to the original payment method."
      Output:  "Refunds within 30 days.""
    `)
  })

  test('a claim without a reason has no parenthesis; a reason over several lines is put on one', async () => {
    const judge = claimsJudge([
      { claim: 'Refunds take a week.', supported: false },
      { claim: 'Refunds are free.', supported: false, reason: ' the context\n  says nothing\tabout fees ' },
    ])
    const message = await asyncFailureMessage(expect(output).toBeFaithfulTo(context, { judge }))
    expect(message).toContain('Unsupported claims (2):\n  - "Refunds take a week."\n  - "Refunds are free." (the context says nothing about fees)\n')
  })

  test('a judge error fails with the matcher hint, under .not too', async () => {
    const judge = { name: 'down', evaluate: () => Promise.reject(new Error('[expect-llm] Failed to call the judge: 401 Unauthorized.')) }
    const expected = 'expect(output).toBeFaithfulTo(context, options)\n\n[expect-llm] Failed to call the judge: 401 Unauthorized.'
    expect(await asyncFailureMessage(expect(output).toBeFaithfulTo(context, { judge }))).toBe(expected)
    expect(await asyncFailureMessage(expect(output).not.toBeFaithfulTo(context, { judge }))).toBe(expected.replace('.toBeFaithfulTo', '.not.toBeFaithfulTo'))
  })

  test('a received value that is not a string, and an unknown option, are refused', async () => {
    expect(await asyncFailureMessage(expect(3).toBeFaithfulTo(context))).toBe(
      'expect(output).toBeFaithfulTo(context)\n\n[expect-llm] Failed to run toBeFaithfulTo: the received value must be a string, got a number (3). Pass the model output text to expect().',
    )
    expect(await asyncFailureMessage(expect(output).toBeFaithfulTo(context, { context } as never))).toBe(
      'expect(output).toBeFaithfulTo(context, options)\n\n[expect-llm] Failed to run toBeFaithfulTo: unknown option "context". Valid options are: input, threshold, judge, samples.',
    )
  })

  test('a usage error raised in the judge call is thrown as it is, with the hint once, not as a model error', async () => {
    expect(await asyncFailureMessage(expect(output).toBeFaithfulTo(context, { samples: 0, judge: fixedJudge(1) }))).toBe(
      'expect(output).toBeFaithfulTo(context, options)\n\n[expect-llm] Failed to run toBeFaithfulTo: "samples" must be a whole number from 1 to 25 or a list of judges, got 0. Pass for example { samples: 3 } (an odd number avoids ties).',
    )
  })
})
