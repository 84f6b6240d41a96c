// The steps of readMessages (src/agents/messages.ts): a user, an assistant and a tool message read into a
// trajectory builder, and the call ids an assistant message lists. Each message is given as the reader's
// view of it (every dialect's fields already picked out).
import { describe, expect, test } from 'vitest'
import { TrajectoryBuilder } from '../../src/agents/builder.js'
import { listedCallIds, readAssistantMessage, readMessages, readToolMessage, readUserMessage, type Seen, type View } from '../../src/agents/messages.js'

const view = (over: Partial<View>): View => ({
  role: undefined,
  content: undefined,
  toolCalls: undefined,
  invalidToolCalls: undefined,
  toolCallId: undefined,
  name: undefined,
  status: undefined,
  functionCall: undefined,
  refusal: undefined,
  langchain: false,
  ...over,
})
const none = (): Seen => ({ langchain: false, anthropic: false, aiSdk: false, openai: false })

describe('readUserMessage', () => {
  test('text content is one user item', () => {
    const b = new TrajectoryBuilder()
    readUserMessage(b, view({ role: 'user', content: 'Refund order A17.' }), 'messages[0]', none())
    expect(b.build('messages')).toEqual({ source: 'messages', items: [{ type: 'user', text: 'Refund order A17.' }], steps: 0 })
  })

  // A defect found while splitting readMessages: the text parts of a user message's content list were read
  // twice, as the user's text and as an assistant text item in a step of its own.
  test("a user message's text parts are the user's text only, not also an assistant step", () => {
    const b = new TrajectoryBuilder()
    const content = [
      { type: 'text', text: 'Where is ' },
      { type: 'image_url', image_url: { url: 'data:,' } },
      { type: 'text', text: 'A17?' },
    ]
    readUserMessage(b, view({ role: 'user', content }), 'messages[0]', none())
    expect(b.build('messages')).toEqual({ source: 'messages', items: [{ type: 'user', text: 'Where is A17?' }], steps: 0 })
  })

  test('readMessages: a conversation with content-part user messages counts one step per assistant message', () => {
    const t = readMessages([
      { role: 'user', content: [{ type: 'text', text: 'Where is A17?' }] },
      { role: 'assistant', content: 'Delivered.' },
      { role: 'user', content: [{ type: 'input_text', text: 'And B2?' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'On its way.' }] },
    ])
    expect(t.steps).toBe(2)
    expect(t.items).toEqual([
      { type: 'user', text: 'Where is A17?' },
      { type: 'text', text: 'Delivered.', step: 0 },
      { type: 'user', text: 'And B2?' },
      { type: 'text', text: 'On its way.', step: 1 },
    ])
  })

  test('Anthropic: a tool_result block is read as a result; the dialect is seen', () => {
    const b = new TrajectoryBuilder()
    const seen = none()
    const content = [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '{"status":"delivered"}' }] }]
    readUserMessage(b, view({ role: 'user', content }), 'messages[2]', seen)
    expect(b.build('anthropic').items).toEqual([{ type: 'tool-result', result: '{"status":"delivered"}', id: 'toolu_1' }])
    expect(seen).toEqual({ langchain: false, anthropic: true, aiSdk: false, openai: false })
  })

  test('an error result with string content, no empty user item', () => {
    const b = new TrajectoryBuilder()
    readUserMessage(b, view({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok', is_error: true }] }), 'messages[1]', none())
    expect(b.build('anthropic').items).toEqual([{ type: 'tool-result', result: 'ok', id: 't', isError: true }])
  })
})

describe('listedCallIds', () => {
  test('the string ids of tool_calls and invalid_tool_calls', () => {
    const ids = listedCallIds({ toolCalls: [{ id: 'a' }, { id: 7 }, null, { name: 'x' }], invalidToolCalls: [{ id: 'b' }] })
    expect([...ids]).toEqual(['a', 'b'])
  })

  test('no lists: none', () => {
    expect(listedCallIds({ toolCalls: undefined, invalidToolCalls: 'x' }).size).toBe(0)
  })
})

describe('readAssistantMessage', () => {
  test('OpenAI chat: the text, then each call with its arguments parsed, in one step', () => {
    const b = new TrajectoryBuilder()
    const seen = none()
    const toolCalls = [{ id: 'call_1', type: 'function', function: { name: 'lookupOrder', arguments: '{"orderId":"A17"}' } }]
    readAssistantMessage(b, view({ role: 'assistant', content: 'Looking it up.', toolCalls }), 'messages[1]', seen)
    expect(b.build('openai-chat')).toEqual({
      source: 'openai-chat',
      items: [
        { type: 'text', text: 'Looking it up.', step: 0 },
        { type: 'tool-call', name: 'lookupOrder', arguments: { orderId: 'A17' }, step: 0, id: 'call_1' },
      ],
      steps: 1,
    })
    expect(seen.openai).toBe(true)
  })

  test('LangChain over Anthropic: a tool_use block repeated in tool_calls is read once, from tool_calls', () => {
    const b = new TrajectoryBuilder()
    const content = [
      { type: 'text', text: 'Refunding.' },
      { type: 'tool_use', id: 'toolu_9', name: 'refundOrder', input: { orderId: 'A17' } },
    ]
    const toolCalls = [{ id: 'toolu_9', name: 'refundOrder', args: { orderId: 'A17' } }]
    readAssistantMessage(b, view({ role: 'assistant', content, toolCalls, langchain: true }), 'messages[3]', none())
    expect(b.build('langchain').items).toEqual([
      { type: 'text', text: 'Refunding.', step: 0 },
      { type: 'tool-call', name: 'refundOrder', arguments: { orderId: 'A17' }, step: 0, id: 'toolu_9' },
    ])
  })

  test('a refusal is text; an invalid tool call keeps its error; the legacy function_call is a call without id', () => {
    const b = new TrajectoryBuilder()
    const seen = none()
    readAssistantMessage(
      b,
      view({
        role: 'assistant',
        content: null,
        refusal: 'I cannot help with that.',
        invalidToolCalls: [{ id: 'bad_1', name: 'refundOrder', args: '{"orderId":', error: 'Unexpected end of JSON input' }],
        functionCall: { name: 'lookupOrder', arguments: '{"orderId":"B2"}' },
      }),
      'messages[4]',
      seen,
    )
    expect(b.build('openai-chat').items).toEqual([
      { type: 'text', text: 'I cannot help with that.', step: 0 },
      { type: 'tool-call', name: 'refundOrder', arguments: '{"orderId":', step: 0, id: 'bad_1', argumentsError: 'Unexpected end of JSON input' },
      { type: 'tool-call', name: 'lookupOrder', arguments: { orderId: 'B2' }, step: 0 },
    ])
    expect(seen.openai).toBe(true)
  })

  test('each assistant message is its own step', () => {
    const b = new TrajectoryBuilder()
    readAssistantMessage(b, view({ role: 'assistant', content: 'one' }), 'messages[0]', none())
    readAssistantMessage(b, view({ role: 'assistant', content: 'two' }), 'messages[1]', none())
    expect(b.build('messages')).toEqual({
      source: 'messages',
      items: [
        { type: 'text', text: 'one', step: 0 },
        { type: 'text', text: 'two', step: 1 },
      ],
      steps: 2,
    })
  })
})

describe('readToolMessage', () => {
  test('OpenAI: one result with its call id; the dialect is seen', () => {
    const b = new TrajectoryBuilder()
    const seen = none()
    readToolMessage(b, view({ role: 'tool', content: '{"status":"delivered"}', toolCallId: 'call_1' }), 'messages[2]', seen)
    expect(b.build('openai-chat').items).toEqual([{ type: 'tool-result', result: '{"status":"delivered"}', id: 'call_1' }])
    expect(seen.openai).toBe(true)
  })

  test("LangChain: status 'error' marks the result, its name is kept, and OpenAI is not seen", () => {
    const b = new TrajectoryBuilder()
    const seen = none()
    readToolMessage(
      b,
      view({ role: 'tool', content: 'not found', toolCallId: 't1', name: 'lookupOrder', status: 'error', langchain: true }),
      'messages[2]',
      seen,
    )
    expect(b.build('langchain').items).toEqual([{ type: 'tool-result', result: 'not found', id: 't1', name: 'lookupOrder', isError: true }])
    expect(seen.openai).toBe(false)
  })

  test('AI SDK: tool-result parts, each with its tool name and output', () => {
    const b = new TrajectoryBuilder()
    const seen = none()
    const content = [{ type: 'tool-result', toolCallId: 'c1', toolName: 'lookupOrder', output: { type: 'json', value: { status: 'delivered' } } }]
    readToolMessage(b, view({ role: 'tool', content }), 'messages[2]', seen)
    expect(b.build('ai-sdk').items).toEqual([{ type: 'tool-result', result: { status: 'delivered' }, id: 'c1', name: 'lookupOrder' }])
    expect(seen).toEqual({ langchain: false, anthropic: false, aiSdk: true, openai: false })
  })
})
