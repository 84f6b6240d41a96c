import { tool as langchainTool } from '@langchain/core/tools'
import { jsonSchema, tool } from 'ai'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import * as matcher from '../../matchers/toHaveValidToolArguments.js'
import { failureMessage } from '../helpers/failure-message.js'
import { chatTools, refundRun, sloppyRun } from '../helpers/trajectories.js'

expect.extend(matcher)

const lookupParameters = chatTools[0]!.type === 'function' ? chatTools[0]!.function.parameters! : {}
const refundParameters = chatTools[1]!.type === 'function' ? chatTools[1]!.function.parameters! : {}

describe('.toHaveValidToolArguments', () => {
  test('passes when every call is valid against OpenAI chat tools', () => {
    expect(refundRun()).toHaveValidToolArguments(chatTools)
  })

  test('passes against Responses API tools and Anthropic tools', () => {
    expect(refundRun()).toHaveValidToolArguments([
      { type: 'function', name: 'lookupOrder', parameters: lookupParameters, strict: true },
      { type: 'function', name: 'refundOrder', parameters: refundParameters, strict: true },
      { type: 'web_search' },
    ])
    expect(refundRun()).toHaveValidToolArguments([
      { name: 'lookupOrder', input_schema: lookupParameters },
      { name: 'refundOrder', input_schema: refundParameters },
    ])
  })

  test('passes against an AI SDK tool set (zod and jsonSchema() input schemas)', () => {
    const tools = {
      lookupOrder: tool({ description: 'Look up an order.', inputSchema: z.object({ orderId: z.string() }), execute: async () => ({}) }),
      refundOrder: tool({
        description: 'Refund.',
        inputSchema: jsonSchema<{ orderId: string; amount: number }>(refundParameters as never),
        execute: async () => ({}),
      }),
    }
    expect(refundRun()).toHaveValidToolArguments(tools)
  })

  test('passes against LangChain tools and a { name: schema } map', () => {
    const lookupOrder = langchainTool(async () => '{}', { name: 'lookupOrder', description: 'Look up an order.', schema: z.object({ orderId: z.string() }) })
    const refundOrder = langchainTool(async () => '{}', {
      name: 'refundOrder',
      description: 'Refund.',
      schema: z.object({ orderId: z.string(), amount: z.number().positive() }),
    })
    expect(refundRun()).toHaveValidToolArguments([lookupOrder, refundOrder])
    expect(refundRun()).toHaveValidToolArguments({ lookupOrder: z.object({ orderId: z.string() }), refundOrder: refundParameters })
  })

  test('passes against MCP tool definitions ({ name, inputSchema })', () => {
    expect(refundRun()).toHaveValidToolArguments([
      { name: 'lookupOrder', description: 'Look up an order.', inputSchema: lookupParameters },
      { name: 'refundOrder', description: 'Refund.', inputSchema: refundParameters },
    ])
  })

  test('fails on a schema violation, a missing field, arguments that are not JSON and an unknown tool', () => {
    expect(failureMessage(() => expect(sloppyRun()).toHaveValidToolArguments(chatTools))).toMatchInlineSnapshot(`
      "expect(trajectory).toHaveValidToolArguments(tools)

      Expected: every tool call valid against the declared tools (lookupOrder, refundOrder, escalate)
      Received: 4 of 5 invalid (1 step, 5 tool calls)

      Calls:
          1  lookupOrder({"orderId": "A17"})
        > 2  refundOrder({"orderId": "A17", "amount": -30})   invalid
             /amount: must be > 0, got -30
          3  refundOrder({"amount": 30})   invalid
             /orderId: is required
          4  lookupOrder("{\\"orderId\\": \\"A17\\"" (not JSON))   not JSON
             (root): not valid JSON (Expected ',' or '}' after property value in JSON at position 17 (line 1 column 18))
          5  cancelOrder({"orderId": "A17"})   unknown tool
             not declared: the tools are lookupOrder, refundOrder, escalate"
    `)
  })

  test('fails on a zod schema violation, with its message', () => {
    expect(
      failureMessage(() =>
        expect(refundRun(-5)).toHaveValidToolArguments({
          lookupOrder: z.object({ orderId: z.string() }),
          refundOrder: z.object({ amount: z.number().positive() }),
        }),
      ),
    ).toMatchInlineSnapshot(`
      "expect(trajectory).toHaveValidToolArguments(tools)

      Expected: every tool call valid against the declared tools (lookupOrder, refundOrder)
      Received: 1 of 2 invalid (3 steps, 2 tool calls)

      Calls:
          1  lookupOrder({"orderId": "A17"})
        > 2  refundOrder({"orderId": "A17", "amount": -5})   invalid
             /amount: Too small: expected number to be >0"
    `)
  })

  test('fails when there is no tool call to check', () => {
    expect(
      failureMessage(() =>
        expect([
          { role: 'user', content: 'Refund A17' },
          { role: 'assistant', content: 'Refunded!' },
        ]).toHaveValidToolArguments(chatTools),
      ),
    ).toMatchInlineSnapshot(`
      "expect(trajectory).toHaveValidToolArguments(tools)

      Expected: every tool call valid against the declared tools (lookupOrder, refundOrder, escalate)
      Received: no tool calls (1 step, 0 tool calls)

      Trajectory:
          user: "Refund A17"
          step 1  "Refunded!""
    `)
  })

  test('fails with a usage error when the tools are not tool definitions', () => {
    expect(() => expect(refundRun()).toHaveValidToolArguments([])).toThrow(
      '[expect-llm] Failed to run toHaveValidToolArguments: the tools are an empty array. Pass the tools the request declared:',
    )
    expect(() => expect(refundRun()).toHaveValidToolArguments(['lookupOrder'] as never)).toThrow('tool 0 is a string ("lookupOrder"), not a tool definition.')
    expect(() => expect(refundRun()).toHaveValidToolArguments({ lookupOrder: 'string' })).toThrow(
      'tool "lookupOrder" is a string ("string"), not a tool definition or a schema.',
    )
  })

  test('fails with a usage error when a tool schema does not compile', () => {
    expect(() => expect(refundRun()).toHaveValidToolArguments([{ name: 'lookupOrder', input_schema: { type: 'objekt' } }])).toThrow(
      'Failed to run toHaveValidToolArguments: the JSON Schema does not compile',
    )
  })

  test('fails with a usage error when the received value is not a trajectory', () => {
    expect(() => expect(42).toHaveValidToolArguments(chatTools)).toThrow(
      'Failed to run toHaveValidToolArguments: a number (42) is not a trajectory shape expect-llm knows.',
    )
  })
})

