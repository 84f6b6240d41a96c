/**
 * The order agent: a tool loop with the openai SDK. Each step sends the conversation and the declared
 * tools to the model; when the model asks for tools, the agent runs them against the store and sends
 * their results back, until the model answers in text (or the step limit is reached).
 */
import type OpenAI from 'openai'
import { PROMPTS, type PromptVersion } from './prompts.js'
import type { OrderStore } from './store.js'
import { orderTools, runTool } from './tools.js'

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam

export interface OrderAgentOptions {
  /** Any OpenAI client (the tests give one that replay answers). */
  client: OpenAI
  store: OrderStore
  /** The system prompt version (default `'v2'`). */
  prompt?: PromptVersion
  model?: string
  /** The most model calls one turn may take (default 6). */
  maxSteps?: number
}

export interface AgentTurn {
  /**
   * The conversation after this turn, without the system prompt: the messages given, then every
   * assistant message and tool result of the turn. Pass it back, with the next user message, for the
   * next turn; pass it to the agent matchers to check the turn.
   */
  messages: Message[]
  /** The agent's final answer of this turn. */
  reply: string
  /** Model calls this turn took. */
  steps: number
}

export interface OrderAgent {
  /** Answers the last user message of `conversation` (or a single message), calling tools as the model asks. */
  run(conversation: string | Message[]): Promise<AgentTurn>
}

/**
 * @example
 * const agent = createOrderAgent({ client: new OpenAI(), store: new OrderStore() })
 * const turn = await agent.run('Please refund order A1001, the lamp flickers.')
 * turn.reply // "I've refunded $42.50 for order A1001 (refund R-7001). ..."
 */
export function createOrderAgent(options: OrderAgentOptions): OrderAgent {
  const { client, store, prompt = 'v2', model = 'gpt-4.1-mini', maxSteps = 6 } = options
  return {
    async run(conversation) {
      const messages: Message[] = typeof conversation === 'string' ? [{ role: 'user', content: conversation }] : [...conversation]
      for (let step = 1; step <= maxSteps; step++) {
        const completion = await client.chat.completions.create({
          model,
          temperature: 0,
          messages: [{ role: 'system', content: PROMPTS[prompt] }, ...messages],
          tools: orderTools,
        })
        const message = completion.choices[0]?.message
        if (!message) throw new Error('the model returned no choice')
        const calls = (message.tool_calls ?? []).filter((c) => c.type === 'function')
        messages.push({ role: 'assistant', content: message.content, ...(calls.length > 0 ? { tool_calls: calls } : {}) })
        if (calls.length === 0) return { messages, reply: message.content ?? '', steps: step }
        for (const call of calls) {
          let args: Record<string, unknown>
          try {
            args = JSON.parse(call.function.arguments) as Record<string, unknown>
          } catch {
            messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify({ error: 'the arguments are not valid JSON' }) })
            continue
          }
          messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(runTool(store, call.function.name, args)) })
        }
      }
      throw new Error(`the agent did not answer within ${maxSteps} steps`)
    },
  }
}
