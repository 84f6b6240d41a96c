// A golden suite whose scores dropped below its committed baseline, run with -u and CI=true.
import { describeGolden } from 'expect-llm/vitest'

describeGolden('refund answers', {
  dataset: [{ id: 'refund', input: 'How long do I have?', expected: 'Within 30 days of delivery.' }],
  task: () => 'Within 30 days.',
  scorers: { rougeL: null },
  baseline: { tolerance: 0.05 },
  report: false,
})
