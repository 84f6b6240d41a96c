// readTrajectory on real SDK output: each test runs the SDK against the scripted local model
// (test/helpers/agent-model.ts on the server of test/helpers/openai-server.ts, 127.0.0.1) and reads
// what the SDK returned, not a hand-written shape.
import Anthropic from '@anthropic-ai/sdk'
import { createOpenAI } from '@ai-sdk/openai'
import { streamText, isStepCount } from 'ai'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readTrajectory, toolCalls } from '../../src/agents/read.js'
import type { Trajectory, TrajectoryItem, TrajectorySource } from '../../src/agents/types.js'
import {
  agentReply,
  aiSdkLoop,
  aiSdkTools,
  anthropicLoop,
  langchainLoop,
  openaiChatLoop,
  openaiChatTools,
  openaiResponsesLoop,
  REQUEST,
} from '../helpers/agent-model.js'
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js'

let server: OpenAIServer
let openai: OpenAI
let anthropic: Anthropic

beforeAll(async () => {
  server = await startOpenAIServer({ reply: agentReply })
  openai = new OpenAI({ baseURL: server.baseURL, apiKey: 'test-key', maxRetries: 0 })
  anthropic = new Anthropic({ baseURL: server.origin, apiKey: 'test-key', maxRetries: 0 })
})

afterAll(() => server.close())

const ORDER = '{"orderId":"A17","status":"delivered","total":30}'
const REFUND = '{"orderId":"A17","amount":30,"refundId":"R-100"}'

/** The three-step run every SDK produces with the scripted model, ids left out. */
const LOOP: TrajectoryItem[] = [
  { type: 'user', text: REQUEST },
  { type: 'tool-call', name: 'lookupOrder', arguments: { orderId: 'A17' }, step: 0 },
  { type: 'tool-result', name: 'lookupOrder', result: ORDER },
  { type: 'text', text: 'Order A17 was delivered; refunding it.', step: 1 },
  { type: 'tool-call', name: 'refundOrder', arguments: { orderId: 'A17', amount: 30 }, step: 1 },
  { type: 'tool-result', name: 'refundOrder', result: REFUND },
  { type: 'text', text: 'Done: refund R-100 of $30 for order A17 is on its way.', step: 2 },
]

function withoutIds(trajectory: Trajectory): TrajectoryItem[] {
  return trajectory.items.map((item) => {
    if (item.type !== 'tool-call' && item.type !== 'tool-result') return item
    const { id: _id, ...rest } = item
    return rest as TrajectoryItem
  })
}

/** Reads a full run: the three steps of the loop, from this source, every result carrying the id of its call. */
function expectLoop(value: unknown, source: TrajectorySource, items: TrajectoryItem[] = LOOP): void {
  const trajectory = readTrajectory(value)
  expect(trajectory.source).toBe(source)
  expect(trajectory.steps).toBe(3)
  expect(withoutIds(trajectory)).toEqual(items)
  const calls = toolCalls(trajectory)
  expect(calls.every((c) => typeof c.id === 'string' && c.id !== '')).toBe(true)
  expect(trajectory.items.filter((i) => i.type === 'tool-result').map((r) => r.id)).toEqual(calls.map((c) => c.id))
}

