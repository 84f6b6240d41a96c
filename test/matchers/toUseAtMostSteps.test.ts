import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toUseAtMostSteps.js'
import { failureMessage } from '../helpers/failure-message.js'
import { loopingRun, refundRun } from '../helpers/trajectories.js'

expect.extend(matcher)

describe('.toUseAtMostSteps', () => {
  test('passes when the run took exactly the limit', () => {
    expect(refundRun()).toUseAtMostSteps(3)
  })

  test('passes with the loop guard when no call repeats', () => {
    expect(refundRun()).toUseAtMostSteps(5, { repeatedCalls: 'forbid' })
  })

  test('passes a repeated call by default (a retry is allowed)', () => {
    expect(loopingRun()).toUseAtMostSteps(4)
  })

  test('parallel calls in one response count as one step', () => {
    expect([
      {
        role: 'assistant',
        content: null,
        tool_calls: [1, 2, 3].map((n) => ({ id: `c${n}`, type: 'function', function: { name: 'lookupOrder', arguments: `{"orderId":"A${n}"}` } })),
      },
    ]).toUseAtMostSteps(1)
  })

  test('fails when the run took more steps, marking the first step over the limit', () => {
    expect(failureMessage(() => expect(refundRun()).toUseAtMostSteps(2))).toMatchInlineSnapshot(`
      "expect(trajectory).toUseAtMostSteps(steps)

      Expected: at most 2 steps (model responses)
      Received: 3 steps, 2 tool calls

      Trajectory:
          user: "Please refund order A17, it arrived broken."
          step 1  call lookupOrder({"orderId": "A17"})
                  result lookupOrder → {"orderId": "A17", "status": "delivered", "total": 30}
          step 2  "Order A17 was delivered; refunding it."
                  call refundOrder({"orderId": "A17", "amount": 30})
                  result refundOrder → {"orderId": "A17", "amount": 30, "refundId": "R-100"}
        > step 3  "Done: refund R-100 of $30 for order A17 is on its way."   ← step 3: over the limit"
    `)
  })

  test('fails with the loop guard on a repeated identical call, marking the repeat', () => {
    expect(failureMessage(() => expect(loopingRun()).toUseAtMostSteps(Infinity, { repeatedCalls: 'forbid' }))).toMatchInlineSnapshot(`
      "expect(trajectory).toUseAtMostSteps(steps, options)

      Expected: any number of steps, and no repeated identical call
      Received: 4 steps, 3 tool calls; lookupOrder({"orderId": "A17"}) was made 3 times (calls 1, 2, 3)

      Trajectory:
          user: "Where is order A17?"
          step 1  call lookupOrder({"orderId": "A17"})
                  result lookupOrder → {"error": "timeout"}
        > step 2  call lookupOrder({"orderId": "A17"})   ← repeats call 1
                  result lookupOrder → {"error": "timeout"}
          step 3  call lookupOrder({"orderId": "A17"})
                  result lookupOrder → {"error": "timeout"}
          step 4  "Sorry, I could not find your order.""
    `)
  })

  test('the loop guard compares arguments deeply, whatever their key order', () => {
    const run = [
      { type: 'tool-call', name: 'search', arguments: { q: 'refund', page: 1 } },
      { type: 'tool-result', result: '[]' },
      { type: 'tool-call', name: 'search', arguments: { page: 1, q: 'refund' } },
    ]
    expect(() => expect(run).toUseAtMostSteps(5, { repeatedCalls: 'forbid' })).toThrow('was made 2 times (calls 1, 2)')
    expect([run[0], run[1], { type: 'tool-call', name: 'search', arguments: { q: 'refund', page: 2 } }]).toUseAtMostSteps(5, { repeatedCalls: 'forbid' })
  })

  test('fails with a usage error when the limit is not a whole number >= 1', () => {
    expect(() => expect(refundRun()).toUseAtMostSteps(0)).toThrow(
      '[expect-llm] Failed to run toUseAtMostSteps: the step limit must be a whole number >= 1 (or Infinity), got 0. Pass the most model responses the run may take, e.g. 5.',
    )
    expect(() => expect(refundRun()).toUseAtMostSteps(2.5)).toThrow('got 2.5')
    expect(() => expect(refundRun()).toUseAtMostSteps('3' as unknown as number)).toThrow('got a string ("3")')
  })

  test('fails with a usage error on an unknown option or value', () => {
    expect(() => expect(refundRun()).toUseAtMostSteps(3, { noLoops: true } as never)).toThrow('unknown option "noLoops". Valid options are: repeatedCalls.')
    expect(() => expect(refundRun()).toUseAtMostSteps(3, { repeatedCalls: true } as never)).toThrow(
      `repeatedCalls must be one of 'allow', 'forbid', got a boolean (true).`,
    )
  })

  test('fails with a usage error when the received value is not a trajectory', () => {
    expect(() => expect('three steps').toUseAtMostSteps(3)).toThrow('Failed to run toUseAtMostSteps: a string ("three steps") is not a trajectory shape')
  })
})

