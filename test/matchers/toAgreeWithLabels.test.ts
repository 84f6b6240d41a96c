import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toAgreeWithLabels.js'
import type { CalibrationCase } from '../../src/calibration.js'
import type { JudgeRequest } from '../../src/judges/types.js'
import { asyncFailureMessage } from '../helpers/model-fakes.js'

expect.extend(matcher)

const labelled: CalibrationCase[] = [
  { output: 'You can ask for a refund within 30 days.', label: 'PASS' },
  { output: 'Refunds are possible for 30 days after purchase.', label: 'PASS' },
  { output: 'Wait 30 days before you can ask for a refund.', label: 'FAIL' },
  { output: 'We do not offer refunds.', label: 'FAIL' },
]

/** Passes outputs that mention a refund and 30 days: fooled by the reversed condition in case 2. */
const keywordJudge = ({ output }: JudgeRequest) => ({ score: /refund/i.test(output) && /30 days/.test(output), reason: 'mentions a refund and 30 days' })
/** Reads the meaning (here: knows the one wrong phrasing). */
const carefulJudge = ({ output }: JudgeRequest) => /refund/i.test(output) && /30 days/.test(output) && !/^wait/i.test(output)

const spec = { criteria: 'Says refunds can be requested within 30 days' }

describe('.toAgreeWithLabels', () => {
  test('passes when the judge agrees with every label', async () => {
    await expect({ ...spec, judge: carefulJudge }).toAgreeWithLabels(labelled)
  })

  test('accepts a plain judge function when each case carries its criteria', async () => {
    await expect(carefulJudge).toAgreeWithLabels(labelled.map((c) => ({ ...c, criteria: spec.criteria })))
  })

  test('fails with agreement, kappa and the false passes of a keyword-fooled judge', async () => {
    // truePass 2, trueFail 1, falsePass 1: p_o = 3/4, p_e = (3/4)(2/4) + (1/4)(2/4) = 1/2, kappa = 0.5
    expect(await asyncFailureMessage(expect({ ...spec, judge: keywordJudge }).toAgreeWithLabels(labelled))).toMatchInlineSnapshot(`
      "expect(judge).toAgreeWithLabels(labelled)

      Expected: agreement >= 0.8 and Cohen's kappa >= 0.6
      Received: agreement 0.75 (3 of 4, 75%), Cohen's kappa 0.5
      Confusion: judge PASS/label PASS 2, judge FAIL/label FAIL 1, false passes 1, false fails 0

      False passes (judge PASS, label FAIL) (1):
        #2 score 1: "Wait 30 days before you can ask for a refund."; judge: "mentions a refund and 30 days"
      False fails (judge FAIL, label PASS): none"
    `)
  })

  test('passes the same judge with lower bars', async () => {
    await expect({ ...spec, judge: keywordJudge }).toAgreeWithLabels(labelled, { minAgreement: 0.75, minKappa: 0.5 })
  })

  test('fails when kappa is undefined because every label and verdict is PASS', async () => {
    const message = await asyncFailureMessage(expect({ ...spec, judge: () => true }).toAgreeWithLabels(labelled.slice(0, 2), { minAgreement: 0.5, minKappa: -1 }))
    expect(message).toContain("Received: agreement 1 (2 of 2, 100%), Cohen's kappa undefined")
    expect(message).toContain('Kappa is undefined: every label and every verdict is PASS, so the set cannot show that the judge tells PASS from FAIL. Add cases with the other label.')
  })
})

describe('.not.toAgreeWithLabels', () => {
  test('passes for a judge that disagrees', async () => {
    await expect({ ...spec, judge: keywordJudge }).not.toAgreeWithLabels(labelled)
  })

  test('fails for a judge that agrees', async () => {
    const message = await asyncFailureMessage(expect({ ...spec, judge: carefulJudge }).not.toAgreeWithLabels(labelled))
    expect(message.split('\n').slice(0, 4)).toEqual([
      'expect(judge).not.toAgreeWithLabels(labelled)',
      '',
      "Expected: agreement < 0.8 or Cohen's kappa < 0.6",
      "Received: agreement 1 (4 of 4, 100%), Cohen's kappa 1",
    ])
  })
})

describe('toAgreeWithLabels usage errors', () => {
  test('rejects a received value that is not a judge', async () => {
    await expect(expect('gpt-4o').toAgreeWithLabels(labelled)).rejects.toThrow('[expect-llm] Failed to run toAgreeWithLabels: the received value must be a judge or a judge spec, got a string ("gpt-4o").')
  })

  test('rejects a case without a valid label', async () => {
    await expect(expect({ ...spec, judge: carefulJudge }).toAgreeWithLabels([{ output: 'x', label: 'OK' as 'PASS' }])).rejects.toThrow(`case 0 has label a string ("OK"). Label every case 'PASS' or 'FAIL' (upper case).`)
  })

  test('rejects minKappa outside [-1, 1]', async () => {
    await expect(expect({ ...spec, judge: carefulJudge }).toAgreeWithLabels(labelled, { minKappa: 2 })).rejects.toThrow('"minKappa" must be a number from -1 to 1, got 2.')
  })

  test('rejects cases that give the judge nothing to grade against', async () => {
    await expect(expect(carefulJudge).toAgreeWithLabels(labelled)).rejects.toThrow('[expect-llm] Failed to run toAgreeWithLabels: the judge needs criteria or a reference answer.')
  })
})
