/**
 * A scripted server that speaks the Gemini API of Google's Generative Language service
 * (`/v1beta/models/<model>:generateContent`, `:streamGenerateContent?alt=sse`, `:embedContent`,
 * `:batchEmbedContents`) on 127.0.0.1, for
 * `@ai-sdk/google` (`createGoogleGenerativeAI({ baseURL: server.baseURL })`). Replies follow the
 * documented shapes: `candidates[].content.parts[].text` with `usageMetadata` and `modelVersion` for
 * generation, `embedding.values` / `embeddings[].values` (no token usage) for embeddings, and errors as
 * `{ error: { code, message, status } }`.
 */
import { sendJson, startScriptedHttpServer, type IncomingJson } from './scripted-http.js'
import { fakeEmbedding } from './openai-server.js'

/** One request as the server saw it. */
export interface GoogleRequest extends IncomingJson {
  /** The model named in the path. */
  model: string
  /** The API method after the colon: `generateContent`, `embedContent`, `batchEmbedContents`, ... */
  action: string
  /** The text of the last user turn of a generation request. */
  lastUserText: string
  /** The texts of an embedding request. */
  texts: string[]
}

/** What the script returns. */
export interface GoogleReply {
  text?: string
  /** Vectors for an embedding request, one per text. Default: `fakeEmbedding(text)` cut to `outputDimensionality`. */
  embeddings?: number[][]
  status?: number
  errorMessage?: string
}

export type GoogleScript = (request: GoogleRequest, index: number) => GoogleReply | Promise<GoogleReply>

/** A running server. */
export interface GoogleServer {
  origin: string
  /** `<origin>/v1beta`, the `baseURL` of `createGoogleGenerativeAI`. */
  baseURL: string
  requests: GoogleRequest[]
  close(): Promise<void>
}

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
}

const textsOf = (parts: unknown): string => (Array.isArray(parts) ? parts.map((p: any) => (typeof p?.text === 'string' ? p.text : '')).join('') : '')

/** Starts the server on 127.0.0.1 with an ephemeral port. */
export async function startGoogleServer(reply: GoogleScript = () => ({})): Promise<GoogleServer> {
  const requests: GoogleRequest[] = []
  const server = await startScriptedHttpServer(async (incoming, res) => {
    const m = /\/models\/([^/:]+):([A-Za-z]+)$/.exec(incoming.path)
    const body = incoming.body ?? {}
    const users = Array.isArray(body.contents) ? body.contents.filter((c: any) => (c?.role ?? 'user') === 'user') : []
    const texts: string[] = Array.isArray(body.requests)
      ? body.requests.map((r: any) => textsOf(r?.content?.parts))
      : body.content
        ? [textsOf(body.content.parts)]
        : []
    const request: GoogleRequest = { ...incoming, model: m?.[1] ?? '', action: m?.[2] ?? '', lastUserText: textsOf(users.at(-1)?.parts), texts }
    const index = requests.length
    requests.push(request)
    if (!m) {
      sendJson(res, 404, { error: { code: 404, message: `Not found: ${incoming.path}`, status: 'NOT_FOUND' } })
      return
    }
    const r = await reply(request, index)
    if (r.status && r.status >= 400) {
      sendJson(res, r.status, { error: { code: r.status, message: r.errorMessage ?? `forced ${r.status}`, status: STATUS[r.status] ?? 'INTERNAL' } })
      return
    }
    const width = (body.requests?.[0] ?? body).outputDimensionality as number | undefined
    const vectors =
      r.embeddings ??
      texts.map((t) =>
        fakeEmbedding(t)
          .concat(new Array(Math.max(0, (width ?? 4) - 4)).fill(0))
          .slice(0, width ?? 4),
      )
    if (request.action === 'embedContent') return sendJson(res, 200, { embedding: { values: vectors[0] } })
    if (request.action === 'batchEmbedContents') return sendJson(res, 200, { embeddings: vectors.map((values) => ({ values })) })
    const text = r.text ?? `echo: ${request.lastUserText}`
    const words = (s: string) => Math.max(1, s.split(/\s+/).filter(Boolean).length)
    if (request.action === 'streamGenerateContent') {
      // Server-sent events (alt=sse), one candidate chunk per word; usage and the finish reason come last.
      const pieces = text.match(/\S+\s*/g) ?? [text]
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      pieces.forEach((piece, i) => {
        const last = i === pieces.length - 1
        const usage = {
          promptTokenCount: words(request.lastUserText),
          candidatesTokenCount: words(text),
          totalTokenCount: words(request.lastUserText) + words(text),
        }
        const chunk = {
          candidates: [{ content: { parts: [{ text: piece }], role: 'model' }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }],
          ...(last ? { usageMetadata: usage } : {}),
          modelVersion: request.model,
          responseId: `resp_test_${index}`,
        }
        res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`)
      })
      res.end()
      return
    }
    sendJson(res, 200, {
      candidates: [{ content: { parts: [{ text }], role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: words(request.lastUserText),
        candidatesTokenCount: words(text),
        totalTokenCount: words(request.lastUserText) + words(text),
      },
      modelVersion: request.model,
      responseId: `resp_test_${index}`,
    })
  })
  return { origin: server.origin, baseURL: `${server.origin}/v1beta`, requests, close: () => server.close() }
}
