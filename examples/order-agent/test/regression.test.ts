// What the matchers report on a real regression. Prompt v1, the agent's first system prompt, never told
// the model to check the refund policy: the model goes from the lookup straight to the refund, and the
// store's own check is the only thing between a customer and an out-of-policy refund. These tests pin
// the failure messages a v2 test suite would print if v1 came back (colours stripped), so the
// demo stays green while it shows what a failure looks like.
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { testAgent } from './client.js'

/** The message of an assertion that must fail (it fails the test when the assertion passes). */
async function failureOf(assertion: () => unknown): Promise<string> {
  try {
    await assertion()
  } catch (error) {
    return stripVTControlCharacters((error as Error).message)
  }
  throw new Error('expected the assertion to fail, but it passed')
}

describe('prompt v1 (no policy check)', () => {
  it('skips checkRefundPolicy: the strict order check marks where the run diverges', async () => {
    const { agent, store } = testAgent('v1')
    const turn = await agent.run('Hi, please refund order A1001. The lamp flickers.')
    // The refund itself still happens (A1001 is within the policy)...
    expect(store.refunds).toHaveLength(1)
    // ...but the step the v2 prompt requires is not there.
    const message = await failureOf(() => expect(turn.messages).toCallTools(['lookupOrder', 'checkRefundPolicy', 'refundOrder'], { order: 'strict' }))
    expect(message).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTools(expected, options)

      Expected: these 3 calls one after another, in this order (other calls allowed before and after): lookupOrder → checkRefundPolicy → refundOrder
      Received: 3 steps, 2 tool calls; expected call 2, checkRefundPolicy, is not there

          expected                   actual
          1  lookupOrder(…)          1  lookupOrder({"orderId": "A1001"})
        > 2  checkRefundPolicy(…)       (missing)
          3  refundOrder(…)          2  refundOrder({"orderId": "A1001", "amount": 42.5})

      First divergence: no call to checkRefundPolicy was made"
    `)
  })

  it('tries to refund a late order: the store refuses, and the judge does not count the attempt as the goal', async () => {
    const { agent, store } = testAgent('v1')
    const turn = await agent.run('I want a refund for order A1002, I no longer need the kettle.')
    expect(store.refunds).toEqual([])
    expect(await failureOf(() => expect(turn.messages).not.toCallTool('refundOrder'))).toMatchInlineSnapshot(`
      "expect(trajectory).not.toCallTool(name)

      Expected: no call to refundOrder
      Received: call 2 is refundOrder({"orderId": "A1002", "amount": 35})

      Calls:
          1  lookupOrder({"orderId": "A1002"})
        > 2  refundOrder({"orderId": "A1002", "amount": 35})"
    `)
    expect(await failureOf(() => expect(turn.messages).toCompleteGoal('Refund order A1002 in full'))).toMatchInlineSnapshot(`
      "expect(trajectory).toCompleteGoal(goal)

      Expected goal score: >= 0.7
      Received goal score:    0 (FAIL, judge gpt-4.1-mini)

      Judge's reasoning: "Not achieved: the refundOrder call did not succeed."

      Goal: "Refund order A1002 in full"

      Trajectory:
          user: "I want a refund for order A1002, I no longer need the kettle."
          step 1  call lookupOrder({"orderId": "A1002"})
                  result lookupOrder → {"id": "A1002", "customer": "Sam Okafor", "status": "del…: false}], "total": 35}
          step 2  call refundOrder({"orderId": "A1002", "amount": 35})
                  result refundOrder → {"error": "refund refused: order A1002 was delivered 52 …n 30 days of delivery"}
          step 3  "I couldn't refund order A1002: order A1002 was delivered 52 days ago,… within 30 days of delivery.""
    `)
  })
})
