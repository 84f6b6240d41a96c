import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import * as matcher from '../../matchers/toCallTool.js'
import { failureMessage } from '../helpers/failure-message.js'
import { escalateRun, refundRun } from '../helpers/trajectories.js'

expect.extend(matcher)

describe('.toCallTool', () => {
  test('passes when a call to the tool was made', () => {
    expect(refundRun()).toCallTool('refundOrder')
  })

  test('passes when the arguments contain the expected values (other keys ignored)', () => {
    expect(refundRun()).toCallTool('refundOrder', { amount: 30 })
  })

  test('passes with asymmetric matchers in the arguments', () => {
    expect(refundRun()).toCallTool('refundOrder', { orderId: expect.stringMatching(/^A\d+$/), amount: expect.any(Number) })
  })

  test('passes with expect.closeTo for a computed amount', () => {
    expect([{ type: 'tool-call', name: 'refundOrder', arguments: { amount: 29.990000001 } }]).toCallTool('refundOrder', { amount: expect.closeTo(29.99) })
  })

  test('passes when a zod schema accepts the arguments', () => {
    expect(refundRun()).toCallTool('refundOrder', z.object({ orderId: z.string(), amount: z.number().max(100) }))
  })

  test('passes when a JSON Schema accepts the arguments', () => {
    expect(refundRun()).toCallTool('refundOrder', { type: 'object', properties: { amount: { type: 'number', maximum: 100 } }, required: ['amount'] })
  })

  test('passes on a plain item array', () => {
    expect([{ type: 'tool-call', name: 'search', arguments: { query: 'refund policy' } }]).toCallTool('search', { query: expect.stringContaining('refund') })
  })

  test('fails when an argument differs, marking the call and the argument', () => {
    expect(failureMessage(() => expect(refundRun(25)).toCallTool('refundOrder', { orderId: 'A17', amount: 30 }))).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTool(name, args)

      Expected: a call to refundOrder({"orderId": "A17", "amount": 30}) (arguments contain these values)
      Received: the call to refundOrder with other arguments (3 steps, 2 tool calls)

      Calls:
          1  lookupOrder({"orderId": "A17"})
        > 2  refundOrder({"orderId": "A17", "amount": 25})
               /amount: expected 30, received 25"
    `)
  })

  test('fails when an asymmetric matcher rejects an argument', () => {
    expect(failureMessage(() => expect(refundRun()).toCallTool('refundOrder', { amount: expect.any(String) }))).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTool(name, args)

      Expected: a call to refundOrder({"amount": Any<String>}) (arguments contain these values)
      Received: the call to refundOrder with other arguments (3 steps, 2 tool calls)

      Calls:
          1  lookupOrder({"orderId": "A17"})
        > 2  refundOrder({"orderId": "A17", "amount": 30})
               /amount: expected Any<String>, received 30"
    `)
  })

  test('fails when an expected argument is missing', () => {
    expect(failureMessage(() => expect(refundRun()).toCallTool('refundOrder', { reason: 'damaged' }))).toContain('/reason: is missing (expected "damaged")')
  })

  test('fails when a schema rejects the arguments, with the schema issue', () => {
    expect(failureMessage(() => expect(refundRun(250)).toCallTool('refundOrder', z.object({ amount: z.number().max(100) })))).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTool(name, args)

      Expected: a call to refundOrder(<zod schema>)
      Received: the call to refundOrder with other arguments (3 steps, 2 tool calls)

      Calls:
          1  lookupOrder({"orderId": "A17"})
        > 2  refundOrder({"orderId": "A17", "amount": 250})
               /amount: Too big: expected number to be <=100"
    `)
  })

  test('fails when the tool was never called', () => {
    expect(failureMessage(() => expect(escalateRun()).toCallTool('refundOrder'))).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTool(name)

      Expected: a call to refundOrder
      Received: no call to refundOrder among 3 steps, 2 tool calls

      Calls:
          1  lookupOrder({"orderId": "A17"})
          2  escalate({"reason": "refund request"})"
    `)
  })

  test('fails when no tool was called, showing the trajectory', () => {
    expect(
      failureMessage(() =>
        expect([
          { role: 'user', content: 'Refund A17' },
          { role: 'assistant', content: 'Your refund is on its way!' },
        ]).toCallTool('refundOrder'),
      ),
    ).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTool(name)

      Expected: a call to refundOrder
      Received: no tool calls (1 step, 0 tool calls)

      Trajectory:
          user: "Refund A17"
          step 1  "Your refund is on its way!""
    `)
  })

  test('fails when the arguments are not JSON, whatever the expected values', () => {
    expect(
      failureMessage(() => expect([{ type: 'tool-call', name: 'lookupOrder', arguments: '{"orderId": "A17"' }]).toCallTool('lookupOrder', { orderId: 'A17' })),
    ).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTool(name, args)

      Expected: a call to lookupOrder({"orderId": "A17"}) (arguments contain these values)
      Received: the call to lookupOrder with other arguments (1 step, 1 tool call)

      Calls:
        > 1  lookupOrder("{\\"orderId\\": \\"A17\\"" (not JSON))
               (root): the arguments are not valid JSON (Expected ',' or '}' after property value in JSON at position 17 (line 1 column 18))"
    `)
  })

  test('fails with a usage error when the received value is not a trajectory', () => {
    expect(() => expect('I refunded it.').toCallTool('refundOrder')).toThrow(
      '[expect-llm] Failed to run toCallTool: a string ("I refunded it.") is not a trajectory shape expect-llm knows. Pass one of: an OpenAI chat completion',
    )
  })

  test('fails with a usage error when the tool name is missing', () => {
    expect(() => (expect(refundRun()).toCallTool as (...args: unknown[]) => void)()).toThrow(
      "[expect-llm] Failed to run toCallTool: the tool name must be a non-empty string, got undefined. Pass the tool's name as the model sees it, e.g. 'lookupOrder'.",
    )
  })

  test('fails with a usage error when a JSON Schema does not compile', () => {
    expect(() => expect(refundRun()).toCallTool('refundOrder', { type: 'object', properties: { amount: { type: 'numbr' } } })).toThrow(
      'Failed to run toCallTool: the JSON Schema does not compile',
    )
  })

  test('fails with a usage error when a Promise is passed', () => {
    expect(() => expect(Promise.resolve(refundRun())).toCallTool('refundOrder')).toThrow('Failed to run toCallTool: the value is a Promise. Await it first')
  })
})

