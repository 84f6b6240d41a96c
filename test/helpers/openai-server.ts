/**
 * A scripted OpenAI-compatible HTTP server for tests, built on `node:http` and bound to 127.0.0.1 on an
 * ephemeral port. Point the real `openai` SDK at it with `new OpenAI({ baseURL, apiKey: 'test' })`.
 *
 * It answers:
 * - `POST /v1/chat/completions`: JSON, or SSE when `stream: true` (a final usage chunk with
 *   `stream_options.include_usage`, then `data: [DONE]`);
 * - `POST /v1/responses`: JSON, or the Responses API SSE events when `stream: true`;
 * - `POST /v1/embeddings`: float arrays, or base64 float32 when `encoding_format: 'base64'` (the SDK default);
 * - `POST /v1/audio/transcriptions` (multipart): `{ text }` naming the uploaded file and its size;
 * - `POST /v1/messages`: Anthropic's Messages API, JSON or its named SSE events when `stream: true`;
 * - `POST /v1beta/models/<model>:generateContent` and `:streamGenerateContent?alt=sse`: Gemini's API.
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
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string
  /** Path with query string, e.g. `/v1/chat/completions?api-version=1`. */
  url: string
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  /** Parsed JSON body, or `undefined` when the body is empty or not JSON. */
  body: any
  rawBody: string
  /** `'chat'`, `'responses'`, `'embeddings'`, `'transcription'`, `'anthropic'` (Messages API), `'gemini'`, or `'other'`. */
  endpoint: 'chat' | 'responses' | 'embeddings' | 'transcription' | 'anthropic' | 'gemini' | 'other'
  /** `body.stream === true`. */
  stream: boolean
  /** The text of the last user message (chat `messages`, Responses `input`, Gemini `contents`), or `''`. */
  lastUserText: string
  /** The body's bytes. */
  bytes: Buffer
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
  /** Send exactly these bytes (status 200 unless `status` says otherwise) with these headers, nothing else. */
  raw?: { body: string | Uint8Array; headers: Record<string, string> }
  /** Break the connection after this many SSE events (streams) or after the first half of a `raw` body. */
  breakAfter?: number
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

/** Options of {@link startOpenAIServer}. */
export interface OpenAIServerOptions {
  reply?: ReplyScript
}

function lastUserText(body: any): string {
  if (!body || typeof body !== 'object') return ''
  const fromContent = (c: unknown): string =>
    typeof c === 'string' ? c : Array.isArray(c) ? c.map((p: any) => (typeof p?.text === 'string' ? p.text : '')).join('') : ''
  if (Array.isArray(body.contents)) {
    const users = body.contents.filter((c: any) => c?.role === 'user' || c?.role === undefined)
    return (users.at(-1)?.parts ?? []).map((p: any) => (typeof p?.text === 'string' ? p.text : '')).join('')
  }
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
  const requests: RecordedRequest[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      void (async () => {
        const bytes = Buffer.concat(chunks)
        const rawBody = bytes.toString('utf8')
        let body: any
        try {
          body = rawBody ? JSON.parse(rawBody) : undefined
        } catch {
          body = undefined
        }
        const url = new URL(req.url ?? '/', 'http://127.0.0.1')
        const endpoint = endpointOf(url.pathname)
        const recorded: RecordedRequest = {
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body,
          rawBody,
          endpoint,
          stream: body?.stream === true || url.pathname.includes(':streamGenerateContent'),
          bytes,
          lastUserText: lastUserText(body),
        }
        const index = requests.length
        requests.push(recorded)
        try {
          const reply = await script(recorded, index)
          if (reply.latencyMs) await sleep(reply.latencyMs)
          await respond(recorded, reply, res)
        } catch (error) {
          send(res, 500, { error: { message: `script failed: ${(error as Error).message}`, type: 'server_error' } })
        }
      })()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const origin = `http://127.0.0.1:${port}`
  return {
    baseURL: `${origin}/v1`,
    origin,
    port,
    requests,
    setReply(next) {
      script = next
    },
    reset() {
      requests.length = 0
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}

function endpointOf(path: string): RecordedRequest['endpoint'] {
  if (path.endsWith('/chat/completions')) return 'chat'
  if (path.endsWith('/responses')) return 'responses'
  if (path.endsWith('/embeddings')) return 'embeddings'
  if (path.endsWith('/audio/transcriptions')) return 'transcription'
  if (path.endsWith('/messages')) return 'anthropic'
  if (/\/models\/[^/]+:(?:stream)?generateContent$/i.test(path)) return 'gemini'
  return 'other'
}

function send(res: ServerResponse, status: number, json: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(json)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), 'x-request-id': `req_${Date.now().toString(36)}`, ...headers })
  res.end(text)
}

