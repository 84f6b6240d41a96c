/**
 * The OpenAI Responses API: a response (`output` items) or a conversation of input items (`function_call`,
 * `function_call_output`, messages). Internal.
 *
 * @module
 */
import { contentText, isRecord, TrajectoryBuilder, TrajectoryError } from './builder.js'
import type { Trajectory } from './types.js'

/** Item types that only the Responses API uses (a chat or Anthropic message list has none of them). */
export const RESPONSES_ITEM_TYPES = new Set([
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'reasoning',
  'item_reference',
])

/** Whether an array holds Responses API items: at least one item of a type only that API uses, or a typed message. */
export function isResponsesItems(items: readonly unknown[]): boolean {
  return items.some(
    (item) =>
      isRecord(item) && typeof item.type === 'string' && (RESPONSES_ITEM_TYPES.has(item.type) || (item.type === 'message' && typeof item.role === 'string')),
  )
}

/** Whether `value` is a Responses API response object. */
export function isResponse(value: Record<string, unknown>): boolean {
  return value.object === 'response' && Array.isArray(value.output)
}

function readItem(b: TrajectoryBuilder, item: unknown, where: string): void {
  if (!isRecord(item)) {
    if (typeof item === 'string') b.user(item)
    return
  }
  switch (item.type) {
    case 'function_call':
      b.call(item.name, item.arguments, item.call_id, where)
      return
    case 'custom_tool_call':
      // A custom tool takes free text: its input is the argument, not JSON to parse.
      b.call(item.name, { input: item.input }, item.call_id, where)
      return
    case 'function_call_output':
    case 'custom_tool_call_output':
      b.result(typeof item.output === 'string' || Array.isArray(item.output) ? contentText(item.output) : item.output, item.call_id, undefined, false)
      return
    case 'reasoning':
    case 'item_reference':
      return
    case 'message':
    case undefined:
      if (item.role === 'assistant') b.text(contentText(item.content))
      else if (item.role === 'user') b.user(contentText(item.content))
      else if (item.role !== 'system' && item.role !== 'developer') {
        throw new TrajectoryError(
          `${where} is a message with role ${JSON.stringify(item.role)}`,
          "Responses API messages have the role 'user', 'assistant', 'system' or 'developer'.",
        )
      }
      return
    default:
      // Hosted tools (web_search_call, file_search_call, ...) run on OpenAI's side: not the app's tool calls.
      return
  }
}

/**
 * Reads a response (its output is one step), a list of responses (one step each), or input items, where
 * each run of assistant items (messages, function calls) between user messages and tool outputs is a step.
 */
export function readResponses(value: Record<string, unknown> | readonly unknown[]): Trajectory {
  const b = new TrajectoryBuilder()
  if (!Array.isArray(value)) {
    b.beginStep()
    ;(value as { output: unknown[] }).output.forEach((item, i) => readItem(b, item, `output[${i}]`))
    return b.build('openai-responses')
  }
  value.forEach((entry, index) => {
    if (isRecord(entry) && isResponse(entry)) {
      b.beginStep()
      ;(entry.output as unknown[]).forEach((item, i) => readItem(b, item, `[${index}].output[${i}]`))
      b.endStep()
    } else {
      readItem(b, entry, `[${index}]`)
    }
  })
  return b.build('openai-responses')
}
