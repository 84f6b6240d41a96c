/**
 * Helpers on top of the scripted OpenAI-compatible server (`openai-server.ts`) for the judge and
 * embedding tests: read the parts of a judge prompt, build replies, and make SDK clients with fast
 * retries.
 */
import { fileURLToPath } from 'node:url'
import { setupServer } from 'msw/node'
import OpenAI from 'openai'
import { getReplaySession, llmReplay, type LlmReplay } from '../../src/entries/replay.js'
import { resolveMode } from '../../src/replay/mode.js'
import type { RedactInput } from '../../src/replay/types.js'
import { startOpenAIServer, type OpenAIServer, type RecordedRequest, type ReplyScript, type ScriptedReply } from './openai-server.js'

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

/** A test file replayed from its committed recordings (see {@link replayRecordings}). */
export interface RecordedReplay {
  replay: LlmReplay
  /** The origin clients must use: the scripted server's while recording, else a closed port. */
  origin: string
  /** `true` under `EXPECT_LLM_REPLAY=record` or `rerecord`. */
  recording: boolean
  /** Waits for recordings in flight, detaches the handlers and stops the server. */
  close(): Promise<void>
}

/** Whether this run records (`EXPECT_LLM_REPLAY=record` or `rerecord`). */
export function isRecording(): boolean {
  return ['record', 'rerecord'].includes(resolveMode('replay').mode)
}

/**
 * Replay for a test file whose model calls come from committed recordings: with `EXPECT_LLM_REPLAY=record`
 * the scripted server answers and what is missing is recorded; otherwise no server runs and the clients
 * point at a closed port on 127.0.0.1, so a request that no fixture answers cannot reach anything.
 * Fixtures are keyed under {@link RECORDED_ORIGIN}, whatever the server's port was. Build the clients
 * after this (a client built before interception starts would escape it).
 */
export async function replayRecordings(testFileUrl: string, script: ReplyScript): Promise<RecordedReplay> {
  const recording = isRecording()
  const server: OpenAIServer | undefined = recording ? await startOpenAIServer({ reply: script }) : undefined
  const origin = server ? server.origin : new URL(CLOSED_BASE_URL).origin
  const redact = (input: RedactInput): RedactInput => ({ ...input, key: { ...input.key, origin: RECORDED_ORIGIN } })
  const replay = llmReplay({
    mode: 'replay',
    hosts: [origin],
    redact,
    rootDir: fileURLToPath(new URL('../..', import.meta.url)),
    testPath: () => fileURLToPath(testFileUrl),
  })
  let stop: () => void
  const session = getReplaySession()
  if (session) {
    session.server.use(...replay.handlers)
    stop = () => session.server.resetHandlers()
  } else {
    const msw = setupServer(...replay.handlers)
    msw.listen()
    stop = () => msw.close()
  }
  return {
    replay,
    origin,
    recording,
    async close() {
      await replay.flush()
      stop()
      await server?.close()
    },
  }
}
