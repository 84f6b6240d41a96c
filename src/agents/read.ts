/**
 * `readTrajectory`: one normalized {@link Trajectory} from what users hold after an agent run.
 *
 * @module
 */
import { describeValue } from '../errors.js'
import { readAiSdkSteps, isAiSdkStep } from './ai-sdk.js'
import { isRecord, supportedShapesFix, TrajectoryBuilder, TrajectoryError } from './builder.js'
import { isLangChainMessage, readMessages } from './messages.js'
import { isResponse, isResponsesItems, readResponses } from './responses.js'
import type { Trajectory, TrajectoryItem, TrajectorySource } from './types.js'

export { TrajectoryError, SUPPORTED_SHAPES } from './builder.js'

const SOURCES: readonly TrajectorySource[] = ['openai-chat', 'openai-responses', 'ai-sdk', 'anthropic', 'langchain', 'messages', 'plain']
const PLAIN_TYPES = new Set(['user', 'text', 'tool-call', 'tool-result'])

function isThenable(value: unknown): boolean {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
}

function isTrajectory(value: Record<string, unknown>): value is Record<string, unknown> & Trajectory {
  return Array.isArray(value.items) && typeof value.steps === 'number' && SOURCES.includes(value.source as TrajectorySource)
}

/** An OpenAI chat completion: `choices[].message`. */
function isChatCompletion(value: Record<string, unknown>): boolean {
  return (
    (value.object === 'chat.completion' || value.object === undefined) &&
    Array.isArray(value.choices) &&
    value.choices.length > 0 &&
    value.choices.every((c) => isRecord(c) && isRecord(c.message))
  )
}

/** An Anthropic Messages API response. */
function isAnthropicMessage(value: unknown): boolean {
  return isRecord(value) && value.type === 'message' && value.role === 'assistant' && Array.isArray(value.content)
}

/** Whether an array holds plain trajectory items (`{ type: 'tool-call', name, arguments }`, ...). */
function isPlainItems(items: readonly unknown[]): boolean {
  return items.length > 0 && items.every((item) => isRecord(item) && !('role' in item) && typeof item.type === 'string' && PLAIN_TYPES.has(item.type))
}

function hasRole(value: unknown): boolean {
  return isRecord(value) && (typeof value.role === 'string' || isLangChainMessage(value))
}

/** Reads a plain item list. Step numbers are kept when every assistant item has one, else inferred. */
function readPlain(items: readonly Record<string, unknown>[]): Trajectory {
  const assistant = items.filter((i) => i.type === 'text' || i.type === 'tool-call')
  const explicit = assistant.length > 0 && assistant.every((i) => Number.isInteger(i.step) && (i.step as number) >= 0)
  const b = new TrajectoryBuilder()
  let lastStep: unknown
  items.forEach((item, index) => {
    const where = `[${index}]`
    if (explicit && (item.type === 'text' || item.type === 'tool-call') && item.step !== lastStep) {
      b.beginStep()
      lastStep = item.step
    }
    switch (item.type) {
      case 'user':
        b.user(typeof item.text === 'string' ? item.text : '')
        lastStep = undefined
        break
      case 'text':
        if (typeof item.text !== 'string')
          throw new TrajectoryError(`item ${where} is a text item without a string "text"`, "Give text items a text: { type: 'text', text: 'Done.' }.")
        b.text(item.text)
        break
      case 'tool-call':
        b.call(item.name ?? item.toolName, 'arguments' in item ? item.arguments : (item.args ?? item.input), item.id ?? item.toolCallId, where)
        break
      case 'tool-result':
        b.result('result' in item ? item.result : item.output, item.id ?? item.toolCallId, item.name ?? item.toolName, item.isError === true, !explicit)
        break
    }
  })
  return b.build('plain')
}

function keysOf(value: Record<string, unknown>): string {
  const keys = Object.keys(value)
  if (keys.length === 0) return 'an empty object'
  return `an object with keys ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''}`
}

function unsupported(value: unknown): never {
  const what = isRecord(value)
    ? keysOf(value)
    : Array.isArray(value)
      ? `an array whose first item is ${isRecord(value[0]) ? keysOf(value[0]) : describeValue(value[0])}`
      : describeValue(value)
  throw new TrajectoryError(`${what} is not a trajectory shape expect-llm knows`, supportedShapesFix())
}

