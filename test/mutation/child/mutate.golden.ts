// A golden suite with mutation on, run in a child Vitest by test/mutation/suite.test.ts and by the
// `expect-llm mutate` tests (copied into a sandbox folder first, so that its reports land there). Its
// operators are its own (the `operators` option takes objects): "can" → "cannot" keeps every keyword,
// a doubled number loses the keyword "30 days".
import { describeGolden } from '../../../src/entries/vitest.js'
import type { MutationOperator } from '../../../src/mutation/types.js'

const negate: MutationOperator = {
  name: 'my-negation',
  description: 'can → cannot',
  mutate: ({ source }) =>
    /\bcan\b/.test(source.text) ? [{ operator: 'my-negation', text: source.text.replace(/\bcan\b/, 'cannot'), change: 'can → cannot' }] : [],
}
const double: MutationOperator = {
  name: 'my-number',
  description: 'n → 2n',
  mutate: ({ source }) =>
    [...source.text.matchAll(/\d+/g)].map((m) => ({
      operator: 'my-number',
      text: source.text.replace(m[0], String(Number(m[0]) * 2)),
      change: `${m[0]} → ${Number(m[0]) * 2}`,
    })),
}

const dataset = [
  { id: 'refund', input: 'How long for a refund?', expected: 'You can ask for a refund within 30 days.', keywords: ['refund', '30 days'] },
  { id: 'cancel', input: 'Can I cancel?', expected: 'You can cancel within 2 hours of ordering.', keywords: ['cancel'] },
]

describeGolden('mutated bot', {
  dataset,
  task: (_input: string, c) => c.expected as string,
  scorers: { keywords: true, exact: true, rougeL: null },
  mutate: { operators: [negate, double], ...(process.env.MIN_SCORE ? { minScore: Number(process.env.MIN_SCORE) } : {}) },
})
