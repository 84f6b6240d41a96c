/**
 * A scripted tool-calling model and the agent loops that drive it, for the trajectory tests.
 *
 * The model (`agentReply`, served by the local test server in openai-server.ts) handles a refund request
 * in three steps, reading only the request, as a real model would:
 * 1. no tool result yet: call `lookupOrder({ orderId })`, the order id taken from the first user message;
 * 2. one tool result (the order): say so and call `refundOrder({ orderId, amount })` with the order's total;
 * 3. two tool results: answer with the refund id from the last result.
 *
 * The loops run it through the real SDKs (openai chat and Responses, the AI SDK, Anthropic, LangChain),
 * with the tools below executed by the test, and return what a user holds after the run.
 */
import type Anthropic from '@anthropic-ai/sdk'
import { ChatOpenAI } from '@langchain/openai'
import { HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages'
import { generateText, isStepCount, streamText, tool, type LanguageModel, type StepResult, type ToolSet } from 'ai'
import type OpenAI from 'openai'
import { z } from 'zod'
import type { RecordedRequest, ScriptedReply } from './openai-server.js'

// --------------------------------------------------------------------------------------- the tools

export const lookupOrderSchema = {
  type: 'object' as const,
  properties: { orderId: { type: 'string', pattern: '^[A-Z][0-9]+$' } },
  required: ['orderId'],
  additionalProperties: false,
}

export const refundOrderSchema = {
  type: 'object' as const,
  properties: { orderId: { type: 'string' }, amount: { type: 'number', exclusiveMinimum: 0 } },
  required: ['orderId', 'amount'],
  additionalProperties: false,
}

/** The tool implementations (deterministic). `refundId` is settable so a test can change a tool result. */
export const tools = {
  lookupOrder: ({ orderId }: { orderId: string }) => ({ orderId, status: 'delivered', total: 30 }),
  refundOrder: ({ orderId, amount }: { orderId: string; amount: number }, refundId = 'R-100') => ({ orderId, amount, refundId }),
}

export type ToolName = keyof typeof tools

/** Runs a tool by name with parsed arguments; returns its result as the JSON text sent back to the model. */
export function runTool(name: string, args: unknown, refundId?: string): string {
  if (name === 'lookupOrder') return JSON.stringify(tools.lookupOrder(args as { orderId: string }))
  if (name === 'refundOrder') return JSON.stringify(tools.refundOrder(args as { orderId: string; amount: number }, refundId))
  throw new Error(`unknown tool ${name}`)
}

/** OpenAI chat `tools`. */
export const openaiChatTools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'lookupOrder', description: 'Look up an order by id.', parameters: lookupOrderSchema } },
  { type: 'function', function: { name: 'refundOrder', description: 'Refund an order.', parameters: refundOrderSchema } },
]

/** OpenAI Responses `tools`. */
export const openaiResponsesTools: OpenAI.Responses.FunctionTool[] = [
  { type: 'function', name: 'lookupOrder', description: 'Look up an order by id.', parameters: lookupOrderSchema, strict: true },
  { type: 'function', name: 'refundOrder', description: 'Refund an order.', parameters: refundOrderSchema, strict: true },
]

/** Anthropic `tools`. */
export const anthropicTools: Anthropic.Messages.Tool[] = [
  { name: 'lookupOrder', description: 'Look up an order by id.', input_schema: lookupOrderSchema },
  { name: 'refundOrder', description: 'Refund an order.', input_schema: refundOrderSchema },
]

export const REQUEST = 'Please refund order A17, it arrived broken.'

// ------------------------------------------------------------------------------------- the model

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((p: any) => (typeof p === 'string' ? p : typeof p?.text === 'string' ? p.text : '')).join('')
}

/** The tool results in a request, in order, as text, whatever the wire format. */
export function toolResultsIn(req: RecordedRequest): string[] {
  const body = req.body ?? {}
  if (req.endpoint === 'responses')
    return (Array.isArray(body.input) ? body.input : []).filter((i: any) => i?.type === 'function_call_output').map((i: any) => textOf(i.output))
  const messages: any[] = Array.isArray(body.messages) ? body.messages : []
  if (req.endpoint === 'messages') {
    return messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b: any) => b?.type === 'tool_result').map((b: any) => textOf(b.content)) : []))
  }
  return messages.filter((m) => m.role === 'tool').map((m) => textOf(m.content))
}

function firstUserText(req: RecordedRequest): string {
  const body = req.body ?? {}
  if (typeof body.input === 'string') return body.input
  const list: any[] = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : []
  return textOf(list.find((m) => m?.role === 'user')?.content)
}

/** The scripted agent model (see the module comment). */
export function agentReply(req: RecordedRequest): ScriptedReply {
  const results = toolResultsIn(req)
  const orderId = /\b([A-Z]\d+)\b/.exec(firstUserText(req))?.[1] ?? 'unknown'
  if (results.length === 0) return { toolCalls: [{ name: 'lookupOrder', arguments: { orderId } }] }
  if (results.length === 1) {
    const order = JSON.parse(results[0] ?? '{}') as { total?: number }
    return { text: `Order ${orderId} was delivered; refunding it.`, toolCalls: [{ name: 'refundOrder', arguments: { orderId, amount: order.total ?? 0 } }] }
  }
  const refund = JSON.parse(results.at(-1) ?? '{}') as { refundId?: string; amount?: number }
  return { text: `Done: refund ${refund.refundId ?? '?'} of $${refund.amount ?? '?'} for order ${orderId} is on its way.` }
}

// ------------------------------------------------------------------------------------- the loops

const MAX_TURNS = 6

