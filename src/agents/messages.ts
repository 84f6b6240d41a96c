/**
 * Conversations as message lists, in the four dialects users hold: OpenAI chat (`tool_calls`, `role:
 * 'tool'`), Anthropic (`tool_use` / `tool_result` blocks), AI SDK model messages (`tool-call` /
 * `tool-result` parts) and LangChain messages (instances, `toJSON()` output or stored messages). One
 * reader handles them all, message by message, so a list that mixes dialects (a hand-built history with
 * SDK responses appended) reads too. Internal.
 *
 * @module
 */
import { contentText, isRecord, TrajectoryBuilder, TrajectoryError } from './builder.js'
import type { Trajectory, TrajectorySource } from './types.js'

type Role = 'user' | 'assistant' | 'tool' | 'system' | 'function'

/** One message, whatever its dialect, with the fields the reader uses. */
export interface View {
  role: Role | undefined
  content: unknown
  /** OpenAI `tool_calls` or LangChain `tool_calls`. */
  toolCalls: unknown
  /** LangChain `invalid_tool_calls`. */
  invalidToolCalls: unknown
  toolCallId: unknown
  name: unknown
  /** LangChain ToolMessage `status`. */
  status: unknown
  /** OpenAI's legacy `function_call`. */
  functionCall: unknown
  refusal: unknown
  langchain: boolean
}

const LANGCHAIN_ROLES: Record<string, Role> = { ai: 'assistant', human: 'user', tool: 'tool', system: 'system', developer: 'system', function: 'function' }
const LANGCHAIN_CLASSES: Record<string, Role> = {
  AIMessage: 'assistant',
  AIMessageChunk: 'assistant',
  HumanMessage: 'user',
  HumanMessageChunk: 'user',
  ToolMessage: 'tool',
  ToolMessageChunk: 'tool',
  SystemMessage: 'system',
  SystemMessageChunk: 'system',
  FunctionMessage: 'function',
}

function roleOf(value: unknown): Role | undefined {
  if (value === 'developer') return 'system'
  return value === 'user' || value === 'assistant' || value === 'tool' || value === 'system' || value === 'function' ? value : undefined
}

/** Whether `value` looks like a LangChain message: an instance, its `toJSON()` form, or a stored message. */
export function isLangChainMessage(value: unknown): boolean {
  if (!isRecord(value)) return false
  if (typeof (value as { _getType?: unknown })._getType === 'function') return true
  if (Array.isArray(value.lc_namespace) && typeof value.type === 'string') return true
  if (value.lc === 1 && value.type === 'constructor' && Array.isArray(value.id)) return true
  return typeof value.type === 'string' && value.type in LANGCHAIN_ROLES && isRecord(value.data) && 'content' in value.data
}

function view(message: unknown, index: number): View {
  if (!isRecord(message)) {
    throw new TrajectoryError(
      `message ${index} is ${message === null ? 'null' : typeof message}, not a message object`,
      'Pass the conversation as an array of message objects.',
    )
  }
  let fields: Record<string, unknown> = message
  let role: Role | undefined
  const langchain = isLangChainMessage(message)
  if (langchain) {
    if (message.lc === 1 && isRecord(message.kwargs)) {
      fields = message.kwargs
      role = LANGCHAIN_CLASSES[String((message.id as unknown[]).at(-1))]
    } else if (isRecord(message.data) && !('content' in message)) {
      fields = message.data
      role = LANGCHAIN_ROLES[String(message.type)]
    } else {
      const type = typeof (message as { _getType?: unknown })._getType === 'function' ? (message as { _getType: () => unknown })._getType() : message.type
      role = LANGCHAIN_ROLES[String(type)]
    }
    if (role === undefined && typeof fields.role === 'string') role = roleOf(fields.role)
  } else {
    role = roleOf(message.role)
  }
  return {
    role,
    content: fields.content,
    toolCalls: fields.tool_calls,
    invalidToolCalls: fields.invalid_tool_calls,
    toolCallId: fields.tool_call_id,
    name: fields.name,
    status: fields.status,
    functionCall: fields.function_call,
    refusal: fields.refusal,
    langchain,
  }
}

/** The `output` of an AI SDK model-message tool result: `{ type: 'json' | 'text' | 'error-*' | ..., value }`. */
function aiSdkOutput(output: unknown): { result: unknown; isError: boolean } {
  if (isRecord(output) && typeof output.type === 'string' && 'value' in output) {
    return { result: output.value, isError: output.type.startsWith('error-') }
  }
  if (isRecord(output) && output.type === 'execution-denied') return { result: output.reason ?? 'execution denied', isError: true }
  return { result: output, isError: false }
}

/** Which dialects were seen, to name the source. */
export interface Seen {
  langchain: boolean
  anthropic: boolean
  aiSdk: boolean
  openai: boolean
}

function sourceOf(seen: Seen): TrajectorySource {
  if (seen.langchain) return 'langchain'
  if (seen.anthropic) return 'anthropic'
  if (seen.aiSdk) return 'ai-sdk'
  if (seen.openai) return 'openai-chat'
  return 'messages'
}

