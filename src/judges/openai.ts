import { effectiveBaseURL, lazyClient, retriesOf, translateError } from '../openai-client.js'
import { callWithFallbacks, SYSTEM_PROMPT, verdictSchema, verdictSchemaName, type JudgeCapabilities } from './capabilities.js'
import { parseJudgeReply } from './parse.js'
import { DEFAULT_JUDGE_MODEL, type Judge, type JudgeOptions, type JudgeRequest, type JudgeResult, type OpenAIClientLike } from './types.js'

/** Settings of {@link openAIJudge}: {@link JudgeOptions} with a model name and an `OpenAI` client. */
export type OpenAIJudgeOptions = Omit<JudgeOptions, 'model' | 'client'> & { model?: string; client?: OpenAIClientLike }

function responseFormat(request: JudgeRequest) {
  return { type: 'json_schema' as const, json_schema: { name: verdictSchemaName(request), strict: true, schema: verdictSchema(request) } }
}

/**
 * The output-token limit of a chat completion: OpenAI's own API takes `max_completion_tokens` (its
 * reasoning models refuse `max_tokens`); OpenAI-compatible servers (Ollama, vLLM, LM Studio) read `max_tokens`.
 */
function maxTokensParam(baseURL: string, n: number): { max_completion_tokens: number } | { max_tokens: number } {
  return /^https:\/\/api\.openai\.com(\/|$)/.test(baseURL) ? { max_completion_tokens: n } : { max_tokens: n }
}

/**
 * A judge backed by an OpenAI (or OpenAI-compatible) chat model through the `openai` SDK: chat
 * completions at temperature 0, with structured output (`response_format: { type: 'json_schema', strict:
 * true }`, reasoning before score) where the server supports it. With `structuredOutput: 'auto'` (the
 * default) a server that rejects `response_format` (a 400/422 about it, or one the SDK cannot read) is
 * asked again in free text, and every later call of this judge goes straight to free text; a model that
 * rejects temperature 0 (reasoning models) is asked with its default temperature. Free-text replies are
 * read defensively (see `parseJudgeReply`). Retries of 408/409/429/5xx are the SDK's (`maxRetries`,
 * default 2); errors that remain (401, 404, 429, ...) are rethrown with a message saying what to change.
 *
 * @example
 * ```ts
 * configure({ judge: openAIJudge({ model: 'gpt-4.1-mini' }) })
 * // a local OpenAI-compatible server:
 * configure({ judge: openAIJudge({ baseURL: 'http://127.0.0.1:11434/v1', apiKey: 'ollama', model: 'llama3.1' }) })
 * ```
 */
export function openAIJudge(options: OpenAIJudgeOptions = {}): Judge {
  const model = options.model ?? DEFAULT_JUDGE_MODEL
  const temperature = options.temperature ?? 0
  const mode = options.structuredOutput ?? 'auto'
  const caps: JudgeCapabilities = { structured: mode !== false, temperature: options.temperature !== null }
  const client = lazyClient(options, 'judge')

  return {
    name: model,
    async evaluate(request: JudgeRequest): Promise<JudgeResult> {
      const sdk = await client()
      const baseURL = effectiveBaseURL({ ...options, client: sdk })
      // A verbatim template is the whole conversation: no system prompt, no structured output.
      const messages = [...(request.verbatim ? [] : [{ role: 'system' as const, content: SYSTEM_PROMPT }]), { role: 'user' as const, content: request.prompt }]
      const call = (c: JudgeCapabilities) =>
        sdk.chat.completions.create({
          model,
          ...(c.temperature ? { temperature } : {}),
          messages,
          ...(options.maxTokens !== undefined ? maxTokensParam(baseURL, options.maxTokens) : {}),
          ...(c.structured && !request.verbatim ? { response_format: responseFormat(request) } : {}),
        })
      let completion: Awaited<ReturnType<typeof call>>
      try {
        completion = await callWithFallbacks(
          caps,
          { structuredOutput: mode, temperatureExplicit: typeof options.temperature === 'number', who: `The judge model "${model}" at ${baseURL}` },
          call,
        )
      } catch (error) {
        throw translateError(error, 'judge', model, baseURL, retriesOf(sdk))
      }
      const message = completion.choices[0]?.message
      const raw = message?.content ?? message?.refusal ?? ''
      const parsed = parseJudgeReply(raw, request.scale)
      const answeredBy = completion.model || model
      const result: JudgeResult = { ...parsed, raw, model: answeredBy }
      // Some OpenAI-compatible servers leave usage out: the call is then counted with an unknown cost.
      result.usage = completion.usage
        ? { model: answeredBy, inputTokens: completion.usage.prompt_tokens, outputTokens: completion.usage.completion_tokens }
        : { model: answeredBy }
      return result
    },
  }
}
