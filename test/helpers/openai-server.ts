/**
 * A scripted OpenAI-compatible HTTP server for tests, built on `node:http` and bound to 127.0.0.1 on an
 * ephemeral port. Point the real `openai` SDK at it with `new OpenAI({ baseURL, apiKey: 'test' })`.
 *
 * It answers:
 * - `POST /v1/chat/completions`: JSON, or SSE when `stream: true` (a final usage chunk with
 *   `stream_options.include_usage`, then `data: [DONE]`);
 * - `POST /v1/responses`: JSON, or the Responses API SSE events when `stream: true`;
 * - `POST /v1/embeddings`: float arrays, or base64 float32 when `encoding_format: 'base64'` (the SDK default).
 *
 * Every reply is scripted per test by a function from the request to a {@link ScriptedReply}; the default
 * script echoes the last user message. Forced statuses, extra headers and latency are part of the reply.
 *
 * @example
 * ```ts
 * const server = await startOpenAIServer({ reply: (req) => ({ text: `echo: ${req.lastUserText}` }) })
 * const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test' })
 * await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
 * server.requests.length // 1
 * await server.close()
 * ```
 */
import type { ServerResponse } from 'node:http'
import { sendJson, startScriptedHttpServer, type IncomingJson } from './scripted-http.js'

/** One request as the server saw it. */
export interface RecordedRequest extends IncomingJson {
  /** `'chat'`, `'responses'`, `'embeddings'`, or `'other'`. */
  endpoint: 'chat' | 'responses' | 'embeddings' | 'other'
  /** `body.stream === true`. */
  stream: boolean
  /** The text of the last user message (chat `messages` or Responses `input`), or `''`. */
  lastUserText: string
}

/** What the script returns for a request. Every field is optional. */
export interface ScriptedReply {
  /** Answer text for chat completions and the Responses API. Default: `echo: <last user text>`. */
  text?: string
  /** Embedding vectors for `/v1/embeddings`, one per input. Default: a deterministic 4-dimensional vector per input. */
  embeddings?: number[][]
  /** Force an HTTP status: >= 400 answers with an OpenAI-style error body. */
  status?: number
  /** The error message for a forced error status. */
  errorMessage?: string
  /** For a forced error status: this exact body (e.g. `''`) instead of an error object. */
  errorBody?: string
  /** Extra response headers. */
  headers?: Record<string, string>
  /** Delay before the response starts, in ms. */
  latencyMs?: number
  /** Delay between SSE events, in ms. */
  chunkDelayMs?: number
  /** Replace the whole JSON body (non-streaming). */
  json?: unknown
  /** Usage numbers to report (defaults derived from word counts). */
  usage?: { input: number; output: number }
  /** A chain of thought for the chat reply, placed as the server's `reasoningField` quirk says. */
  reasoning?: string
}

