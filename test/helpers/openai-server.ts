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
 * - `POST /v1/messages`: the Anthropic Messages API, JSON or its SSE events when `stream: true`
 *   (point `new Anthropic({ baseURL: server.origin })` or `createAnthropic({ baseURL: server.baseURL })` at
 *   it), with a `thinking` block for a scripted `reasoning` and Anthropic's error bodies.
 *
 * A reply with `toolCalls` answers with tool calls in each wire format: chat `tool_calls` (streamed as
 * argument deltas), Responses `function_call` items (with `response.function_call_arguments.delta`
 * events), Anthropic `tool_use` blocks (with `input_json_delta` events).
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
  /** `'chat'`, `'responses'`, `'embeddings'`, `'transcription'`, `'messages'` (Anthropic), or `'other'`. */
  endpoint: 'chat' | 'responses' | 'embeddings' | 'transcription' | 'messages' | 'other'
  /** `body.stream === true`. */
  stream: boolean
  /** The text of the last user message (chat `messages` or Responses `input`), or `''`. */
  lastUserText: string
}

/** A tool call the scripted model makes. */
export interface ScriptedToolCall {
  name: string
  /** The arguments: an object (sent as JSON), or a string sent verbatim (so a test can send broken JSON). */
  arguments: unknown
  /** The call id. Default: derived from the request body and the call's position, so it is the same on every run. */
  id?: string
}

/** What the script returns for a request. Every field is optional. */
export interface ScriptedReply {
  /** Answer text for chat completions, the Responses API and Anthropic messages. Default: `echo: <last user text>`, or none when `toolCalls` are given. */
  text?: string
  /** Tool calls to make (after the text, if any): the reply then stops for tool use. */
  toolCalls?: ScriptedToolCall[]
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
  /**
   * A chain of thought: for chat, placed as the server's `reasoningField` quirk says; for Anthropic
   * messages, a `thinking` block before the text (adaptive-thinking models).
   */
  reasoning?: string
  /** Anthropic messages: the `stop_reason` (default `end_turn`, or `tool_use` with tool calls), e.g. `max_tokens`. */
  stopReason?: string
  /** Send exactly these bytes (status 200 unless `status` says otherwise) with these headers, nothing else. */
  raw?: { body: string | Uint8Array; headers: Record<string, string> }
  /** Break the connection after this many SSE events (streams), or after half of a `raw` body. */
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

function fnv(text: string): number {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0
  return h
}

/** Tool-call arguments in up to three pieces, as models stream them (cut anywhere, even inside a string). */
function splitJson(text: string): string[] {
  if (text.length < 6) return [text]
  const third = Math.ceil(text.length / 3)
  return [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)].filter((p) => p !== '')
}

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
    const endpoint = path.endsWith('/chat/completions')
      ? 'chat'
      : path.endsWith('/responses')
        ? 'responses'
        : path.endsWith('/embeddings')
          ? 'embeddings'
          : path.endsWith('/messages')
            ? 'messages'
            : path.endsWith('/audio/transcriptions')
              ? 'transcription'
              : 'other'
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

/** Anthropic's error types by status (its API reference, "Errors"). */
const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
}

function errorBody(status: number, message: string, shape: ServerQuirks['errorShape']): unknown {
  const type = status === 401 ? 'invalid_request_error' : status === 429 ? 'rate_limit_exceeded' : 'server_error'
  if (shape === 'top-level') return { object: 'error', message, type: status === 400 ? 'BadRequestError' : type, param: null, code: status }
  if (shape === 'string') return { error: message }
  return { error: { message, type, code: type, param: null } }
}

