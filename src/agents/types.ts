/**
 * The normalized agent trajectory: what a model run did, in order, whatever SDK produced it.
 *
 * @module
 */

/** Where a trajectory was read from (shown in failure messages). */
export type TrajectorySource = 'openai-chat' | 'openai-responses' | 'ai-sdk' | 'anthropic' | 'langchain' | 'messages' | 'plain'

/** A user message (or the user's part of a conversation). */
export interface UserItem {
  type: 'user'
  text: string
}

/** Text the assistant wrote. */
export interface TextItem {
  type: 'text'
  text: string
  /** The step (model response, 0-based) it belongs to. */
  step: number
}

/** A tool call the assistant made. */
export interface ToolCallItem {
  type: 'tool-call'
  /** The tool's name. */
  name: string
  /**
   * The parsed arguments (usually an object). When the model sent arguments that are not valid JSON,
   * this is the raw text and {@link ToolCallItem.argumentsError} says why it did not parse.
   */
  arguments: unknown
  /** The call id (`tool_calls[].id`, `call_id`, `tool_use.id`, `toolCallId`), when the format has one. */
  id?: string
  /** The step (model response, 0-based) it belongs to. */
  step: number
  /** Set when the arguments were sent as text that is not valid JSON. */
  argumentsError?: string
}

/** The result of a tool call, as given back to the model. */
export interface ToolResultItem {
  type: 'tool-result'
  /** What the tool returned: a string (chat and Anthropic formats), or a value (AI SDK). */
  result: unknown
  /** The id of the call it answers. */
  id?: string
  /** The tool's name (from the result itself, else from the call with the same id). */
  name?: string
  /** `true` when the tool failed (Anthropic `is_error`, AI SDK `tool-error`, LangChain `status: 'error'`). */
  isError?: boolean
}

/** One entry of a trajectory. */
export type TrajectoryItem = UserItem | TextItem | ToolCallItem | ToolResultItem

/**
 * An agent run, normalized: the ordered items (user messages, assistant text, tool calls, tool results)
 * and the number of steps. A step is one model response, i.e. one LLM call of the loop (the AI SDK's
 * `steps`, one assistant message of a conversation); a response with three parallel tool calls is one step.
 */
export interface Trajectory {
  source: TrajectorySource
  items: TrajectoryItem[]
  /** Model responses (LLM calls) in the run. */
  steps: number
}
