/**
 * What every built-in model judge shares, whatever the provider: the system prompt, the JSON schema of
 * the verdict, and the fallbacks for servers and models that reject part of the request.
 *
 * A judge asks for structured output and temperature 0. Some servers refuse one of them with an error
 * instead of ignoring it, and the judge then asks again without it, for the rest of the run:
 * - structured output: LM Studio answers `400 'response_format.type' must be 'json_schema' or 'text'`
 *   for anything but json_schema (lmstudio-ai/lmstudio-bug-tracker#189, #307); vLLM answers `400 The
 *   provided JSON schema contains features not supported by xgrammar` (vllm-project/vllm#26421), older
 *   versions in a top-level `{ object: 'error', message }` body that the openai SDK reports as "400
 *   status code (no body)", and some grammar errors as a 500 (noonghunna/club-3090#45); Anthropic
 *   models without structured outputs reject `output_config.format`.
 * - temperature: OpenAI reasoning models accept only the default temperature, and Claude models from
 *   Opus 4.7 on reject sampling parameters ("temperature ... not supported", NousResearch/hermes-agent#11137).
 * Servers that ignore `response_format` instead (Ollama before its OpenAI-compatible endpoint honoured
 * it, ollama/ollama#10001) need no fallback: the prompt itself asks for the JSON reply, and the reply
 * is read defensively (`parseJudgeReply`).
 *
 * A rejected request is not recorded (record/replay keeps only 2xx responses), so a replay of a run that
 * fell back would miss it: the judge says so once, with the setting that skips the rejected request.
 *
 * @module
 */
import { formatMessage } from '../errors.js'
import { errorText, serverMessage, statusOf } from '../openai-client.js'
import type { JudgeRequest } from './types.js'
import { peekProcessSlot, processSlot } from '../process-state.js'

/** The system prompt of every built-in model judge. */
export const SYSTEM_PROMPT =
  'You are a strict, impartial evaluator of AI-generated text. Follow the grading instructions ' +
  'exactly, base your verdict only on the material given, and reply in the requested format.'

/** Name of the verdict schema (OpenAI `json_schema.name`, AI SDK `Output.object({ name })`). */
export function verdictSchemaName(request: JudgeRequest): string {
  return request.template === 'faithfulness' ? 'faithfulness_verdict' : 'judge_verdict'
}

/** The JSON schema of a verdict: reasoning before score, plus the claims for the faithfulness template. */
export function verdictSchema(request: JudgeRequest): Record<string, unknown> {
  const score = { type: 'number', description: 'The score on the requested scale.' }
  const reasoning = { type: 'string', description: 'A short justification, written before deciding the score.' }
  if (request.template !== 'faithfulness')
    return { type: 'object', properties: { reasoning, score }, required: ['reasoning', 'score'], additionalProperties: false }
  return {
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
}

/** What a failed call says the server rejected. `'unreadable'`: a 400/422 whose body the SDK could not read. */
export type Rejection = 'structured' | 'temperature' | 'unreadable'

/** Reads an SDK error (openai, @anthropic-ai/sdk or the AI SDK) for a rejected part of the request. */
export function rejectionOf(error: unknown): Rejection | undefined {
  const status = statusOf(error)
  if (status !== 400 && status !== 422 && status !== 500) return undefined
  const text = errorText(error)
  if (/temperature/i.test(text) && /unsupported|not supported|does not support|only the default|not allowed|is deprecated/i.test(text)) return 'temperature'
  if (status === 500) return /grammar|json schema/i.test(text) ? 'structured' : undefined
  if (/response_format|json_schema|output_config|output_format|responseSchema|responseJsonSchema|structured output|schema|grammar/i.test(text))
    return 'structured'
  // The openai SDK's message for an error body it could not read (vLLM's older top-level error shape).
  // Or nothing but the status: '400', '422 ', ''.
  if (/status code \(no body\)/.test(text) || /^(?:\d{3})?\s*$/.test(text)) return 'unreadable'
  return undefined
}

/** What a judge currently sends; flipped to `false` for the rest of the run when the server rejects it. */
export interface JudgeCapabilities {
  structured: boolean
  temperature: boolean
}

/** How a judge falls back. */
export interface FallbackPolicy {
  /** `structuredOutput` as configured: only `'auto'` falls back. */
  structuredOutput: boolean | 'auto'
  /** Whether the temperature was set by the user (then a rejection is reported, not worked around). */
  temperatureExplicit: boolean
  /** `the judge model "x" at <url>`, for the notices. */
  who: string
}

function noticeOnce(key: string, message: string): void {
  const seen = processSlot('judge-fallback-notices', () => new Set<string>())
  if (seen.has(key)) return
  seen.add(key)
  console.warn(formatMessage(message))
}

/**
 * Runs a judge call with the fallbacks above: on a rejection of structured output (in `'auto'` mode) or
 * of the default temperature, asks again without it and keeps it off in `caps` for later calls. A 400
 * with an unreadable body is retried once without structured output; if that fails too, the first
 * error is thrown and nothing is switched off.
 */
export async function callWithFallbacks<T>(caps: JudgeCapabilities, policy: FallbackPolicy, call: (caps: JudgeCapabilities) => Promise<T>): Promise<T> {
  let firstError: unknown
  // Each retry switches a capability off for good (it needs it on), so there are at most three calls.
  for (;;) {
    try {
      return await call(caps)
    } catch (error) {
      const rejection = rejectionOf(error)
      const status = statusOf(error)
      // Read only in a notice, after a rejection, which always has a status (400, 422 or 500).
      const detail = `${status}: ${serverMessage(error).slice(0, 200)}`
      if (rejection === 'temperature' && caps.temperature && !policy.temperatureExplicit) {
        caps.temperature = false
        noticeOnce(
          `${policy.who}\0temperature`,
          `${policy.who} rejected temperature 0 (${detail}); it is asked with the model's default temperature ` +
            `from now on. The rejected request is not recorded, so replay would miss it: set configure({ judge: ` +
            `{ temperature: null } }) to skip it.`,
        )
        continue
      }
      // An unreadable 400 is met at most once: its retry below returns or throws.
      if ((rejection === 'structured' || rejection === 'unreadable') && caps.structured && policy.structuredOutput === 'auto') {
        caps.structured = false
        if (rejection === 'unreadable') {
          firstError = error
          try {
            const result = await call(caps)
            noticeStructured(policy, detail)
            return result
          } catch {
            caps.structured = true
            throw firstError
          }
        }
        noticeStructured(policy, detail)
        continue
      }
      throw error
    }
  }
}

function noticeStructured(policy: FallbackPolicy, detail: string): void {
  noticeOnce(
    `${policy.who}\0structured`,
    `${policy.who} rejected structured output (${detail}); it is asked in free text from now on and its ` +
      `replies are read defensively. The rejected request is not recorded, so replay would miss it: set ` +
      `configure({ judge: { structuredOutput: false } }) to skip it.`,
  )
}

/** Forgets which fallback notices were printed (for tests). */
export function resetFallbackNotices(): void {
  peekProcessSlot<Set<string>>('judge-fallback-notices')?.clear()
}