/** The blocks/parts of a content array, read for one message; tool calls whose id is in `skipCallIds` are left out. */
function readParts(b: TrajectoryBuilder, content: unknown[], where: string, seen: Seen, skipCallIds: ReadonlySet<string>): void {
  content.forEach((part, i) => {
    if (!isRecord(part)) {
      if (typeof part === 'string') b.text(part)
      return
    }
    const at = `${where}.content[${i}]`
    switch (part.type) {
      case 'text':
      case 'output_text':
        if (typeof part.text === 'string') b.text(part.text)
        break
      case 'refusal':
        if (typeof part.refusal === 'string') b.text(part.refusal)
        break
      case 'tool_use':
        seen.anthropic = true
        if (!skipCallIds.has(String(part.id))) b.call(part.name, part.input, part.id, at)
        break
      case 'tool-call':
        seen.aiSdk = true
        if (!skipCallIds.has(String(part.toolCallId))) b.call(part.toolName, part.input ?? part.args, part.toolCallId, at)
        break
      case 'tool_result': {
        seen.anthropic = true
        const result = typeof part.content === 'string' || Array.isArray(part.content) ? contentText(part.content) : (part.content ?? '')
        b.result(result, part.tool_use_id, undefined, part.is_error === true)
        break
      }
      case 'tool-result': {
        seen.aiSdk = true
        const { result, isError } = 'output' in part ? aiSdkOutput(part.output) : { result: part.result, isError: part.isError === true }
        b.result(result, part.toolCallId, part.toolName, isError)
        break
      }
      default:
        // Images, files, reasoning and thinking blocks are not part of the trajectory.
        break
    }
  })
}

/** Reads the tool calls of an OpenAI or LangChain `tool_calls` list. */
function readToolCalls(b: TrajectoryBuilder, calls: unknown[], where: string, seen: Seen): void {
  calls.forEach((call, i) => {
    if (!isRecord(call)) return
    const at = `${where}.tool_calls[${i}]`
    if (isRecord(call.function)) {
      seen.openai = true
      b.call(call.function.name, call.function.arguments, call.id, at)
    } else {
      b.call(call.name, call.args ?? call.arguments, call.id, at)
    }
  })
}

/** A user message: its text; in Anthropic's dialect also the tool results it carries next to any text. */
export function readUserMessage(b: TrajectoryBuilder, m: View, where: string, seen: Seen): void {
  if (!Array.isArray(m.content)) {
    b.user(contentText(m.content))
    return
  }
  const text = contentText(m.content)
  if (text.trim() !== '') b.user(text)
  // Only the tool results: the text parts are the user's text above, and a user writes no calls.
  const results = m.content.map((part) => (isRecord(part) && (part.type === 'tool_result' || part.type === 'tool-result') ? part : undefined))
  readParts(b, results, where, seen, new Set())
}

/** The ids of the calls an assistant message lists in `tool_calls` and `invalid_tool_calls`. */
export function listedCallIds(m: Pick<View, 'toolCalls' | 'invalidToolCalls'>): Set<string> {
  const listed = new Set<string>()
  for (const list of [m.toolCalls, m.invalidToolCalls]) {
    if (Array.isArray(list)) for (const call of list) if (isRecord(call) && typeof call.id === 'string') listed.add(call.id)
  }
  return listed
}

/**
 * An assistant message, one step: text first, then the calls, as models write them (content parts, a
 * refusal, `tool_calls`, LangChain's `invalid_tool_calls`, OpenAI's legacy `function_call`). A LangChain
 * message over Anthropic repeats its tool_use blocks in tool_calls: those blocks are skipped by id.
 */
export function readAssistantMessage(b: TrajectoryBuilder, m: View, where: string, seen: Seen): void {
  b.beginStep()
  if (Array.isArray(m.content)) readParts(b, m.content, where, seen, listedCallIds(m))
  else b.text(contentText(m.content))
  if (typeof m.refusal === 'string' && m.refusal !== '') b.text(m.refusal)
  if (Array.isArray(m.toolCalls)) readToolCalls(b, m.toolCalls, where, seen)
  if (Array.isArray(m.invalidToolCalls)) {
    m.invalidToolCalls.forEach((call, i) => {
      if (!isRecord(call)) return
      const error = typeof call.error === 'string' && call.error !== '' ? call.error : undefined
      b.call(call.name, call.args, call.id, `${where}.invalid_tool_calls[${i}]`, error)
    })
  }
  if (isRecord(m.functionCall)) {
    seen.openai = true
    b.call(m.functionCall.name, m.functionCall.arguments, undefined, `${where}.function_call`)
  }
  b.endStep()
}

/** A tool message: AI SDK `tool-result` parts, or one result (OpenAI's `tool_call_id`, LangChain's `status: 'error'`). */
export function readToolMessage(b: TrajectoryBuilder, m: View, where: string, seen: Seen): void {
  if (Array.isArray(m.content) && m.content.some((p) => isRecord(p) && p.type === 'tool-result')) {
    readParts(b, m.content, where, seen, new Set())
    return
  }
  if (!m.langchain) seen.openai = true
  b.result(contentText(m.content), m.toolCallId, m.name, m.status === 'error')
}

/**
 * Reads a conversation: user messages, assistant messages (each one step), tool results. System and
 * developer messages are left out.
 */
export function readMessages(messages: readonly unknown[]): Trajectory {
  const b = new TrajectoryBuilder()
  const seen: Seen = { langchain: false, anthropic: false, aiSdk: false, openai: false }
  messages.forEach((message, index) => {
    const m = view(message, index)
    const where = `messages[${index}]`
    if (m.langchain) seen.langchain = true
    switch (m.role) {
      case 'system':
        return
      case 'user':
        return readUserMessage(b, m, where, seen)
      case 'assistant':
        return readAssistantMessage(b, m, where, seen)
      case 'tool':
        return readToolMessage(b, m, where, seen)
      case 'function':
        seen.openai = true
        b.result(contentText(m.content), undefined, m.name, false)
        return
      default:
        throw new TrajectoryError(
          `message ${index} has no known role (got ${m.role === undefined ? `role ${JSON.stringify((message as Record<string, unknown>).role)}` : m.role})`,
          "Each message needs a role of 'user', 'assistant', 'tool' or 'system' (or is a LangChain message).",
        )
    }
  })
  return b.build(sourceOf(seen))
}
