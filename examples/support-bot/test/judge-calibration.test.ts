// Before a judge gates anything, check it against people. golden/judge-labels.json holds answers to the
// golden questions labelled PASS or FAIL by hand, half of them wrong in ways that keep the right
// keywords ("wait 30 days before..." for "within 30 days", "after 48 hours" for "within 48 hours").
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { calibrateJudge, type CalibrationCase, type JudgeFunction } from 'expect-llm'

const labelled = JSON.parse(readFileSync(new URL('../golden/judge-labels.json', import.meta.url), 'utf8')) as CalibrationCase[]

/** The check people write first: the answer repeats every number of the reference. */
const numbersJudge: JudgeFunction = ({ output, reference = '' }) => {
  const numbers = (text: string) => text.match(/\d+(?:\.\d+)?/g) ?? []
  const inOutput = new Set(numbers(output))
  return numbers(reference).every((n) => inOutput.has(n))
}

describe('judge calibration', () => {
  test('the default judge agrees with the human labels', async () => {
    // The spec is the judge's setup: no criteria, so each case's reference selects the correctness template.
    await expect({ threshold: 0.7 }).toAgreeWithLabels(labelled, { minAgreement: 0.9, minKappa: 0.8 })
  })

  test('a numbers-only check does not: it passes answers that keep the numbers and change the meaning', async () => {
    await expect(numbersJudge).not.toAgreeWithLabels(labelled)
    const result = await calibrateJudge(numbersJudge, labelled)
    expect(result.falsePasses.map((c) => c.output)).toContain('Wait 30 days after delivery before you can ask for a refund.')
  })

  test('the judge disagrees with people on one case, and calibrateJudge says which', async () => {
    const result = await calibrateJudge({ threshold: 0.7 }, labelled)
    console.log(
      `judge vs labels: agreement ${(result.agreement * 100).toFixed(1)}%, kappa ${result.kappa?.toFixed(3)}; ` +
        `false passes: ${result.falsePasses.map((c) => JSON.stringify(c.output)).join(', ') || 'none'}; ` +
        `false fails: ${result.falseFails.map((c) => JSON.stringify(c.output)).join(', ') || 'none'}`,
    )
    // Swapping "within 30 days"/"for 7 years" into "for 30 days"/"after 7 years" gets past the judge's rules.
    expect(result.falsePasses.map((c) => c.index)).toEqual([12])
    expect(result.falseFails).toEqual([])
  })
})
