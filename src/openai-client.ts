/**
 * Creating `openai` SDK clients for the built-in judge and embedder, and turning SDK errors into
 * actionable messages. `openai` is an optional peer dependency: it is imported on first use, so the
 * lexical matchers and custom judges work without it.
 *
 * @module
 */
import type { OpenAI } from 'openai'
import { formatMessage } from './errors.js'
import type { OpenAIClientLike } from './judges/types.js'
import { keyVariablesFor, registerLibraryHost } from './replay/hosts.js'
import { getReplaySession } from './replay/session.js'

/** The key sent when no key is configured but the replay session answers from recordings. */
export const REPLAY_PLACEHOLDER_KEY = 'expect-llm-replay-no-key'

/** Settings shared by the judge and the embedder. */
export interface ClientSettings {
  apiKey?: string
  baseURL?: string
  client?: OpenAIClientLike
  maxRetries?: number
  timeout?: number
}

/** What the client is for, in messages: `'judge'`, `'embedder'` or `'moderation'`. */
export type ClientRole = 'judge' | 'embedder' | 'moderation'

/** Where a setting of a client is given, in messages: `configure({ judge: { apiKey } })`, `toPassModeration({ apiKey })`. */
function settingAt(role: ClientRole, setting: string): string {
  return role === 'moderation' ? `toPassModeration({ ${setting} })` : `configure({ ${role}: { ${setting} } })`
}

/** The base URL a client will use, known before it is created (for cache keys and messages). */
export function effectiveBaseURL(settings: ClientSettings): string {
  return settings.client?.baseURL ?? settings.baseURL ?? process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1'
}

/**
 * Loads the optional `openai` peer. The CommonJS build requires it: Jest's default (CommonJS) mode
 * cannot run `import()` without `--experimental-vm-modules`. ESM (and Vitest, which runs the source as
 * ESM, where `module` is undefined) imports it.
 */
async function loadOpenAI(): Promise<typeof import('openai')> {
  if (typeof module !== 'undefined' && typeof module?.require === 'function') return module.require('openai') as typeof import('openai')
  return import('openai')
}

/**
 * A client created on first use and kept, for the judge and the embedder: creation is retried on the
 * next call when it failed (no key yet, openai not installed), so a fixed setup is picked up.
 */
export function lazyClient(settings: ClientSettings, role: ClientRole): () => Promise<OpenAI> {
  let client: Promise<OpenAI> | undefined
  return async () => {
    client ??= createClient(settings, role)
    try {
      return await client
    } catch (error) {
      client = undefined
      throw error
    }
  }
}

/**
 * Creates the SDK client. Throws an actionable error when no API key is configured, unless a replay
 * session is active (recordings need no key; a recording mode asks for one itself). The client's origin
 * joins the replay hosts, so that the judge's and embedder's requests are recorded and replayed without
 * the user listing their `baseURL` in `configure({ replay: { hosts } })`.
 */
export async function createClient(settings: ClientSettings, role: ClientRole): Promise<OpenAI> {
  registerLibraryHost(effectiveBaseURL(settings))
  if (settings.client) return settings.client as unknown as OpenAI
  let apiKey = settings.apiKey ?? process.env.OPENAI_API_KEY
  if (!apiKey) {
    if (getReplaySession() !== undefined) apiKey = REPLAY_PLACEHOLDER_KEY
    else {
      throw new Error(
        formatMessage(
          role === 'moderation'
            ? 'Failed to create the OpenAI moderation client: no API key. Set OPENAI_API_KEY, or pass toPassModeration({ apiKey, baseURL }).'
            : `Failed to create the OpenAI ${role}: no API key. Set OPENAI_API_KEY, or call configure({ ${role}: { ` +
                `apiKey, model, baseURL } }) in a setup file (any non-empty key for local servers), or configure({ ` +
                `${role} }) with your own ${role === 'judge' ? 'Judge or function' : 'Embedder or function'}.`,
        ),
      )
    }
  }
  let mod: typeof import('openai')
  try {
    mod = await loadOpenAI()
  } catch (error) {
    throw new Error(
      formatMessage(
        `Failed to create the OpenAI ${role}: the "openai" package could not be loaded ` +
          `(${(error as Error).message}). Install it with \`npm install -D openai\`, or configure({ ${role} }) ` +
          `with your own implementation.`,
      ),
      { cause: error },
    )
  }
  const OpenAIClass = mod.OpenAI ?? mod.default
  return new OpenAIClass({
    apiKey,
    ...(settings.baseURL !== undefined ? { baseURL: settings.baseURL } : {}),
    ...(settings.maxRetries !== undefined ? { maxRetries: settings.maxRetries } : {}),
    ...(settings.timeout !== undefined ? { timeout: settings.timeout } : {}),
  })
}

/**
 * An SDK or network failure of a judge or embedding call, with the HTTP status when there was one.
 *
 * @example
 * ```ts
 * import { ModelCallError, openAIEmbedder } from 'expect-llm'
 *
 * try {
 *   await openAIEmbedder().embed(['hello'])
 * } catch (error) {
 *   if (error instanceof ModelCallError && error.status === 429) console.warn('rate limited:', error.message)
 *   throw error
 * }
 * ```
 */
export class ModelCallError extends Error {
  readonly status: number | undefined
  constructor(message: string, status: number | undefined, cause: unknown) {
    super(message, { cause })
    this.name = 'ModelCallError'
    this.status = status
  }
}

/**
 * The server's own words: OpenAI's `{ error: { message } }`, Anthropic's `{ type: 'error', error: {
 * message } }`, LM Studio's `{ error: '<text>' }`, else the SDK's message without its status prefix.
 */
