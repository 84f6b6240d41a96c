import { stripVTControlCharacters } from 'node:util'
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
    const message = await asyncFailureMessage(
      expect({ ...spec, judge: () => true }).toAgreeWithLabels(labelled.slice(0, 2), { minAgreement: 0.5, minKappa: -1 }),
    )
    expect(message).toContain("Received: agreement 1 (2 of 2, 100%), Cohen's kappa undefined")
    expect(message).toContain(
      'Kappa is undefined: every label and every verdict is PASS, so the set cannot show that the judge tells PASS from FAIL. Add cases with the other label.',
    )
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
    await expect(expect('gpt-4o').toAgreeWithLabels(labelled)).rejects.toThrow(
      '[expect-llm] Failed to run toAgreeWithLabels: the received value must be a judge or a judge spec, got a string ("gpt-4o").',
    )
  })

  test('rejects a case without a valid label', async () => {
    await expect(expect({ ...spec, judge: carefulJudge }).toAgreeWithLabels([{ output: 'x', label: 'OK' as 'PASS' }])).rejects.toThrow(
      `case 0 has label a string ("OK"). Label every case 'PASS' or 'FAIL' (upper case).`,
    )
  })

  test('rejects minKappa outside [-1, 1]', async () => {
    await expect(expect({ ...spec, judge: carefulJudge }).toAgreeWithLabels(labelled, { minKappa: 2 })).rejects.toThrow(
      '"minKappa" must be a number from -1 to 1, got 2.',
    )
  })

  test('rejects cases that give the judge nothing to grade against', async () => {
    await expect(expect(carefulJudge).toAgreeWithLabels(labelled)).rejects.toThrow(
      '[expect-llm] Failed to run toAgreeWithLabels: the judge needs criteria or a reference answer.',
    )
  })
})

describe('toAgreeWithLabels boundaries', () => {
  const keyword = { ...spec, judge: keywordJudge } // agreement 0.75, kappa 0.5 on `labelled`
  const usage = (options: unknown) => asyncFailureMessage(expect(keyword).toAgreeWithLabels(labelled, options as never))

  test('passes at exactly minAgreement and minKappa, fails just above either', async () => {
    await expect(keyword).toAgreeWithLabels(labelled, { minAgreement: 0.75, minKappa: 0.5 })
    expect(await asyncFailureMessage(expect(keyword).toAgreeWithLabels(labelled, { minAgreement: 0.76, minKappa: 0.5 }))).toContain(
      'Expected: agreement >= 0.76',
    )
    expect(await asyncFailureMessage(expect(keyword).toAgreeWithLabels(labelled, { minAgreement: 0.75, minKappa: 0.51 }))).toContain("Cohen's kappa >= 0.51")
  })

  test('an undefined kappa fails even when minKappa is -1 and the agreement is met', async () => {
    const message = await asyncFailureMessage(expect({ ...spec, judge: () => false }).toAgreeWithLabels(labelled.slice(2), { minAgreement: 0, minKappa: -1 }))
    expect(message).toContain('Kappa is undefined: every label and every verdict is FAIL, so the set cannot show')
  })

  test('minAgreement: 0 and 1 are accepted; below 0, above 1, NaN and a string are refused', async () => {
    await expect(keyword).toAgreeWithLabels(labelled, { minAgreement: 0, minKappa: 0.5 })
    await expect(keyword).not.toAgreeWithLabels(labelled, { minAgreement: 1, minKappa: 0.5 })
    for (const [value, shown] of [
      [-0.01, '-0.01'],
      [1.01, '1.01'],
      [Number.NaN, 'NaN'],
      ['0.8', 'a string ("0.8")'],
    ] as const) {
      expect(await usage({ minAgreement: value })).toBe(
        `expect(judge).toAgreeWithLabels(labelled, options)\n\n[expect-llm] Failed to run toAgreeWithLabels: "minAgreement" must be a number from 0 to 1, got ${shown}. Pass a share such as 0.8.`,
      )
    }
  })

  test('minKappa: -1 and 1 are accepted; below -1, above 1, NaN and a string are refused', async () => {
    await expect(keyword).toAgreeWithLabels(labelled, { minAgreement: 0.75, minKappa: -1 })
    await expect(keyword).not.toAgreeWithLabels(labelled, { minAgreement: 0.75, minKappa: 1 })
    for (const [value, shown] of [
      [-1.01, '-1.01'],
      [1.01, '1.01'],
      [Number.NaN, 'NaN'],
      [true, 'a boolean (true)'],
    ] as const) {
      expect(await usage({ minKappa: value })).toBe(
        `expect(judge).toAgreeWithLabels(labelled, options)\n\n[expect-llm] Failed to run toAgreeWithLabels: "minKappa" must be a number from -1 to 1, got ${shown}. Pass a kappa such as 0.6.`,
      )
    }
  })

  test('unknown options are refused', async () => {
    expect(await usage({ minAgreement: 0.8, kappa: 0.6 })).toContain(
      'Failed to run toAgreeWithLabels: unknown option "kappa". Valid options are: minAgreement, minKappa.',
    )
  })

  test.each([
    ['undefined', undefined],
    ['null', null],
    ['a number (3)', 3],
    ['an array (length 0)', []],
  ])('a received value that is %s is refused, with the fix', async (shown, received) => {
    expect(await asyncFailureMessage(expect(received).toAgreeWithLabels(labelled))).toBe(
      `expect(judge).toAgreeWithLabels(labelled)\n\n[expect-llm] Failed to run toAgreeWithLabels: the received value must be a judge or a judge spec, got ${shown}. Pass a Judge, a function, judge settings or { criteria, judge } to expect().`,
    )
  })

  test('a judge that throws is reported as a model error, not a usage error', async () => {
    const failing = {
      ...spec,
      judge: () => {
        throw new TypeError('socket hang up')
      },
    }
    const error = await expect(failing)
      .toAgreeWithLabels(labelled)
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      )
    expect(error).not.toBeInstanceOf(TypeError)
    expect(stripVTControlCharacters(error?.message ?? '')).toMatch(/^expect\(judge\)\.toAgreeWithLabels\(labelled\)\n\nsocket hang up/)
  })

  test('a usage error found while running the cases stays a TypeError', async () => {
    const bad = [{ output: 'x', label: 'OK' as 'PASS' }]
    await expect(expect({ ...spec, judge: carefulJudge }).toAgreeWithLabels(bad)).rejects.toBeInstanceOf(TypeError)
  })

  test('the lists show 10 cases, then how many more; a blank reason is left out', async () => {
    const many: CalibrationCase[] = Array.from({ length: 12 }, (_, i) => ({ output: `case ${i}`, label: 'FAIL' as const }))
    const all = [...many, { output: 'fine', label: 'PASS' as const }]
    const message = await asyncFailureMessage(expect({ ...spec, judge: () => ({ score: true, reason: '  ' }) }).toAgreeWithLabels(all))
    expect(message).toContain('False passes (judge PASS, label FAIL) (12):\n  #0 score 1: "case 0"\n')
    expect(message).toContain('  #9 score 1: "case 9"\n  … and 2 more\n')
    expect(message).not.toContain('#10 ')
    const ten = await asyncFailureMessage(expect({ ...spec, judge: () => true }).toAgreeWithLabels([...many.slice(0, 10), { output: 'fine', label: 'PASS' }]))
    expect(ten).toContain('  #9 score 1: "case 9"\nFalse fails')
  })
})
