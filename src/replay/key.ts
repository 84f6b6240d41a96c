import { createHash } from 'node:crypto'
import { canonicalJson, sortKeysDeep } from './canonical.js'
import type { KeyMaterial, RedactInput } from './types.js'

/** Version of the key material schema. Bump it to make every fixture re-record. */
export const KEY_VERSION = 1

/** Query parameters that look like credentials; they never enter a key or a fixture. */
const SECRET_QUERY = /^(?:key|api[-_]?key|apikey|token|access[-_]?token|auth|authorization|secret|client[-_]?secret|password|sig|signature|x-api-key)$/i

/** Returns `true` when a query parameter name looks like it carries a credential. */
export function isSecretQueryParam(name: string): boolean {
  return SECRET_QUERY.test(name)
}

/**
 * A short file-name slug for an endpoint: the path without a leading version segment, `/` turned into `-`.
 * `/v1/chat/completions` → `chat-completions`, `/v1/embeddings` → `embeddings`.
 *
 * @example
 * ```ts
 * import { endpointSlug } from 'expect-llm/replay'
 * endpointSlug('/v1/chat/completions') // 'chat-completions'
 * endpointSlug('/api/chat') // 'api-chat'
 * ```
 */
export function endpointSlug(path: string): string {
  const parts = path.split('/').filter(Boolean)
  if (parts.length > 1 && /^v\d+(?:beta\d*|alpha\d*)?$/i.test(parts[0] ?? '')) parts.shift()
  const slug = parts
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .slice(0, 60)
  return slug || 'root'
}

/** Splits a dot path (`a.b.0`) or JSON pointer (`/a/b/0`) into segments. */
function splitFieldPath(path: string): string[] {
  if (path.startsWith('/')) return path.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
  return path.split('.')
}

/** Removes the given fields (dot paths or JSON pointers; `*` matches every array item or key) from a JSON value, in place. */
export function removeFields(value: unknown, paths: readonly string[]): void {
  for (const p of paths) removePath(value, splitFieldPath(p))
}

function removePath(value: unknown, segs: string[]): void {
  if (value === null || typeof value !== 'object' || segs.length === 0) return
  const [head, ...rest] = segs as [string, ...string[]]
  const obj = value as Record<string, unknown>
  const keys = head === '*' ? Object.keys(obj) : [head]
  for (const k of keys) {
    if (!(k in obj)) continue
    if (rest.length === 0) {
      if (Array.isArray(obj)) obj.splice(Number(k), 1)
      else delete obj[k]
    } else removePath(obj[k], rest)
  }
}

/** Options that shape the key. */
export interface KeyOptions {
  ignoreBodyFields?: readonly string[]
  redact?: (fixture: RedactInput) => RedactInput
}

/** The key of one request: its material, the full sha256 and the endpoint slug. */
export interface RequestKey {
  material: KeyMaterial
  hash: string
  hash16: string
  endpoint: string
}

/** Hashes key material: sha256 over its canonical JSON, hex. */
export function hashMaterial(material: KeyMaterial): string {
  return createHash('sha256').update(canonicalJson(material)).digest('hex')
}

/**
 * Builds the key of a request from its method, URL and body bytes. Headers never enter the key.
 * JSON bodies are canonicalized (keys sorted recursively) after `ignoreBodyFields` are removed; the
 * `redact` hook runs last, before hashing, so runs without a secret compute the same key.
 *
 * @example
 * ```ts
 * const key = buildKey('POST', new URL('https://api.openai.com/v1/embeddings'), bytes, 'application/json', {})
 * key.endpoint // 'embeddings'
 * ```
 */
export function buildKey(method: string, url: URL, body: Uint8Array, contentType: string | null, options: KeyOptions): RequestKey {
  const query = [...url.searchParams.entries()]
    .filter(([name]) => !isSecretQueryParam(name))
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
  let bodyType: KeyMaterial['bodyType'] = 'none'
  let parsed: unknown = null
  if (body.byteLength > 0) {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(body)
    const looksJson = (contentType ?? '').includes('json') || /^\s*[[{]/.test(text)
    let done = false
    if (looksJson) {
      try {
        parsed = JSON.parse(text)
        bodyType = 'json'
        done = true
      } catch {
        // not JSON after all
      }
    }
    if (!done) {
      const isText = (contentType ?? '').startsWith('text/') || (contentType ?? '').includes('x-www-form-urlencoded')
      if (isText) {
        parsed = text
        bodyType = 'text'
      } else {
        parsed = Buffer.from(body).toString('base64')
        bodyType = 'base64'
      }
    }
  }
  if (bodyType === 'json' && options.ignoreBodyFields?.length) removeFields(parsed, options.ignoreBodyFields)
  let material: KeyMaterial = {
    v: KEY_VERSION,
    method: method.toUpperCase(),
    origin: url.origin,
    path: url.pathname,
    query,
    body: bodyType === 'json' ? sortKeysDeep(parsed) : parsed,
    bodyType,
  }
  if (options.redact) material = normalizeMaterial(options.redact({ key: material }).key)
  const hash = hashMaterial(material)
  return { material, hash, hash16: hash.slice(0, 16), endpoint: endpointSlug(material.path) }
}

/** Sorts the keys of material returned by a user hook, so it hashes and prints canonically. */
function normalizeMaterial(m: KeyMaterial): KeyMaterial {
  return sortKeysDeep(m) as KeyMaterial
}

/** The model named in a key's JSON body, if any. */
export function modelOf(material: KeyMaterial): string | null {
  const b = material.body as { model?: unknown } | null
  return b && typeof b === 'object' && typeof b.model === 'string' ? b.model : null
}
