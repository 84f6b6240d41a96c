// A golden suite with mutation on under Jest (ESM), run by test/mutation/cli.test.ts through
// `expect-llm mutate --runner jest`.
import { describeGolden } from 'expect-llm/jest'

const negate = {
  name: 'my-negation',
  description: 'can → cannot',
  mutate: ({ source }) =>
    /\bcan\b/.test(source.text) ? [{ operator: 'my-negation', text: source.text.replace(/\bcan\b/, 'cannot'), change: 'can → cannot' }] : [],
}

describeGolden('mutated bot under jest', {
  dataset: [
    { id: 'refund', input: 'How long for a refund?', expected: 'You can ask for a refund within 30 days.', keywords: ['refund', '30 days'] },
    { id: 'cancel', input: 'Can I cancel?', expected: 'You can cancel within 2 hours of ordering.', keywords: ['cancel'] },
  ],
  task: (_input, c) => c.expected,
  scorers: { exact: true },
  mutate: { operators: [negate] },
})
