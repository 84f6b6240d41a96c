import { formatMessage } from '../errors.js'
import { translateError } from '../openai-client.js'
import { registerLibraryHost } from '../replay/hosts.js'
import { callWithFallbacks, SYSTEM_PROMPT, verdictSchema, type JudgeCapabilities } from './capabilities.js'
import { parseJudgeReply } from './parse.js'
import type { AnthropicClientLike, Judge, JudgeOptions, JudgeRequest, JudgeResult } from './types.js'

/** Default model of the Anthropic judge: inexpensive, accepts temperature 0 and structured outputs. */
export const DEFAULT_ANTHROPIC_JUDGE_MODEL = 'claude-haiku-4-5'

/** Default `max_tokens` of the Anthropic judge (the Messages API requires one; thinking counts against it). */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096

/**
 * Claude models that reject sampling parameters (`temperature`), so the judge does not send one: Opus
 * 4.7 and later, Sonnet 5 and later, Haiku 5.5, Fable and Mythos ("Non-default temperature, top_p, and
 * top_k are not supported", Anthropic's Claude 5.5 migration guides; the same list as @ai-sdk/anthropic
 * 4's model capabilities). A model missing here that rejects it is caught by its 400 (see
 * `callWithFallbacks`).
 */
const NO_SAMPLING = /claude-(?:opus-4-[78]|opus-5|sonnet-5|haiku-5|fable|mythos)/

/** Settings of {@link anthropicJudge}: an Anthropic client and the judge settings that apply to it. */
export type AnthropicJudgeOptions = Pick<JudgeOptions, 'temperature' | 'maxRetries' | 'timeout' | 'structuredOutput' | 'maxTokens'> & {
  /** `new Anthropic()` from `@anthropic-ai/sdk` (its key, baseURL, retries and timeout are used). */
  client: AnthropicClientLike
  /** Default {@link DEFAULT_ANTHROPIC_JUDGE_MODEL}. */
  model?: string
}

/** The part of an Anthropic Messages API reply the judge reads. */
export interface AnthropicMessage {
  content?: Array<{ type?: string; text?: string }>
  model?: string
  stop_reason?: string | null
  usage?: { input_tokens?: number; output_tokens?: number }
}

/** The settings a message's body reads. */
type MessageSettings = Pick<AnthropicJudgeOptions, 'temperature' | 'maxTokens'>

/** The Messages API body of one judge call: the prompt, the system prompt, temperature and the verdict's schema as `c` allows. */
export function messageParams(request: JudgeRequest, c: JudgeCapabilities, model: string, options: MessageSettings) {
  return {
    model,
    max_tokens: options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
    ...(request.verbatim ? {} : { system: SYSTEM_PROMPT }),
    messages: [{ role: 'user' as const, content: request.prompt }],
    ...(c.temperature ? { temperature: options.temperature ?? 0 } : {}),
    ...(c.structured && !request.verbatim ? { output_config: { format: { type: 'json_schema' as const, schema: verdictSchema(request) } } } : {}),
  }
}

/**
 * The judge's result from a message: the text blocks read as the verdict (thinking skipped), the model
 * that answered and its token usage. An empty reply cut off by `max_tokens` is an error that says so.
 */
export function messageResult(message: AnthropicMessage, request: Pick<JudgeRequest, 'scale'>, model: string, maxTokens: number): JudgeResult {
  // Stryker disable next-line ArrayDeclaration: equivalent, a string in place of the empty list is not a text block and adds nothing
  const raw = (message.content ?? []).flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : [])).join('')
  if (raw.trim() === '' && message.stop_reason === 'max_tokens') {
    throw new Error(
      formatMessage(
        `Failed to read the judge's reply: the judge model "${model}" used all ` +
          `${maxTokens} output tokens before answering (thinking ` +
          `counts against them). Raise configure({ judge: { maxTokens } }).`,
      ),
    )
  }
  const parsed = parseJudgeReply(raw, request.scale)
  const answeredBy = message.model || model
  const result: JudgeResult = { ...parsed, raw, model: answeredBy, usage: { model: answeredBy } }
  if (typeof message.usage?.input_tokens === 'number') result.usage!.inputTokens = message.usage.input_tokens
  if (typeof message.usage?.output_tokens === 'number') result.usage!.outputTokens = message.usage.output_tokens
  return result
}

/**
 * A judge backed by a Claude model through the Anthropic SDK (`@anthropic-ai/sdk`), for teams that do
 * not use the AI SDK: the Messages API with the verdict's JSON schema as structured output
 * (`output_config.format`), falling back to free text for the rest of the run on a model that rejects
 * it; temperature 0 where the model accepts one. Thinking blocks are skipped; only the text of the
 * reply is read, defensively (`parseJudgeReply`). The SDK is never imported by expect-llm: the client
 * you pass is used as it is, and its requests go through record/replay like any other
 * (`https://api.anthropic.com` must be among the replay hosts).
 *
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk'
 * configure({ judge: { client: new Anthropic(), model: 'claude-haiku-4-5' } })
 * // or: configure({ judge: anthropicJudge({ client: new Anthropic() }) })
 * ```
 */
export function anthropicJudge(options: AnthropicJudgeOptions): Judge {
  const { client } = options
  const model = options.model ?? DEFAULT_ANTHROPIC_JUDGE_MODEL
  const mode = options.structuredOutput ?? 'auto'
  const explicit = typeof options.temperature === 'number'
  const caps: JudgeCapabilities = { structured: mode !== false, temperature: options.temperature !== null && (explicit || !NO_SAMPLING.test(model)) }
  const baseURL = typeof client.baseURL === 'string' ? client.baseURL : 'https://api.anthropic.com'
  // The client's host is recorded and replayed without the user listing it.
  registerLibraryHost(baseURL)
  const requestOptions = {
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
  }

  return {
    name: model,
    async evaluate(request: JudgeRequest): Promise<JudgeResult> {
      const call = async (c: JudgeCapabilities): Promise<AnthropicMessage> =>
        (await client.messages.create(messageParams(request, c, model, options), requestOptions)) as AnthropicMessage
      let message: AnthropicMessage
      try {
        message = await callWithFallbacks(
          caps,
          { structuredOutput: mode, temperatureExplicit: explicit, who: `The judge model "${model}" at ${baseURL}` },
          call,
        )
      } catch (error) {
        throw translateError(error, 'judge', model, baseURL, options.maxRetries ?? client.maxRetries ?? 2, {
          key: 'Set ANTHROPIC_API_KEY to a valid key, or pass it to the client: new Anthropic({ apiKey }).',
          notFound: "Check the model name in configure({ judge: { model } }) (Anthropic model ids look like claude-haiku-4-5) and the client's baseURL.",
        })
      }
      return messageResult(message, request, model, options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS)
    },
  }
}