describe('.not.toHaveValidToolArguments', () => {
  test('passes when a call is invalid', () => {
    expect(sloppyRun()).not.toHaveValidToolArguments(chatTools)
  })

  test('fails when every call is valid', () => {
    expect(failureMessage(() => expect(refundRun()).not.toHaveValidToolArguments(chatTools))).toMatchInlineSnapshot(`
      "expect(trajectory).not.toHaveValidToolArguments(tools)

      Expected: a tool call that is not valid against the declared tools (lookupOrder, refundOrder, escalate)
      Received: all 2 valid (3 steps, 2 tool calls)

      Calls:
          1  lookupOrder({"orderId": "A17"})
          2  refundOrder({"orderId": "A17", "amount": 30})"
    `)
  })
})

describe('toHaveValidToolArguments message limits', () => {
  const formOf = (fields: string[]) => ({ form: { type: 'object', required: fields, properties: {} } })
  const emptyForm = [{ type: 'tool-call', name: 'form', arguments: {} }]

  test('a call shows its first 5 issues, then how many more', () => {
    expect(failureMessage(() => expect(emptyForm).toHaveValidToolArguments(formOf(['a', 'b', 'c', 'd', 'e', 'f', 'g'])))).toBe(
      [
        'expect(trajectory).toHaveValidToolArguments(tools)',
        '',
        'Expected: every tool call valid against the declared tools (form)',
        'Received: 1 of 1 invalid (1 step, 1 tool call)',
        '',
        'Calls:',
        '  > 1  form({})   invalid',
        '       /a: is required',
        '       /b: is required',
        '       /c: is required',
        '       /d: is required',
        '       /e: is required',
        '       … and 2 more',
      ].join('\n'),
    )
  })

  test('exactly 5 issues are all shown, with no "more" line', () => {
    const message = failureMessage(() => expect(emptyForm).toHaveValidToolArguments(formOf(['a', 'b', 'c', 'd', 'e'])))
    expect(message.endsWith('       /e: is required')).toBe(true)
    expect(message).not.toContain('more')
  })

  test('with 10 calls the numbers are right-aligned and the issues sit under the call', () => {
    const calls = Array.from({ length: 10 }, (_, i) => ({ type: 'tool-call', name: 'form', arguments: { a: i === 9 ? 1 : 'x' } }))
    const message = failureMessage(() => expect(calls).toHaveValidToolArguments({ form: { type: 'object', properties: { a: { type: 'string' } } } }))
    expect(message.split('\n').slice(3)).toEqual([
      'Received: 1 of 10 invalid (1 step, 10 tool calls)',
      '',
      'Calls:',
      ...Array.from({ length: 9 }, (_, i) => `     ${i + 1}  form({"a": "x"})`),
      '  > 10  form({"a": 1})   invalid',
      '        /a: must be string, got 1',
    ])
  })
})
