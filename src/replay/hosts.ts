/**
 * Which hosts record/replay handles: the well-known model providers (intercepted by default), origin
 * patterns with `*` wildcards, loopback detection, the hosts of expect-llm's own judge and embedder,
 * and the API keys each provider needs to record.
 * @packageDocumentation
 */
import { formatMessage } from '../errors.js'
import { peekProcessSlot, processSlot } from '../process-state.js'

/** A model provider that record/replay intercepts by default, and the variables that hold its key. */
export interface Provider {
  name: string
  /** Origin patterns (`*` matches one DNS label or a part of one). */
  origins: readonly string[]
  /** The environment variables its SDKs read the API key from, the usual one first. */
  keyVariables: readonly string[]
}

/** The providers whose hosts are intercepted without configuration. */
export const PROVIDERS: readonly Provider[] = [
  { name: 'OpenAI', origins: ['https://api.openai.com'], keyVariables: ['OPENAI_API_KEY'] },
  {
    name: 'Azure OpenAI',
    origins: ['https://*.openai.azure.com', 'https://*.cognitiveservices.azure.com', 'https://*.services.ai.azure.com'],
    keyVariables: ['AZURE_OPENAI_API_KEY', 'AZURE_API_KEY'],
  },
  { name: 'Anthropic', origins: ['https://api.anthropic.com'], keyVariables: ['ANTHROPIC_API_KEY'] },
  {
    name: 'Google Gemini API',
    origins: ['https://generativelanguage.googleapis.com'],
    keyVariables: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  },
  {
    name: 'Google Vertex AI',
    origins: ['https://aiplatform.googleapis.com', 'https://*-aiplatform.googleapis.com'],
    keyVariables: ['GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_VERTEX_API_KEY'],
  },
  { name: 'Mistral', origins: ['https://api.mistral.ai'], keyVariables: ['MISTRAL_API_KEY'] },
  { name: 'Groq', origins: ['https://api.groq.com'], keyVariables: ['GROQ_API_KEY'] },
  { name: 'Together AI', origins: ['https://api.together.xyz', 'https://api.together.ai'], keyVariables: ['TOGETHER_API_KEY', 'TOGETHER_AI_API_KEY'] },
  { name: 'Fireworks', origins: ['https://api.fireworks.ai'], keyVariables: ['FIREWORKS_API_KEY'] },
  { name: 'DeepSeek', origins: ['https://api.deepseek.com'], keyVariables: ['DEEPSEEK_API_KEY'] },
  { name: 'OpenRouter', origins: ['https://openrouter.ai'], keyVariables: ['OPENROUTER_API_KEY'] },
  { name: 'Cohere', origins: ['https://api.cohere.com', 'https://api.cohere.ai'], keyVariables: ['COHERE_API_KEY', 'CO_API_KEY'] },
  { name: 'Voyage AI', origins: ['https://api.voyageai.com'], keyVariables: ['VOYAGE_API_KEY'] },
  { name: 'Perplexity', origins: ['https://api.perplexity.ai'], keyVariables: ['PERPLEXITY_API_KEY'] },
  { name: 'xAI', origins: ['https://api.x.ai'], keyVariables: ['XAI_API_KEY'] },
  {
    name: 'Amazon Bedrock',
    origins: ['https://bedrock-runtime.*.amazonaws.com', 'https://bedrock-runtime-fips.*.amazonaws.com'],
    keyVariables: ['AWS_ACCESS_KEY_ID', 'AWS_BEARER_TOKEN_BEDROCK'],
  },
  // The AI SDK's default provider for model ids given as strings ('openai/gpt-4.1').
  { name: 'Vercel AI Gateway', origins: ['https://ai-gateway.vercel.sh'], keyVariables: ['AI_GATEWAY_API_KEY', 'VERCEL_OIDC_TOKEN'] },
]

/** Every default origin pattern, in the order of {@link PROVIDERS}. */
export const DEFAULT_HOSTS: readonly string[] = PROVIDERS.flatMap((p) => p.origins)

