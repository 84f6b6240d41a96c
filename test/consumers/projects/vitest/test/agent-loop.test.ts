// A consumer's agent loop, replayed: every model step comes from __llm_fixtures__ (recorded through the
// gateway), the tools run for real in the test, and their results go into the next replayed request.
import { expect, test } from 'vitest'
import { refundLoop, replayTheGateway, tools } from './order-loop.js'

replayTheGateway()

test('the refund loop replays step by step, with its tools running in the test', async () => {
  const messages = await refundLoop('R-100')
  expect(messages).toCallTools(
    [
      { name: 'lookupOrder', args: { orderId: 'A17' } },
      { name: 'refundOrder', args: { orderId: 'A17', amount: 30 } },
    ],
    { order: 'strict', extra: 'forbid' },
  )
  expect(messages).toHaveValidToolArguments(tools)
  expect(messages).toUseAtMostSteps(3, { repeatedCalls: 'forbid' })
  expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: expect.stringContaining('R-100') })
})
