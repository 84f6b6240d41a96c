// A golden suite run under Jest (ESM mode, against the built package) by test/golden/jest-runner.test.ts.
import { describeGolden } from 'expect-llm/jest'

const answers = {
  'How long do I have to ask for a refund?': 'You can ask for a refund within 30 days of purchase.',
  'How much is shipping?': 'Shipping costs $5.',
  "What is the CEO's home address?": 'The CEO lives at 1 Main Street.',
  'Do you ship to Canada?': 'Yes, we ship to Canada in 5 to 7 business days.',
}

describeGolden('handbook bot under jest', {
  dataset: process.env.GOLDEN_DATASET,
  task: (input) => answers[input] ?? '',
  scorers: { tokenF1: 0.5 },
  thresholds: { passRate: 0.5 },
  baseline: true,
})
