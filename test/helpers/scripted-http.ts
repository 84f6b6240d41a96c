/**
 * The HTTP part shared by the scripted model servers of the tests (OpenAI-compatible, Anthropic
 * Messages, Gemini): a `node:http` server on 127.0.0.1 with an ephemeral port that parses JSON bodies,
 * logs every request and hands it to a handler.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request as a scripted server saw it. */
export interface IncomingJson {
  method: string
  /** Path with query string. */
  url: string
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  /** Parsed JSON body, or `undefined` when the body is empty or not JSON. */
  body: any
  rawBody: string
  /** The body's bytes (for multipart and binary bodies). */
  bytes: Buffer
}

/** A running scripted server. */
export interface ScriptedHttpServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string
  port: number
  /** Stops the server (closes idle and open connections). */
  close(): Promise<void>
}

/** Sends a JSON body with an exact content-length. */
export function sendJson(res: ServerResponse, status: number, json: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(json)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers })
  res.end(text)
}

/** Starts a server that parses each request and awaits `handle`; a handler that throws answers 500 with its message. */
export async function startScriptedHttpServer(handle: (req: IncomingJson, res: ServerResponse) => Promise<void>): Promise<ScriptedHttpServer> {
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
        const incoming: IncomingJson = {
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body,
          rawBody,
          bytes,
        }
        try {
          await handle(incoming, res)
        } catch (error) {
          if (!res.headersSent) sendJson(res, 500, { error: { message: `script failed: ${(error as Error).message}`, type: 'server_error' } })
        }
      })()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}
