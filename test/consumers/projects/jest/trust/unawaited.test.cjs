// Must fail: a model-backed matcher without await, under Jest in CommonJS mode.
const { expect, test } = require('@jest/globals')
const { configure } = require('expect-llm')

configure({ judge: async () => { await new Promise((resolve) => setTimeout(resolve, 20)); return { score: 0, reason: 'Rude.' } } })

test('a judge verdict without await', () => {
  expect('Whatever.').toPassJudge('Is polite')
})

// Must fail too: a golden suite below its pass rate; the failure points at this call.
const { describeGolden } = require('expect-llm/jest')

describeGolden('answers below the pass rate', {
  dataset: [{ id: 'refund', input: 'How long do I have?', expected: 'Within 30 days of delivery.' }],
  task: () => 'Shipping is free.',
  scorers: { rougeL: 0.5 },
  thresholds: { passRate: 1 },
  report: false,
})
