// Operators of the kind a user brings (the `operators` option takes objects), shared by the mutation run
// tests: "can" → "cannot" keeps every keyword; a doubled number loses a keyword such as "30 days".
import type { MutationOperator } from '../../src/mutation/types.js'

export const negate: MutationOperator = {
  name: 'my-negation',
  description: 'can → cannot',
  mutate: ({ source }) =>
    /\bcan\b/.test(source.text) ? [{ operator: 'my-negation', text: source.text.replace(/\bcan\b/, 'cannot'), change: 'can → cannot' }] : [],
}

export const double: MutationOperator = {
  name: 'my-number',
  description: 'n → 2n',
  mutate: ({ source }) =>
    [...source.text.matchAll(/\d+/g)].map((m) => ({
      operator: 'my-number',
      text: source.text.replace(m[0], String(Number(m[0]) * 2)),
      change: `${m[0]} → ${Number(m[0]) * 2}`,
    })),
}