async function respond(req: RecordedRequest, reply: ScriptedReply, res: ServerResponse, quirks: ServerQuirks): Promise<void> {
  const headers = reply.headers ?? {}
  if (reply.raw) {
    const bytes = Buffer.from(reply.raw.body)
    res.writeHead(reply.status ?? 200, { ...reply.raw.headers, 'content-length': String(bytes.byteLength) })
    if (reply.breakAfter === undefined) {
      res.end(bytes)
      return
    }
    // Promise the whole body, send half of it, then drop the connection.
    res.write(bytes.subarray(0, Math.floor(bytes.byteLength / 2)))
    setTimeout(() => res.socket?.destroy(), 20)
    return
  }
  if (req.endpoint === 'transcription' && !(reply.status && reply.status >= 400)) {
    const file = /filename="([^"]*)"/.exec(req.rawBody)?.[1] ?? '?'
    send(res, reply.status ?? 200, { text: reply.text ?? `transcribed ${file} (${req.bytes.byteLength} bytes)` }, headers)
    return
  }
  if (reply.status && reply.status >= 400 && reply.errorBody !== undefined) {
    res.writeHead(reply.status, { 'content-type': 'text/plain', ...headers })
    res.end(reply.errorBody)
    return
  }
  if (reply.status && reply.status >= 400) {
    if (req.endpoint === 'messages') {
      const type = ANTHROPIC_ERROR_TYPES[reply.status] ?? 'api_error'
      send(
        res,
        reply.status,
        { type: 'error', error: { type, message: reply.errorMessage ?? `forced ${reply.status}` } },
        { 'request-id': 'req_test', ...headers },
      )
      return
    }
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
  const calls = (reply.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_${fnv(`${req.rawBody}\0${i}`).toString(36)}`,
    name: c.name,
    arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
  }))
  // With tool calls and no scripted text, the reply is the calls alone (as models usually answer).
  const replyText: string | undefined = reply.toolCalls && reply.text === undefined ? undefined : text
  if (req.endpoint === 'chat') {
    const id = 'chatcmpl-test'
    const finish = calls.length > 0 ? 'tool_calls' : 'stop'
    const toolCalls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }))
    if (!req.stream) {
      const thinking = reply.reasoning !== undefined && quirks.reasoningField === 'think-tags' ? `<think>\n${reply.reasoning}\n</think>\n\n` : ''
      const reasoning = reply.reasoning !== undefined && quirks.reasoningField === 'reasoning_content' ? { reasoning_content: reply.reasoning } : {}
      const content = replyText === undefined ? null : `${thinking}${replyText}`
      const message = { role: 'assistant', content, refusal: null, ...reasoning, ...(calls.length > 0 ? { tool_calls: toolCalls } : {}) }
      send(
        res,
        status,
        {
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
          ...usage({ prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens }),
        },
        headers,
      )
      return
    }
    const includeUsage = req.body?.stream_options?.include_usage === true && !quirks.omitUsage
    const chunk = (delta: object, finishReason: string | null): object => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(includeUsage ? { usage: null } : {}),
    })
    const events: object[] = [chunk({ role: 'assistant', content: replyText === undefined ? null : '' }, null)]
    if (replyText !== undefined) events.push(...splitText(replyText).map((p) => chunk({ content: p }, null)))
    calls.forEach((c, index) => {
      events.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }, null))
      for (const piece of splitJson(c.arguments)) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null))
    })
    events.push(chunk({}, finish))
    if (includeUsage)
      events.push({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices: [],
        usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
      })
    await streamEvents(res, status, headers, [...events.map((e) => `data: ${JSON.stringify(e)}\n\n`), 'data: [DONE]\n\n'], reply.chunkDelayMs, reply.breakAfter)
    return
  }
  if (req.endpoint === 'responses') {
    const id = 'resp_test'
    const msgId = 'msg_test'
    const usage = {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inputTokens + outputTokens,
    }
    const messageItem =
      replyText === undefined
        ? undefined
        : { id: msgId, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: replyText, annotations: [] }] }
    const callItems = calls.map((c) => ({
      id: `fc_${c.id.replace(/^call_/, '')}`,
      type: 'function_call',
      status: 'completed',
      call_id: c.id,
      name: c.name,
      arguments: c.arguments,
    }))
    const output: object[] = [...(messageItem ? [messageItem] : []), ...callItems]
    const full = { id, object: 'response', created_at: created, status: 'completed', model, output, usage }
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
    ]
    if (messageItem && replyText !== undefined) {
      events.push(
        ev('response.output_item.added', { output_index: 0, item: { id: msgId, type: 'message', status: 'in_progress', role: 'assistant', content: [] } }),
        ev('response.content_part.added', { item_id: msgId, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
        ...splitText(replyText).map((delta) => ev('response.output_text.delta', { item_id: msgId, output_index: 0, content_index: 0, delta })),
        ev('response.output_text.done', { item_id: msgId, output_index: 0, content_index: 0, text: replyText }),
        ev('response.content_part.done', {
          item_id: msgId,
          output_index: 0,
          content_index: 0,
          part: { type: 'output_text', text: replyText, annotations: [] },
        }),
        ev('response.output_item.done', { output_index: 0, item: messageItem }),
      )
    }
    callItems.forEach((item, i) => {
      const output_index = (messageItem ? 1 : 0) + i
      events.push(ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } }))
      for (const delta of splitJson(item.arguments)) events.push(ev('response.function_call_arguments.delta', { item_id: item.id, output_index, delta }))
      events.push(
        ev('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments }),
        ev('response.output_item.done', { output_index, item }),
      )
    })
    events.push(ev('response.completed', { response: full }))
    await streamEvents(res, status, headers, events, reply.chunkDelayMs)
    return
  }
  if (req.endpoint === 'messages') {
    await respondAnthropic(req, res, {
      status,
      headers,
      model,
      text: replyText,
      thinking: reply.reasoning,
      stopReason: reply.stopReason,
      calls,
      inputTokens,
      outputTokens,
      chunkDelayMs: reply.chunkDelayMs,
      breakAfter: reply.breakAfter,
    })
    return
  }
  send(res, 404, { error: { message: `no such endpoint ${req.path}`, type: 'invalid_request_error' } })
}

async function streamEvents(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  events: string[],
  delayMs = 0,
  breakAfter?: number,
): Promise<void> {
  res.writeHead(status, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-request-id': 'req_stream', ...headers })
  for (const [i, e] of events.entries()) {
    if (res.destroyed) return
    if (breakAfter !== undefined && i >= breakAfter) {
      // A connection that drops mid-stream.
      await sleep(20)
      res.socket?.destroy()
      return
    }
    res.write(e)
    if (delayMs) await sleep(delayMs)
  }
  res.end()
}

interface AnthropicReply {
  status: number
  headers: Record<string, string>
  model: string
  text: string | undefined
  thinking: string | undefined
  stopReason: string | undefined
  calls: Array<{ id: string; name: string; arguments: string }>
  inputTokens: number
  outputTokens: number
  chunkDelayMs: number | undefined
  breakAfter?: number | undefined
}

/** The Anthropic Messages API: a `message` object, or its SSE events (`message_start` ... `message_stop`). */
async function respondAnthropic(req: RecordedRequest, res: ServerResponse, r: AnthropicReply): Promise<void> {
  const id = `msg_${fnv(req.rawBody).toString(36)}`
  const input = (args: string): unknown => {
    try {
      return JSON.parse(args)
    } catch {
      return args
    }
  }
  const toolId = (callId: string): string => callId.replace(/^call_/, 'toolu_')
  const content: object[] = [
    ...(r.thinking !== undefined ? [{ type: 'thinking', thinking: r.thinking, signature: 'c2lnbmF0dXJl' }] : []),
    ...(r.text !== undefined ? [{ type: 'text', text: r.text }] : []),
    ...r.calls.map((c) => ({ type: 'tool_use', id: toolId(c.id), name: c.name, input: input(c.arguments) })),
  ]
  const stopReason = r.stopReason ?? (r.calls.length > 0 ? 'tool_use' : 'end_turn')
  const usage = { input_tokens: r.inputTokens, output_tokens: r.outputTokens }
  if (!req.stream) {
    send(
      res,
      r.status,
      { id, type: 'message', role: 'assistant', model: r.model, content, stop_reason: stopReason, stop_sequence: null, usage },
      { 'request-id': `req_${id}`, ...r.headers },
    )
    return
  }
  const ev = (type: string, data: object): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`
  const events = [
    ev('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: r.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: r.inputTokens, output_tokens: 1 },
      },
    }),
  ]
  let index = 0
  if (r.text !== undefined) {
    events.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }))
    for (const piece of splitText(r.text)) events.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }))
    events.push(ev('content_block_stop', { index }))
    index++
  }
  for (const c of r.calls) {
    events.push(ev('content_block_start', { index, content_block: { type: 'tool_use', id: toolId(c.id), name: c.name, input: {} } }))
    for (const piece of splitJson(c.arguments)) events.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }))
    events.push(ev('content_block_stop', { index }))
    index++
  }
  events.push(
    ev('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: r.outputTokens } }),
    ev('message_stop', {}),
  )
  await streamEvents(res, r.status, r.headers, events, r.chunkDelayMs, r.breakAfter)
}
