// Fails twice: an unawaited model-backed matcher, and a golden suite below its pass rate.
import { expect, test } from 'vitest'
import { configure } from 'expect-llm'
import { describeGolden } from 'expect-llm/vitest'

configure({ judge: async () => ({ score: 0, reason: 'Rude.' }) })

test('a judge verdict without await', () => {
  expect('Whatever.').toPassJudge('Is polite')
})

describeGolden('answers below the pass rate', {
  dataset: [{ id: 'refund', input: 'How long do I have?', expected: 'Within 30 days of delivery.' }],
  task: () => 'Shipping is free.',
  scorers: { rougeL: 0.5 },
  thresholds: { passRate: 1 },
  report: false,
})
