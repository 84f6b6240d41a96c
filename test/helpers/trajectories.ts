/**
 * Agent runs for the matcher tests, in the shape the openai SDK's chat loop leaves them (the messages
 * array; the readers are tested on real SDK output in test/agents/read-trajectory.test.ts).
 */
import type OpenAI from 'openai'

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam

const call = (id: string, name: string, args: unknown): OpenAI.Chat.Completions.ChatCompletionMessageToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
})

/** A refund handled right: look the order up, refund its total, confirm. Three steps, two tool calls. */
export function refundRun(amount = 30): Message[] {
  return [
    { role: 'system', content: 'You are a support agent.' },
    { role: 'user', content: 'Please refund order A17, it arrived broken.' },
    { role: 'assistant', content: null, tool_calls: [call('call_1', 'lookupOrder', { orderId: 'A17' })] },
    { role: 'tool', tool_call_id: 'call_1', content: '{"orderId":"A17","status":"delivered","total":30}' },
    { role: 'assistant', content: 'Order A17 was delivered; refunding it.', tool_calls: [call('call_2', 'refundOrder', { orderId: 'A17', amount })] },
    { role: 'tool', tool_call_id: 'call_2', content: `{"orderId":"A17","amount":${amount},"refundId":"R-100"}` },
    { role: 'assistant', content: `Done: refund R-100 of $${amount} for order A17 is on its way.` },
  ]
}

/** An agent that escalates instead of refunding. */
export function escalateRun(): Message[] {
  return [
    { role: 'user', content: 'Please refund order A17, it arrived broken.' },
    { role: 'assistant', content: null, tool_calls: [call('call_1', 'lookupOrder', { orderId: 'A17' })] },
    { role: 'tool', tool_call_id: 'call_1', content: '{"orderId":"A17","status":"delivered","total":30}' },
    { role: 'assistant', content: null, tool_calls: [call('call_2', 'escalate', { reason: 'refund request' })] },
    { role: 'tool', tool_call_id: 'call_2', content: '{"ticket":"T-9"}' },
    { role: 'assistant', content: 'I passed your request to a colleague (ticket T-9).' },
  ]
}

/** An agent stuck in a loop: the same lookup three times. */
export function loopingRun(): Message[] {
  const turn = (n: number): Message[] => [
    { role: 'assistant', content: null, tool_calls: [call(`call_${n}`, 'lookupOrder', { orderId: 'A17' })] },
    { role: 'tool', tool_call_id: `call_${n}`, content: '{"error":"timeout"}' },
  ]
  return [
    { role: 'user', content: 'Where is order A17?' },
    ...turn(1),
    ...turn(2),
    ...turn(3),
    { role: 'assistant', content: 'Sorry, I could not find your order.' },
  ]
}

/** An agent that sends broken arguments: a negative amount, a missing field, arguments that are not JSON, an unknown tool. */
export function sloppyRun(): Message[] {
  return [
    { role: 'user', content: 'Refund A17.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        call('call_1', 'lookupOrder', { orderId: 'A17' }),
        call('call_2', 'refundOrder', { orderId: 'A17', amount: -30 }),
        call('call_3', 'refundOrder', { amount: 30 }),
        call('call_4', 'lookupOrder', '{"orderId": "A17"'),
        call('call_5', 'cancelOrder', { orderId: 'A17' }),
      ],
    },
  ]
}

/** The tool definitions those runs were made with (OpenAI chat format). */
export const chatTools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'lookupOrder',
      parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'], additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'refundOrder',
      parameters: {
        type: 'object',
        properties: { orderId: { type: 'string' }, amount: { type: 'number', exclusiveMinimum: 0 } },
        required: ['orderId', 'amount'],
        additionalProperties: false,
      },
    },
  },
  { type: 'function', function: { name: 'escalate', parameters: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] } } },
]
