import { aiSdkModelLabel, loadAiSdk, registerAiSdkHost, unwrapAiSdkError } from '../ai-sdk.js'
import { translateError } from '../openai-client.js'
import { callWithFallbacks, SYSTEM_PROMPT, verdictSchema, verdictSchemaName, type JudgeCapabilities } from './capabilities.js'
import { parseJudgeReply } from './parse.js'
import type { AiSdkLanguageModel, Judge, JudgeOptions, JudgeRequest, JudgeResult } from './types.js'

/** Settings of {@link aiSdkJudge}: an AI SDK language model and the judge settings that apply to it. */
export type AiSdkJudgeOptions = Pick<JudgeOptions, 'temperature' | 'maxRetries' | 'timeout' | 'structuredOutput' | 'maxTokens'> & {
  /** The model, e.g. `anthropic('claude-haiku-4-5')` from `@ai-sdk/anthropic`, `google('gemini-2.5-flash')`. */
  model: AiSdkLanguageModel
}

/** What `generateText` (or its `NoObjectGeneratedError`) tells about the reply. */
export interface Reply {
  text: string
  modelId: string | undefined
  usage: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined
}

/**
 * The `generateText` settings of one judge call besides the model: the system prompt (left out for a
 * verbatim prompt), temperature when the model takes one (0 by default), the limits, and whether to ask
 * for the structured verdict.
 */
export function callSettings(request: JudgeRequest, c: JudgeCapabilities, options: Omit<AiSdkJudgeOptions, 'model'>) {
  return {
    ...(request.verbatim ? {} : { system: SYSTEM_PROMPT }),
    prompt: request.prompt,
    ...(c.temperature ? { temperature: options.temperature ?? 0 } : {}),
    ...(options.maxTokens !== undefined ? { maxOutputTokens: options.maxTokens } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
    structured: c.structured && !request.verbatim,
  }
}

/** The judge's result from a reply: the parsed verdict, the raw text, the model that answered and its token usage. */
export function judgeResult(reply: Reply, request: Pick<JudgeRequest, 'scale'>, modelId: string): JudgeResult {
  const parsed = parseJudgeReply(reply.text, request.scale)
  const answeredBy = reply.modelId || modelId
  const result: JudgeResult = { ...parsed, raw: reply.text, model: answeredBy }
  result.usage = { model: answeredBy }
  const { inputTokens, outputTokens } = reply.usage ?? {}
  // Number.isFinite is false for every non-number (undefined, a provider's null).
  if (Number.isFinite(inputTokens)) result.usage.inputTokens = inputTokens as number
  if (Number.isFinite(outputTokens)) result.usage.outputTokens = outputTokens as number
  return result
}

/**
 * A judge backed by any AI SDK language model (`ai` 7): Anthropic, Google, OpenAI, Mistral, a local
 * server through `@ai-sdk/openai-compatible`, ... The verdict is asked for with the AI SDK's structured
 * output (`generateText` with `Output.object`, a JSON schema with reasoning before score), which each
 * provider maps to its own mechanism (OpenAI `response_format`, Anthropic `output_config.format` or a
 * JSON tool on older models, Gemini `responseJsonSchema`); where the reply does not parse against the
 * schema, its text is read defensively like any free-text reply (`parseJudgeReply`), and a provider
 * that rejects structured output is asked in free text from then on (`structuredOutput: 'auto'`).
 * Temperature 0 by default (the AI SDK leaves it out for models that accept none). `ai` is loaded on
 * the first call, so nothing imports it unless such a judge is configured. Every request goes through
 * the provider's `fetch`, so record/replay records it like the OpenAI judge's (add a local server's
 * origin to `replay.hosts`).
 *
 * @example
 * ```ts
 * import { anthropic } from '@ai-sdk/anthropic'
 * configure({ judge: { model: anthropic('claude-haiku-4-5') } })
 * // or, as an object: configure({ judge: aiSdkJudge({ model: anthropic('claude-haiku-4-5') }) })
 * ```
 */
export function aiSdkJudge(options: AiSdkJudgeOptions): Judge {
  const { model } = options
  // The model's host is recorded and replayed without the user listing it.
  registerAiSdkHost(model)
  const mode = options.structuredOutput ?? 'auto'
  const caps: JudgeCapabilities = { structured: mode !== false, temperature: options.temperature !== null }
  const where = `AI SDK provider "${model.provider}"`
  const retriesMade = new WeakMap<object, number>()

  return {
    name: model.modelId,
    async evaluate(request: JudgeRequest): Promise<JudgeResult> {
      const ai = await loadAiSdk('judge')
      const call = async (c: JudgeCapabilities): Promise<Reply> => {
        try {
          const { structured, ...settings } = callSettings(request, c, options)
          const result = await ai.generateText({
            // Typed by shape on our side; the provider's own spec object at run time.
            model: model as unknown as Parameters<typeof ai.generateText>[0]['model'],
            ...settings,
            ...(structured ? { output: ai.Output.object({ schema: ai.jsonSchema(verdictSchema(request)), name: verdictSchemaName(request) }) } : {}),
          })
          return { text: result.text, modelId: result.response.modelId, usage: result.usage }
        } catch (error) {
          // A reply that is not valid JSON for the schema is still a reply: read it like free text.
          // Stryker disable next-line StringLiteral,OptionalChaining: equivalent, generateText gives this error the reply's text (a string) and response
          if (ai.NoObjectGeneratedError.isInstance(error)) return { text: error.text ?? '', modelId: error.response?.modelId, usage: error.usage }
          const unwrapped = unwrapAiSdkError(error)
          if (unwrapped.error !== null && typeof unwrapped.error === 'object') retriesMade.set(unwrapped.error, unwrapped.retries)
          throw unwrapped.error
        }
      }
      let reply: Reply
      try {
        reply = await callWithFallbacks(
          caps,
          { structuredOutput: mode, temperatureExplicit: typeof options.temperature === 'number', who: `The judge model "${model.modelId}" (${where})` },
          call,
        )
      } catch (error) {
        const url = (error as { url?: unknown } | null)?.url
        // WeakMap.get answers undefined for a key that cannot be one (a thrown string, null).
        const retries = retriesMade.get(error as object) ?? 0
        throw translateError(error, 'judge', model.modelId, typeof url === 'string' ? url : where, retries, {
          key:
            `Set the API key your AI SDK provider reads (for example ANTHROPIC_API_KEY or ` +
            `GOOGLE_GENERATIVE_AI_API_KEY), or pass apiKey when you create the provider (createAnthropic({ ` +
            `apiKey })).`,
          notFound: `Check the model id passed to the provider (${aiSdkModelLabel(model)}) and the provider's baseURL.`,
        })
      }
      return judgeResult(reply, request, model.modelId)
    },
  }
}
