import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import * as matcher from '../../matchers/toCallTools.js'
import { failureMessage } from '../helpers/failure-message.js'
import { escalateRun, loopingRun, refundRun } from '../helpers/trajectories.js'

expect.extend(matcher)

/** lookupOrder, getPolicy, refundOrder, notify: four calls in four steps. */
const fourCalls = [
  { type: 'tool-call', name: 'lookupOrder', arguments: { orderId: 'A17' } },
  { type: 'tool-result', result: { total: 30 } },
  { type: 'tool-call', name: 'getPolicy', arguments: { topic: 'refunds' } },
  { type: 'tool-result', result: 'Refunds within 30 days.' },
  { type: 'tool-call', name: 'refundOrder', arguments: { orderId: 'A17', amount: 30 } },
  { type: 'tool-result', result: { refundId: 'R-100' } },
  { type: 'tool-call', name: 'notify', arguments: { channel: 'email' } },
]

describe('.toCallTools', () => {
  test('passes when the calls are made in order (default: other calls between them allowed)', () => {
    expect(fourCalls).toCallTools(['lookupOrder', 'refundOrder'])
  })

  test('passes in strict order when the calls follow one another', () => {
    expect(fourCalls).toCallTools(['getPolicy', 'refundOrder'], { order: 'strict' })
  })

  test('passes in any order', () => {
    expect(fourCalls).toCallTools(['notify', 'lookupOrder'], { order: 'any' })
  })

  test('passes with extra calls forbidden when the calls are exactly the expected ones', () => {
    expect(refundRun()).toCallTools(['lookupOrder', 'refundOrder'], { order: 'strict', extra: 'forbid' })
  })

  test('passes with arguments: partial values, asymmetric matchers and schemas', () => {
    expect(refundRun()).toCallTools([
      { name: 'lookupOrder', args: { orderId: 'A17' } },
      { name: 'refundOrder', args: { amount: expect.any(Number) } },
    ])
    expect(refundRun()).toCallTools([{ name: 'refundOrder', args: z.object({ amount: z.literal(30) }) }])
  })

  test('passes when each expected call needs its own call, in any order', () => {
    expect(loopingRun()).toCallTools(['lookupOrder', 'lookupOrder', 'lookupOrder'], { order: 'any' })
  })

  test('fails when an expected call is missing, marking where it should have been', () => {
    expect(failureMessage(() => expect(escalateRun()).toCallTools(['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }]))).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTools(expected)

      Expected: these 2 calls in this order (other calls allowed between them): lookupOrder → refundOrder
      Received: 3 steps, 2 tool calls; expected call 2, refundOrder, is not there

          expected                          actual
          1  lookupOrder(…)                 1  lookupOrder({"orderId": "A17"})
        > 2  refundOrder({"amount": 30})       (missing)
                                            2  escalate({"reason": "refund request"})

      First divergence: no call to refundOrder was made"
    `)
  })

  test('fails when the calls are out of order', () => {
    expect(failureMessage(() => expect(fourCalls).toCallTools(['refundOrder', 'lookupOrder']))).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTools(expected)

      Expected: these 2 calls in this order (other calls allowed between them): refundOrder → lookupOrder
      Received: 4 steps, 4 tool calls; expected call 2, lookupOrder, is not there

          expected             actual
                               1  lookupOrder({"orderId": "A17"})
                               2  getPolicy({"topic": "refunds"})
          1  refundOrder(…)    3  refundOrder({"orderId": "A17", "amount": 30})
        > 2  lookupOrder(…)       (missing)
                               4  notify({"channel": "email"})

      First divergence: call 1 matches it, but it comes before call 3 (refundOrder)"
    `)
  })

  test('fails in strict order when a middle call is missing, and shows the later call next to its expected call', () => {
    const run = [
      { type: 'tool-call', name: 'lookupOrder', arguments: { orderId: 'A17' } },
      { type: 'tool-call', name: 'refundOrder', arguments: { orderId: 'A17', amount: 30 } },
    ]
    expect(failureMessage(() => expect(run).toCallTools(['lookupOrder', 'getPolicy', 'refundOrder'], { order: 'strict' }))).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTools(expected, options)

      Expected: these 3 calls one after another, in this order (other calls allowed before and after): lookupOrder → getPolicy → refundOrder
      Received: 1 step, 2 tool calls; expected call 2, getPolicy, is not there

          expected             actual
          1  lookupOrder(…)    1  lookupOrder({"orderId": "A17"})
        > 2  getPolicy(…)         (missing)
          3  refundOrder(…)    2  refundOrder({"orderId": "A17", "amount": 30})

      First divergence: no call to getPolicy was made"
    `)
  })

  test('fails in strict order when another call comes between', () => {
    expect(failureMessage(() => expect(fourCalls).toCallTools(['lookupOrder', 'refundOrder'], { order: 'strict' }))).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTools(expected, options)

      Expected: these 2 calls one after another, in this order (other calls allowed before and after): lookupOrder → refundOrder
      Received: 4 steps, 4 tool calls; expected call 2, refundOrder, is made, but not right after the call before it

          expected             actual
          1  lookupOrder(…)    1  lookupOrder({"orderId": "A17"})
        >                      2  getPolicy({"topic": "refunds"})   (between expected calls: 'strict' allows none)
          2  refundOrder(…)    3  refundOrder({"orderId": "A17", "amount": 30})
                               4  notify({"channel": "email"})

      First divergence: call 3 matches it, but call 2 (getPolicy) comes between it and call 1, and order 'strict' allows none"
    `)
  })

  test('fails when an extra call is forbidden, marking the first one', () => {
    expect(failureMessage(() => expect(fourCalls).toCallTools(['lookupOrder', 'refundOrder'], { extra: 'forbid' }))).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTools(expected, options)

      Expected: exactly these 2 calls, in this order, and no other call: lookupOrder → refundOrder
      Received: 4 steps, 4 tool calls; call 2, getPolicy, is not an expected call

          expected             actual
          1  lookupOrder(…)    1  lookupOrder({"orderId": "A17"})
        >                      2  getPolicy({"topic": "refunds"})   (not expected)
          2  refundOrder(…)    3  refundOrder({"orderId": "A17", "amount": 30})
                               4  notify({"channel": "email"})   (not expected)"
    `)
  })

  test('fails when a call has other arguments, with the argument that differs', () => {
    expect(failureMessage(() => expect(refundRun(25)).toCallTools(['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }]))).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTools(expected)

      Expected: these 2 calls in this order (other calls allowed between them): lookupOrder → refundOrder
      Received: 3 steps, 2 tool calls; expected call 2, refundOrder, is not there

          expected                          actual
          1  lookupOrder(…)                 1  lookupOrder({"orderId": "A17"})
        > 2  refundOrder({"amount": 30})       (missing)
                                            2  refundOrder({"orderId": "A17", "amount": 25})

      First divergence: call 2 is refundOrder with other arguments:
          /amount: expected 30, received 25"
    `)
  })

  test('fails in any order when one call would have to count twice', () => {
    expect(failureMessage(() => expect(refundRun()).toCallTools(['lookupOrder', 'lookupOrder'], { order: 'any' }))).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTools(expected, options)

      Expected: these 2 calls, in any order (other calls allowed): lookupOrder, lookupOrder
      Received: 3 steps, 2 tool calls; expected call 2, lookupOrder, is not there

          expected             actual
          1  lookupOrder(…)    1  lookupOrder({"orderId": "A17"})
                               2  refundOrder({"orderId": "A17", "amount": 30})
        > 2  lookupOrder(…)       (missing)

      First divergence: call 1 matches it, but it already counts for expected call 1"
    `)
  })

  test('fails when the agent made no call at all', () => {
    expect(failureMessage(() => expect([{ role: 'assistant', content: 'Refunded!' }]).toCallTools(['refundOrder']))).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTools(expected)

      Expected: this call: refundOrder
      Received: 1 step, 0 tool calls; expected call 1, refundOrder, is not there

          expected             actual
        > 1  refundOrder(…)       (missing)

      First divergence: no call to refundOrder was made"
    `)
  })

  test('fails with a usage error when the expected list is empty, which would pass vacuously', () => {
    expect(() => expect(refundRun()).toCallTools([])).toThrow(
      "[expect-llm] Failed to run toCallTools: the expected calls must be a non-empty array, got an empty array. Pass the tool names or { name, args } objects in an array, e.g. ['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }].",
    )
  })

  test('fails with a usage error when an expected call is neither a name nor { name, args }', () => {
    expect(() => expect(refundRun()).toCallTools(['lookupOrder', 42 as unknown as string])).toThrow(
      'expected call 1 must be a tool name or { name, args }, got a number (42).',
    )
    expect(() => expect(refundRun()).toCallTools([{ name: 'lookupOrder', arguments: {} } as never])).toThrow(
      'expected call 0 has unknown key "arguments". An expected call is a tool name, or { name, args }.',
    )
  })

  test('fails with a usage error on an unknown order or option', () => {
    expect(() => expect(refundRun()).toCallTools(['lookupOrder'], { order: 'exact' as 'strict' })).toThrow(
      `order must be one of 'strict', 'in-order', 'any', got a string ("exact").`,
    )
    expect(() => expect(refundRun()).toCallTools(['lookupOrder'], { extra: false } as never)).toThrow(
      `extra must be one of 'allow', 'forbid', got a boolean (false).`,
    )
    expect(() => expect(refundRun()).toCallTools(['lookupOrder'], { ordered: true } as never)).toThrow(
      'unknown option "ordered". Valid options are: order, extra.',
    )
  })

  test('fails with a usage error when the received value is not a trajectory', () => {
    expect(() => expect({ calls: ['lookupOrder'] }).toCallTools(['lookupOrder'])).toThrow(
      'Failed to run toCallTools: an object with keys calls is not a trajectory shape expect-llm knows.',
    )
  })
})