describe('.not.toUseAtMostSteps', () => {
  test('passes when the run took more steps', () => {
    expect(refundRun()).not.toUseAtMostSteps(2)
  })

  test('fails when the run stayed within the limit', () => {
    expect(failureMessage(() => expect(refundRun()).not.toUseAtMostSteps(3))).toMatchInlineSnapshot(`
      "expect(trajectory).not.toUseAtMostSteps(steps)

      Expected: more than 3 steps
      Received: 3 steps, 2 tool calls

      Trajectory:
          user: "Please refund order A17, it arrived broken."
          step 1  call lookupOrder({"orderId": "A17"})
                  result lookupOrder → {"orderId": "A17", "status": "delivered", "total": 30}
          step 2  "Order A17 was delivered; refunding it."
                  call refundOrder({"orderId": "A17", "amount": 30})
                  result refundOrder → {"orderId": "A17", "amount": 30, "refundId": "R-100"}
          step 3  "Done: refund R-100 of $30 for order A17 is on its way.""
    `)
  })
})

describe('toUseAtMostSteps edges', () => {
  test('a limit of 1 reads in the singular, under .not too', () => {
    expect(failureMessage(() => expect(refundRun()).toUseAtMostSteps(1)).split('\n')[2]).toBe('Expected: at most 1 step (model responses)')
    expect(failureMessage(() => expect([{ type: 'text', text: 'Hi.' }]).not.toUseAtMostSteps(1)).split('\n')[2]).toBe('Expected: more than 1 step')
    expect(refundRun()).not.toUseAtMostSteps(1)
  })

  test('a step over the limit with text and a call is marked once, on its first line', () => {
    const message = failureMessage(() => expect(refundRun()).toUseAtMostSteps(1))
    const marked = message.split('\n').filter((line) => line.includes('over the limit'))
    expect(marked).toEqual(['  > step 2  "Order A17 was delivered; refunding it."   ← step 2: over the limit'])
  })

  test('over the limit and repeating: the first step over the limit is marked, and the repeat is named', () => {
    expect(failureMessage(() => expect(loopingRun()).toUseAtMostSteps(2, { repeatedCalls: 'forbid' }))).toMatchInlineSnapshot(`
      "expect(trajectory).toUseAtMostSteps(steps, options)

      Expected: at most 2 steps (model responses), and no repeated identical call
      Received: 4 steps, 3 tool calls; lookupOrder({"orderId": "A17"}) was made 3 times (calls 1, 2, 3)

      Trajectory:
          user: "Where is order A17?"
          step 1  call lookupOrder({"orderId": "A17"})
                  result lookupOrder → {"error": "timeout"}
          step 2  call lookupOrder({"orderId": "A17"})
                  result lookupOrder → {"error": "timeout"}
        > step 3  call lookupOrder({"orderId": "A17"})   ← step 3: over the limit
                  result lookupOrder → {"error": "timeout"}
          step 4  "Sorry, I could not find your order.""
    `)
  })

  test('.not with the loop guard: either more steps or a repeat would do, and nothing is marked', () => {
    // The same message as without the guard, but for the call's options and the expected line.
    const plain = failureMessage(() => expect(refundRun()).not.toUseAtMostSteps(3))
    expect(failureMessage(() => expect(refundRun()).not.toUseAtMostSteps(3, { repeatedCalls: 'forbid' }))).toBe(
      plain.replace('(steps)', '(steps, options)').replace('Expected: more than 3 steps\n', 'Expected: more than 3 steps, or a repeated identical call\n'),
    )
    expect(plain).not.toMatch(/^ {2}>/m)
    expect(loopingRun()).not.toUseAtMostSteps(5, { repeatedCalls: 'forbid' })
  })

  test.each([
    [-Infinity, '-Infinity', RangeError],
    [Number.NaN, 'NaN', RangeError],
    [0.5, '0.5', RangeError],
    [null, 'null', TypeError],
  ])('a limit of %s is refused as a %s', (steps, got, Kind) => {
    let thrown: unknown
    try {
      expect(refundRun()).toUseAtMostSteps(steps as number)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(Kind)
    expect((thrown as Error).message).toContain(`the step limit must be a whole number >= 1 (or Infinity), got ${got}.`)
  })

  test('a limit of 1 is accepted', () => {
    expect([{ type: 'text', text: 'Hi.' }]).toUseAtMostSteps(1)
  })
})
