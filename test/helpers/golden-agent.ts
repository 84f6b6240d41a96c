/**
 * Agents for the golden agent-case tests: the scripted tool-calling model of agent-model.ts, a sloppy
 * variant of it (model `sloppy-agent`: refunds a wrong amount before looking the order up), a chat bot
 * that remembers (or not) what the user said in earlier turns (model `memory-bot`), and a judge for the
 * `goal` check, all served by the local test server. The loops run the real SDKs (openai chat,
 * Anthropic, the AI SDK) on a case's request and return what a user holds after the run.
 */
import type Anthropic from '@anthropic-ai/sdk'
import { generateText, isStepCount, type LanguageModel, type ToolSet } from 'ai'
import type OpenAI from 'openai'
import { agentReply, aiSdkTools, anthropicTools, openaiChatTools, runTool, toolResultsIn } from './agent-model.js'
import { jsonVerdict } from './model-server.js'
import type { RecordedRequest, ScriptedReply } from './openai-server.js'

const ORDER_ID = /\b([A-Z]\d+)\b/

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((p: any) => (typeof p === 'string' ? p : typeof p?.text === 'string' ? p.text : '')).join('')
}

function userTexts(req: RecordedRequest): string[] {
  const messages: any[] = Array.isArray(req.body?.messages) ? req.body.messages : []
  return messages.filter((m) => m?.role === 'user').map((m) => textOf(m.content))
}

/** The sloppy agent: refunds $25 (not the order's total) first, then looks the order up, then says it refunded. */
function sloppyReply(req: RecordedRequest): ScriptedReply {
  const results = toolResultsIn(req)
  const orderId = ORDER_ID.exec(userTexts(req)[0] ?? '')?.[1] ?? 'unknown'
  if (results.length === 0) return { toolCalls: [{ name: 'refundOrder', arguments: { orderId, amount: -25 } }] }
  if (results.length === 1) return { toolCalls: [{ name: 'lookupOrder', arguments: { orderId } }] }
  return { text: `I refunded $25 for order ${orderId}.` }
}

/** The chat bot: answers "what is my order number" from the user messages it was sent, and "Noted." to anything else. */
function memoryReply(req: RecordedRequest): ScriptedReply {
  const users = userTexts(req)
  if (!/order number/i.test(users.at(-1) ?? '')) return { text: 'Noted, thank you.' }
  const id = users.map((t) => ORDER_ID.exec(t)?.[1]).find((x) => x !== undefined)
  return { text: id ? `Your order number is ${id}.` : 'Sorry, I do not know your order number.' }
}

/** The goal judge: the goal is achieved when the run refunded order A17 its full $30. */
function goalVerdict(req: RecordedRequest): ScriptedReply {
  const run = /<agent_run>\n([\s\S]*?)\n<\/agent_run>/.exec(req.lastUserText)?.[1] ?? ''
  return run.includes('called refundOrder({"orderId": "A17", "amount": 30})')
    ? jsonVerdict(1, 'refundOrder was called for A17 with the full $30 and the refund id was given.')
    : jsonVerdict(0, 'No refund of the full $30 for A17: the amount is wrong or the refund is missing.')
}

/** Every model of these tests, by the request's `model`. */
export function goldenAgentScript(req: RecordedRequest): ScriptedReply {
  const model = String(req.body?.model ?? '')
  if (model === 'judge-model') return goalVerdict(req)
  if (model === 'memory-bot') return memoryReply(req)
  if (model === 'sloppy-agent') return sloppyReply(req)
  return agentReply(req)
}

const MAX_TURNS = 6

/** An OpenAI chat agent loop on one request; returns the full `messages` array. */
export async function chatAgent(client: OpenAI, request: string, model = 'gpt-4.1-mini'): Promise<OpenAI.Chat.Completions.ChatCompletionMessageParam[]> {
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: request }]
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const message = (await client.chat.completions.create({ model, messages, tools: openaiChatTools })).choices[0]!.message
    messages.push({ role: 'assistant', content: message.content, ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}) })
    if (!message.tool_calls?.length) return messages
    for (const call of message.tool_calls) {
      if (call.type === 'function')
        messages.push({ role: 'tool', tool_call_id: call.id, content: runTool(call.function.name, JSON.parse(call.function.arguments)) })
    }
  }
  throw new Error('the chat loop did not finish')
}

/** An Anthropic agent loop on one request; returns the conversation. */
export async function anthropicAgent(client: Anthropic, request: string, model = 'claude-scripted'): Promise<Anthropic.Messages.MessageParam[]> {
  const messages: Anthropic.Messages.MessageParam[] = [{ role: 'user', content: request }]
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const message = await client.messages.create({ model, max_tokens: 512, messages, tools: anthropicTools })
    messages.push({ role: 'assistant', content: message.content })
    const uses = message.content.filter((b): b is Anthropic.Messages.ToolUseBlock => b.type === 'tool_use')
    if (uses.length === 0) return messages
    messages.push({ role: 'user', content: uses.map((u) => ({ type: 'tool_result' as const, tool_use_id: u.id, content: runTool(u.name, u.input) })) })
  }
  throw new Error('the Anthropic loop did not finish')
}

/** An AI SDK `generateText` run with tools that execute; returns the result. */
export async function aiSdkAgent(model: LanguageModel, request: string): Promise<Awaited<ReturnType<typeof generateText>>> {
  const tools: ToolSet = aiSdkTools()
  return generateText({ model, prompt: request, tools, stopWhen: isStepCount(5) })
}

/** A chat bot turn: with `memory`, the whole conversation so far is sent; without, only the last user message. */
export async function chatBot(
  client: OpenAI,
  messages: ReadonlyArray<{ role: 'system' | 'user' | 'assistant'; content: string }>,
  memory: boolean,
): Promise<OpenAI.Chat.Completions.ChatCompletion> {
  const sent = memory ? [...messages] : [messages.at(-1)!]
  return client.chat.completions.create({ model: 'memory-bot', messages: sent })
}
