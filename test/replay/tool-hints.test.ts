// A replay miss inside a tool result names the tool whose result changed, in every wire dialect.
import { describe, expect, test } from 'vitest'
import { diffHints } from '../../src/replay/diff.js'
import type { KeyMaterial } from '../../src/replay/types.js'

const material = (body: unknown): KeyMaterial => ({ v: 1, method: 'POST', origin: 'https://api.example.com', path: '/v1/x', query: [], bodyType: 'json', body })
const changed = (path: string) => [{ path, recorded: '{"status":"shipped"}', actual: '{"status":"lost"}' }]
const hint = (where: string, name: string, id?: string) =>
  `${where} is the result of the tool ${name}${id ? ` (call ${id})` : ''}, and it differs from the recording: the tool returned something else this time. If it varies between runs (ids, times, live data), make the tool deterministic in the test; if the change is intended, record again.`

describe('diffHints names the tool of a changed tool result', () => {
  test('Responses API: a function_call_output item, named by the function_call with its call_id', () => {
    const body = {
      input: [
        { role: 'user', content: 'Where is order 7?' },
        { type: 'function_call', call_id: 'c1', name: 'lookupOrder', arguments: '{"id":7}' },
        { type: 'function_call_output', call_id: 'c1', output: '{"status":"lost"}' },
      ],
    }
    expect(diffHints(changed('/body/input/2/output'), material(body))).toEqual([hint('input[2]', 'lookupOrder', 'c1')])
  })

  test('Gemini: a functionResponse part', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'Where is order 7?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'lookupOrder', args: { id: 7 } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'lookupOrder', response: { status: 'lost' } } }] },
      ],
    }
    expect(diffHints(changed('/body/contents/2/parts/0/functionResponse/response/status'), material(body))).toEqual([
      hint('contents[2].parts[0]', 'lookupOrder'),
    ])
  })

  test('two changed paths in one tool message give one hint; a changed user message gives none', () => {
    const body = {
      messages: [
        { role: 'user', content: 'Where is order 7?' },
        { role: 'assistant', tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'lookupOrder', arguments: '{}' } }] },
        {
          role: 'tool',
          tool_call_id: 'call_9',
          content: [
            { type: 'text', text: 'lost' },
            { type: 'text', text: 'today' },
          ],
        },
      ],
    }
    const diffs = [...changed('/body/messages/2/content/0/text'), ...changed('/body/messages/2/content/1/text'), ...changed('/body/messages/0/content')]
    expect(diffHints(diffs, material(body))).toEqual([hint('messages[2]', 'lookupOrder', 'call_9')])
  })

  test('a tool message whose call is not in the conversation still says it is a tool result', () => {
    const body = { messages: [{ role: 'tool', tool_call_id: 'call_1', content: 'lost' }] }
    expect(diffHints(changed('/body/messages/0/content'), material(body))[0]).toMatch(/^messages\[0\] is the result of a tool \(call call_1\)/)
  })
})

const unnamed = (where: string, id?: string) =>
  `${where} is the result of a tool${id ? ` (call ${id})` : ''}, and it differs from the recording: the tool returned something else this time. If it varies between runs (ids, times, live data), make the tool deterministic in the test; if the change is intended, record again.`

