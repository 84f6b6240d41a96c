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
