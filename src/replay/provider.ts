/**
 * Naming the provider behind a recorded or missed request, for replay messages: pure functions of the
 * request's origin and path (the body is not needed), so that a miss says "Anthropic" or "Ollama"
 * rather than only a URL.
 *
 * @module
 */
import { providerFor } from './hosts.js'

/** Default ports of local servers (Ollama 11434, LM Studio 1234; vLLM's 8000 is too common to name). */
const LOCAL_PORTS: Readonly<Record<string, string>> = { '11434': 'Ollama', '1234': 'LM Studio' }

/** The API a path belongs to, from its shape: its name and how to call an unknown server that speaks it. */
function wireFormat(path: string): { api: string; server: string } | undefined {
  if (/\/messages$/.test(path)) return { api: 'Anthropic Messages API', server: 'an Anthropic Messages-compatible server' }
  if (/:(?:generateContent|streamGenerateContent|embedContent|batchEmbedContents|countTokens)$/.test(path))
    return { api: 'Gemini API', server: 'a Gemini-compatible server' }
  if (/\/api\/(?:chat|generate|embed|embeddings)$/.test(path)) return { api: 'native API', server: 'Ollama (native API)' }
  if (/\/(?:chat\/completions|completions|embeddings|responses)$/.test(path)) return { api: 'OpenAI-compatible API', server: 'an OpenAI-compatible server' }
  return undefined
}

/**
 * Names the provider a request went to, from its origin and path: a hosted API by its host
 * (`'Anthropic'`, `'Google Gemini API'`, `'Azure OpenAI'`, ...), a local server by its default port
 * (`'Ollama (OpenAI-compatible API)'`), and otherwise by the API its path belongs to (`'an
 * OpenAI-compatible server'`, `'an Anthropic Messages-compatible server'`). `undefined` when nothing
 * is known.
 *
 * @example
 * ```ts
 * providerOf('https://api.anthropic.com', '/v1/messages') // 'Anthropic'
 * providerOf('http://127.0.0.1:11434', '/v1/chat/completions') // 'Ollama (OpenAI-compatible API)'
 * providerOf('http://127.0.0.1:8000', '/v1/embeddings') // 'an OpenAI-compatible server'
 * ```
 */
export function providerOf(origin: string, path: string): string | undefined {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return undefined
  }
  // Hosted APIs by host: the providers replay intercepts by default (one table for both).
  const hosted = providerFor(url)
  if (hosted) return hosted.name
  const format = wireFormat(path)
  const local = /^(?:localhost|127(?:\.\d+){3}|\[::1\])$/.test(url.hostname) ? LOCAL_PORTS[url.port] : undefined
  if (local) return format ? `${local} (${format.api})` : local
  return format?.server
}

/**
 * The model named in a request path, for APIs that put it there: Gemini
 * (`/v1beta/models/gemini-2.5-flash:generateContent`), Vertex AI and Bedrock (`/model/<id>/invoke`).
 *
 * @example
 * ```ts
 * modelFromPath('/v1beta/models/gemini-embedding-001:batchEmbedContents') // 'gemini-embedding-001'
 * modelFromPath('/v1/chat/completions') // null
 * ```
 */
export function modelFromPath(path: string): string | null {
  const gemini = /\/models\/([^/:]+):[A-Za-z]+$/.exec(path)
  if (gemini?.[1]) return decodeURIComponent(gemini[1])
  const bedrock = /\/model\/([^/]+)\/(?:invoke|invoke-with-response-stream|converse|converse-stream)$/.exec(path)
  if (bedrock?.[1]) return decodeURIComponent(bedrock[1])
  return null
}
