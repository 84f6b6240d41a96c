import type { NormalizedUsage, RecordedResponse } from './types.js'

function num(v: unknown): number | undefined {
  // Number.isFinite is false for anything but a finite number (no coercion).
  return Number.isFinite(v) ? (v as number) : undefined
}

/**
 * Normalizes a provider's token usage to one shape, with OpenAI's meaning (input tokens include cached ones,
 * output tokens include reasoning ones):
 * - OpenAI chat completions (`prompt_tokens`/`completion_tokens`), the Responses API
 *   (`input_tokens`/`output_tokens`) and embeddings (`prompt_tokens` only);
 * - Anthropic Messages (`input_tokens` plus `cache_creation_input_tokens` and `cache_read_input_tokens`, which
 *   Anthropic counts apart);
 * - Gemini's `usageMetadata` (`promptTokenCount`, `candidatesTokenCount` plus `thoughtsTokenCount`,
 *   `cachedContentTokenCount`).
 * Returns `null` when `usage` has none of these shapes.
 *
 * @example
 * ```ts
 * normalizeUsage({ prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 })
 * // { inputTokens: 9, outputTokens: 2, totalTokens: 11 }
 * normalizeUsage({ promptTokenCount: 143, candidatesTokenCount: 3, totalTokenCount: 146 })
 * // { inputTokens: 143, outputTokens: 3, totalTokens: 146 }
 * ```
 */
export function normalizeUsage(usage: unknown): NormalizedUsage | null {
  if (usage === null || typeof usage !== 'object') return null
  const u = usage as Record<string, unknown>
  if (num(u.promptTokenCount) !== undefined) return geminiUsage(u)
  const input = num(u.prompt_tokens) ?? num(u.input_tokens)
  if (input === undefined) return null
  // Anthropic reports cache writes and reads apart from input_tokens (OpenAI counts them in prompt_tokens).
  const cacheWrite = num(u.cache_creation_input_tokens) ?? 0
  const cacheRead = num(u.cache_read_input_tokens)
  const allInput = input + cacheWrite + (cacheRead ?? 0)
  const output = num(u.completion_tokens) ?? num(u.output_tokens) ?? 0
  const out: NormalizedUsage = { inputTokens: allInput, outputTokens: output, totalTokens: num(u.total_tokens) ?? allInput + output }
  const inDetails = (u.prompt_tokens_details ?? u.input_tokens_details) as Record<string, unknown> | undefined
  const outDetails = (u.completion_tokens_details ?? u.output_tokens_details) as Record<string, unknown> | undefined
  const cached = num(inDetails?.cached_tokens) ?? cacheRead
  const reasoning = num(outDetails?.reasoning_tokens)
  if (cached !== undefined) out.cachedInputTokens = cached
  if (reasoning !== undefined) out.reasoningTokens = reasoning
  return out
}

/** Gemini's `usageMetadata`: thinking tokens are billed as output, as OpenAI's reasoning tokens are. */
function geminiUsage(u: Record<string, unknown>): NormalizedUsage {
  const input = num(u.promptTokenCount)!
  const thoughts = num(u.thoughtsTokenCount)
  const output = (num(u.candidatesTokenCount) ?? 0) + (thoughts ?? 0)
  const out: NormalizedUsage = { inputTokens: input, outputTokens: output, totalTokens: num(u.totalTokenCount) ?? input + output }
  const cached = num(u.cachedContentTokenCount)
  if (cached !== undefined) out.cachedInputTokens = cached
  if (thoughts !== undefined) out.reasoningTokens = thoughts
  return out
}

/**
 * The model and usage one JSON object of a response carries, in any dialect: a body or stream event with
 * `model`/`usage` (OpenAI), a Responses API event wrapping `response`, Anthropic's `message_start`
 * (`message.usage`) and `message_delta` (`usage.output_tokens`, cumulative), Gemini's `modelVersion` and
 * `usageMetadata`.
 *
 * @example
 * ```ts
 * usageOf({ type: 'message_start', message: { model: 'claude-haiku-4-5', usage: { input_tokens: 7, output_tokens: 1 } } })
 * // { model: 'claude-haiku-4-5', usage: { inputTokens: 7, outputTokens: 1, totalTokens: 8 }, outputOnly: false }
 * ```
 */
export function usageOf(value: unknown): { model: string | null; usage: NormalizedUsage | null; outputOnly: boolean } {
  if (value === null || typeof value !== 'object') return { model: null, usage: null, outputOnly: false }
  const rec = value as Record<string, unknown>
  const inner = (
    rec.response && typeof rec.response === 'object'
      ? rec.response
      : rec.type === 'message_start' && rec.message && typeof rec.message === 'object'
        ? rec.message
        : rec
  ) as Record<string, unknown>
  const model = typeof inner.model === 'string' ? inner.model : typeof inner.modelVersion === 'string' ? inner.modelVersion : null
  const raw = inner.usage ?? inner.usageMetadata
  // Anthropic's message_delta carries only the output count so far (newer API versions add the input ones).
  // A JSON usage that is no object reads undefined for every property: no type check needed.
  const u = (raw ?? {}) as Record<string, unknown>
  const deltaOutput = num(u.output_tokens)
  if (rec.type === 'message_delta' && num(u.input_tokens) === undefined && deltaOutput !== undefined) {
    return { model, usage: { inputTokens: 0, outputTokens: deltaOutput, totalTokens: deltaOutput }, outputOnly: true }
  }
  return { model, usage: normalizeUsage(raw), outputOnly: false }
}

/** Parses the JSON `data:` payloads of SSE events (skipping `[DONE]` and non-JSON data). */
export function sseDataObjects(events: readonly string[]): unknown[] {
  const out: unknown[] = []
  for (const event of events) {
    const data = event
      .split(/\r\n|\r|\n/)
      .filter((line) => line.startsWith('data:'))
      // JSON ignores the optional space after `data:`.
      .map((line) => line.slice(5))
      .join('\n')
    try {
      out.push(JSON.parse(data))
    } catch {
      // an empty data, `[DONE]` or other non-JSON data: ignored for usage purposes
    }
  }
  return out
}

/**
 * Extracts the answering model and normalized usage from a recorded response: a JSON body (or a JSON array of
 * chunks, as Gemini's `streamGenerateContent` without `alt=sse` answers), or a stream (OpenAI's final chunk
 * with `usage`, sent with `stream_options.include_usage`; the Responses API's `response.completed`;
 * Anthropic's `message_start` + `message_delta`; Gemini's last `usageMetadata`).
 */
export function extractModelAndUsage(response: RecordedResponse): { model: string | null; usage: NormalizedUsage | null } {
  // A response without json gives [undefined], in which usageOf finds nothing.
  const objects: unknown[] = response.sse ? sseDataObjects(response.sse) : Array.isArray(response.json) ? response.json : [response.json]
  let model: string | null = null
  let usage = null as NormalizedUsage | null
  for (const o of objects) {
    const found = usageOf(o)
    if (found.model) model = found.model
    if (!found.usage) continue
    if (found.outputOnly && usage) {
      const { outputTokens } = found.usage
      usage = { ...usage, outputTokens, totalTokens: usage.inputTokens + outputTokens }
    } else if (!found.outputOnly) usage = found.usage
  }
  return { model, usage }
}
