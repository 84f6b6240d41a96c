/**
 * Public types of the record/replay engine (`expect-llm/replay`).
 * @packageDocumentation
 */

/**
 * How model HTTP traffic is handled.
 *
 * - `replay` (default, and forced when `CI` is set unless `EXPECT_LLM_ALLOW_RECORD_IN_CI=1`): serve fixtures, fail on a miss, never touch the network.
 * - `record`: serve what exists, record what is missing.
 * - `rerecord`: record every request again, overwriting fixtures.
 * - `live`: no fixtures are read or written; requests go to the network.
 */
export type ReplayMode = 'replay' | 'record' | 'rerecord' | 'live'

/** The request part of a fixture: everything the fixture key is computed from (never headers). */
export interface KeyMaterial {
  /** Key schema version. Bumping it makes every fixture re-record. */
  v: number
  /** Upper-case HTTP method. */
  method: string
  /** Scheme, host and port, e.g. `https://api.openai.com`. */
  origin: string
  /** URL path, e.g. `/v1/chat/completions`. */
  path: string
  /** Query parameters as sorted `[name, value]` pairs, secret-looking ones removed. */
  query: Array<[string, string]>
  /**
   * The body: JSON with keys sorted recursively and `ignoreBodyFields` removed (an integer beyond 2^53 is kept
   * exactly as `{ "$bigint": "<digits>" }`), the parts of a multipart form, the text, base64 bytes, or `null`.
   */
  body: unknown
  /**
   * How the body was read: `json`, `multipart` (a list of parts: name, file name, content type, and the value of a
   * text part or the size and sha256 of a file part), `text` (UTF-8), `base64` (binary), or `none`.
   */
  bodyType: 'json' | 'multipart' | 'text' | 'base64' | 'none'
}

/** A recorded HTTP response. Exactly one of `json`, `sse`, `text`, `base64` holds the body (none for an empty body). */
export interface RecordedResponse {
  status: number
  statusText?: string
  /** Allow-listed response headers, lower-case names. */
  headers: Record<string, string>
  /**
   * A JSON body (content type `application/json` or `+json`), as parsed: its keys keep the order the server sent.
   * Stored only when serializing it again gives back the exact bytes (see `jsonSpace`); otherwise the body is `text`.
   */
  json?: unknown
  /** The indentation the server used for `json` (e.g. `2`), when it was not compact. */
  jsonSpace?: number
  /** `true` when the server ended the `json` body with a newline. */
  jsonNewline?: boolean
  /** A `text/event-stream` body, one string per event (terminator included), in order. */
  sse?: string[]
  /** Milliseconds from the start of the response to each `sse` chunk (for `replayTiming: 'recorded'`). */
  chunkOffsetsMs?: number[]
  /** A text body, exactly as received (non-JSON text, or JSON that would change if serialized again, e.g. big integers). */
  text?: string
  /** A binary body, base64-encoded. */
  base64?: string
  /** Sequence mode: this call's recorded duration in ms (`meta.durationMs` holds the last call's). */
  durationMs?: number
}

/** Token usage normalized across chat completions, the Responses API and embeddings. */
export interface NormalizedUsage {
  inputTokens: number
  outputTokens: number
  totalTokens: number
  cachedInputTokens?: number
  reasoningTokens?: number
}

/** Informational data about a recording. Never part of the key. */
export interface FixtureMeta {
  /** ISO time of the recording. */
  recordedAt: string
  /** Wall time from sending the request to the end of the response body, in ms. */
  durationMs: number
  /** Endpoint slug, e.g. `chat-completions`. */
  endpoint: string
  /** The model that answered (from the response, else the request), or `null`. */
  model: string | null
  /** Normalized token usage, or `null` when the response carried none (e.g. streamed chat without `include_usage`). */
  usage: NormalizedUsage | null
  /** The recording client's `user-agent` (e.g. `OpenAI/JS 7.59.0`), or `null`. */
  sdkUserAgent: string | null
  /** The test file that recorded it, relative to the project root (informational). */
  testFile: string | null
}

/** One fixture file, as stored on disk (schema version 1). */
export interface Fixture {
  schemaVersion: 1
  /** Full sha256 (hex) of the canonical key material; the file name carries its first 16 characters. */
  hash: string
  key: KeyMaterial
  /** The response served for every identical request (default). */
  response?: RecordedResponse
  /** Sequence mode: responses served in call order within a test. */
  responses?: RecordedResponse[]
  meta: FixtureMeta
}

/** What the `redact` hook receives and returns. `response` is absent when the hook runs for the key only. */
export interface RedactInput {
  key: KeyMaterial
  response?: RecordedResponse
}