/** The script: a function from the request (and its 0-based index) to a reply. */
export type ReplyScript = (request: RecordedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>

/** A running server. */
export interface OpenAIServer {
  /** `http://127.0.0.1:<port>/v1`, for `new OpenAI({ baseURL })`. */
  baseURL: string
  /** `http://127.0.0.1:<port>`. */
  origin: string
  port: number
  /** Every request received, in order. */
  requests: RecordedRequest[]
  /** Replaces the script. */
  setReply(script: ReplyScript): void
  /** Clears the request log. */
  reset(): void
  /** Stops the server (closes idle and open connections). */
  close(): Promise<void>
}

/**
 * Ways real OpenAI-compatible servers differ from OpenAI, switched on per server (see
 * `local-servers.ts` for Ollama, vLLM and LM Studio presets and the sources of each difference).
 */
export interface ServerQuirks {
  /** Embeddings: send float arrays whatever `encoding_format` asks for. */
  embeddingsIgnoreEncodingFormat?: boolean
  /** Embeddings: ignore `dimensions` and send the model's native width (`nativeDimensions`, default 8). */
  embeddingsIgnoreDimensions?: boolean
  /** Width of the vectors when `dimensions` is ignored. */
  nativeDimensions?: number
  /** Leave `usage` out of every response (and of streams, even with `stream_options.include_usage`). */
  omitUsage?: boolean
  /**
   * The shape of error bodies: OpenAI's `{ error: { message, type } }` (default), vLLM's older
   * top-level `{ object: 'error', message, type, code }`, or LM Studio's `{ error: '<message>' }`.
   */
  errorShape?: 'openai' | 'top-level' | 'string'
  /** Chat: where the reply's reasoning goes when the script gives one: vLLM's `reasoning_content`, or `<think>` tags in `content`. */
  reasoningField?: 'reasoning_content' | 'think-tags'
}

/** Options of {@link startOpenAIServer}. */
export interface OpenAIServerOptions {
  reply?: ReplyScript
  quirks?: ServerQuirks
}

function lastUserText(body: any): string {
  if (!body || typeof body !== 'object') return ''
  const fromContent = (c: unknown): string =>
    typeof c === 'string' ? c : Array.isArray(c) ? c.map((p: any) => (typeof p?.text === 'string' ? p.text : '')).join('') : ''
  if (Array.isArray(body.messages)) {
    const users = body.messages.filter((m: any) => m?.role === 'user')
    return fromContent(users.at(-1)?.content)
  }
  if (typeof body.input === 'string') return body.input
  if (Array.isArray(body.input)) {
    const users = body.input.filter((m: any) => m?.role === 'user' || typeof m === 'string')
    const last = users.at(-1)
    return typeof last === 'string' ? last : fromContent(last?.content)
  }
  return ''
}

const words = (s: string): number => s.split(/\s+/).filter(Boolean).length

/** A deterministic small vector for a text (for embeddings). */
export function fakeEmbedding(text: string): number[] {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0
  // Values exactly representable as float32, so base64 and float encodings agree.
  return [0, 1, 2, 3].map((i) => (((h >>> (i * 8)) & 0xff) - 128) / 128)
}

/** A vector cut or zero-padded to `width` (for `dimensions`), or unchanged without one. */
function resize(vector: number[], width: number | undefined): number[] {
  if (width === undefined) return vector
  return Array.from({ length: width }, (_, i) => vector[i] ?? 0)
}

function float32Base64(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64')
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

function splitText(text: string): string[] {
  const parts = text.match(/\S+\s*/g) ?? [text]
  return parts.length > 0 ? parts : ['']
}

/**
 * Starts the server on 127.0.0.1 with an ephemeral port.
 */
export async function startOpenAIServer(options: OpenAIServerOptions = {}): Promise<OpenAIServer> {
  let script: ReplyScript = options.reply ?? (() => ({}))
  const quirks = options.quirks ?? {}
  const requests: RecordedRequest[] = []
  const server = await startScriptedHttpServer(async (incoming, res) => {
    const { path, body } = incoming
    const endpoint = path.endsWith('/chat/completions') ? 'chat' : path.endsWith('/responses') ? 'responses' : path.endsWith('/embeddings') ? 'embeddings' : 'other'
    const recorded: RecordedRequest = { ...incoming, endpoint, stream: body?.stream === true, lastUserText: lastUserText(body) }
    const index = requests.length
    requests.push(recorded)
    const reply = await script(recorded, index)
    if (reply.latencyMs) await sleep(reply.latencyMs)
    await respond(recorded, reply, res, quirks)
  })
  return {
    baseURL: `${server.origin}/v1`,
    origin: server.origin,
    port: server.port,
    requests,
    setReply(next) {
      script = next
    },
    reset() {
      requests.length = 0
    },
    close: () => server.close(),
  }
}

function send(res: ServerResponse, status: number, json: unknown, headers: Record<string, string> = {}): void {
  sendJson(res, status, json, { 'x-request-id': `req_${Date.now().toString(36)}`, ...headers })
}

function errorBody(status: number, message: string, shape: ServerQuirks['errorShape']): unknown {
  const type = status === 401 ? 'invalid_request_error' : status === 429 ? 'rate_limit_exceeded' : 'server_error'
  if (shape === 'top-level') return { object: 'error', message, type: status === 400 ? 'BadRequestError' : type, param: null, code: status }
  if (shape === 'string') return { error: message }
  return { error: { message, type, code: type, param: null } }
}

async function respond(req: RecordedRequest, reply: ScriptedReply, res: ServerResponse, quirks: ServerQuirks): Promise<void> {
  const headers = reply.headers ?? {}
  if (reply.status && reply.status >= 400 && reply.errorBody !== undefined) {
    res.writeHead(reply.status, { 'content-type': 'text/plain', ...headers })
    res.end(reply.errorBody)
    return
  }
  if (reply.status && reply.status >= 400) {
    send(res, reply.status, errorBody(reply.status, reply.errorMessage ?? `forced ${reply.status}`, quirks.errorShape), headers)
    return
  }
  const status = reply.status ?? 200
  if (reply.json !== undefined) {
    send(res, status, reply.json, headers)
    return
  }
  const model: string = req.body?.model ?? 'test-model'
  const text = reply.text ?? `echo: ${req.lastUserText}`
  const inputTokens = reply.usage?.input ?? Math.max(1, words(req.lastUserText))
  const outputTokens = reply.usage?.output ?? Math.max(1, words(text))
  const created = 1_700_000_000
  const usage = (u: object): object => (quirks.omitUsage ? {} : { usage: u })
  if (req.endpoint === 'embeddings') {
    const inputs: string[] = Array.isArray(req.body?.input) ? req.body.input : [String(req.body?.input ?? '')]
    const dimensions = quirks.embeddingsIgnoreDimensions ? undefined : (req.body?.dimensions as number | undefined)
    const width = quirks.embeddingsIgnoreDimensions ? (quirks.nativeDimensions ?? 8) : undefined
    const vectors = (reply.embeddings ?? inputs.map(fakeEmbedding)).map((v) => resize(v, dimensions ?? width))
    const base64 = req.body?.encoding_format === 'base64' && !quirks.embeddingsIgnoreEncodingFormat
    send(
      res,
      status,
      {
        object: 'list',
        data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: base64 ? float32Base64(v) : v })),
        model,
        ...usage({ prompt_tokens: inputTokens, total_tokens: inputTokens }),
      },
      headers,
    )
    return
  }
  if (req.endpoint === 'chat') {
    const id = 'chatcmpl-test'
    if (!req.stream) {
      const thinking = reply.reasoning !== undefined && quirks.reasoningField === 'think-tags' ? `<think>\n${reply.reasoning}\n</think>\n\n` : ''
      const reasoning = reply.reasoning !== undefined && quirks.reasoningField === 'reasoning_content' ? { reasoning_content: reply.reasoning } : {}
      send(
        res,
        status,
        {
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: `${thinking}${text}`, refusal: null, ...reasoning }, logprobs: null, finish_reason: 'stop' }],
          ...usage({ prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens }),
        },
        headers,
      )
      return
    }
    const includeUsage = req.body?.stream_options?.include_usage === true && !quirks.omitUsage
    const chunk = (delta: object, finish: string | null): object => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage ? { usage: null } : {}),
    })
    const events: object[] = [chunk({ role: 'assistant', content: '' }, null), ...splitText(text).map((p) => chunk({ content: p }, null)), chunk({}, 'stop')]
    if (includeUsage) events.push({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens } })
    await streamEvents(res, status, headers, [...events.map((e) => `data: ${JSON.stringify(e)}\n\n`), 'data: [DONE]\n\n'], reply.chunkDelayMs)
    return
  }
  if (req.endpoint === 'responses') {
    const id = 'resp_test'
    const msgId = 'msg_test'
    const usage = { input_tokens: inputTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: outputTokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: inputTokens + outputTokens }
    const outputItem = { id: msgId, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }
    const full = { id, object: 'response', created_at: created, status: 'completed', model, output: [outputItem], usage }
    if (!req.stream) {
      send(res, status, full, headers)
      return
    }
    const base = { id, object: 'response', created_at: created, model, output: [] as unknown[], usage: null }
    let seq = 0
    const ev = (type: string, data: object): string => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`
    const events = [
      ev('response.created', { response: { ...base, status: 'in_progress' } }),
      ev('response.in_progress', { response: { ...base, status: 'in_progress' } }),
      ev('response.output_item.added', { output_index: 0, item: { id: msgId, type: 'message', status: 'in_progress', role: 'assistant', content: [] } }),
      ev('response.content_part.added', { item_id: msgId, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
      ...splitText(text).map((delta) => ev('response.output_text.delta', { item_id: msgId, output_index: 0, content_index: 0, delta })),
      ev('response.output_text.done', { item_id: msgId, output_index: 0, content_index: 0, text }),
      ev('response.content_part.done', { item_id: msgId, output_index: 0, content_index: 0, part: { type: 'output_text', text, annotations: [] } }),
      ev('response.output_item.done', { output_index: 0, item: outputItem }),
      ev('response.completed', { response: full }),
    ]
    await streamEvents(res, status, headers, events, reply.chunkDelayMs)
    return
  }
  send(res, 404, { error: { message: `no such endpoint ${req.path}`, type: 'invalid_request_error' } })
}

async function streamEvents(res: ServerResponse, status: number, headers: Record<string, string>, events: string[], delayMs = 0): Promise<void> {
  res.writeHead(status, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-request-id': 'req_stream', ...headers })
  for (const e of events) {
    if (res.destroyed) return
    res.write(e)
    if (delayMs) await sleep(delayMs)
  }
  res.end()
}