describe('.not.toCallTools', () => {
  test('passes when an expected call is missing', () => {
    expect(escalateRun()).not.toCallTools(['lookupOrder', 'refundOrder'])
  })

  test('fails when every expected call was made', () => {
    expect(failureMessage(() => expect(refundRun()).not.toCallTools(['lookupOrder', 'refundOrder']))).toMatchInlineSnapshot(`
      "expect(trajectory).not.toCallTools(expected)

      Expected: not these 2 calls in this order (other calls allowed between them): lookupOrder → refundOrder
      Received: 3 steps, 2 tool calls, with every expected call in place

          expected             actual
          1  lookupOrder(…)    1  lookupOrder({"orderId": "A17"})
          2  refundOrder(…)    2  refundOrder({"orderId": "A17", "amount": 30})"
    `)
  })

  test('fails with a usage error, not a pass, when the expected list is empty', () => {
    expect(() => expect(refundRun()).not.toCallTools([])).toThrow('the expected calls must be a non-empty array')
  })
})

describe('toCallTools: usage errors and the expected line', () => {
  test('a blank tool name is a usage error, not a name', () => {
    const call = () => expect(refundRun()).toCallTools(['lookupOrder', '  '])
    expect(call).toThrow(TypeError)
    expect(call).toThrow(
      "expected call 1 must be a tool name or { name, args }, got a string (\"  \"). Pass for example ['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }].",
    )
  })

  test('null as an expected call is a usage error', () => {
    expect(() => expect(refundRun()).toCallTools([null as never])).toThrow(
      "[expect-llm] Failed to run toCallTools: expected call 0 must be a tool name or { name, args }, got null. Pass for example ['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }].",
    )
  })

  test('a tool function passed instead of its name is a usage error, though it has a name', () => {
    function lookupOrder() {}
    expect(() => expect(refundRun()).toCallTools([lookupOrder as never])).toThrow(
      "[expect-llm] Failed to run toCallTools: expected call 0 must be a tool name or { name, args }, got a function. Pass for example ['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }].",
    )
  })

  test('an expected call whose name is not a string is a usage error', () => {
    expect(() => expect(refundRun()).toCallTools([{ name: 42 } as never])).toThrow(
      "[expect-llm] Failed to run toCallTools: expected call 0 must be a tool name or { name, args }, got an object. Pass for example ['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }].",
    )
  })

  test('an expected call with a blank name is a usage error', () => {
    expect(() => expect(refundRun()).toCallTools([{ name: '  ' }])).toThrow(
      "[expect-llm] Failed to run toCallTools: expected call 0 must be a tool name or { name, args }, got an object. Pass for example ['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }].",
    )
  })

  test('every unknown key of an expected call is named', () => {
    expect(() => expect(refundRun()).toCallTools([{ name: 'lookupOrder', arguments: {}, when: 1 } as never])).toThrow(
      'expected call 0 has unknown key "arguments", "when".',
    )
  })

  test('one call with extra calls forbidden: "this call and no other"', () => {
    const message = failureMessage(() => expect(refundRun()).toCallTools(['lookupOrder'], { extra: 'forbid' }))
    expect(message.split('\n')[2]).toBe('Expected: this call and no other: lookupOrder')
  })

  test('any order with extra calls forbidden', () => {
    const message = failureMessage(() => expect(refundRun()).toCallTools(['refundOrder', 'notify'], { order: 'any', extra: 'forbid' }))
    expect(message.split('\n')[2]).toBe('Expected: these 2 calls, in any order, and no other call: refundOrder, notify')
  })
})

