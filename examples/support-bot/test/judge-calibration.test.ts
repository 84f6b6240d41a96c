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

  test("calibrateJudge lists the cases where the judge and the people disagree, with the judge's reason", async () => {
    const result = await calibrateJudge({ threshold: 0.7 }, labelled)
    const disagreements = [...result.falsePasses, ...result.falseFails]
    console.log(
      `judge vs labels: agreement ${(result.agreement * 100).toFixed(1)}%, kappa ${result.kappa?.toFixed(3)}\n` +
        disagreements.map((d) => `  #${d.index} labelled ${d.label}, judge score ${d.score}: ${JSON.stringify(d.output)} (judge: ${d.reason})`).join('\n'),
    )
    expect(result.truePass + result.trueFail + disagreements.length).toBe(labelled.length)
    for (const d of disagreements) {
      expect(labelled[d.index]?.output).toBe(d.output)
      expect(d.reason).not.toBe('')
    }
    // Every one of the answers that keep the keywords and reverse the meaning (labelled FAIL) must fail:
    // those are the mistakes a keyword check makes and the judge is there to catch.
    const passedTraps = result.falsePasses.filter((d) => /^(Wait 30 days|Send us a photo of the damage after)/.test(d.output))
    expect(passedTraps).toEqual([])
  })
})
