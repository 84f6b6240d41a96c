import type { NormalizedUsage, RecordedResponse } from './types.js'

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined
}

/**
 * Normalizes an OpenAI-style `usage` object: chat completions (`prompt_tokens`/`completion_tokens`),
 * the Responses API (`input_tokens`/`output_tokens`) and embeddings (`prompt_tokens` only).
 * Returns `null` when `usage` has neither shape.
 *
 * @example
 * ```ts
 * normalizeUsage({ prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 })
 * // { inputTokens: 9, outputTokens: 2, totalTokens: 11 }
 * ```
 */
export function normalizeUsage(usage: unknown): NormalizedUsage | null {
  if (usage === null || typeof usage !== 'object') return null
  const u = usage as Record<string, unknown>
  const input = num(u.prompt_tokens) ?? num(u.input_tokens)
  if (input === undefined) return null
  const output = num(u.completion_tokens) ?? num(u.output_tokens) ?? 0
  const out: NormalizedUsage = { inputTokens: input, outputTokens: output, totalTokens: num(u.total_tokens) ?? input + output }
  const inDetails = (u.prompt_tokens_details ?? u.input_tokens_details) as Record<string, unknown> | undefined
  const outDetails = (u.completion_tokens_details ?? u.output_tokens_details) as Record<string, unknown> | undefined
  const cached = num(inDetails?.cached_tokens)
  const reasoning = num(outDetails?.reasoning_tokens)
  if (cached !== undefined) out.cachedInputTokens = cached
  if (reasoning !== undefined) out.reasoningTokens = reasoning
  return out
}

/** Parses the JSON `data:` payloads of SSE events (skipping `[DONE]` and non-JSON data). */
export function sseDataObjects(events: readonly string[]): unknown[] {
  const out: unknown[] = []
  for (const event of events) {
    const data = event
      .split(/\r\n|\r|\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
      .join('\n')
    if (!data || data === '[DONE]') continue
    try {
      out.push(JSON.parse(data))
    } catch {
      // a non-JSON event: ignored for usage purposes
    }
  }
  return out
}

/**
 * Extracts the answering model and normalized usage from a recorded response: a JSON body
 * (`usage`, `model`), a chat completions stream (the final chunk with `usage`, sent with
 * `stream_options.include_usage`), or a Responses API stream (`response.completed`).
 */
export function extractModelAndUsage(response: RecordedResponse): { model: string | null; usage: NormalizedUsage | null } {
  const objects: unknown[] = response.sse ? sseDataObjects(response.sse) : response.json !== undefined ? [response.json] : []
  let model: string | null = null
  let usage: NormalizedUsage | null = null
  for (const o of objects) {
    if (o === null || typeof o !== 'object') continue
    const rec = o as Record<string, unknown>
    const inner = (rec.response && typeof rec.response === 'object' ? rec.response : rec) as Record<string, unknown>
    if (typeof inner.model === 'string') model = inner.model
    const u = normalizeUsage(inner.usage)
    if (u) usage = u
  }
  return { model, usage }
}