/** A parsed origin pattern. */
interface HostPattern {
  protocol: string
  host: RegExp
  /** `undefined` matches any port; otherwise the explicit or default port. */
  port: string | undefined
}

const patternCache = new Map<string, HostPattern>()
const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' }

/**
 * Parses an origin pattern such as `https://api.openai.com`, `https://*.openai.azure.com` or
 * `http://127.0.0.1:*` (a path after the origin is ignored, so a `baseURL` works too). Throws an
 * actionable `TypeError` for anything that is not an origin.
 */
export function parseHostPattern(pattern: string): HostPattern {
  const cached = patternCache.get(pattern)
  if (cached) return cached
  const m = typeof pattern === 'string' ? /^(https?):\/\/(\[[0-9a-f:.]+\]|[a-z0-9*.-]+)(?::(\d{1,5}|\*))?(?:\/[^*]*)?$/i.exec(pattern.trim()) : null
  if (!m || m[2]!.replace(/\*/g, '') === '') {
    throw new TypeError(
      formatMessage(
        `Failed to configure replay hosts: ${JSON.stringify(pattern)} is not a URL origin. Pass origins such ` +
          `as 'http://127.0.0.1:11434', 'https://my-resource.openai.azure.com' or 'https://*.example.com' (a ` +
          `path is ignored).`,
      ),
    )
  }
  const protocol = `${m[1]!.toLowerCase()}:`
  const host = new RegExp(
    `^${m[2]!
      .toLowerCase()
      .replace(/[.[\]]/g, (c) => `\\${c}`)
      .replace(/\*/g, '[a-z0-9-]+')}$`,
  )
  const port = m[3] === '*' ? undefined : (m[3] ?? DEFAULT_PORT[protocol])
  const parsed = { protocol, host, port }
  patternCache.set(pattern, parsed)
  return parsed
}

/** `true` when `url` (a URL or an origin) matches one of the origin patterns. */
export function matchesHost(patterns: readonly string[], url: URL | string): boolean {
  // Stryker disable next-line ConditionalExpression: equivalent when true, new URL() of a URL is a copy of it
  const u = typeof url === 'string' ? new URL(url) : url
  const port = u.port || DEFAULT_PORT[u.protocol]
  const hostname = u.hostname.toLowerCase()
  return patterns.some((p) => {
    const parsed = parseHostPattern(p)
    return parsed.protocol === u.protocol && (parsed.port === undefined || parsed.port === port) && parsed.host.test(hostname)
  })
}

/** `true` for `localhost`, `127.0.0.0/8` and `[::1]`: the machine itself, never the network. */
export function isLoopback(url: URL | string): boolean {
  // Stryker disable next-line ConditionalExpression: equivalent when true, new URL() of a URL is a copy of it
  const hostname = (typeof url === 'string' ? new URL(url) : url).hostname.toLowerCase()
  // Stryker disable next-line Regex: equivalent without ^, URL parsing turns every hostname that ends in a number into a dotted IPv4 address
  return hostname === 'localhost' || hostname.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]'
}

/** The default provider serving `url`, if any. */
export function providerFor(url: URL | string): Provider | undefined {
  try {
    return PROVIDERS.find((p) => matchesHost(p.origins, url))
  } catch {
    // Not a URL: no provider.
  }
}

/** The key variables of the provider at `url` (`OPENAI_API_KEY` for unknown hosts, the variable OpenAI-compatible SDKs read). */
export function keyVariablesFor(url: URL | string): readonly string[] {
  return providerFor(url)?.keyVariables ?? ['OPENAI_API_KEY']
}

/**
 * Records the origin of a client that expect-llm itself created or was given (the judge's, the
 * embedder's), so that record/replay intercepts it without the user listing it in `hosts`.
 */
export function registerLibraryHost(baseURL: string | undefined): void {
  let origin: string
  try {
    // No base URL (undefined, '') throws here too.
    origin = new URL(baseURL as string).origin
  } catch {
    return
  }
  processSlot('replay-library-hosts', () => new Set<string>()).add(origin)
}

