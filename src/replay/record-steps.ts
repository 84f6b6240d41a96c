/**
 * The steps of recording one request, as pure functions: what to send upstream, whether the answer is
 * recorded, the fixture written for it, the secrets that stop the write, and the messages. The engine
 * (`ReplayEngine.record`) does the I/O around them: the upstream fetch, the stream tee, the write lock
 * and the file write.
 *
 * @module
 */
import { formatMessage } from '../errors.js'
import { SCHEMA_VERSION } from './fixture.js'
import { modelOf, type RequestKey } from './key.js'
import { scanForSecrets, scanStreamText, type SecretFinding } from './secrets.js'
import type { Fixture, RecordedResponse } from './types.js'
import { extractModelAndUsage } from './usage.js'

/**
 * Request errors that depend only on the request (the server refuses it every time), recorded by default
 * so that a client's fallback after them replays. Transient and credential errors are recorded only with
 * `recordErrors`.
 */
export const DETERMINISTIC_ERRORS: ReadonlySet<number> = new Set([400, 404, 405, 413, 415, 422])

/**
 * The request to send upstream: the app's own when the target is where it was going, otherwise a copy
 * aimed at the target (the `upstream` option) with the same method, headers, body and redirect mode.
 *
 * @example
 * ```ts
 * upstreamRequest(request, body, new URL('http://127.0.0.1:8080/v1/chat/completions'))
 * ```
 */
export function upstreamRequest(request: Request, body: Uint8Array, target: URL): Request {
  if (target.href === request.url) return request
  return new Request(target, { method: request.method, headers: request.headers, ...(body.byteLength > 0 ? { body } : {}), redirect: request.redirect })
}

/**
 * Whether an answer is recorded: a success, a deterministic request error, or any status with `recordErrors`.
 *
 * @example
 * ```ts
 * isRecordable(429, undefined) // false: transient, the SDK retries it
 * ```
 */
export function isRecordable(status: number, recordErrors: boolean | undefined): boolean {
  return (status >= 200 && status < 300) || recordErrors === true || DETERMINISTIC_ERRORS.has(status)
}

/** What {@link buildFixture} needs besides the (redacted, shaped) response. */
export interface FixtureFacts {
  key: RequestKey
  /** The response (or responses) as they will be stored. */
  shaped: Pick<Fixture, 'response' | 'responses'>
  /** The redacted response, where the model and token usage are read. */
  redacted: RecordedResponse
  durationMs: number
  recordedAt: Date
  userAgent: string | null
  /** The test file relative to the project root, `null` outside a test. */
  testFile: string | null
}

/**
 * The fixture written for a recorded exchange.
 *
 * @example
 * ```ts
 * const fixture = buildFixture({
 *   key, shaped: { response }, redacted: response, durationMs: 120, recordedAt: new Date(), userAgent: null, testFile: 'test/a.test.ts',
 * })
 * ```
 */
export function buildFixture({ key, shaped, redacted, durationMs, recordedAt, userAgent, testFile }: FixtureFacts): Fixture {
  const { model, usage } = extractModelAndUsage(redacted)
  return {
    schemaVersion: SCHEMA_VERSION,
    hash: key.hash,
    key: key.material,
    ...shaped,
    meta: {
      recordedAt: recordedAt.toISOString(),
      durationMs,
      endpoint: key.endpoint,
      model: model ?? modelOf(key.material),
      usage,
      sdkUserAgent: userAgent,
      testFile,
    },
  }
}

/**
 * The secrets a fixture would contain (key-shaped strings and the values of key variables in the
 * environment), in its JSON and in the text of its recorded event streams.
 *
 * @example
 * ```ts
 * if (fixtureSecrets(fixture).length > 0) // do not write it
 * ```
 */
export function fixtureSecrets(fixture: Fixture, env: NodeJS.ProcessEnv = process.env): SecretFinding[] {
  const findings = scanForSecrets(fixture, env)
  for (const [i, r] of (fixture.responses ?? [fixture.response]).entries()) {
    // Stryker disable next-line OptionalChaining: equivalent, a fixture always holds response or responses, so r is never undefined here
    if (r?.sse) findings.push(...scanStreamText(r.sse, fixture.responses ? `/responses/${i}/sse` : '/response/sse', env))
  }
  return findings
}

/**
 * The problem reported instead of writing a fixture with secrets (the first five are named).
 *
 * @example
 * ```ts
 * secretsMessage([{ what: 'an OpenAI API key', path: '/key/headers/authorization' }], 'test/__llm_fixtures__/a.json')
 * ```
 */
export function secretsMessage(findings: readonly SecretFinding[], relFile: string): string {
  const list = findings
    .slice(0, 5)
    .map((f) => `${f.what} at ${f.path}`)
    .join('; ')
  return formatMessage(
    `Failed to write fixture ${relFile}: it would contain ${list}. Nothing was written. Keep secrets out ` +
      `of prompts and responses, or strip them with configure({ replay: { redact } }), then record again.`,
  )
}

/**
 * The problem reported when the upstream request itself failed (no answer at all).
 *
 * @example
 * ```ts
 * upstreamFailureMessage('POST /v1/chat/completions', 'http://127.0.0.1:9', new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') }))
 * ```
 */
export function upstreamFailureMessage(what: string, origin: string, error: unknown): string {
  const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message
  return formatMessage(`Failed to record ${what}: the request to ${origin} failed (${cause}). Check that the server is reachable, then run again.`)
}

/**
 * Reads a whole body, keeping what arrived when the stream breaks (the app then gets those bytes and the
 * same error, as it would live).
 *
 * @example
 * ```ts
 * const { chunks, broken } = await readWholeBody(response.body)
 * ```
 */
export async function readWholeBody(body: ReadableStream<Uint8Array> | null): Promise<{ chunks: Uint8Array[]; broken?: unknown }> {
  const chunks: Uint8Array[] = []
  if (!body) return { chunks }
  const reader = body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return { chunks }
      chunks.push(value)
    }
  } catch (error) {
    return { chunks, broken: error ?? new Error('the body stream failed') }
  }
}