function readArray(value: readonly unknown[]): Trajectory {
  if (value.length === 0) return { source: 'plain', items: [], steps: 0 }
  if (isPlainItems(value)) return readPlain(value as Record<string, unknown>[])
  if (value.every(isAiSdkStep)) return readAiSdkSteps(value)
  if (value.every((v) => isRecord(v) && isChatCompletion(v))) {
    // One completion per step, e.g. collected from a loop.
    return {
      ...readMessages(value.map((v) => ((v as { choices: Array<{ message: unknown }> }).choices[0] as { message: unknown }).message)),
      source: 'openai-chat',
    }
  }
  if (value.every(isAnthropicMessage)) return { ...readMessages(value), source: 'anthropic' }
  if (value.some((v) => isRecord(v) && isResponse(v)) || isResponsesItems(value)) return readResponses(value)
  if (value.every(hasRole)) return readMessages(value)
  return unsupported(value)
}

/**
 * Reads an agent run into one normalized {@link Trajectory}: user messages, assistant text, tool calls
 * (name, parsed arguments, id) and tool results, in order, with the number of steps (model responses).
 *
 * Accepts what users hold after a run:
 * - an OpenAI chat completion, one of its messages, a `messages` array (`tool_calls`, `role: 'tool'`), or
 *   a list of completions (one per step);
 * - an OpenAI Responses API response, a list of responses, or the input items of a conversation
 *   (`function_call`, `function_call_output`);
 * - a Vercel AI SDK `generateText` result (its `steps`), the steps array (with `streamText`: `await
 *   result.steps`), or `responseMessages`;
 * - an Anthropic Messages API response, a list of them, or a conversation (`tool_use` / `tool_result` blocks);
 * - LangChain messages (`AIMessage.tool_calls`, `ToolMessage`): instances, `toJSON()` output, or an object
 *   with a `messages` list (a LangGraph agent's state);
 * - a plain array of `{ type: 'user' | 'text' | 'tool-call' | 'tool-result' }` items, or a trajectory.
 *
 * Arguments sent as JSON text are parsed; text that does not parse is kept, with `argumentsError`.
 *
 * @throws TrajectoryError for any other value, listing the supported shapes (and saying to `await` a
 *   Promise or a stream's final value).
 *
 * @example
 * ```ts
 * const completion = await openai.chat.completions.create({ model, messages, tools })
 * readTrajectory(completion).items
 * // [{ type: 'tool-call', name: 'lookupOrder', arguments: { orderId: 'A1' }, id: 'call_1', step: 0 }]
 *
 * const result = await generateText({ model, tools, prompt, stopWhen: stepCountIs(5) })
 * readTrajectory(result).steps // 2
 * ```
 */
export function readTrajectory(value: unknown): Trajectory {
  if (Array.isArray(value)) return readArray(value)
  if (isThenable(value)) {
    throw new TrajectoryError('the value is a Promise', 'Await it first: expect(await run()).toCallTool(...).')
  }
  if (!isRecord(value)) return unsupported(value)
  if (isTrajectory(value)) return { source: value.source, items: value.items as TrajectoryItem[], steps: value.steps }
  if (isChatCompletion(value)) {
    const choices = value.choices as Array<{ message: unknown }>
    if (choices.length > 1) {
      throw new TrajectoryError(`the chat completion has ${choices.length} choices`, 'Pass the one to check, e.g. expect(completion.choices[1].message).')
    }
    return { ...readMessages([choices[0]?.message]), source: 'openai-chat' }
  }
  if (isResponse(value)) return readResponses(value)
  if (isAnthropicMessage(value)) return { ...readMessages([value]), source: 'anthropic' }
  if ('steps' in value) {
    if (isThenable(value.steps)) {
      throw new TrajectoryError('this is a streamText result, whose steps are still a Promise', 'Pass the finished steps: expect(await result.steps).')
    }
    if (Array.isArray(value.steps) && value.steps.every(isAiSdkStep)) return readAiSdkSteps(value.steps)
  }
  for (const [method, fix] of [
    ['finalChatCompletion', 'expect(await stream.finalChatCompletion())'],
    ['finalResponse', 'expect(await stream.finalResponse())'],
    ['finalMessage', 'expect(await stream.finalMessage())'],
  ] as const) {
    if (typeof value[method] === 'function') {
      throw new TrajectoryError(
        `this is a stream (it has ${method}()), not its result`,
        `Pass the result once the stream has ended: ${fix}, or the messages of the conversation.`,
      )
    }
  }
  if (hasRole(value)) return readMessages([value])
  if (Array.isArray(value.messages) && value.messages.length > 0) return readArray(value.messages)
  return unsupported(value)
}

/**
 * The tool calls of a trajectory, in order.
 *
 * @example
 * ```ts
 * toolCalls(readTrajectory(result)).map((c) => c.name) // ['lookupOrder', 'refundOrder']
 * ```
 */
export function toolCalls(trajectory: Trajectory): Array<Extract<TrajectoryItem, { type: 'tool-call' }>> {
  return trajectory.items.filter((i): i is Extract<TrajectoryItem, { type: 'tool-call' }> => i.type === 'tool-call')
}
