/**
 * The agent's tools: their declarations (OpenAI chat `tools`, with JSON Schemas) and their
 * implementations over the order store. A tool never throws at the model: a failure becomes an
 * `{ error }` result the model reads and explains, as a real agent's would.
 */
import type OpenAI from 'openai'
import type { OrderStore } from './store.js'

type Tool = OpenAI.Chat.Completions.ChatCompletionFunctionTool

const orderId = { type: 'string', pattern: '^[A-Z][0-9]{4}$', description: 'The order number, like A1001.' }

/** What the agent declares to the model (and what `toHaveValidToolArguments` checks the calls against). */
export const orderTools: Tool[] = [
  {
    type: 'function',
    function: {
      name: 'lookupOrder',
      description: 'Look up an order: its status, delivery date, items and total.',
      parameters: { type: 'object', properties: { orderId }, required: ['orderId'], additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'checkRefundPolicy',
      description: 'Check whether an order may be refunded under the refund policy (30 days from delivery, no final-sale items).',
      parameters: { type: 'object', properties: { orderId }, required: ['orderId'], additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'refundOrder',
      description: 'Refund an order. Only after checkRefundPolicy said it is eligible.',
      parameters: {
        type: 'object',
        properties: { orderId, amount: { type: 'number', exclusiveMinimum: 0, description: 'The amount to refund, in dollars.' } },
        required: ['orderId', 'amount'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'escalateToHuman',
      description: 'Hand the conversation to a human colleague, with the reason. Returns the ticket id.',
      parameters: {
        type: 'object',
        properties: { orderId, reason: { type: 'string', minLength: 10 } },
        required: ['reason'],
        additionalProperties: false,
      },
    },
  },
]

export type ToolName = 'lookupOrder' | 'checkRefundPolicy' | 'refundOrder' | 'escalateToHuman'

/** Runs one tool call against the store; the result is what goes back to the model (as JSON). */
export function runTool(store: OrderStore, name: string, args: Record<string, unknown>): unknown {
  const id = typeof args.orderId === 'string' ? args.orderId : undefined
  try {
    switch (name) {
      case 'lookupOrder': {
        const order = id === undefined ? undefined : store.find(id)
        return order ?? { error: `no order ${id ?? '(no id given)'}` }
      }
      case 'checkRefundPolicy': {
        const decision = id === undefined ? undefined : store.policy(id)
        return decision ?? { error: `no order ${id ?? '(no id given)'}` }
      }
      case 'refundOrder':
        if (id === undefined) return { error: 'orderId is required' }
        return store.refund(id, Number(args.amount))
      case 'escalateToHuman':
        return store.openTicket(String(args.reason ?? ''), id)
      default:
        return { error: `unknown tool ${name}` }
    }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}
