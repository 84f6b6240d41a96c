// A small golden suite run in a child Vitest by test/golden/vitest-runner.test.ts.
import { describeGolden } from '../../../src/vitest.js'

const answers: Record<string, string> = {
  'How long do I have to ask for a refund?': 'You can ask for a refund within 30 days of purchase.',
  'How much is shipping?': 'Shipping costs $5.',
  "What is the CEO's home address?": "I'm sorry, I don't have information about that.",
  'Do you ship to Canada?': 'Yes, we ship to Canada in 5 to 7 business days.',
}

describeGolden('handbook bot', {
  dataset: process.env.GOLDEN_DATASET ?? '../../../fixtures/golden/handbook.jsonl',
  task: (input: string) => ({ output: answers[input] ?? '', latencyMs: input.length * 10 }),
  scorers: { rougeL: 0.5, tokenF1: true },
  thresholds: { passRate: Number(process.env.GOLDEN_PASS_RATE ?? 0.7) },
  baseline: { tolerance: 0.05 },
  budget: { p95LatencyMs: 1000 },
})