describe('toCallTools: the first divergence', () => {
  test('strict order, the first expected call made after the second: it matches, but out of order', () => {
    const message = failureMessage(() => expect(refundRun()).toCallTools(['refundOrder', 'lookupOrder'], { order: 'strict' }))
    expect(message.split('\n').at(-1)).toBe('First divergence: call 2 matches it, but out of the expected order')
  })

  test('out of order, it names the matched expected call just before, not a later one', () => {
    const message = failureMessage(() => expect(fourCalls).toCallTools(['getPolicy', 'lookupOrder', 'refundOrder']))
    expect(message.split('\n').at(-1)).toBe('First divergence: call 1 matches it, but it comes before call 2 (getPolicy)')
  })

  test('in order, a later expected call made before an earlier one: it names the call it comes before', () => {
    const message = failureMessage(() => expect(refundRun()).toCallTools(['refundOrder', 'lookupOrder']))
    expect(message.split('\n').at(-1)).toBe('First divergence: call 1 matches it, but it comes before call 2 (refundOrder)')
  })
})

describe('toCallTools: a call between strictly ordered calls', () => {
  /** lookupOrder, getPolicy, escalate, refundOrder, with no arguments. */
  const run = ['lookupOrder', 'getPolicy', 'escalate', 'refundOrder'].map((name) => ({ type: 'tool-call', name, arguments: {} }))

  test('it is measured from the expected call just before, not the first one', () => {
    const message = failureMessage(() => expect(run).toCallTools(['lookupOrder', 'getPolicy', 'refundOrder'], { order: 'strict' }))
    expect(message.split('\n').at(-1)).toBe(
      "First divergence: call 4 matches it, but call 3 (escalate) comes between it and call 2, and order 'strict' allows none",
    )
  })

  test('two calls between are both named, numbered in order', () => {
    expect(failureMessage(() => expect(run).toCallTools(['lookupOrder', 'refundOrder'], { order: 'strict' }))).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTools(expected, options)

      Expected: these 2 calls one after another, in this order (other calls allowed before and after): lookupOrder → refundOrder
      Received: 1 step, 4 tool calls; expected call 2, refundOrder, is made, but not right after the call before it

          expected             actual
          1  lookupOrder(…)    1  lookupOrder({})
        >                      2  getPolicy({})   (between expected calls: 'strict' allows none)
                               3  escalate({})   (between expected calls: 'strict' allows none)
          2  refundOrder(…)    4  refundOrder({})

      First divergence: call 4 matches it, but call 2 (getPolicy), call 3 (escalate) come between it and call 1, and order 'strict' allows none"
    `)
  })
})

describe('toCallTools: an args schema that does not compile', () => {
  test('is a usage error even when no call was made, so .not cannot pass on it', () => {
    const broken = { type: 'object', properties: { amount: { type: 'money' } } }
    const noCalls = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
    ]
    const call = () => expect(noCalls).not.toCallTools([{ name: 'refundOrder', args: broken }])
    expect(call).toThrow(TypeError)
    expect(call).toThrow('[expect-llm] Failed to run toCallTools: ')
  })
})