/**
 * Record/replay settings, set with `configure({ replay })` or passed to `llmReplay(options)`.
 * Explicit `llmReplay` options win over `configure()`; the `EXPECT_LLM_REPLAY` variable wins over both for the mode.
 */
export interface ReplayOptions {
  /** The mode when `EXPECT_LLM_REPLAY` is not set. Default `replay`. */
  mode?: ReplayMode
  /**
   * A central fixture directory (relative to `rootDir`). When set, fixtures live at
   * `<dir>/<test file path relative to rootDir>/<endpoint>.<hash16>.json`. When unset (default), at
   * `<test dir>/__llm_fixtures__/<test file name>/<endpoint>.<hash16>.json`.
   */
  dir?: string
  /** The project root: base of relative paths and of the lookup by hash. Default `process.cwd()`. */
  rootDir?: string
  /**
   * Extra origins to intercept, e.g. `'http://127.0.0.1:11434'`; `*` matches a DNS label or part of one
   * (`'https://*.example.com'`) and a port (`'http://127.0.0.1:*'`). The well-known provider hosts (OpenAI, Azure
   * OpenAI, Anthropic, Gemini, Vertex AI, Mistral, Groq, Together, Fireworks, DeepSeek, OpenRouter, Cohere, Voyage,
   * Perplexity, xAI, Bedrock) and the `baseURL` origins of expect-llm's own judge and embedder are always included.
   */
  hosts?: string[]
  /**
   * Origins that may reach the network in `replay` mode: they are never recorded or replayed, and the CI network
   * rule lets them through. Use it for a live local server that the judge or embedder should really call (their
   * hosts are otherwise intercepted automatically), or for a non-model API your tests call on purpose in CI.
   * Loopback hosts (`localhost`, `127.0.0.1`, `[::1]`) pass the CI rule without being listed. Same pattern syntax as `hosts`.
   */
  allowedHosts?: string[]
  /**
   * While recording, send the requests for an origin to another server instead (a local stand-in or a proxy):
   * `{ 'https://api.openai.com': 'http://127.0.0.1:8080' }`. Fixtures stay keyed by the original origin, so they
   * replay for the real host. A loopback upstream needs no API key.
   */
  upstream?: Record<string, string>
  /** Body fields left out of the key, as dot paths (`'user'`, `'metadata.trace_id'`) or JSON pointers (`'/metadata/trace_id'`). */
  ignoreBodyFields?: string[]
  /** Rewrites key material (before hashing) and responses (before writing), e.g. to remove PII. Must be deterministic. */
  redact?: (fixture: RedactInput) => RedactInput
  /**
   * Fixtures recorded longer ago than this (ms, or `'90d'`, `'12h'`) still replay, with one warning per
   * file naming the record command; `expect-llm fixtures verify --max-age` fails on them.
   */
  maxAge?: number | string
  /** Serve several recorded responses for identical requests, in call order within each test (sampling at temperature > 0). */
  sequence?: boolean
  /**
   * Also record transient and credential errors (401, 403, 408, 409, 429, 5xx), to test error handling. They replay
   * with `x-should-retry: false`. Default `false`. Deterministic request errors (400, 404, 405, 413, 415, 422: the
   * server refused this request) are always recorded, so that a client's fallback (e.g. a server that rejects
   * `response_format`) replays too.
   */
  recordErrors?: boolean
  /** `'recorded'` replays SSE chunks with their recorded pacing. Default `'none'` (as fast as the app reads). */
  replayTiming?: 'none' | 'recorded'
  /** Returns the path of the running test file. Default: the runner's `expect.getState().testPath`. */
  testPath?: () => string | undefined
  /** Returns the running test's name (sequence mode counters). Default: `expect.getState().currentTestName`. */
  testName?: () => string | undefined
}

/** A problem found while handling a request (a miss, a corrupt fixture, a refused write). */
export interface ReplayProblem {
  kind: 'miss' | 'corrupt' | 'secret' | 'write' | 'credentials' | 'record' | 'network' | 'escape'
  /** The full user-facing message. */
  message: string
  /** The test file the request came from, if known. */
  testPath?: string
  /** The test name at the time of the request (unreliable under `test.concurrent`). */
  testName?: string
}

/** Fixture usage for one test file. */
export interface FixtureSummary {
  testPath: string | null
  /** The folder that holds this test file's fixtures. */
  folder: string
  /** Fixture files served during the run. */
  used: string[]
  /** Fixture files written during the run. */
  created: string[]
  /** Fixture files in the folder that were neither used nor written. */
  unused: string[]
}
