// Jest in CommonJS mode: the setup file registers the matchers; describeGolden works with the
// lexical scorers (no model call, so no replay needed).
const { describe, expect, test } = require('@jest/globals')
const { describeGolden } = require('expect-llm/jest')
const { rougeL } = require('expect-llm')

const reference = 'You can ask for a refund within 30 days of delivery.'
const right = 'You have 30 days from delivery to request a refund.'

describe('lexical matchers under CommonJS', () => {
  test('keywords, overlap, exact answers, length, JSON and retrieval', () => {
    expect(right).toContainKeywords(['30 days', 'refund'])
    expect(right).toHaveRougeLAbove(reference, 0.3)
    expect(rougeL(right, reference).f).toBeLessThan(1)
    expect('Paris.').toMatchAnswer(['Paris', 'Paris, France'])
    expect(right).not.toBeConcise({ maxWords: 5 })
    expect('{"days": 30}').toMatchSchema({ type: 'object', required: ['days'] })
    expect([{ id: 'refunds', score: 0.8 }, { id: 'shipping', score: 0.8 }]).not.toRetrieve(['refunds'], { k: 1 })
  })

  test('chrF and TER', () => {
    expect(right).toHaveChrFAbove(right, 1)
    expect(right).not.toHaveTerBelow(reference, 0.2)
  })
})

describe('optional peers', () => {
  test('expect-llm and its matchers load in a project without the AI SDK', () => {
    // This project does not install `ai`; the setup file and the requires above loaded expect-llm without it.
    expect(() => require.resolve('ai')).toThrow()
    expect(typeof require('expect-llm').aiSdkJudge).toBe('function')
  })
})

describeGolden('refund answers (lexical)', {
  dataset: [
    { id: 'refund-window', input: 'How long do I have to ask for a refund?', expected: reference, keywords: ['30 days'] },
    { id: 'refund-method', input: 'Where does my refund go?', expected: 'Refunds go back to the original payment method.', keywords: ['original payment method'] },
  ],
  task: (input) => (input.startsWith('How long') ? right : 'Your refund goes back to the original payment method.'),
  scorers: { rougeL: 0.3, keywords: true, chrF: null, ter: null },
  thresholds: { passRate: 1 },
  report: { console: false },
})

describe('agent matchers under CommonJS', () => {
  const call = (id, name, args) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } })
  const messages = [
    { role: 'user', content: 'Please refund order A17.' },
    { role: 'assistant', content: null, tool_calls: [call('c1', 'lookupOrder', { orderId: 'A17' })] },
    { role: 'tool', tool_call_id: 'c1', content: '{"total":30}' },
    { role: 'assistant', content: null, tool_calls: [call('c2', 'refundOrder', { orderId: 'A17', amount: 30 })] },
    { role: 'tool', tool_call_id: 'c2', content: '{"refundId":"R-1"}' },
    { role: 'assistant', content: 'Refunded: R-1.' },
  ]

  test('tool calls with asymmetric matchers, order, valid arguments and steps', () => {
    expect(messages).toCallTool('refundOrder', { amount: expect.any(Number) })
    expect(messages).toCallTools(['lookupOrder', 'refundOrder'], { order: 'strict', extra: 'forbid' })
    expect(messages).toHaveValidToolArguments({ lookupOrder: { type: 'object', required: ['orderId'] }, refundOrder: { type: 'object', required: ['amount'] } })
    expect(messages).toUseAtMostSteps(3, { repeatedCalls: 'forbid' })
    expect(() => expect(messages).toCallTool('escalate')).toThrow('Received: no call to escalate among 3 steps, 2 tool calls')
  })
})
