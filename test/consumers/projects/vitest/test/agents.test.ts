// A consumer's agent tests: the agent matchers on what the openai SDK's chat loop leaves behind (the
// messages array), typed on expect() by the setup file. No model call, so nothing to replay.
import { describe, expect, test } from 'vitest'
import { evaluate, readTrajectory, type GoldenCaseInput } from 'expect-llm'

const call = (id: string, name: string, args: object) => ({ id, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } })

const messages = [
  { role: 'user', content: 'Please refund order A17, it arrived broken.' },
  { role: 'assistant', content: null, tool_calls: [call('call_1', 'lookupOrder', { orderId: 'A17' })] },
  { role: 'tool', tool_call_id: 'call_1', content: '{"orderId":"A17","total":30}' },
  { role: 'assistant', content: 'Refunding it.', tool_calls: [call('call_2', 'refundOrder', { orderId: 'A17', amount: 30 })] },
  { role: 'tool', tool_call_id: 'call_2', content: '{"refundId":"R-100"}' },
  { role: 'assistant', content: 'Done: refund R-100 is on its way.' },
]

const tools = [
  { type: 'function', function: { name: 'lookupOrder', parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] } } },
  { type: 'function', function: { name: 'refundOrder', parameters: { type: 'object', properties: { orderId: { type: 'string' }, amount: { type: 'number', maximum: 100 } }, required: ['orderId', 'amount'] } } },
]

describe('agent matchers', () => {
  test('tool calls, their order, their arguments and the number of steps', () => {
    expect(messages).toCallTool('refundOrder', { orderId: 'A17', amount: expect.any(Number) })
    expect(messages).not.toCallTool('escalate')
    expect(messages).toCallTools(['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }], { order: 'strict', extra: 'forbid' })
    expect(messages).toHaveValidToolArguments(tools)
    expect(messages).toUseAtMostSteps(3, { repeatedCalls: 'forbid' })
    expect(readTrajectory(messages).steps).toBe(3)
  })

  test('a wrong argument fails with the argument that differs', () => {
    expect(() => expect(messages).toCallTool('refundOrder', { amount: 300 })).toThrow('/amount: expected 300, received 30')
  })
})

// A user message whose content is a list of parts (text next to an image: the multimodal shape of the
// openai SDK's chat API and of Anthropic's Messages API) is the user's: its words are neither an
// assistant step nor part of the answer.
const photo = 'data:image/png;base64,iVBORw0KGgo='
const openaiRun = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Please refund order A17. ' },
      { type: 'image_url', image_url: { url: photo } },
      { type: 'text', text: 'The photo shows the damage.' },
    ],
  },
  ...messages.slice(1),
]
const anthropicRun = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Please refund order A17. ' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: photo.split(',')[1] } },
      { type: 'text', text: 'The photo shows the damage.' },
    ],
  },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookupOrder', input: { orderId: 'A17' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"orderId":"A17","total":30}' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Refunding it.' },
      { type: 'tool_use', id: 'toolu_2', name: 'refundOrder', input: { orderId: 'A17', amount: 30 } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: '{"refundId":"R-100"}' }] },
  { role: 'assistant', content: [{ type: 'text', text: 'Done: refund R-100 is on its way.' }] },
]

describe('a user message with content parts (text and an image)', () => {
  test.each([
    ['openai', openaiRun],
    ['anthropic', anthropicRun],
  ])('%s: three model responses are three steps, the user message none', (_name, run) => {
    expect(run).toUseAtMostSteps(3, { repeatedCalls: 'forbid' })
    expect(run).not.toUseAtMostSteps(2)
    expect(run).toCallTools(['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }], { order: 'strict', extra: 'forbid' })
    const { items, steps } = readTrajectory(run)
    expect(steps).toBe(3)
    expect(items.filter((i) => i.type === 'user')).toEqual([{ type: 'user', text: 'Please refund order A17. The photo shows the damage.' }])
    expect(items.flatMap((i) => (i.type === 'text' ? [i.text] : []))).toEqual(['Refunding it.', 'Done: refund R-100 is on its way.'])
  })

  test("the answer a golden check scores is the assistant's text, without the user's words", async () => {
    const chat = [
      { role: 'user', content: [{ type: 'text', text: 'Where is order A17? ' }, { type: 'image_url', image_url: { url: photo } }] },
      { role: 'assistant', content: 'It is on its way.' },
    ]
    const dataset: GoldenCaseInput[] = [{ id: 'where', input: 'Where is order A17?', expected: 'It is on its way.', keywords: ['A17'] }]
    const report = await evaluate(dataset, { task: () => chat, scorers: { exact: true, keywords: true } })
    expect(report.cases[0]!.output).toBe('It is on its way.')
    expect(report.cases[0]!.scores.exact).toMatchObject({ score: 1, pass: true })
    // Only the user named the order: the keyword check must not pass on the user's words.
    expect(report.cases[0]!.scores.keywords).toMatchObject({ score: 0, pass: false })
  })
})
