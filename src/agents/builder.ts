/**
 * Builds a {@link Trajectory} item by item, keeping step numbers: the readers of every format feed it
 * in order. Internal.
 *
 * @module
 */
import { formatMessage } from '../errors.js'
import type { ToolCallItem, Trajectory, TrajectoryItem, TrajectorySource } from './types.js'

/** The shapes `readTrajectory` accepts, for error messages. */
export const SUPPORTED_SHAPES = [
  'an OpenAI chat completion, one of its messages, or a messages array (tool_calls, role "tool")',
  'an OpenAI Responses API response or its input items (function_call, function_call_output)',
  'an AI SDK generateText result, its steps, or its responseMessages (with streamText: await result.steps)',
  'an Anthropic message or conversation (tool_use, tool_result blocks)',
  'a list of LangChain messages (AIMessage.tool_calls, ToolMessage), or an object with such a messages list',
  "a plain array of { type: 'user' | 'text' | 'tool-call' | 'tool-result' } items",
] as const

/**
 * A value that cannot be read as a trajectory (or as tool definitions): `reason` and `fix` are the two
 * halves of the message, so a matcher can repeat them under its own name.
 */
export class TrajectoryError extends TypeError {
  readonly reason: string
  readonly fix: string
  constructor(reason: string, fix: string, action = 'read the trajectory') {
    super(formatMessage(`Failed to ${action}: ${reason}. ${fix}`))
    this.name = 'TrajectoryError'
    this.reason = reason
    this.fix = fix
  }
}

/** The fix listing every supported shape. */
export function supportedShapesFix(): string {
  return `Pass one of: ${SUPPORTED_SHAPES.join('; ')}.`
}

function parseArguments(raw: unknown): Pick<ToolCallItem, 'arguments' | 'argumentsError'> {
  if (raw === undefined || raw === null) return { arguments: {} }
  if (typeof raw !== 'string') return { arguments: raw }
  try {
    return { arguments: JSON.parse(raw) as unknown }
  } catch (error) {
    return { arguments: raw, argumentsError: `not valid JSON (${error instanceof Error ? error.message : String(error)})` }
  }
}

/**
 * Collects items in order. Assistant items (text, tool calls) belong to the current step; a step starts
 * with {@link TrajectoryBuilder.beginStep} (one model response), or by itself when an assistant item follows
 * a user message or a tool result.
 */
export class TrajectoryBuilder {
  private readonly items: TrajectoryItem[] = []
  private step = -1
  private inStep = false

  /** Starts a new step: one model response. */
  beginStep(): void {
    this.step++
    this.inStep = true
  }

  /** Ends the current step: the next assistant item starts a new one. */
  endStep(): void {
    this.inStep = false
  }

  private currentStep(): number {
    if (!this.inStep) this.beginStep()
    return this.step
  }

  user(text: string): void {
    this.endStep()
    if (text.trim() !== '') this.items.push({ type: 'user', text })
  }

  text(text: string): void {
    if (text.trim() === '') return
    this.items.push({ type: 'text', text, step: this.currentStep() })
  }

  /** A tool call; `rawArguments` is parsed when it is JSON text (the OpenAI formats send it so). */
  call(name: unknown, rawArguments: unknown, id: unknown, where: string, argumentsError?: string): void {
    if (typeof name !== 'string' || name === '') {
      throw new TrajectoryError(`the tool call at ${where} has no tool name`, 'Check that the value holds complete tool calls (a name and arguments).')
    }
    const parsed = parseArguments(rawArguments)
    const item: ToolCallItem = { type: 'tool-call', name, arguments: parsed.arguments, step: this.currentStep() }
    if (typeof id === 'string' && id !== '') item.id = id
    const error = argumentsError ?? parsed.argumentsError
    if (error !== undefined) item.argumentsError = error
    this.items.push(item)
  }

  /** A tool result; it ends the current step unless `endsStep` is `false` (formats with explicit steps). */
  result(result: unknown, id: unknown, name: unknown, isError: boolean, endsStep = true): void {
    if (endsStep) this.endStep()
    const item: TrajectoryItem = { type: 'tool-result', result }
    if (typeof id === 'string' && id !== '') item.id = id
    if (typeof name === 'string' && name !== '') item.name = name
    if (isError) item.isError = true
    this.items.push(item)
  }

  /** The trajectory; results without a tool name take the name of the call with the same id. */
  build(source: TrajectorySource): Trajectory {
    const names = new Map<string, string>()
    for (const item of this.items) if (item.type === 'tool-call' && item.id !== undefined) names.set(item.id, item.name)
    for (const item of this.items) {
      if (item.type === 'tool-result' && item.name === undefined && item.id !== undefined) {
        const name = names.get(item.id)
        if (name !== undefined) item.name = name
      }
    }
    return { source, items: this.items, steps: this.step + 1 }
  }
}

/** Text from message content: a string, or the text of its text parts (`text`, `input_text`, `output_text`). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((part: unknown) => {
      if (typeof part === 'string') return part
      if (part === null || typeof part !== 'object') return ''
      const p = part as { type?: unknown; text?: unknown }
      return (p.type === 'text' || p.type === 'input_text' || p.type === 'output_text') && typeof p.text === 'string' ? p.text : ''
    })
    .join('')
}

/** A plain object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
