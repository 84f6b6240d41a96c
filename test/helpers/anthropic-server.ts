/**
 * A scripted server that speaks Anthropic's Messages API (`POST /v1/messages`) on 127.0.0.1, for the
 * real `@anthropic-ai/sdk` (`new Anthropic({ baseURL: server.origin })`) and `@ai-sdk/anthropic`
 * (`createAnthropic({ baseURL: server.baseURL })`). Replies follow the documented shapes: a `message`
 * with `text` (and `thinking`) content blocks, `stop_reason` and `usage`; a `tool_use` block when the
 * request forces a tool (`tool_choice` of type `tool`, or `any` with a single tool) (the AI SDK's JSON tool on models without structured outputs); errors as
 * `{ type: 'error', error: { type, message } }` with a `request-id` header.
 */
import { sendJson, startScriptedHttpServer, type IncomingJson } from './scripted-http.js'

/** One request as the server saw it. */
export interface AnthropicRequest extends IncomingJson {
  /** The text of the last user message. */
  lastUserText: string
}

/** What the script returns. */
export interface AnthropicReply {
  /** The reply text. Default: `echo: <last user text>`. */
  text?: string
  /** A thinking block before the text (adaptive-thinking models). */
  thinking?: string
  /** Force an HTTP status: >= 400 answers with an Anthropic error body. */
  status?: number
  errorMessage?: string
  /** Default `end_turn`. */
  stopReason?: string
  usage?: { input: number; output: number }
}

export type AnthropicScript = (request: AnthropicRequest, index: number) => AnthropicReply | Promise<AnthropicReply>

/** A running server. */
export interface AnthropicServer {
  origin: string
  /** `<origin>/v1`, the `baseURL` of `@ai-sdk/anthropic`'s `createAnthropic` (the Anthropic SDK takes `origin`). */
  baseURL: string
  requests: AnthropicRequest[]
  setReply(script: AnthropicScript): void
  close(): Promise<void>
}

function lastUserText(body: any): string {
  const users = Array.isArray(body?.messages) ? body.messages.filter((m: any) => m?.role === 'user') : []
  const content = users.at(-1)?.content
  if (typeof content === 'string') return content
  return Array.isArray(content) ? content.map((p: any) => (typeof p?.text === 'string' ? p.text : '')).join('') : ''
}

const ERROR_TYPES: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error', 429: 'rate_limit_error', 529: 'overloaded_error' }

/** Starts the server on 127.0.0.1 with an ephemeral port. */
export async function startAnthropicServer(reply: AnthropicScript = () => ({})): Promise<AnthropicServer> {
  let script = reply
  const requests: AnthropicRequest[] = []
  const server = await startScriptedHttpServer(async (incoming, res) => {
    const request: AnthropicRequest = { ...incoming, lastUserText: lastUserText(incoming.body) }
    const index = requests.length
    requests.push(request)
    const headers = { 'request-id': `req_test_${index}` }
    if (!request.path.endsWith('/v1/messages')) {
      sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `Not found: ${request.path}` } }, headers)
      return
    }
    const r = await script(request, index)
    if (r.status && r.status >= 400) {
      sendJson(res, r.status, { type: 'error', error: { type: ERROR_TYPES[r.status] ?? 'api_error', message: r.errorMessage ?? `forced ${r.status}` } }, headers)
      return
    }
    const text = r.text ?? `echo: ${request.lastUserText}`
    const words = (s: string) => Math.max(1, s.split(/\s+/).filter(Boolean).length)
    const choice = request.body?.tool_choice as { type?: string; name?: string } | undefined
    const tools = (request.body?.tools ?? []) as Array<{ name?: string }>
    const forcedTool = choice?.type === 'tool' ? choice.name : choice?.type === 'any' && tools.length === 1 ? tools[0]?.name : undefined
    const content: object[] = []
    if (r.thinking !== undefined) content.push({ type: 'thinking', thinking: r.thinking, signature: 'c2lnbmF0dXJl' })
    if (forcedTool) {
      // The JSON tool of @ai-sdk/anthropic on models without structured outputs: the reply is the tool's input.
      let input: unknown = {}
      try {
        input = JSON.parse(text)
      } catch {
        input = { text }
      }
      content.push({ type: 'tool_use', id: 'toolu_test', name: forcedTool, input })
    } else content.push({ type: 'text', text })
    sendJson(
      res,
      200,
      {
        id: `msg_test_${index}`,
        type: 'message',
        role: 'assistant',
        model: request.body?.model ?? 'claude-test',
        content,
        stop_reason: forcedTool ? 'tool_use' : (r.stopReason ?? 'end_turn'),
        stop_sequence: null,
        usage: { input_tokens: r.usage?.input ?? words(request.lastUserText), output_tokens: r.usage?.output ?? words(text), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
      headers,
    )
  })
  return {
    origin: server.origin,
    baseURL: `${server.origin}/v1`,
    requests,
    setReply(next) {
      script = next
    },
    close: () => server.close(),
  }
}
