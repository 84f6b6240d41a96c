// A consumer's agent: an openai chat loop with two tools, behind the team's LLM gateway. Shared by
// agent-loop.test.ts (replayed step by step) and miss-tool/changed-tool-result.ts (a tool that returns
// something else than when the loop was recorded).
import { configure, getConfig } from 'expect-llm'
import OpenAI from 'openai'

/** The gateway (not one of expect-llm's default replay hosts, so it is added below). */
export const GATEWAY = 'http://127.0.0.1:8787'

/** Adds the gateway to the replay hosts, keeping the rest of the replay configuration. */
export function replayTheGateway(): void {
  const replay = getConfig().replay ?? {}
  configure({ replay: { ...replay, hosts: [...(replay.hosts ?? []), GATEWAY] } })
}

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam

export const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
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
]

function runTool(name: string, args: Record<string, unknown>, refundId: string): unknown {
  if (name === 'lookupOrder') return { orderId: args.orderId, status: 'delivered', total: 30 }
  if (name === 'refundOrder') return { orderId: args.orderId, amount: args.amount, refundId }
  return { error: `unknown tool ${name}` }
}

/** Runs the refund request to the end; `refundId` is what the refund tool returns. Returns the messages. */
export async function refundLoop(refundId: string): Promise<Message[]> {
  const client = new OpenAI({ baseURL: `${GATEWAY}/v1`, apiKey: process.env.GATEWAY_KEY ?? 'replay-without-a-key', maxRetries: 0 })
  const messages: Message[] = [{ role: 'user', content: 'Please refund order A17, it arrived broken.' }]
  for (let step = 0; step < 5; step++) {
    const completion = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages, tools })
    const message = completion.choices[0]!.message
    const calls = (message.tool_calls ?? []).flatMap((c) => (c.type === 'function' ? [c] : []))
    messages.push({ role: 'assistant', content: message.content, ...(calls.length > 0 ? { tool_calls: calls } : {}) })
    if (calls.length === 0) return messages
    for (const call of calls) {
      const result = runTool(call.function.name, JSON.parse(call.function.arguments) as Record<string, unknown>, refundId)
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) })
    }
  }
  throw new Error('the agent did not answer within 5 steps')
}