async function respond(req: RecordedRequest, reply: ScriptedReply, res: ServerResponse): Promise<void> {
  const headers = reply.headers ?? {}
  if (reply.raw) {
    const bytes = typeof reply.raw.body === 'string' ? Buffer.from(reply.raw.body) : Buffer.from(reply.raw.body)
    if (reply.breakAfter !== undefined) {
      // Promise the whole body, send half of it, then drop the connection.
      res.writeHead(reply.status ?? 200, { ...reply.raw.headers, 'content-length': String(bytes.byteLength) })
      res.write(bytes.subarray(0, Math.floor(bytes.byteLength / 2)))
      setTimeout(() => res.socket?.destroy(), 20)
      return
    }
    res.writeHead(reply.status ?? 200, { ...reply.raw.headers, 'content-length': String(bytes.byteLength) })
    res.end(bytes)
    return
  }
  if (reply.status && reply.status >= 400) {
    const type = reply.status === 401 ? 'invalid_request_error' : reply.status === 429 ? 'rate_limit_exceeded' : 'server_error'
    send(res, reply.status, { error: { message: reply.errorMessage ?? `forced ${reply.status}`, type, code: type, param: null } }, headers)
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
  if (req.endpoint === 'embeddings') {
    const inputs: string[] = Array.isArray(req.body?.input) ? req.body.input : [String(req.body?.input ?? '')]
    const vectors = reply.embeddings ?? inputs.map(fakeEmbedding)
    const base64 = req.body?.encoding_format === 'base64'
    send(
      res,
      status,
      {
        object: 'list',
        data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: base64 ? float32Base64(v) : v })),
        model,
        usage: { prompt_tokens: inputTokens, total_tokens: inputTokens },
      },
      headers,
    )
    return
  }
  if (req.endpoint === 'transcription') {
    const file = /filename="([^"]*)"/.exec(req.rawBody)?.[1] ?? '?'
    send(res, status, { text: reply.text ?? `transcribed ${file} (${req.bytes.byteLength} bytes)` }, headers)
    return
  }
  if (req.endpoint === 'anthropic') {
    await respondAnthropic(req, reply, res, { model, text, inputTokens, outputTokens, status, headers })
    return
  }
  if (req.endpoint === 'gemini') {
    await respondGemini(req, reply, res, { text, inputTokens, outputTokens, status, headers })
    return
  }
  if (req.endpoint === 'chat') {
    const id = 'chatcmpl-test'
    if (!req.stream) {
      send(
        res,
        status,
        {
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
          usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
        },
        headers,
      )
      return
    }
    const includeUsage = req.body?.stream_options?.include_usage === true
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
    await streamEvents(res, status, headers, [...events.map((e) => `data: ${JSON.stringify(e)}\n\n`), 'data: [DONE]\n\n'], reply.chunkDelayMs, reply.breakAfter)
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

interface Answer {
  model?: string
  text: string
  inputTokens: number
  outputTokens: number
  status: number
  headers: Record<string, string>
}

/** Anthropic's Messages API: one message, or its named stream events. */
async function respondAnthropic(req: RecordedRequest, reply: ScriptedReply, res: ServerResponse, a: Answer): Promise<void> {
  const id = 'msg_test'
  const message = { id, type: 'message', role: 'assistant', model: a.model, content: [{ type: 'text', text: a.text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: a.inputTokens, output_tokens: a.outputTokens } }
  if (!req.stream) {
    send(res, a.status, message, a.headers)
    return
  }
  const ev = (type: string, data: object): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`
  const events = [
    ev('message_start', { message: { ...message, content: [], stop_reason: null, usage: { input_tokens: a.inputTokens, output_tokens: 1 } } }),
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ev('ping', {}),
    ...splitText(a.text).map((t) => ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: t } })),
    ev('content_block_stop', { index: 0 }),
    ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: a.outputTokens } }),
    ev('message_stop', {}),
  ]
  await streamEvents(res, a.status, a.headers, events, reply.chunkDelayMs, reply.breakAfter)
}

/** Gemini's generateContent, or streamGenerateContent as SSE (`alt=sse`). */
async function respondGemini(req: RecordedRequest, reply: ScriptedReply, res: ServerResponse, a: Answer): Promise<void> {
  const modelVersion = /\/models\/([^/:]+):/.exec(req.path)?.[1] ?? 'gemini-test'
  const usageMetadata = { promptTokenCount: a.inputTokens, candidatesTokenCount: a.outputTokens, totalTokenCount: a.inputTokens + a.outputTokens }
  const candidate = (text: string, finish: boolean) => ({ content: { parts: [{ text }], role: 'model' }, ...(finish ? { finishReason: 'STOP' } : {}), index: 0 })
  if (!req.stream) {
    send(res, a.status, { candidates: [candidate(a.text, true)], usageMetadata, modelVersion }, a.headers)
    return
  }
  const parts = splitText(a.text)
  const events = parts.map((t, i) => `data: ${JSON.stringify({ candidates: [candidate(t, i === parts.length - 1)], ...(i === parts.length - 1 ? { usageMetadata } : {}), modelVersion })}\r\n\r\n`)
  await streamEvents(res, a.status, a.headers, events, reply.chunkDelayMs, reply.breakAfter)
}

async function streamEvents(res: ServerResponse, status: number, headers: Record<string, string>, events: string[], delayMs = 0, breakAfter?: number): Promise<void> {
  res.writeHead(status, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-request-id': 'req_stream', ...headers })
  for (const [i, e] of events.entries()) {
    if (res.destroyed) return
    if (breakAfter !== undefined && i >= breakAfter) {
      await sleep(20)
      res.socket?.destroy()
      return
    }
    res.write(e)
    if (delayMs) await sleep(delayMs)
  }
  res.end()
}