describe('OpenAI chat completions', () => {
  test('a completion with a tool call is one step with the parsed arguments and the call id', async () => {
    const completion = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: REQUEST }], tools: openaiChatTools })
    const trajectory = readTrajectory(completion)
    expect(trajectory).toEqual({
      source: 'openai-chat',
      steps: 1,
      items: [{ type: 'tool-call', name: 'lookupOrder', arguments: { orderId: 'A17' }, id: completion.choices[0]!.message.tool_calls![0]!.id, step: 0 }],
    })
  })

  test('the messages array of a full loop reads as user, calls, results and text in three steps', async () => {
    expectLoop(await openaiChatLoop(openai), 'openai-chat')
  })

  test('a streamed loop (chat.completions.stream + finalChatCompletion) reads the same', async () => {
    expectLoop(await openaiChatLoop(openai, { stream: true }), 'openai-chat')
  })

  test('one message of the completion reads too', async () => {
    const completion = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: REQUEST }], tools: openaiChatTools })
    expect(withoutIds(readTrajectory(completion.choices[0]!.message))).toEqual([
      { type: 'tool-call', name: 'lookupOrder', arguments: { orderId: 'A17' }, step: 0 },
    ])
  })

  test('parallel tool calls in one message are one step', async () => {
    server.setReply(() => ({
      toolCalls: [
        { name: 'lookupOrder', arguments: { orderId: 'A1' } },
        { name: 'lookupOrder', arguments: { orderId: 'A2' } },
      ],
    }))
    try {
      const completion = await openai.chat.completions.create({
        model: 'gpt-4.1-mini',
        messages: [{ role: 'user', content: 'Two orders' }],
        tools: openaiChatTools,
        stream: false,
      })
      const trajectory = readTrajectory(completion)
      expect(trajectory.steps).toBe(1)
      expect(toolCalls(trajectory).map((c) => [c.arguments, c.step])).toEqual([
        [{ orderId: 'A1' }, 0],
        [{ orderId: 'A2' }, 0],
      ])
    } finally {
      server.setReply(agentReply)
    }
  })

  test('arguments that are not JSON are kept as text with the parse error', async () => {
    server.setReply(() => ({ toolCalls: [{ name: 'lookupOrder', arguments: '{"orderId": "A1"' }] }))
    try {
      const completion = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'x' }], tools: openaiChatTools })
      const [call] = toolCalls(readTrajectory(completion))
      expect(call?.arguments).toBe('{"orderId": "A1"')
      expect(call?.argumentsError).toMatch(/^not valid JSON \(/)
    } finally {
      server.setReply(agentReply)
    }
  })

  test('a list of completions, one per step, reads as those steps', async () => {
    const first = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: REQUEST }], tools: openaiChatTools })
    const second = await openai.chat.completions.create({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'user', content: REQUEST },
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: first.choices[0]!.message.tool_calls![0]!.id, content: ORDER },
      ],
      tools: openaiChatTools,
    })
    const trajectory = readTrajectory([first, second])
    expect(trajectory.steps).toBe(2)
    expect(toolCalls(trajectory).map((c) => c.name)).toEqual(['lookupOrder', 'refundOrder'])
  })
})

describe('OpenAI Responses API', () => {
  test('a response with a function_call is one step', async () => {
    const { responses } = await openaiResponsesLoop(openai)
    const trajectory = readTrajectory(responses[0])
    expect(trajectory.source).toBe('openai-responses')
    expect(withoutIds(trajectory)).toEqual([{ type: 'tool-call', name: 'lookupOrder', arguments: { orderId: 'A17' }, step: 0 }])
    expect(toolCalls(trajectory)[0]?.id).toMatch(/^call_/)
  })

  test('the input items of a full loop (output items + function_call_output) read as the loop', async () => {
    expectLoop((await openaiResponsesLoop(openai)).input, 'openai-responses')
  })

  test('a streamed loop (responses.stream + finalResponse) reads the same', async () => {
    expectLoop((await openaiResponsesLoop(openai, { stream: true })).input, 'openai-responses')
  })

  test('a list of responses is one step each, without the tool results (they were sent, not received)', async () => {
    const { responses } = await openaiResponsesLoop(openai)
    const trajectory = readTrajectory(responses)
    expect(trajectory.steps).toBe(3)
    expect(withoutIds(trajectory)).toEqual(LOOP.filter((i) => i.type !== 'tool-result' && i.type !== 'user'))
  })
})

