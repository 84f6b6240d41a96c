// Single conversations with the agent matchers: which tools the agent called, with which arguments, in
// which order, in how many steps, and whether the run achieved what the customer asked (an LLM judge).
// The runs are real tool loops (the tools change the store); the model's answers are replayed.
import { describe, expect, it } from 'vitest'
import { orderTools } from '../src/index.js'
import { testAgent } from './client.js'

describe('a refund within the policy', () => {
  it('looks the order up, checks the policy, refunds the full total and says so', async () => {
    const { agent, store } = testAgent()
    const turn = await agent.run('Hi, please refund order A1001. The lamp flickers.')

    // The three steps, one after another, and nothing else.
    expect(turn.messages).toCallTools(['lookupOrder', 'checkRefundPolicy', 'refundOrder'], { order: 'strict', extra: 'forbid' })
    // Partial arguments with asymmetric matchers: the right order, the full total as a number.
    expect(turn.messages).toCallTool('refundOrder', { orderId: 'A1001', amount: expect.closeTo(42.5, 2) })
    expect(turn.messages).toCallTool('checkRefundPolicy', { orderId: expect.stringMatching(/^A\d{4}$/) })
    // Every call names a declared tool and its arguments satisfy that tool's JSON Schema.
    expect(turn.messages).toHaveValidToolArguments(orderTools)
    // Four model calls (three tool steps and the answer), and no call repeated.
    expect(turn.messages).toUseAtMostSteps(4, { repeatedCalls: 'forbid' })
    expect(turn.reply).toContain(store.refunds[0]!.refundId)
    await expect(turn.messages).toCompleteGoal('Refund order A1001 in full and tell the customer the refund id')
  })
})

describe('refunds the policy refuses', () => {
  it('explains the 30-day window instead of refunding a late request', async () => {
    const { agent, store } = testAgent()
    const turn = await agent.run('I want a refund for order A1002, I no longer need the kettle.')

    expect(turn.messages).toCallTools([{ name: 'checkRefundPolicy', args: { orderId: 'A1002' } }])
    expect(turn.messages).not.toCallTool('refundOrder')
    expect(turn.messages).not.toCallTool('escalateToHuman')
    expect(turn.reply).toContainKeywords(['A1002', '30 days'])
    expect(store.refunds).toEqual([])
    await expect(turn.messages).toCompleteGoal('Explain why order A1002 cannot be refunded, without refunding it')
  })

  it('escalates a damaged order with a final-sale item to a person, with the reason', async () => {
    const { agent, store } = testAgent()
    const turn = await agent.run('Order A1003 arrived broken, the mug is cracked. I want a refund.')

    expect(turn.messages).not.toCallTool('refundOrder')
    expect(turn.messages).toCallTools(['checkRefundPolicy', 'escalateToHuman'])
    expect(turn.messages).toCallTool('escalateToHuman', { orderId: 'A1003', reason: expect.stringMatching(/final-sale/) })
    expect(turn.messages).toHaveValidToolArguments(orderTools)
    expect(turn.reply).toContain(store.tickets[0]!.ticketId)
    await expect(turn.messages).toCompleteGoal('Escalate order A1003 to a human colleague and give the customer the ticket id')
    await expect(turn.messages).not.toCompleteGoal('Refund order A1003')
  })
})

describe('other requests', () => {
  it('hands over to a person at once when asked, with no other tool', async () => {
    const { agent } = testAgent()
    const turn = await agent.run('I would like to talk to a human, please.')

    expect(turn.messages).toCallTools(['escalateToHuman'], { extra: 'forbid' })
    expect(turn.messages).toUseAtMostSteps(2)
  })

  it('looks up two orders in one step, in the order the customer named them', async () => {
    const { agent } = testAgent()
    const turn = await agent.run('Where are my orders A1004 and A1001?')
    const a1001 = { name: 'lookupOrder', args: { orderId: 'A1001' } }
    const a1004 = { name: 'lookupOrder', args: { orderId: 'A1004' } }

    // Both lookups, whatever their order ('any'); not A1001 first ('in-order' fails): A1004 came first.
    expect(turn.messages).toCallTools([a1001, a1004], { order: 'any', extra: 'forbid' })
    expect(turn.messages).not.toCallTools([a1001, a1004], { order: 'in-order' })
    // Parallel calls are one step: the lookups, then the answer.
    expect(turn.messages).toUseAtMostSteps(2)
    expect(turn.reply).toContainKeywords(['2026-12-02', '2026-11-20'])
    await expect(turn.messages).toCompleteGoal('Tell the customer where order A1004 is')
  })

  it('remembers the order number from an earlier turn', async () => {
    const { agent } = testAgent()
    const first = await agent.run('Hello, my order number is A1001.')
    expect(first.messages).not.toCallTool('lookupOrder')

    const second = await agent.run([...first.messages, { role: 'user', content: 'Can I get a refund for it?' }])
    expect(second.messages).toCallTool('refundOrder', { orderId: 'A1001' })
  })
})