describe('.not.toCallTool', () => {
  test('passes when the tool was never called', () => {
    expect(escalateRun()).not.toCallTool('refundOrder')
  })

  test('passes when the tool was called with other arguments', () => {
    expect(refundRun()).not.toCallTool('refundOrder', { amount: 300 })
  })

  test('fails when the tool was called, marking the call', () => {
    expect(failureMessage(() => expect(refundRun()).not.toCallTool('refundOrder'))).toMatchInlineSnapshot(`
      "expect(trajectory).not.toCallTool(name)

      Expected: no call to refundOrder
      Received: call 2 is refundOrder({"orderId": "A17", "amount": 30})

      Calls:
          1  lookupOrder({"orderId": "A17"})
        > 2  refundOrder({"orderId": "A17", "amount": 30})"
    `)
  })

  test('fails with a usage error, not a pass, when the received value is not a trajectory', () => {
    expect(() => expect({ text: 'hi' }).not.toCallTool('refundOrder')).toThrow('Failed to run toCallTool: an object with keys text is not a trajectory shape')
  })
})

describe('toCallTool with several calls to the tool', () => {
  // Ten calls: eight lookups, then two refunds with n 8 and 9.
  const calls = Array.from({ length: 10 }, (_, i) => ({ type: 'tool-call', name: i < 8 ? 'lookupOrder' : 'refundOrder', arguments: { n: i } }))

  test('no match: counts the calls to the tool and marks the first of them with its differences', () => {
    expect(failureMessage(() => expect(calls).toCallTool('refundOrder', { n: 3 }))).toMatchInlineSnapshot(`
      "expect(trajectory).toCallTool(name, args)

      Expected: a call to refundOrder({"n": 3}) (arguments contain these values)
      Received: 2 calls to refundOrder with other arguments (1 step, 10 tool calls)

      Calls:
           1  lookupOrder({"n": 0})
           2  lookupOrder({"n": 1})
           3  lookupOrder({"n": 2})
           4  lookupOrder({"n": 3})
           5  lookupOrder({"n": 4})
           6  lookupOrder({"n": 5})
           7  lookupOrder({"n": 6})
           8  lookupOrder({"n": 7})
        >  9  refundOrder({"n": 8})
               /n: expected 3, received 8
          10  refundOrder({"n": 9})"
    `)
  })

  test('.not: marks the matching call, not the first call to the tool, and shows no differences', () => {
    expect(
      failureMessage(() => expect(calls).not.toCallTool('refundOrder', { n: 9 }))
        .split('\n')
        .slice(2, 4),
    ).toEqual(['Expected: no call to refundOrder({"n": 9}) (arguments contain these values)', 'Received: call 10 is refundOrder({"n": 9})'])
    expect(
      failureMessage(() => expect(calls).not.toCallTool('refundOrder', { n: 9 }))
        .split('\n')
        .slice(-2),
    ).toEqual(['     9  refundOrder({"n": 8})', '  > 10  refundOrder({"n": 9})'])
  })
})

describe('toCallTool: an args schema that does not compile', () => {
  test('is a usage error even when no call was made, so .not cannot pass on it', () => {
    const broken = { type: 'object', properties: { amount: { type: 'money' } } }
    const noCalls = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
    ]
    const call = () => expect(noCalls).not.toCallTool('refundOrder', broken)
    expect(call).toThrow(TypeError)
    expect(call).toThrow('[expect-llm] Failed to run toCallTool: ')
  })
})
