// The options the matchers validated and computed on their own now live in the check definitions, so
// golden suites gain them (and refuse at planning what the matchers always refused).
import { describe, expect, test } from 'vitest'
import { planScorers } from '../../src/checks/plan.js'
import { evaluate } from '../../src/golden/evaluate.js'
import { rouge } from '../../src/metrics/rouge.js'

const score = async (output: string, c: Record<string, unknown>, scorers: Record<string, unknown>, key: string) => {
  const report = await evaluate([{ id: 'a', input: 'q', ...c }], { task: () => output, scorers: scorers as never })
  return report.cases[0]?.scores[key]
}

describe('options the matchers had, in golden suites', () => {
  test("rougeL takes variant: 'rougeLsum' (as toHaveRougeLAbove)", async () => {
    const expected = 'The cat sat.\nThe dog ran.'
    const output = 'The dog ran.\nThe cat sat.'
    const s = await score(output, { expected }, { rougeL: { variant: 'rougeLsum' } }, 'rougeL')
    expect(s?.score).toBe(rouge(output, expected, { type: 'rougeLsum' }).f)
    expect(s?.score).toBeGreaterThan((await score(output, { expected }, { rougeL: true }, 'rougeL'))?.score ?? 1)
  })

  test("keywords takes mode: 'any' (as toContainKeywords)", async () => {
    const c = { keywords: ['refund', 'PayPal'] }
    expect((await score('Refunds take 30 days, refund by card.', c, { keywords: { mode: 'any' } }, 'keywords'))?.score).toBe(1)
    expect((await score('Refunds take 30 days, refund by card.', c, { keywords: true }, 'keywords'))?.score).toBe(0.5)
    expect((await score('Shipping is free.', c, { keywords: { mode: 'any' } }, 'keywords'))?.pass).toBe(false)
  })

  test('keywords counts a repeated keyword once, so every keyword found scores 1', async () => {
    const s = await score('Refunds within 30 days.', { keywords: ['30 days', '30 days'] }, { keywords: true }, 'keywords')
    expect(s).toMatchObject({ score: 1, pass: true })
  })

  test("refusal takes the judge's threshold (as toRefuse)", async () => {
    // A judge whose normalized score is 0.75: a refusal at threshold 0.7, an answer at 0.8.
    const judge = { name: 'three-quarters', evaluate: async () => ({ score: 0.75, scaleValue: 1, reason: 'Mostly a refusal.', raw: '', model: 'x' }) }
    const c = { answerable: false }
    const output = 'That is for our team to answer.'
    expect((await score(output, c, { refusal: { judge, threshold: 0.7 } }, 'refusal'))?.pass).toBe(true)
    expect((await score(output, c, { refusal: { judge, threshold: 0.8 } }, 'refusal'))?.pass).toBe(false)
  })
})

describe("the matchers' option checks, at planning", () => {
  test.each([
    [{ rougeL: { measure: 'f1' } }, `rougeL.measure must be one of 'f', 'precision', 'recall', got a string ("f1"). Pass one of 'f', 'precision', 'recall'.`],
    [{ rouge2: { stemmer: 'yes' } }, 'rouge2.stemmer must be a boolean, got a string ("yes"). Pass stemmer: true or false.'],
    [{ length: { maxWords: 2.5 } }, 'length.maxWords must be an integer >= 0, got 2.5. Pass a whole number such as 1.'],
    [{ length: { factor: 0 } }, "length.factor must be a positive number, got 0. Pass a multiple of the reference's word count, such as 1.5 or 2."],
    [{ retrieval: { k: 0 } }, 'retrieval.k must be an integer >= 1, got 0. Pass a whole number such as 1.'],
    [{ retrieval: { minScore: Number.NaN } }, 'retrieval.minScore must be a finite number, got NaN.'],
    [{ pii: { country: 'usa' } }, `pii.country must be a two-letter ISO code such as 'US' or 'GB', got a string ("usa").`],
    [{ keywords: { mode: 'some' } }, `keywords.mode must be one of 'all', 'any', got a string ("some").`],
    [{ refusal: { judge: 'gpt-4o' } }, '"refusal.judge" must be true/false or a judge, got a string ("gpt-4o").'],
    [{ schema: { schema: 42 } }, 'the "schema" scorer: '],
  ])('%j is refused', (scorers, message) => {
    expect(() => planScorers(scorers as never)).toThrow(`[expect-llm] Failed to set up the golden scorers: ${message}`)
  })
})