describe('Vercel AI SDK (ai 7 + @ai-sdk/openai)', () => {
  const aiSdkLoopItems = LOOP.filter((i) => i.type !== 'user').map((i) =>
    i.type === 'tool-result' ? { ...i, result: JSON.parse(i.result as string) as unknown } : i,
  )

  test('a generateText result with tools and several steps (chat completions model)', async () => {
    const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' })
    expectLoop((await aiSdkLoop(provider.chat('gpt-4.1-mini'))).result, 'ai-sdk', aiSdkLoopItems)
  })

  test('a generateText result (Responses API model)', async () => {
    const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' })
    expectLoop((await aiSdkLoop(provider('gpt-4.1-mini'))).result, 'ai-sdk', aiSdkLoopItems)
  })

  test('await streamText(...).steps reads the same', async () => {
    const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' })
    expectLoop((await aiSdkLoop(provider.chat('gpt-4.1-mini'), { stream: true })).steps, 'ai-sdk', aiSdkLoopItems)
  })

  test('responseMessages (model messages with tool-call and tool-result parts) read the same', async () => {
    const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' })
    const { result } = await aiSdkLoop(provider.chat('gpt-4.1-mini'))
    expectLoop((result as { responseMessages: unknown[] }).responseMessages, 'ai-sdk', aiSdkLoopItems)
  })

  test('a streamText result itself is refused: its steps are a Promise', async () => {
    const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' })
    const result = streamText({ model: provider.chat('gpt-4.1-mini'), prompt: REQUEST, tools: aiSdkTools(), stopWhen: isStepCount(5) })
    expect(() => readTrajectory(result)).toThrow(
      '[expect-llm] Failed to read the trajectory: this is a streamText result, whose steps are still a Promise. Pass the finished steps: expect(await result.steps).',
    )
    await result.consumeStream()
  })
})

describe('Anthropic Messages API', () => {
  test('a message with a tool_use block is one step', async () => {
    const message = await anthropic.messages.create({ model: 'claude-scripted', max_tokens: 100, messages: [{ role: 'user', content: REQUEST }] })
    const trajectory = readTrajectory(message)
    expect(trajectory.source).toBe('anthropic')
    expect(trajectory.items).toEqual([
      { type: 'tool-call', name: 'lookupOrder', arguments: { orderId: 'A17' }, id: (message.content[0] as { id: string }).id, step: 0 },
    ])
  })

  test('the conversation of a full loop (tool_result blocks in user messages) reads as the loop', async () => {
    expectLoop(await anthropicLoop(anthropic), 'anthropic')
  })

  test('a streamed loop (messages.stream + finalMessage) reads the same', async () => {
    expectLoop(await anthropicLoop(anthropic, { stream: true }), 'anthropic')
  })

  test('a stream object itself is refused with the call that gives its result', () => {
    const stream = anthropic.messages.stream({ model: 'claude-scripted', max_tokens: 100, messages: [{ role: 'user', content: REQUEST }] })
    expect(() => readTrajectory(stream)).toThrow(
      'this is a stream (it has finalMessage()), not its result. Pass the result once the stream has ended: expect(await stream.finalMessage())',
    )
    return stream.done()
  })
})

describe('LangChain (@langchain/openai + @langchain/core)', () => {
  test('the message list of a loop (AIMessage.tool_calls, ToolMessage) reads as the loop', async () => {
    expectLoop(await langchainLoop(server.baseURL), 'langchain')
  })

  test('the toJSON() form of the messages and a { messages } state read the same', async () => {
    const messages = await langchainLoop(server.baseURL)
    expectLoop(JSON.parse(JSON.stringify(messages)), 'langchain')
    expectLoop({ messages }, 'langchain')
  })
})

