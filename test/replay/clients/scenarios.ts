// The same calls made by every client that record/replay is tested with: openai 7, the Vercel AI SDK 7 with
// its OpenAI, Anthropic and Google providers, LangChain's ChatOpenAI, the Anthropic SDK, and plain fetch
// to a Gemini endpoint with `?key=`. Every client talks to its provider's default host; while recording,
// the `upstream` option sends those requests to the local test server instead (keyed as the real host).
// Used by clients.test.ts (record, and a replay in a child without network) and msw2-compat.ts.
import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import Anthropic from '@anthropic-ai/sdk'
import { ChatOpenAI } from '@langchain/openai'
import { generateText, streamText } from 'ai'
import OpenAI, { toFile } from 'openai'

// A placeholder key: enough for a recording whose upstream is the local server, and for replay.
const KEY = 'replay-without-a-key'

/** The default hosts the scenarios call. */
export const SCENARIO_HOSTS = ['https://api.openai.com', 'https://api.anthropic.com', 'https://generativelanguage.googleapis.com'] as const

/**
 * The `upstream` option that records the scenarios from local servers: OpenAI and Anthropic requests from
 * the OpenAI-compatible test server (which speaks the Messages API too), Gemini requests from the Gemini one.
 */
export function scenarioUpstream(openaiOrigin: string, googleOrigin: string): Record<string, string> {
  return { 'https://api.openai.com': openaiOrigin, 'https://api.anthropic.com': openaiOrigin, 'https://generativelanguage.googleapis.com': googleOrigin }
}

/** One call per client feature; `suffix` changes every prompt (a replay miss). Results hold only deterministic fields. */
export function scenarios(suffix = ''): Record<string, () => Promise<unknown>> {
  const openai = new OpenAI({ apiKey: KEY, maxRetries: 2 })
  const aiOpenAI = createOpenAI({ apiKey: KEY })
  const aiAnthropic = createAnthropic({ apiKey: KEY })
  const aiGoogle = createGoogleGenerativeAI({ apiKey: KEY })
  const anthropic = new Anthropic({ apiKey: KEY, maxRetries: 2 })
  const ask = (text: string) => `${text}${suffix}`
  // streamText reports errors as stream parts (and to onError), not by throwing: surface them as a throw.
  const streamed = async (result: { fullStream: AsyncIterable<{ type: string; text?: string; error?: unknown }> }): Promise<string> => {
    let text = ''
    for await (const part of result.fullStream) {
      if (part.type === 'error') throw part.error
      if (part.type === 'text-delta') text += part.text ?? ''
    }
    return text
  }
  return {
    'openai chat': async () =>
      (await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: ask('Capital of France?') }] })).choices[0]?.message,
    'openai chat stream with usage': async () => {
      const stream = await openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: ask('Name three colours') }],
        stream: true,
        stream_options: { include_usage: true },
      })
      const chunks: unknown[] = []
      for await (const chunk of stream) chunks.push(chunk)
      return chunks
    },
    'openai responses stream': async () => {
      const stream = openai.responses.stream({ model: 'gpt-4.1-mini', input: ask('Say hello') })
      const types: string[] = []
      for await (const event of stream) types.push(event.type)
      return { types, text: (await stream.finalResponse()).output_text }
    },
    'openai embeddings': async () =>
      (await openai.embeddings.create({ model: 'text-embedding-3-small', input: [ask('hello'), 'world'] })).data.map((d) => d.embedding),
    'openai transcription (multipart)': async () =>
      (
        await openai.audio.transcriptions.create({
          model: 'whisper-1',
          file: await toFile(Buffer.from(`RIFF fake wave bytes${suffix}`), 'hello.wav', { type: 'audio/wav' }),
        })
      ).text,
    'AI SDK openai generateText': async () => {
      const r = await generateText({ model: aiOpenAI.chat('gpt-4o-mini'), prompt: ask('hello from the AI SDK') })
      return { text: r.text, finishReason: r.finishReason, usage: r.usage }
    },
    'AI SDK openai streamText': async () =>
      streamed(streamText({ model: aiOpenAI.chat('gpt-4o-mini'), prompt: ask('stream from the AI SDK'), onError: () => {} })),
    'AI SDK anthropic generateText': async () => {
      const r = await generateText({ model: aiAnthropic('claude-3-5-haiku-20241022'), prompt: ask('hello Claude'), maxOutputTokens: 64 })
      return { text: r.text, finishReason: r.finishReason, usage: r.usage }
    },
    'AI SDK anthropic streamText': async () =>
      streamed(streamText({ model: aiAnthropic('claude-3-5-haiku-20241022'), prompt: ask('stream Claude'), maxOutputTokens: 64, onError: () => {} })),
    'AI SDK google generateText': async () => {
      const r = await generateText({ model: aiGoogle('gemini-2.0-flash'), prompt: ask('hello Gemini') })
      return { text: r.text, finishReason: r.finishReason, usage: r.usage }
    },
    'AI SDK google streamText': async () => streamed(streamText({ model: aiGoogle('gemini-2.0-flash'), prompt: ask('stream Gemini'), onError: () => {} })),
    'LangChain ChatOpenAI invoke': async () => (await new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: KEY }).invoke(ask('hello LangChain'))).content,
    'LangChain ChatOpenAI stream': async () => {
      let text = ''
      for await (const chunk of await new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: KEY }).stream(ask('stream LangChain'))) text += String(chunk.content)
      return text
    },
    'Anthropic SDK messages.create': async () =>
      (await anthropic.messages.create({ model: 'claude-3-5-haiku-20241022', max_tokens: 64, messages: [{ role: 'user', content: ask('hello Anthropic') }] }))
        .content,
    'Anthropic SDK messages.stream': async () =>
      anthropic.messages
        .stream({ model: 'claude-3-5-haiku-20241022', max_tokens: 64, messages: [{ role: 'user', content: ask('stream Anthropic') }] })
        .finalText(),
    'fetch Gemini with ?key=': async () => {
      const res = await fetch(`https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent?key=${KEY}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ parts: [{ text: ask('plain fetch to Gemini') }] }] }),
      })
      if (!res.ok) throw Object.assign(new Error(`${res.status} ${await res.text()}`), { status: res.status })
      return res.json()
    },
  }
}

/** Runs every scenario, each to a value or to `{ error }`, with the engine's request count and the time it took. */
export async function runAll(
  calls: Record<string, () => Promise<unknown>>,
  handled: () => number,
): Promise<Record<string, { value?: unknown; error?: string; status?: number; requests: number; ms: number }>> {
  const out: Record<string, { value?: unknown; error?: string; status?: number; requests: number; ms: number }> = {}
  for (const [name, call] of Object.entries(calls)) {
    const before = handled()
    const started = performance.now()
    try {
      out[name] = { value: await call(), requests: 0, ms: 0 }
    } catch (error) {
      const e = error as { message?: string; status?: number; statusCode?: number; response?: { status?: number } }
      const status = e.status ?? e.statusCode ?? e.response?.status
      out[name] = { error: String(e.message ?? error), ...(status !== undefined ? { status } : {}), requests: 0, ms: 0 }
    }
    out[name]!.requests = handled() - before
    out[name]!.ms = Math.round(performance.now() - started)
  }
  return out
}
