/**
 * Recorded bodies, byte for byte: how a response body is stored (JSON only when the content type says so
 * and serializing it again gives back the same bytes; otherwise the exact text or bytes) and how a
 * recorded response is turned back into a `Response`.
 * @packageDocumentation
 */
import { pullStream } from './sse.js'
import type { RecordedResponse } from './types.js'

/** Response headers kept in fixtures (and passed to the app while recording). Everything else is dropped. */
const ALLOWED_RESPONSE_HEADERS = [
  /^content-type$/,
  /^x-request-id$/,
  /^request-id$/,
  /^openai-processing-ms$/,
  /^openai-version$/,
  /^openai-model$/,
  /^anthropic-ratelimit-/,
  /^x-ratelimit-/,
  /^retry-after(?:-ms)?$/,
  /^x-should-retry$/,
  /^apim-request-id$/,
]

/** Keeps only allow-listed response headers (lower-case names). */
export function allowListHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {}
  headers.forEach((value, name) => {
    const n = name.toLowerCase()
    if (ALLOWED_RESPONSE_HEADERS.some((re) => re.test(n))) out[n] = value
  })
  return out
}

/** `true` for `application/json`, `application/problem+json` and the like (not NDJSON, which is text). */
export function isJsonContentType(contentType: string | null | undefined): boolean {
  // Stryker disable next-line StringLiteral: equivalent, any stand-in for a missing content type that is not a JSON type gives false too
  const type = contentType ?? ''
  const ct = type.toLowerCase().split(';')[0]!.trim()
  return ct === 'application/json' || ct === 'text/json' || ct.endsWith('+json')
}

/** The layouts a server may use for JSON that {@link recordBody} can reproduce exactly. */
const JSON_LAYOUTS: ReadonlyArray<{ space?: number; newline?: boolean }> = [
  {},
  { newline: true },
  { space: 2 },
  { space: 2, newline: true },
  { space: 4 },
  { space: 4, newline: true },
]

/** Serializes a recorded JSON body the way the server sent it. */
export function jsonText(rec: Pick<RecordedResponse, 'json' | 'jsonSpace' | 'jsonNewline'>): string {
  return `${JSON.stringify(rec.json, null, rec.jsonSpace)}${rec.jsonNewline ? '\n' : ''}`
}

/**
 * Turns a complete non-SSE body into its stored form:
 * - `json` when the content type says JSON and serializing the parsed value again (compact, or indented like
 *   the server did) gives back the exact text; anything else (big integers, `1.50`, unusual spacing, escapes) is
 *   kept as `text`;
 * - `text` for other valid UTF-8 text types (`text/*`, XML, JSON that would change);
 * - `base64` for everything else (binary, `application/octet-stream`), so the bytes replay exactly.
 */
export function recordBody(bytes: Uint8Array, contentType: string | null): Pick<RecordedResponse, 'json' | 'jsonSpace' | 'jsonNewline' | 'text' | 'base64'> {
  if (bytes.byteLength === 0) return {}
  const ct = (contentType ?? '').toLowerCase()
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return { base64: Buffer.from(bytes).toString('base64') }
  }
  if (isJsonContentType(ct)) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return { text }
    }
    for (const layout of JSON_LAYOUTS) {
      const candidate = { json: parsed, ...(layout.space ? { jsonSpace: layout.space } : {}), ...(layout.newline ? { jsonNewline: true } : {}) }
      if (jsonText(candidate) === text) return candidate
    }
    return { text }
  }
  if (ct === '' || ct.startsWith('text/') || ct.includes('xml') || ct.includes('json') || ct.includes('x-www-form-urlencoded')) return { text }
  return { base64: Buffer.from(bytes).toString('base64') }
}

/** The bytes of a recorded non-SSE body, or `null` when it has none. */
export function recordedBytes(rec: RecordedResponse): string | Uint8Array | null {
  if (rec.json !== undefined) return jsonText(rec)
  if (rec.text !== undefined) return rec.text
  if (rec.base64 !== undefined) return new Uint8Array(Buffer.from(rec.base64, 'base64'))
  return null
}

/** Builds a replay response from a recorded one: pull-based body, `x-should-retry: false` on errors. */
// Stryker disable next-line StringLiteral: equivalent, the default only has to differ from 'recorded' (no pacing)
export function toResponse(rec: RecordedResponse, timing: 'none' | 'recorded' = 'none', extraHeaders: Record<string, string> = {}): Response {
  const headers = new Headers(rec.headers)
  for (const [k, v] of Object.entries(extraHeaders)) headers.set(k, v)
  if (rec.status >= 400) headers.set('x-should-retry', 'false')
  let body: ReadableStream<Uint8Array> | null = null
  let whole: string | Uint8Array | null = null
  if (rec.sse) body = pullStream(rec.sse, timing === 'recorded' ? rec.chunkOffsetsMs : undefined)
  else if (rec.status >= 400) {
    // Error bodies stay pull-based: under msw 2 a retried error awaits cancel() of its body, which only
    // settles for pull streams (x-should-retry: false prevents the retry, but a user override may not).
    const bytes = recordedBytes(rec)
    if (bytes !== null) body = pullStream([bytes])
  } else {
    // A complete 2xx body is read to the end by clients, so a plain body is safe in both msw majors and
    // much cheaper than a stream.
    whole = recordedBytes(rec)
  }
  if ([204, 205, 304].includes(rec.status)) {
    body = null
    whole = null
  }
  // The recorded content-length was dropped (a stale one hangs msw 3); the exact length of the replayed
  // body lets the client read it without chunked framing.
  if (whole !== null) headers.set('content-length', String(Buffer.byteLength(whole)))
  return new Response(body ?? whole, { status: rec.status, statusText: rec.statusText ?? '', headers })
}

/**
 * Headers that make a streamed response fail for the app the way the live one did when its body breaks:
 * with an explicit chunked framing, msw 3 ends an errored body without the final chunk, so the client
 * sees `terminated` instead of a normal end (without it, msw 3 just closes the socket, which reads as a
 * complete body). msw 2 hands the stream to the client directly and propagates the error either way.
 */
export const BREAKABLE_STREAM_HEADERS: Readonly<Record<string, string>> = { 'transfer-encoding': 'chunked' }

/** A body that yields `received` and then fails with `error`, as a connection broken mid-body does. */
export function brokenBody(received: readonly Uint8Array[], error: unknown): ReadableStream<Uint8Array> {
  let i = 0
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (i < received.length) controller.enqueue(received[i++]!)
        else controller.error(error)
      },
    },
    { highWaterMark: 0 },
  )
}