/** The origins registered with {@link registerLibraryHost}, in registration order. */
export function libraryHosts(): string[] {
  return [...(peekProcessSlot<Set<string>>('replay-library-hosts') ?? [])]
}

/** Forgets the registered library hosts (test isolation). */
export function clearLibraryHosts(): void {
  peekProcessSlot<Set<string>>('replay-library-hosts')?.clear()
}

/**
 * Keys that are placeholders, not credentials: the key expect-llm's own clients send under replay, the
 * README's `'replay-without-a-key'`, the repository's `'scripted-model-no-key'`, and the usual
 * stand-ins (`test`, `dummy`, `your-api-key`, `sk-...`, `<key>`, ...).
 */
const PLACEHOLDER_KEYS = new Set(['expect-llm-replay-no-key', 'replay-without-a-key', 'scripted-model-no-key'])
/** Empty, or a run of one filler character: `xxxx`, `****`, `....`, `----`. */
const FILLER = String.raw`|x+|\*+|\.+|-+`
/** Words put where a key goes. */
const STAND_IN = 'test|testing|fake|dummy|placeholder|none|null|undefined|empty|unset|changeme|change-me|todo|secret|key'
/** Key-shaped stand-ins: `api_key`, `sk-`, `sk-xxxx`, `sk-test`, `your-openai-api-key-here`. */
const KEY_SHAPED = String.raw`api[-_]?key|sk-?|sk-?(?:x+|\.+|\*+|test|fake|dummy|placeholder)|your[-_ ]?(?:openai[-_ ]?)?(?:api[-_ ]?)?key(?:[-_ ]?here)?`
/** A template slot left unfilled: `<key>`, `${KEY}`, `{{key}}`. */
const TEMPLATE_SLOT = String.raw`<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}`
const PLACEHOLDER_PATTERN = new RegExp(`^(?:${FILLER}|${STAND_IN}|${KEY_SHAPED}|${TEMPLATE_SLOT})$`, 'i')
const PLACEHOLDER_WORDS = /(?:^|[-_])(?:no[-_]?key|without[-_]?a?[-_]?key|placeholder|replay[-_]only|not[-_]?a[-_]?(?:real[-_]?)?key)(?:$|[-_])/i

/**
 * `true` when an API key is a placeholder rather than a credential, so that recording can fail before a
 * request leaves with it.
 *
 * @example
 * ```ts
 * isPlaceholderKey('replay-without-a-key') // true
 * isPlaceholderKey('your-api-key') // true
 * isPlaceholderKey(process.env.OPENAI_API_KEY) // false for a real key
 * ```
 */
export function isPlaceholderKey(key: string | null | undefined): boolean {
  if (key === null || key === undefined) return true
  const k = key.trim()
  return PLACEHOLDER_KEYS.has(k) || PLACEHOLDER_PATTERN.test(k) || PLACEHOLDER_WORDS.test(k)
}

/**
 * The credential a request carries, from the headers and query parameters providers read (`authorization`
 * with or without `Bearer`, `api-key`, `x-api-key`, `x-goog-api-key`, `?key=`), or `undefined`.
 */
export function requestCredential(headers: Headers, url: URL): string | undefined {
  const auth = headers.get('authorization')
  // An AWS Signature V4 header (no secret, only its id and a signature) comes back whole: a signed request has credentials.
  if (auth) return auth.replace(/^(?:Bearer|Basic|Token)\s+/i, '')
  for (const name of ['api-key', 'x-api-key', 'x-goog-api-key']) {
    const v = headers.get(name)
    if (v) return v
  }
  return url.searchParams.get('key') ?? url.searchParams.get('api-key') ?? url.searchParams.get('api_key') ?? undefined
}

/**
 * Internals for this package's own tests: empties the parsed-pattern memo, so a test parses its patterns
 * afresh (a mutation run reuses one module across mutants, and a pattern parsed under one mutant would
 * otherwise answer the tests of the next). Not part of the public API; do not re-export.
 *
 * @internal
 */
export const __testing = {
  clearPatternCache: (): void => patternCache.clear(),
  patternCacheSize: (): number => patternCache.size,
}
