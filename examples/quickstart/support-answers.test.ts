// A first taste of expect-llm: a support bot's answers (here written out, as if returned by the
// model) checked with lexical matchers. Each line is an ordinary expect() assertion.
import { describe, expect, test } from 'vitest'
import { rougeL, tokenF1 } from 'expect-llm'

const answers = {
  refund: 'You can ask for a refund within 30 days of delivery. Refunds go back to the original payment method.',
  capital: 'The capital of France is Paris.',
  json: 'Here is the order:\n```json\n{"orderId": "A-1042", "items": [{"sku": "MUG-01", "qty": 2}]}\n```',
  unknown: "I don't know: the handbook does not say whether we ship to Antarctica.",
}

describe('support bot answers', () => {
  test('the refund answer keeps the facts of the handbook', () => {
    expect(answers.refund).toContainKeywords(['refund', '30 days'])
    expect(answers.refund).toHaveRougeLAbove('Refunds are possible within 30 days of delivery, to the original payment method.', 0.4)
  })

  test('short factual answers match the gold answer after normalization', () => {
    expect(answers.capital).toContainAnswer('Paris')
    expect('Paris.').toMatchAnswer(['Paris', 'Paris, France'])
    expect(answers.capital).toHaveTokenF1Above('Paris is the capital of France', 0.8)
  })

  test('structured output parses and fits its schema', () => {
    expect(answers.json).toMatchSchema({
      type: 'object',
      required: ['orderId', 'items'],
      properties: {
        orderId: { type: 'string', pattern: '^A-\\d+$' },
        items: { type: 'array', items: { type: 'object', required: ['sku', 'qty'], properties: { qty: { type: 'integer', minimum: 1 } } } },
      },
    })
  })

  test('answers stay short', () => {
    expect(answers.capital).toBeConcise({ maxWords: 20 })
    expect(answers.refund).toBeConcise({ reference: 'Refunds are possible within 30 days of delivery.', factor: 3 })
  })

  test('retrieval put the refund section near the top, with no lucky tie', () => {
    const retrieved = [
      { id: 'refunds', score: 0.82 },
      { id: 'shipping', score: 0.61 },
      { id: 'passwords', score: 0.33 },
    ]
    expect(retrieved).toRetrieve(['refunds'], { k: 2, minScore: 0.5 })
  })

  test('a keyword match is not a correct answer: metrics tell them apart', () => {
    const wrong = 'Wait 30 days before you can ask for a refund.'
    const gold = 'You can ask for a refund within 30 days.'
    expect(wrong).toContainKeywords(['refund', '30 days']) // keywords alone are fooled...
    console.log(`ROUGE-L F ${rougeL(wrong, gold).f.toFixed(3)}, token F1 ${tokenF1(wrong, gold).toFixed(3)}`)
    expect(wrong).not.toMatchAnswer(gold) // ...which is why model-backed judges exist (toPassJudge).
  })
})
