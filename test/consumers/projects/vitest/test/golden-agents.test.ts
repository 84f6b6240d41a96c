// A consumer's golden agent and multi-turn cases (README "Golden datasets", "Agent and multi-turn cases"):
// expectedTools and messages in a dataset, the tool checks on what an agent loop returns (the openai SDK's
// messages array), a turn-by-turn conversation, and evaluate() showing the failing scores of a sloppy agent.
// No model call, so nothing to replay.
import { describe, expect, test } from 'vitest'
import { evaluate, turnByTurn, type ConversationMessage, type GoldenCaseInput } from 'expect-llm'
import { describeGolden } from 'expect-llm/vitest'

const call = (id: string, name: string, args: object) => ({ id, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } })

/** What an openai chat agent loop leaves behind: look the order up, refund it (`amount`), confirm. */
function refundAgent(request: string, amount = 30) {
  return [
    { role: 'user', content: request },
    { role: 'assistant', content: null, tool_calls: [call('call_1', 'lookupOrder', { orderId: 'A17' })] },
    { role: 'tool', tool_call_id: 'call_1', content: '{"orderId":"A17","total":30}' },
    { role: 'assistant', content: null, tool_calls: [call('call_2', 'refundOrder', { orderId: 'A17', amount })] },
    { role: 'tool', tool_call_id: 'call_2', content: '{"refundId":"R-100"}' },
    { role: 'assistant', content: `Done: refund R-100 of $${amount} is on its way.` },
  ]
}

/** A chat bot turn that remembers the order number given earlier in the conversation. */
function bot(messages: ConversationMessage[]): string {
  if (!/order number/.test(messages.at(-1)!.content)) return 'Noted.'
  const id = messages.map((m) => /\b([A-Z]\d+)\b/.exec(m.content)?.[1]).find(Boolean)
  return id ? `Your order number is ${id}.` : 'I do not know your order number.'
}

const cases: GoldenCaseInput[] = [
  {
    id: 'refund',
    input: 'Please refund order A17, it arrived broken.',
    expectedTools: { calls: ['lookupOrder', { name: 'refundOrder', args: { orderId: 'A17', amount: 30 } }], order: 'strict' },
    keywords: ['R-100'],
  },
  {
    id: 'remembers-order',
    messages: [
      { role: 'user', content: 'Hi, my order is A17.' },
      { role: 'user', content: 'What was my order number again?' },
    ],
    keywords: ['A17'],
  },
]

describeGolden('refund agent', {
  dataset: cases,
  task: turnByTurn((messages, c) => (c.messages ? bot(messages) : refundAgent(messages.at(-1)!.content))),
  scorers: { toolF1: true, 'toolF1:names': { level: 'name' } },
  thresholds: { mean: { toolF1: 0.9 } },
  report: { console: false },
})

/** A sloppy agent: refunds -25 before looking the order up. */
function sloppyAgent(request: string) {
  return [
    { role: 'user', content: request },
    { role: 'assistant', content: null, tool_calls: [call('call_1', 'refundOrder', { orderId: 'A17', amount: -25 })] },
    { role: 'tool', tool_call_id: 'call_1', content: '{"refundId":"R-101"}' },
    { role: 'assistant', content: null, tool_calls: [call('call_2', 'lookupOrder', { orderId: 'A17' })] },
    { role: 'tool', tool_call_id: 'call_2', content: '{"orderId":"A17","total":30}' },
    { role: 'assistant', content: 'I refunded $25 for order A17.' },
  ]
}

describe('a sloppy agent', () => {
  test('F1 at name and argument level, and why toolOrder and toolArguments fail (the README example)', async () => {
    const dataset: GoldenCaseInput[] = [
      {
        id: 'refund-amount',
        input: 'Please refund order A17, it arrived broken.',
        expectedTools: [{ name: 'lookupOrder', args: { orderId: 'A17' } }, { name: 'refundOrder', args: { amount: 30 } }],
      },
    ]
    const report = await evaluate(dataset, { task: (input) => sloppyAgent(input as string), scorers: { 'toolF1:names': { level: 'name' }, toolF1: true } })
    const scores = report.cases[0]!.scores
    expect(scores['toolF1:names']!.score).toBe(1)
    expect(scores.toolF1!.score).toBe(0.5)
    expect(scores.toolOrder).toMatchObject({
      score: 0,
      pass: false,
      detail: 'expected call 2 refundOrder({"amount": 30}): call 1 has other arguments (/amount: expected 30, received -25); calls made: refundOrder, lookupOrder',
    })
    expect(scores.toolArguments).toMatchObject({ score: 0.5, pass: false, detail: '1/2 right; refundOrder (call 1): /amount: expected 30, received -25' })
    expect(report.ok).toBe(false)
  })

  test('a task that returns text only fails the tool scorers, and says why', async () => {
    const report = await evaluate([cases[0]!], { task: () => 'Done: refund R-100 of $30 is on its way.' })
    expect(report.cases[0]!.scores.toolOrder!.detail).toMatch(/^the task returned text only, so its tool calls cannot be seen/)
  })

  test('a bot that forgets the first turn fails the conversation case', async () => {
    const report = await evaluate([cases[1]!], { task: turnByTurn((messages) => bot(messages.slice(-1))) })
    expect(report.cases[0]!.scores.keywords).toMatchObject({ score: 0, pass: false })
  })
})
