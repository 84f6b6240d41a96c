/**
 * Helpers on top of the scripted OpenAI-compatible server (`openai-server.ts`) for the judge and
 * embedding tests: read the parts of a judge prompt, build replies, and make SDK clients with fast
 * retries.
 */
import OpenAI from 'openai'
import type { RecordedRequest, ScriptedReply } from './openai-server.js'

export { startOpenAIServer, fakeEmbedding } from './openai-server.js'
export type { OpenAIServer, RecordedRequest, ScriptedReply } from './openai-server.js'

/** The text between `<tag>` and `</tag>` in the judge prompt of a chat request, or `undefined`. */
export function section(request: RecordedRequest, tag: string): string | undefined {
  const m = new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(request.lastUserText)
  return m?.[1]
}

/** The text under test in a judge prompt, whatever the template calls it. */
export function judgedText(request: RecordedRequest): string {
  return section(request, 'answer') ?? section(request, 'response') ?? ''
}

/** A structured judge reply. */
export function jsonVerdict(score: number, reasoning: string): ScriptedReply {
  return { text: JSON.stringify({ reasoning, score }) }
}

/** `true` when the request asked for structured output. */
export function wantsJsonSchema(request: RecordedRequest): boolean {
  return request.body?.response_format?.type === 'json_schema'
}

/** Chat requests only (the server also logs embeddings calls). */
export function chatRequests(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => r.endpoint === 'chat')
}

/** An SDK client for the server, with `maxRetries` (default 0) so that error tests stay fast. */
export function clientFor(baseURL: string, options: { maxRetries?: number; apiKey?: string } = {}): OpenAI {
  return new OpenAI({ baseURL, apiKey: options.apiKey ?? 'test-key', maxRetries: options.maxRetries ?? 0 })
}

/** The origin every recording is keyed under, whatever port the scripted server had when recording. */
export const RECORDED_ORIGIN = 'http://127.0.0.1'

/** A closed port on 127.0.0.1 (2: unused, and not on fetch's blocked-port list): in replay, a request that escaped the fixtures would fail to connect there. */
export const CLOSED_BASE_URL = 'http://127.0.0.1:2/v1'