describe('plain arrays and trajectories', () => {
  test('plain items infer steps: assistant items between user messages and tool results share a step', () => {
    const trajectory = readTrajectory([
      { type: 'user', text: 'Refund A17' },
      { type: 'tool-call', name: 'lookupOrder', arguments: { orderId: 'A17' }, id: 'c1' },
      { type: 'tool-call', name: 'getPolicy', arguments: '{}', id: 'c2' },
      { type: 'tool-result', id: 'c1', result: { total: 30 } },
      { type: 'tool-result', id: 'c2', result: 'refunds within 30 days' },
      { type: 'text', text: 'Refunding.' },
      { type: 'tool-call', name: 'refundOrder', arguments: { orderId: 'A17', amount: 30 } },
    ])
    expect(trajectory).toEqual({
      source: 'plain',
      steps: 2,
      items: [
        { type: 'user', text: 'Refund A17' },
        { type: 'tool-call', name: 'lookupOrder', arguments: { orderId: 'A17' }, id: 'c1', step: 0 },
        { type: 'tool-call', name: 'getPolicy', arguments: {}, id: 'c2', step: 0 },
        { type: 'tool-result', id: 'c1', name: 'lookupOrder', result: { total: 30 } },
        { type: 'tool-result', id: 'c2', name: 'getPolicy', result: 'refunds within 30 days' },
        { type: 'text', text: 'Refunding.', step: 1 },
        { type: 'tool-call', name: 'refundOrder', arguments: { orderId: 'A17', amount: 30 }, step: 1 },
      ],
    })
  })

  test('plain items keep explicit step numbers', () => {
    const trajectory = readTrajectory([
      { type: 'tool-call', name: 'a', arguments: {}, step: 0 },
      { type: 'tool-call', name: 'b', arguments: {}, step: 1 },
    ])
    expect(trajectory.steps).toBe(2)
  })

  test('a trajectory reads as itself', async () => {
    const trajectory = readTrajectory(await openaiChatLoop(openai))
    expect(readTrajectory(trajectory)).toEqual(trajectory)
  })

  test('an empty array is an empty trajectory', () => {
    expect(readTrajectory([])).toEqual({ source: 'plain', items: [], steps: 0 })
  })
})

describe('shapes that are not trajectories', () => {
  const supported =
    "Pass one of: an OpenAI chat completion, one of its messages, or a messages array (tool_calls, role \"tool\"); an OpenAI Responses API response or its input items (function_call, function_call_output); an AI SDK generateText result, its steps, or its responseMessages (with streamText: await result.steps); an Anthropic message or conversation (tool_use, tool_result blocks); a list of LangChain messages (AIMessage.tool_calls, ToolMessage), or an object with such a messages list; a plain array of { type: 'user' | 'text' | 'tool-call' | 'tool-result' } items."

  test('an unknown object lists the supported shapes', () => {
    expect(() => readTrajectory({ answer: 'hi', score: 1 })).toThrow(
      `[expect-llm] Failed to read the trajectory: an object with keys answer, score is not a trajectory shape expect-llm knows. ${supported}`,
    )
  })

  test('a string is not a trajectory', () => {
    expect(() => readTrajectory('Refunded.')).toThrow('Failed to read the trajectory: a string ("Refunded.") is not a trajectory shape expect-llm knows.')
  })

  test('an array of strings is not a trajectory', () => {
    expect(() => readTrajectory(['lookupOrder'])).toThrow('an array whose first item is a string ("lookupOrder") is not a trajectory shape')
  })

  test('a Promise must be awaited first', () => {
    expect(() => readTrajectory(Promise.resolve([]))).toThrow(
      'Failed to read the trajectory: the value is a Promise. Await it first: expect(await run()).toCallTool(...).',
    )
  })

  test('an OpenAI stream must be finished first', async () => {
    const stream = openai.chat.completions.stream({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: REQUEST }], tools: openaiChatTools })
    expect(() => readTrajectory(stream)).toThrow('this is a stream (it has finalChatCompletion()), not its result')
    await stream.done()
  })

  test('a completion with several choices asks which one', async () => {
    const completion = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: REQUEST }], tools: openaiChatTools })
    const two = { ...completion, choices: [completion.choices[0], { ...completion.choices[0], index: 1 }] }
    expect(() => readTrajectory(two)).toThrow(
      'Failed to read the trajectory: the chat completion has 2 choices. Pass the one to check, e.g. expect(completion.choices[1].message).',
    )
  })

  test('a message without a known role is named by its index', () => {
    expect(() =>
      readTrajectory([
        { role: 'user', content: 'hi' },
        { role: 'robot', content: 'beep' },
      ]),
    ).toThrow('message 1 has no known role (got role "robot")')
  })

  test('a tool call without a name is refused', () => {
    expect(() => readTrajectory([{ type: 'tool-call', arguments: {} }])).toThrow('Failed to read the trajectory: the tool call at [0] has no tool name.')
  })
})
