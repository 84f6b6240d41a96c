// A consumer's agent tests: the agent matchers on what the openai SDK's chat loop leaves behind (the
// messages array), typed on expect() by the setup file. No model call, so nothing to replay.
import { describe, expect, test } from 'vitest'
import { readTrajectory } from 'expect-llm'

const call = (id: string, name: string, args: object) => ({ id, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } })

const messages = [
  { role: 'user', content: 'Please refund order A17, it arrived broken.' },
  { role: 'assistant', content: null, tool_calls: [call('call_1', 'lookupOrder', { orderId: 'A17' })] },
  { role: 'tool', tool_call_id: 'call_1', content: '{"orderId":"A17","total":30}' },
  { role: 'assistant', content: 'Refunding it.', tool_calls: [call('call_2', 'refundOrder', { orderId: 'A17', amount: 30 })] },
  { role: 'tool', tool_call_id: 'call_2', content: '{"refundId":"R-100"}' },
  { role: 'assistant', content: 'Done: refund R-100 is on its way.' },
]

const tools = [
  { type: 'function', function: { name: 'lookupOrder', parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] } } },
  { type: 'function', function: { name: 'refundOrder', parameters: { type: 'object', properties: { orderId: { type: 'string' }, amount: { type: 'number', maximum: 100 } }, required: ['orderId', 'amount'] } } },
]

describe('agent matchers', () => {
  test('tool calls, their order, their arguments and the number of steps', () => {
    expect(messages).toCallTool('refundOrder', { orderId: 'A17', amount: expect.any(Number) })
    expect(messages).not.toCallTool('escalate')
    expect(messages).toCallTools(['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }], { order: 'strict', extra: 'forbid' })
    expect(messages).toHaveValidToolArguments(tools)
    expect(messages).toUseAtMostSteps(3, { repeatedCalls: 'forbid' })
    expect(readTrajectory(messages).steps).toBe(3)
  })

  test('a wrong argument fails with the argument that differs', () => {
    expect(() => expect(messages).toCallTool('refundOrder', { amount: 300 })).toThrow('/amount: expected 300, received 30')
  })
})
