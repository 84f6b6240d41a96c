import { describe, expect, test } from 'vitest'
import { calibrateJudge, cohensKappa, type CalibrationCase } from '../src/calibration.js'
import type { JudgeRequest } from '../src/judges/types.js'

describe('cohensKappa', () => {
  test('matches a hand-computed example: p_o 0.7, p_e 0.5, kappa 0.4', () => {
    // 50 cases: 20 both PASS, 15 both FAIL, 10 judge PASS/label FAIL, 5 judge FAIL/label PASS.
    // p_o = 35/50 = 0.7; p_e = (30/50)(25/50) + (20/50)(25/50) = 0.3 + 0.2 = 0.5; kappa = 0.2/0.5 = 0.4
    expect(cohensKappa({ truePass: 20, trueFail: 15, falsePass: 10, falseFail: 5 })).toBe(0.4)
  })

  test('is 1 for perfect agreement on both labels', () => {
    expect(cohensKappa({ truePass: 3, trueFail: 2, falsePass: 0, falseFail: 0 })).toBe(1)
  })

  test('is 0 when the judge passes everything and the labels are mixed', () => {
    expect(cohensKappa({ truePass: 6, trueFail: 0, falsePass: 4, falseFail: 0 })).toBe(0)
  })

  test('is -1 for total disagreement with balanced verdicts', () => {
    expect(cohensKappa({ truePass: 0, trueFail: 0, falsePass: 5, falseFail: 5 })).toBe(-1)
  })

  test('is null (undefined) when judge and labels all say PASS', () => {
    expect(cohensKappa({ truePass: 7, trueFail: 0, falsePass: 0, falseFail: 0 })).toBeNull()
  })

  test('is 0, not null, when every label is PASS but the judge fails some', () => {
    expect(cohensKappa({ truePass: 5, trueFail: 0, falsePass: 0, falseFail: 2 })).toBe(0)
  })
})

// A judge fooled by keywords: it passes any output that contains every word of "refund" and "30 days".
const keywordJudge = ({ output }: JudgeRequest) => /refund/i.test(output) && /30 days/i.test(output)

const cases: CalibrationCase[] = [
  { output: 'You can ask for a refund within 30 days.', label: 'PASS' },
  { output: 'Refunds are possible for 30 days after purchase.', label: 'PASS' },
  { output: 'Within a month of buying, you may return it for your money back.', label: 'PASS' },
  { output: 'Wait 30 days before you can ask for a refund.', label: 'FAIL' },
  { output: 'A refund is never possible, not even within 30 days.', label: 'FAIL' },
  { output: 'We do not offer refunds.', label: 'FAIL' },
]

describe('calibrateJudge', () => {
  test('counts agreement and disagreement against the labels', async () => {
    const result = await calibrateJudge({ criteria: 'States that refunds can be asked for within 30 days', judge: keywordJudge }, cases)
    // Judge: PASS, PASS, FAIL, PASS, PASS, FAIL. truePass 2, falseFail 1, falsePass 2, trueFail 1.
    // p_o = 3/6 = 0.5; p_e = (4/6)(3/6) + (2/6)(3/6) = 0.5; kappa = 0.
    expect(result).toMatchObject({ n: 6, agreement: 0.5, kappa: 0, truePass: 2, trueFail: 1 })
    expect(result.falsePasses.map((c) => c.index)).toEqual([3, 4])
    expect(result.falseFails.map((c) => c.output)).toEqual(['Within a month of buying, you may return it for your money back.'])
  })

  test('attaches the judge score and reason to each disagreement', async () => {
    const result = await calibrateJudge(
      (r: JudgeRequest) => ({ score: 1, reason: `ok: ${r.output.length}` }),
      [{ output: 'abc', label: 'FAIL', criteria: 'x' }],
    )
    expect(result.falsePasses).toEqual([{ output: 'abc', label: 'FAIL', criteria: 'x', index: 0, score: 1, reason: 'ok: 3' }])
  })

  test('gives each case its own reference, selecting the correctness template', async () => {
    const templates: string[] = []
    await calibrateJudge((r: JudgeRequest) => (templates.push(r.template), true), [{ output: 'a', reference: 'b', label: 'PASS' }])
    expect(templates).toEqual(['correctness'])
  })

  test('rejects a case with a label other than PASS or FAIL', async () => {
    await expect(calibrateJudge(() => true, [{ output: 'a', label: 'pass' as 'PASS' }], { criteria: 'x' })).rejects.toThrow(
      `[expect-llm] Failed to calibrate the judge: case 0 has label a string ("pass"). Label every case 'PASS' or 'FAIL' (upper case).`,
    )
  })

  test('rejects an empty case list', async () => {
    await expect(calibrateJudge(() => true, [], { criteria: 'x' })).rejects.toThrow('the labelled cases must be a non-empty array, got an empty array.')
  })
})
