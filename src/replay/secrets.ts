/**
 * The secret scan run before every fixture write (and by `expect-llm fixtures verify`).
 */

/** Environment variables whose values must never appear in a fixture. */
export const KNOWN_KEY_VARIABLES = [
  'OPENAI_API_KEY',
  'AZURE_OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'MISTRAL_API_KEY',
  'GROQ_API_KEY',
  'OPENROUTER_API_KEY',
  'TOGETHER_API_KEY',
  'DEEPSEEK_API_KEY',
  'XAI_API_KEY',
  'COHERE_API_KEY',
]

/** One secret found in a value. */
export interface SecretFinding {
  /** JSON pointer of the string that holds it, e.g. `/response/json/choices/0/message/content`. */
  path: string
  /** What was found, never the secret itself, e.g. `the value of OPENAI_API_KEY`. */
  what: string
}

/** Secrets recognised by their shape (also used by the `toLeakSecrets` matcher and the `secrets` check). */
export const SECRET_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bsk-(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/, 'an "sk-..." API key'],
  [/\bBearer\s+[A-Za-z0-9._~+/-]{12,}=*/i, 'a bearer token'],
  [/-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/, 'a private key'],
  [/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/, 'an AWS access key id'],
  [/\bgh[pousr]_[A-Za-z0-9]{36,}\b/, 'a GitHub token'],
  [/\bAIza[0-9A-Za-z_-]{35}\b/, 'a Google API key'],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/, 'a Slack token'],
]
const PATTERNS = SECRET_PATTERNS

/** The secret values to look for: known key variables, plus any `*_API_KEY`/`*_TOKEN`/`*_SECRET` variable of 12+ characters. */
export function secretValuesFromEnv(env: NodeJS.ProcessEnv = process.env): Array<[string, string]> {
  const out: Array<[string, string]> = []
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < 8) continue
    const known = KNOWN_KEY_VARIABLES.includes(name)
    const looksSecret = /(?:_API_KEY|_APIKEY|_TOKEN|_SECRET|_ACCESS_KEY)$/.test(name) && value.length >= 12
    if (known || looksSecret) out.push([name, value])
  }
  return out
}

function escapePointer(seg: string): string {
  return seg.replace(/~/g, '~0').replace(/\//g, '~1')
}

/**
 * Scans every string (and object key) in `value` for secrets. Returns the findings, each with the
 * JSON pointer that holds it; an empty array means the value is safe to write.
 *
 * @example
 * ```ts
 * scanForSecrets({ a: ['Bearer abcdefghijklmnop'] }) // [{ path: '/a/0', what: 'a bearer token' }]
 * ```
 */
export function scanForSecrets(value: unknown, env: NodeJS.ProcessEnv = process.env): SecretFinding[] {
  const secrets = secretValuesFromEnv(env)
  const findings: SecretFinding[] = []
  const check = (s: string, path: string): void => {
    for (const [name, secret] of secrets) {
      if (s.includes(secret)) findings.push({ path, what: `the value of ${name}` })
    }
    for (const [re, what] of PATTERNS) {
      if (re.test(s)) findings.push({ path, what })
    }
  }
  const walk = (v: unknown, path: string): void => {
    if (typeof v === 'string') check(v, path || '/')
    else if (
      // Walked as an object, an array visits the same items under the same pointers, and its index keys hold no secret.
      // Stryker disable next-line ConditionalExpression: equivalent when false (see above)
      Array.isArray(v)
    )
      v.forEach((item, i) => walk(item, `${path}/${i}`))
    else if (
      v !== null &&
      // Stryker disable next-line ConditionalExpression: equivalent when true, numbers and booleans have no entries to walk
      typeof v === 'object'
    ) {
      for (const [k, item] of Object.entries(v)) {
        check(k, `${path}/${escapePointer(k)}`)
        walk(item, `${path}/${escapePointer(k)}`)
      }
    }
  }
  walk(value, '')
  return findings
}

/**
 * Scans the text a stream spells out across events (every `content`, `delta`, `text` and `arguments`
 * string, joined in order), so that a secret split over several deltas is still found.
 *
 * @example
 * ```ts
 * scanStreamText(['data: {"delta":"Bearer "}\n\n', 'data: {"delta":"abcdefghijklmnop"}\n\n'], '/response/sse')
 * // [{ path: '/response/sse (text joined across events)', what: 'a bearer token' }]
 * ```
 */
export function scanStreamText(events: readonly string[], path: string, env: NodeJS.ProcessEnv = process.env): SecretFinding[] {
  const parts: string[] = []
  const collect = (v: unknown, key: string): void => {
    if (typeof v === 'string') {
      if (['content', 'delta', 'text', 'arguments'].includes(key)) parts.push(v)
    } else if (Array.isArray(v)) v.forEach((x) => collect(x, key))
    // JSON.parse gives only plain objects (never null-prototype ones), so instanceof Object is every object here.
    else if (v instanceof Object) for (const [k, x] of Object.entries(v)) collect(x, k)
  }
  for (const event of events) {
    for (const line of event.split(/\r\n|\r|\n/)) {
      if (!line.startsWith('data:')) continue
      try {
        // Stryker disable next-line StringLiteral: equivalent, the top-level key only has to be none of content, delta, text and arguments
        collect(JSON.parse(line.slice(5)), '')
      } catch {
        // not JSON
      }
    }
  }
  return scanForSecrets(parts.join(''), env).map((f) => ({ ...f, path: `${path} (text joined across events)` }))
}
