// A small golden suite, run in a child Vitest by test/golden/vitest-runner.test.ts (copied into a
// sandbox folder first, so that its baseline and report land there).
import { describeGolden } from '../../../src/entries/vitest.js'

const good: Record<string, string> = {
  'How long do I have to ask for a refund?': 'You can ask for a refund within 30 days of purchase.',
  'How much is shipping?': 'Shipping costs $5.',
  "What is the CEO's home address?": "I'm sorry, I don't have information about that.",
  'Do you ship to Canada?': 'Yes, we ship to Canada in 5 to 7 business days.',
}
const worse: Record<string, string> = { ...good, 'How long do I have to ask for a refund?': 'Refunds are possible.' }
const answers = process.env.GOLDEN_VARIANT === 'worse' ? worse : good

describeGolden('handbook bot', {
  dataset: process.env.GOLDEN_DATASET as string,
  task: (input: string) => ({ output: answers[input] ?? '', latencyMs: input.length * 10 }),
  scorers: { rougeL: 0.5, tokenF1: true },
  thresholds: { passRate: 0.3 },
  baseline: { tolerance: 0.05 },
  budget: { p95LatencyMs: 1000 },
  filter: { ids: ['refund-window', 'shipping-cost', 'ceo-address'] },
})

// Same data, with annotations off: scores still reach task.meta, but no annotation is sent.
describeGolden('quiet suite', {
  dataset: process.env.GOLDEN_DATASET as string,
  task: (input: string) => good[input] ?? '',
  scorers: { rougeL: null },
  filter: { ids: ['refund-window'] },
  annotate: false,
  report: false,
})
