// A check of your own under Jest (CommonJS): in describeGolden by its key, and as a matcher.
const { describe, expect, test } = require('@jest/globals')
const { describeGolden } = require('expect-llm/jest')
const { defineCheck } = require('expect-llm')

const concise = defineCheck({
  name: 'concise',
  threshold: 1,
  run: (output, c) => (output.length < 2 * String(c.expected ?? '').length ? 1 : { score: 0, reason: `${output.length} characters` }),
})

describeGolden('answers with a check of my own', {
  dataset: [
    { id: 'refund', input: 'refund window?', expected: 'Within 30 days of delivery.', metadata: { answer: 'You have 30 days.' } },
    { id: 'ship', input: 'Canada?', expected: 'Yes, in 5 to 7 business days.', metadata: { answer: 'Yes, in 5 to 7 days.' } },
  ],
  task: (_q, c) => c.metadata.answer,
  scorers: { concise, rougeL: null },
  thresholds: { mean: { concise: 1 } },
  report: { console: false },
})

describe('toPassCheck', () => {
  test('passes, and fails under .not', async () => {
    await expect('You have 30 days.').toPassCheck(concise, undefined, { expected: 'Within 30 days of delivery.' })
    await expect('Refunds are possible within thirty days of the delivery of your parcel.').not.toPassCheck(concise, 1, { expected: 'Within 30 days.' })
  })
})