describe('diffHints finds the tool result a path points into', () => {
  const toolMessage = { role: 'tool', tool_call_id: 'call_1', content: 'lost' }
  const toolResultBlock = { type: 'tool_result', tool_use_id: 'toolu_1', content: 'lost' }

  test('Responses API: a custom_tool_call_output item, named by the custom_tool_call with its call_id', () => {
    const body = {
      input: [
        { type: 'custom_tool_call', call_id: 'c2', name: 'grep', input: 'order 7' },
        { type: 'custom_tool_call_output', call_id: 'c2', output: 'lost' },
      ],
    }
    expect(diffHints(changed('/body/input/1/output'), material(body))).toEqual([hint('input[1]', 'grep', 'c2')])
  })

  test('Responses API: an output item whose call is not in the input is the result of an unnamed tool', () => {
    const body = { input: [{ type: 'function_call_output', call_id: 'c1', output: 'lost' }] }
    expect(diffHints(changed('/body/input/0/output'), material(body))).toEqual([unnamed('input[0]', 'c1')])
  })

  test('the call must come before its result: a later call with the same id does not name the tool', () => {
    const body = { messages: [toolMessage, { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookupOrder' } }] }] }
    expect(diffHints(changed('/body/messages/0/content'), material(body))).toEqual([unnamed('messages[0]', 'call_1')])
  })

  test.each([
    [
      'an OpenAI tool_call_id',
      {
        messages: [
          { role: 'assistant', tool_calls: [{ id: 7, function: { name: 'f' } }] },
          { role: 'tool', tool_call_id: 7, content: 'x' },
        ],
      },
      '/body/messages/1/content',
      unnamed('messages[1]'),
    ],
    [
      'a Responses call_id',
      {
        input: [
          { type: 'function_call', call_id: 7, name: 'f' },
          { type: 'function_call_output', call_id: 7, output: 'x' },
        ],
      },
      '/body/input/1/output',
      unnamed('input[1]'),
    ],
    [
      'a Responses function_call name',
      {
        input: [
          { type: 'function_call', call_id: 'c1', name: 5 },
          { type: 'function_call_output', call_id: 'c1', output: 'x' },
        ],
      },
      '/body/input/1/output',
      unnamed('input[1]', 'c1'),
    ],
    [
      'an Anthropic tool_use_id',
      {
        messages: [
          { role: 'assistant', content: [{ type: 'tool_use', id: 7, name: 'f' }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 7, content: 'x' }] },
        ],
      },
      '/body/messages/1/content/0/content',
      unnamed('messages[1].content[0]'),
    ],
    [
      'a Gemini functionResponse name',
      { contents: [{ parts: [{ functionResponse: { name: 5, response: {} } }] }] },
      '/body/contents/0/parts/0',
      unnamed('contents[0].parts[0]'),
    ],
  ])('%s that is no string is neither shown nor matched', (_what, body, path, expected) => {
    expect(diffHints(changed(path), material(body))).toEqual([expected])
  })

  test('an index of two digits, in the list and in the blocks', () => {
    const user = { role: 'user', content: [{ type: 'text', text: 'hi' }] }
    const messages = [...Array.from({ length: 10 }, () => user), toolMessage]
    expect(diffHints(changed('/body/messages/10/content'), material({ messages }))).toEqual([unnamed('messages[10]', 'call_1')])
    const content = [...Array.from({ length: 10 }, () => ({ type: 'text', text: 'hi' })), toolResultBlock]
    expect(diffHints(changed('/body/messages/0/content/10/content'), material({ messages: [{ role: 'user', content }] }))).toEqual([
      unnamed('messages[0].content[10]', 'toolu_1'),
    ])
  })

  test.each<[string, unknown, string]>([
    ['a body that is null', null, '/body/messages/0/content'],
    ['a body that is an array', [[toolMessage]], '/body/0/0/content'],
    ['a top-level field that is absent', {}, '/body/temperature'],
    ['a list that is absent', {}, '/body/messages/0/content'],
    ['an item that is null', { messages: [null] }, '/body/messages/0'],
    ...['0x0', ' 0', '0e0', '0 '].map((index): [string, unknown, string] => [
      `a list index "${index}"`,
      { messages: [toolMessage] },
      `/body/messages/${index}/content`,
    ]),
    ['a message without the blocks of the path', { messages: [{ role: 'user' }] }, '/body/messages/0/content/0'],
    ...['0x0', ' 0', '0e0', '0 '].map((index): [string, unknown, string] => [
      `a block index "${index}"`,
      { messages: [{ role: 'user', content: [toolResultBlock] }] },
      `/body/messages/0/content/${index}/content`,
    ]),
    [
      'a block that is neither a tool_result nor a functionResponse',
      { messages: [{ role: 'user', content: [{ type: 'text' }] }] },
      '/body/messages/0/content/0/text',
    ],
    ['a path outside the body', { messages: [toolMessage] }, '/path/messages/0/content'],
  ])('no tool result: %s', (_what, body, path) => {
    expect(diffHints(changed(path), material(body))).toEqual([])
  })
})
