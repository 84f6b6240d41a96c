// The agent case fields `expectedTools` and `messages` in every dataset format, and every error message
// of their validation (file, line, field, fix).
import { describe, expect, test } from 'vitest'
import { loadDatasetSync, validateCases } from '../../src/golden/dataset.js'
import { datasetFiles, problemsOf } from './dataset-helpers.js'

const { file } = datasetFiles('golden-agent-dataset-')

const conversation = [
  { role: 'system', content: 'You are a support bot.' },
  { role: 'user', content: 'My order is A17.' },
  { role: 'assistant', content: 'Noted.' },
  { role: 'user', content: 'What was my order number?' },
]
const refundTools = { calls: ['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }], order: 'strict' }
const loaded = {
  calls: [{ name: 'lookupOrder' }, { name: 'refundOrder', args: { amount: 30 } }],
  order: 'strict',
  extra: 'allow',
}

describe('expectedTools and messages load in every format', () => {
  test('JSON Lines: a list, { calls, order, extra }, an empty list (no tool call), and a conversation whose messages are the input', () => {
    const path = file(
      'agent.jsonl',
      [
        { id: 'list', input: 'Refund A17', expectedTools: ['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }] },
        { id: 'object', input: 'Refund A17', expectedTools: refundTools },
        { id: 'none', input: 'Thanks, bye', expectedTools: [] },
        { id: 'chat', messages: conversation, keywords: ['A17'] },
      ]
        .map((c) => JSON.stringify(c))
        .join('\n'),
    )
    const cases = loadDatasetSync(path)
    expect(cases[0]!.expectedTools).toEqual({ ...loaded, order: 'in-order' })
    expect(cases[1]!.expectedTools).toEqual(loaded)
    expect(cases[2]!.expectedTools).toEqual({ calls: [], order: 'in-order', extra: 'forbid' })
    expect(cases[3]).toMatchObject({ id: 'chat', input: conversation, messages: conversation, keywords: ['A17'] })
  })

  test('JSON and YAML', () => {
    const json = file('agent.json', JSON.stringify({ cases: [{ messages: conversation, expectedTools: refundTools }] }))
    expect(loadDatasetSync(json)[0]).toMatchObject({ messages: conversation, expectedTools: loaded })
    const yaml = file(
      'agent.yaml',
      [
        '- id: chat',
        '  messages:',
        '    - { role: user, content: My order is A17. }',
        '    - { role: user, content: What was my order number? }',
        '  expectedTools:',
        '    calls: [lookupOrder, { name: refundOrder, args: { amount: 30 } }]',
        '    order: strict',
      ].join('\n'),
    )
    const [c] = loadDatasetSync(yaml)
    expect(c!.messages).toEqual([
      { role: 'user', content: 'My order is A17.' },
      { role: 'user', content: 'What was my order number?' },
    ])
    expect(c!.expectedTools).toEqual(loaded)
  })

  test('CSV: JSON in the cells', () => {
    const cell = (v: unknown) => `"${JSON.stringify(v).replaceAll('"', '""')}"`
    const path = file('agent.csv', `id,input,messages,expectedTools\na,Refund A17,,${cell(refundTools)}\nb,,${cell(conversation)},\n`)
    const [a, b] = loadDatasetSync(path)
    expect(a).toMatchObject({ input: 'Refund A17', expectedTools: loaded })
    expect(b).toMatchObject({ input: conversation, messages: conversation })
    expect(b!.expectedTools).toBeUndefined()
  })

  test('cases without an id get a stable one from their conversation', () => {
    const [a] = validateCases([{ messages: conversation as never }])
    const [b] = validateCases([{ messages: conversation as never, keywords: ['A17'] }])
    expect(a!.id).toMatch(/^case-[0-9a-f]{8}$/)
    expect(b!.id).toBe(a!.id)
  })
})

describe('errors', () => {
  test('expectedTools: each problem with its line and the fix', () => {
    const path = file(
      'bad-tools.jsonl',
      [
        { input: 'a', expectedTools: 'lookupOrder' },
        { input: 'b', expectedTools: [42, { name: 'refundOrder', arguments: {} }] },
        { input: 'c', expectedTools: { calls: ['x'], order: 'sorted', extra: 'maybe' } },
        { input: 'd', expectedTools: { tools: ['x'] } },
        { input: 'e', expectedTools: { calls: [], extra: 'allow' } },
        { input: 'f', expectedTools: [{ name: '' }] },
      ]
        .map((c) => JSON.stringify(c))
        .join('\n'),
    )
    expect(problemsOf(() => loadDatasetSync(path)).map((p) => p.replace(/^.*bad-tools\.jsonl/, 'bad-tools.jsonl'))).toEqual([
      'bad-tools.jsonl:1: field "expectedTools" must be a list of tool calls, got a string ("lookupOrder"); write for example ["lookupOrder", { "name": "refundOrder", "args": { "amount": 30 } }]',
      'bad-tools.jsonl:2: field "expectedTools" call 0 must be a tool name or { name, args }, got a number (42)',
      'bad-tools.jsonl:2: field "expectedTools" call 1 has unknown key "arguments"; an expected call is a tool name or { name, args }',
      "bad-tools.jsonl:3: field \"expectedTools\" order must be one of 'strict', 'in-order', 'any', got a string (\"sorted\")",
      'bad-tools.jsonl:3: field "expectedTools" extra must be one of \'allow\', \'forbid\', got a string ("maybe")',
      'bad-tools.jsonl:4: field "expectedTools" has unknown key "tools"; write a list of calls, or { calls, order, extra }',
      'bad-tools.jsonl:4: field "expectedTools" has no "calls": write { "calls": ["lookupOrder", { "name": "refundOrder", "args": { "amount": 30 } }], "order": "strict" }',
      'bad-tools.jsonl:5: field "expectedTools" is an empty list with extra \'allow\', which every run passes; leave "extra" out (an empty list means: no tool call), or list the expected calls',
      'bad-tools.jsonl:6: field "expectedTools" call 0 must be a tool name or { name, args }, got an object',
    ])
  })

  test('messages: each problem with its position and the fix', () => {
    const cases = [
      { messages: [] },
      { messages: 'hello' },
      { messages: [{ role: 'user', content: 'hi' }], input: 'hi' },
      { messages: [{ role: 'bot', content: 'hi' }] },
      { messages: [{ role: 'user', content: '' }] },
      { messages: [{ role: 'user', content: 'hi', name: 'ann' }] },
      { messages: ['hi'] },
      {
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'Hello!' },
        ],
      },
    ]
    expect(problemsOf(() => validateCases(cases as never))).toEqual([
      'dataset[0]: field "messages" must be a non-empty list of { role, content } messages, got an array (length 0); write for example [{ "role": "user", "content": "My order is A17." }, { "role": "assistant", "content": "Thanks!" }, { "role": "user", "content": "Where is it?" }]',
      'dataset[1]: field "messages" must be a non-empty list of { role, content } messages, got a string ("hello"); write for example [{ "role": "user", "content": "My order is A17." }, { "role": "assistant", "content": "Thanks!" }, { "role": "user", "content": "Where is it?" }]',
      'dataset[2]: field "messages" and "input" are both given; a case holds a conversation ("messages") or a single "input", not both',
      'dataset[3]: field "messages" message 0 has role a string ("bot"); the roles are "system", "user", "assistant"',
      'dataset[4]: field "messages" message 0 must have a non-empty string "content", got a string ("")',
      'dataset[5]: field "messages" message 0 has unknown key "name"; a message is { role, content }',
      'dataset[6]: field "messages" message 0 must be { role, content }, got a string ("hi")',
      'dataset[7]: field "messages" ends with a message of role "assistant"; the last message is the user\'s, which the task answers',
    ])
  })
})