/** An OpenAI chat loop; returns the full `messages` array (user, assistant, tool, ..., final assistant). */
export async function openaiChatLoop(
  client: OpenAI,
  options: { stream?: boolean; model?: string; refundId?: string } = {},
): Promise<OpenAI.Chat.Completions.ChatCompletionMessageParam[]> {
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: REQUEST }]
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const request = { model: options.model ?? 'gpt-4.1-mini', messages, tools: openaiChatTools }
    const completion = options.stream ? await client.chat.completions.stream(request).finalChatCompletion() : await client.chat.completions.create(request)
    const message = completion.choices[0]!.message
    messages.push({ role: 'assistant', content: message.content, ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}) })
    if (!message.tool_calls?.length) return messages
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue
      messages.push({ role: 'tool', tool_call_id: call.id, content: runTool(call.function.name, JSON.parse(call.function.arguments), options.refundId) })
    }
  }
  throw new Error('the chat loop did not finish')
}

/** An OpenAI Responses loop; returns the conversation's input items and every response. */
export async function openaiResponsesLoop(
  client: OpenAI,
  options: { stream?: boolean; refundId?: string } = {},
): Promise<{ input: OpenAI.Responses.ResponseInputItem[]; responses: OpenAI.Responses.Response[] }> {
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: REQUEST }]
  const responses: OpenAI.Responses.Response[] = []
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const request = { model: 'gpt-4.1-mini', input, tools: openaiResponsesTools }
    const response = options.stream ? await client.responses.stream(request).finalResponse() : await client.responses.create(request)
    responses.push(response)
    input.push(...(response.output as OpenAI.Responses.ResponseInputItem[]))
    const calls = response.output.flatMap((i) => (i.type === 'function_call' ? [i as OpenAI.Responses.ResponseFunctionToolCall] : []))
    if (calls.length === 0) return { input, responses }
    for (const call of calls)
      input.push({ type: 'function_call_output', call_id: call.call_id, output: runTool(call.name, JSON.parse(call.arguments), options.refundId) })
  }
  throw new Error('the Responses loop did not finish')
}

/** An Anthropic loop; returns the conversation (user, assistant, user with tool_result blocks, ...). */
export async function anthropicLoop(client: Anthropic, options: { stream?: boolean; refundId?: string } = {}): Promise<Anthropic.Messages.MessageParam[]> {
  const messages: Anthropic.Messages.MessageParam[] = [{ role: 'user', content: REQUEST }]
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const request = { model: 'claude-scripted', max_tokens: 512, messages, tools: anthropicTools }
    const message = options.stream ? await client.messages.stream(request).finalMessage() : await client.messages.create(request)
    messages.push({ role: 'assistant', content: message.content })
    const uses = message.content.filter((b): b is Anthropic.Messages.ToolUseBlock => b.type === 'tool_use')
    if (uses.length === 0) return messages
    messages.push({
      role: 'user',
      content: uses.map((u) => ({ type: 'tool_result' as const, tool_use_id: u.id, content: runTool(u.name, u.input, options.refundId) })),
    })
  }
  throw new Error('the Anthropic loop did not finish')
}

/** The same tools for the AI SDK, with zod input schemas and `execute`. */
export function aiSdkTools(refundId?: string) {
  return {
    lookupOrder: tool({
      description: 'Look up an order by id.',
      inputSchema: z.object({ orderId: z.string().regex(/^[A-Z][0-9]+$/) }),
      execute: async (args: { orderId: string }) => tools.lookupOrder(args),
    }),
    refundOrder: tool({
      description: 'Refund an order.',
      inputSchema: z.object({ orderId: z.string(), amount: z.number().positive() }),
      execute: async (args: { orderId: string; amount: number }) => tools.refundOrder(args, refundId),
    }),
  }
}

/** An AI SDK loop: `generateText`, or `streamText` read to the end, with up to 5 steps (ai 7: `stopWhen: isStepCount(5)`). */
export async function aiSdkLoop(
  model: LanguageModel,
  options: { stream?: boolean; refundId?: string } = {},
): Promise<{ steps: Array<StepResult<ToolSet>>; text: string; result: unknown }> {
  // Typed as a plain ToolSet: inferring the tools' own types through generateText costs seconds of type-checking.
  const tools: ToolSet = aiSdkTools(options.refundId)
  const settings = { model, prompt: REQUEST, tools, stopWhen: isStepCount(5) }
  if (options.stream) {
    const result = streamText(settings)
    // Read the stream as an app would (the text of every step, as it arrives); `text` is the last step's.
    let streamed = ''
    for await (const delta of result.textStream) streamed += delta
    if (streamed === '') throw new Error('streamText streamed no text')
    return { steps: (await result.steps) as Array<StepResult<ToolSet>>, text: await result.text, result }
  }
  const result = await generateText(settings)
  return { steps: result.steps as Array<StepResult<ToolSet>>, text: result.text, result }
}

/** A LangChain loop (ChatOpenAI with bound tools); returns the message list. */
export async function langchainLoop(baseURL: string): Promise<BaseMessage[]> {
  const model = new ChatOpenAI({ model: 'gpt-4.1-mini', apiKey: 'test-key', maxRetries: 0, configuration: { baseURL } }).bindTools(openaiChatTools)
  const messages: BaseMessage[] = [new HumanMessage(REQUEST)]
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const reply = await model.invoke(messages)
    messages.push(reply)
    if (!reply.tool_calls?.length) return messages
    for (const call of reply.tool_calls)
      messages.push(new ToolMessage({ tool_call_id: call.id ?? '', name: call.name, content: runTool(call.name, call.args) }))
  }
  throw new Error('the LangChain loop did not finish')
}
