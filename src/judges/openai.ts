import { effectiveBaseURL, lazyClient, retriesOf, statusOf, translateError } from '../openai-client.js'
import { parseJudgeReply } from './parse.js'
import { DEFAULT_JUDGE_MODEL, type Judge, type JudgeOptions, type JudgeRequest, type JudgeResult } from './types.js'

const SYSTEM_PROMPT =
  'You are a strict, impartial evaluator of AI-generated text. Follow the grading instructions exactly, base your verdict only on the material given, and reply in the requested format.'

function responseFormat(request: JudgeRequest) {
  const score = { type: 'number', description: 'The score on the requested scale.' }
  const reasoning = { type: 'string', description: 'A short justification, written before deciding the score.' }
  const schema =
    request.template === 'faithfulness'
      ? {
          type: 'object',
          properties: {
            claims: {
              type: 'array',
              items: {
                type: 'object',
                properties: { claim: { type: 'string' }, supported: { type: 'boolean' }, reason: { type: 'string' } },
                required: ['claim', 'supported', 'reason'],
                additionalProperties: false,
              },
            },
            reasoning,
            score,
          },
          required: ['claims', 'reasoning', 'score'],
          additionalProperties: false,
        }
      : { type: 'object', properties: { reasoning, score }, required: ['reasoning', 'score'], additionalProperties: false }
  return { type: 'json_schema' as const, json_schema: { name: request.template === 'faithfulness' ? 'faithfulness_verdict' : 'judge_verdict', strict: true, schema } }
}

/** A 400/422 that says the server does not support the requested `response_format`. */
function rejectsStructuredOutput(error: unknown): boolean {
  const status = statusOf(error)
  if (status !== 400 && status !== 422) return false
  const text = `${(error as { message?: unknown }).message ?? ''} ${JSON.stringify((error as { error?: unknown }).error ?? '')}`
  return /response_format|json_schema|structured output|schema/i.test(text)
}

/**
 * A judge backed by an OpenAI (or OpenAI-compatible) chat model through the `openai` SDK: chat
 * completions at temperature 0, with structured output (`response_format: { type: 'json_schema', strict:
 * true }`, reasoning before score) where the server supports it. With `structuredOutput: 'auto'` (the
 * default) a server that rejects `response_format` with a 400/422 is asked again in free text, and
 * every later call of this judge goes straight to free text. Free-text replies are read defensively
 * (see `parseJudgeReply`). Retries of 408/409/429/5xx are the SDK's (`maxRetries`, default 2); errors
 * that remain (401, 404, 429, ...) are rethrown with a message saying what to change.
 *
 * @example
 * ```ts
 * configure({ judge: openAIJudge({ model: 'gpt-4.1-mini' }) })
 * // a local OpenAI-compatible server:
 * configure({ judge: openAIJudge({ baseURL: 'http://127.0.0.1:11434/v1', apiKey: 'ollama', model: 'llama3.1' }) })
 * ```
 */
export function openAIJudge(options: JudgeOptions = {}): Judge {
  const model = options.model ?? DEFAULT_JUDGE_MODEL
  const temperature = options.temperature ?? 0
  const mode = options.structuredOutput ?? 'auto'
  let structured = mode !== false
  const client = lazyClient(options, 'judge')

  return {
    name: model,
    async evaluate(request: JudgeRequest): Promise<JudgeResult> {
      const sdk = await client()
      const messages = [
        { role: 'system' as const, content: SYSTEM_PROMPT },
        { role: 'user' as const, content: request.prompt },
      ]
      const call = (withSchema: boolean) =>
        sdk.chat.completions.create({ model, temperature, messages, ...(withSchema ? { response_format: responseFormat(request) } : {}) })
      let completion: Awaited<ReturnType<typeof call>>
      try {
        try {
          completion = await call(structured)
        } catch (error) {
          if (!(structured && mode === 'auto' && rejectsStructuredOutput(error))) throw error
          structured = false
          completion = await call(false)
        }
      } catch (error) {
        throw translateError(error, 'judge', model, effectiveBaseURL({ ...options, client: sdk }), retriesOf(sdk))
      }
      const message = completion.choices[0]?.message
      const raw = message?.content ?? message?.refusal ?? ''
      const parsed = parseJudgeReply(raw, request.scale)
      const answeredBy = completion.model || model
      const result: JudgeResult = { ...parsed, raw, model: answeredBy }
      if (completion.usage) {
        result.usage = { model: answeredBy, inputTokens: completion.usage.prompt_tokens, outputTokens: completion.usage.completion_tokens }
      }
      return result
    },
  }
}
