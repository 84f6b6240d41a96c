// Mutation testing as the README's "How strong is my eval?" shows it: a keyword check (weak) and exact
// match (strong) on wrong answers made from the references by the built-in operators and one of the
// user's own, run by `expect-llm mutate` with a gate.
import type { MutationOperator } from 'expect-llm'
import { describeGolden } from 'expect-llm/vitest'

// Your own operator: a hedge that keeps every word and makes the answer non-committal.
const hedge: MutationOperator = {
  name: 'hedge',
  description: 'Makes the answer non-committal.',
  mutate: ({ source }) => (source.text ? [{ operator: 'hedge', text: `It depends, but possibly: ${source.text}`, change: '+ It depends' }] : []),
}

describeGolden<string, string>('refund answers', {
  dataset: [
    { id: 'refund-window', input: 'How long do I have to ask for a refund?', expected: 'You can ask for a refund within 30 days of delivery.', keywords: ['refund', '30 days'] },
    { id: 'cancel-shipped', input: 'Can I cancel a shipped order?', expected: 'No. Once an order has shipped it can no longer be cancelled.', keywords: ['cancel'] },
  ],
  task: (_question, c) => c.expected ?? '',
  scorers: { exact: true },
  mutate: { operators: ['negation', 'number', hedge] },
})