export function serverMessage(error: unknown): string {
  // A provider may throw null: it has none of these fields (and String(null) says what was thrown).
  const e = (error ?? {}) as { error?: unknown; message?: unknown; responseBody?: unknown }
  // The AI SDK keeps the raw body, and a provider whose error schema does not fit the body (a replay
  // miss, in OpenAI's shape, read by the Gemini provider; LM Studio's `{ error: '<text>' }`) reports only
  // the status text: the body's own words are read from there first.
  if (typeof e.responseBody === 'string') {
    try {
      const raw = JSON.parse(e.responseBody) as { error?: unknown; message?: unknown }
      const own = typeof raw.error === 'string' ? raw.error : ((raw.error as { message?: unknown } | undefined)?.message ?? raw.message)
      if (typeof own === 'string' && own) return own
    } catch {
      // not JSON: fall through
    }
  }
  const body = e.error as { message?: unknown; error?: { message?: unknown } } | string | undefined
  if (typeof body === 'string' && body) return body
  const inner = typeof body === 'object' && body !== null ? (body.message ?? body.error?.message) : undefined
  if (typeof inner === 'string' && inner) return inner
  return typeof e.message === 'string' ? e.message.replace(/^\d{3}\s+/, '') : String(error)
}

/**
 * The HTTP status of an SDK error, duck-typed: the ESM and CJS builds of an SDK have distinct classes,
 * and the SDKs name it differently (`status` in openai and @anthropic-ai/sdk, `statusCode` in the AI
 * SDK's `APICallError`).
 */
export function statusOf(error: unknown): number | undefined {
  const e = error as { status?: unknown; statusCode?: unknown } | null
  const status = e?.status ?? e?.statusCode
  return typeof status === 'number' ? status : undefined
}

/**
 * Everything an SDK error says about its cause, as one string: the message, the parsed error body
 * (`error` in openai and @anthropic-ai/sdk) and the raw body (`responseBody` in the AI SDK).
 */
export function errorText(error: unknown): string {
  const e = error as { message?: unknown; error?: unknown; responseBody?: unknown } | null
  const parts = [e?.message, e?.error === undefined ? undefined : JSON.stringify(e.error), e?.responseBody]
  return parts.filter((p): p is string => typeof p === 'string' && p !== '').join(' ')
}

/** Provider-specific advice in {@link translateError}'s messages. */
export interface ErrorHints {
  /** What to do about a refused key. Default: set `OPENAI_API_KEY` or `configure({ <role>: { apiKey } })`. */
  key?: string
  /** What to check on a 404. Default: the model name and the baseURL (OpenAI-compatible servers end in /v1). */
  notFound?: string
}

/** The part of a network error's fix for live mode: the keys it needs, and how to replay instead. */
function liveHint(variables: string): string {
  return ` and that ${variables} is set: live mode sends requests to the network (unset EXPECT_LLM_REPLAY to replay the recordings)`
}

/**
 * Translates an SDK error into a {@link ModelCallError} whose message says what failed and what to do.
 * `retries` is the number of retries the SDK made before giving up (its `maxRetries`). Works on errors of
 * the openai SDK, @anthropic-ai/sdk and the AI SDK alike (duck-typed on status and message).
 */
export function translateError(error: unknown, role: ClientRole, model: string, baseURL: string, retries: number, hints: ErrorHints = {}): ModelCallError {
  const status = statusOf(error)
  const what = `Failed to call the ${role} model "${model}" at ${baseURL}`
  const detail = serverMessage(error)
  const afterRetries = retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : ''
  let message: string
  if (detail.startsWith('[expect-llm] ')) {
    // expect-llm's own replay answered (a miss, a corrupt fixture): its message already says what to do.
    return new ModelCallError(detail, status, error)
  }
  if (status === 401 || status === 403) {
    const fix = hints.key ?? `Set OPENAI_API_KEY to a valid key, or pass it with ${settingAt(role, 'apiKey')}.`
    message = `${what}: the server refused the API key (${status}: ${detail}). ${fix}`
  } else if (status === 404) {
    const fix = hints.notFound ?? `Check the model name in ${settingAt(role, 'model')} and the baseURL (OpenAI-compatible servers usually end in /v1).`
    message = `${what}: the model or endpoint was not found (404: ${detail}). ${fix}`
  } else if (status === 429) {
    message =
      `${what}: rate limited (429: ${detail})${afterRetries}. Lower configure({ concurrency }), raise ` +
      `${settingAt(role, 'maxRetries')}, or check the account's quota.`
  } else if (status !== undefined) {
    message = `${what}: the server answered ${status} (${detail})${afterRetries}. Check the request settings and the server's logs.`
  } else {
    const name = (error as { name?: unknown } | null)?.name
    const timedOut = name === 'APIConnectionTimeoutError' || name === 'TimeoutError'
    const cause = (error as { cause?: { message?: unknown; cause?: { message?: unknown } } } | null)?.cause
    const why = [cause?.cause?.message, cause?.message].find((m): m is string => typeof m === 'string' && m !== '' && !detail.includes(m))
    const live = getReplaySession()?.replay.mode() === 'live'
    const variables = keyVariablesFor(baseURL).join(' or ')
    message = timedOut
      ? `${what}: the request timed out${afterRetries}. Raise ${settingAt(role, 'timeout')} or check the server.`
      : `${what}: ${detail.replace(/[.\s]+$/, '')}${why ? ` (${why})` : ''}${afterRetries}. Check that the ` +
        `server is reachable at the baseURL${live ? liveHint(variables) : ''}.`
  }
  return new ModelCallError(formatMessage(message), status, error)
}

/** The retries a client makes (its `maxRetries`, 2 by default in the SDK). */
export function retriesOf(client: OpenAI): number {
  const n = (client as { maxRetries?: unknown }).maxRetries
  return typeof n === 'number' ? n : 2
}
