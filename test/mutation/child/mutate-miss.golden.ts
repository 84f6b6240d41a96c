// A model-backed check on mutants with no recordings, in replay mode: run by test/mutation/suite.test.ts.
// Each judge call on a mutant is a replay miss, which must fail the judge's mutation test (never a pass,
// never a rejection).
import { describeGolden } from '../../../src/entries/vitest.js'
import type { MutationOperator } from '../../../src/mutation/types.js'

const negate: MutationOperator = {
  name: 'my-negation',
  description: 'can → cannot',
  mutate: ({ source }) =>
    /\bcan\b/.test(source.text) ? [{ operator: 'my-negation', text: source.text.replace(/\bcan\b/, 'cannot'), change: 'can → cannot' }] : [],
}

describeGolden('judge without recordings', {
  dataset: [{ id: 'refund', input: 'How long for a refund?', expected: 'You can ask for a refund within 30 days.' }],
  task: (_input: string, c) => c.expected as string,
  scorers: { judge: true, exact: true },
  mutate: { operators: [negate] },
})
