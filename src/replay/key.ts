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
  if (parts.length > 1 && /^v\d+(?:beta\d*|alpha\d*)?$/i.test(parts[0]!)) parts.shift()
  const slug = parts
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .slice(0, 60)
  return slug || 'root'
}

/** Splits a dot path (`a.b.0`) or JSON pointer (`/a/b/0`) into segments. */
function splitFieldPath(path: string): string[] {
  if (path.startsWith('/'))
    return path
      .slice(1)
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
  return path.split('.')
}

/** Removes the given fields (dot paths or JSON pointers; `*` matches every array item or key) from a JSON value, in place. */
export function removeFields(value: unknown, paths: readonly string[]): void {
  for (const p of paths) removePath(value, splitFieldPath(p))
}

function removePath(value: unknown, segs: string[]): void {
  // segs is never empty: a path splits into one segment at least, and the recursion stops at the last one.
  if (value === null || typeof value !== 'object') return
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

/** Orders two strings by their UTF-16 code units, as `<` compares them. */
const byCodeUnits = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0)

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
    .sort(([a, av], [b, bv]) => byCodeUnits(a, b) || byCodeUnits(av, bv))
  // Stryker disable next-line StringLiteral: equivalent, any stand-in for a missing content type that names no JSON, text, form or multipart type keys the same
  const ct = (contentType ?? '').toLowerCase()
  let bodyType: KeyMaterial['bodyType'] = 'none'
  let parsed: unknown = null
  if (body.byteLength > 0) {
    const parts = ct.startsWith('multipart/form-data') ? parseMultipart(body, contentType!) : undefined
    // Stryker disable next-line StringLiteral,ObjectLiteral: equivalent, a multipart body's text is never read; fatal defaults to false
    const text = parts ? '' : new TextDecoder('utf-8', { fatal: false }).decode(body)
    // A request body is keyed as JSON when it says so or looks like it (plain fetch sends text/plain): the key
    // only decides which recording answers, the bytes sent upstream are never rewritten.
    const json = parts ? undefined : ct.includes('json') || /^\s*[[{]/.test(text) ? parseJsonExact(text) : undefined
    if (parts) {
      parsed = parts
      bodyType = 'multipart'
    } else if (json !== undefined) {
      parsed = json.value
      bodyType = 'json'
    } else if (ct.startsWith('text/') || ct.includes('x-www-form-urlencoded')) {
      parsed = text
      bodyType = 'text'
    } else {
      parsed = Buffer.from(body).toString('base64')
      bodyType = 'base64'
    }
  }
  if (bodyType === 'json' && options.ignoreBodyFields?.length) removeFields(parsed, options.ignoreBodyFields)
  let material: KeyMaterial = {
    v: KEY_VERSION,
    method: method.toUpperCase(),
    origin: url.origin,
    path: url.pathname,
    query,
    // Only a JSON body or multipart parts have keys to sort; a text, base64 or absent body is kept as is.
    body: sortKeysDeep(parsed),
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

/**
 * Parses JSON, keeping every integer that a JavaScript number cannot hold exactly (beyond 2^53) as
 * `{ $bigint: "<digits>" }`, so that two requests differing only there get different keys. `undefined`
 * when the text is not JSON.
 */
export function parseJsonExact(text: string): { value: unknown } | undefined {
  try {
    return {
      value: JSON.parse(text, function (this: unknown, _key: string, value: unknown, context?: { source?: string }) {
        if (typeof value === 'number' && !Number.isSafeInteger(value) && context?.source !== undefined && /^-?\d+$/.test(context.source)) {
          return { $bigint: context.source }
        }
        return value
      } as (this: unknown, key: string, value: unknown) => unknown),
    }
  } catch {
    // Not JSON: undefined.
  }
}

/** One part of a multipart form in key material: a text field's value, or a file's size and sha256. */
export interface MultipartKeyPart {
  name: string
  filename?: string
  contentType?: string
  value?: string
  size?: number
  sha256?: string
}

/**
 * Splits a `multipart/form-data` body into its parts, so that the key does not depend on the random
 * boundary. Hand-written because the key is computed synchronously and undici's parser
 * (`Response.formData()`) is only available asynchronously; only the boundaries and the part headers are
 * read. Returns `undefined` for a body that is not well-formed multipart (it is then keyed by its bytes).
 */
export function parseMultipart(body: Uint8Array, contentType: string): MultipartKeyPart[] | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
  if (!boundary) return undefined
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`)
  const parts: MultipartKeyPart[] = []
  let at = buf.indexOf(delimiter)
  if (at === -1) return undefined
  for (;;) {
    let start = at + delimiter.length
    if (buf[start] === 0x2d && buf[start + 1] === 0x2d) return parts // closing delimiter
    if (
      buf[start + 1] === 0x0a &&
      // Stryker disable next-line ConditionalExpression: equivalent when true, skipping a one-byte line before the headers changes no match
      buf[start] === 0x0d
    ) {
      start += 2
    }
    const next = buf.indexOf(delimiter, start)
    // Stryker disable next-line ConditionalExpression,UnaryOperator: equivalent, without a next delimiter end is -1 and the check below returns
    if (next === -1) return undefined
    // The part ends before the CRLF that precedes the next delimiter.
    const end = buf[next - 2] === 0x0d && buf[next - 1] === 0x0a ? next - 2 : next
    const headerEnd = buf.indexOf('\r\n\r\n', start)
    // Stryker disable next-line EqualityOperator: equivalent, headerEnd === end cannot happen: the delimiter's dashes follow end's CRLF
    if (headerEnd === -1 || headerEnd > end) return undefined
    const headers = buf.subarray(start, headerEnd).toString('utf8')
    const content = buf.subarray(headerEnd + 4, end)
    // Stryker disable next-line StringLiteral: equivalent, any stand-in without name= or filename= gives no name and no filename
    const disposition = /^content-disposition:(.*)/im.exec(headers)?.[1] ?? ''
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? ''
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1]
    const type = (/^content-type:(.*)/im.exec(headers)?.[1] ?? '').trim()
    const part: MultipartKeyPart = { name }
    if (filename !== undefined) part.filename = filename
    if (type) part.contentType = type
    let value: string | undefined
    if (filename === undefined && (!type || type.startsWith('text/'))) {
      try {
        value = new TextDecoder('utf-8', { fatal: true }).decode(content)
      } catch {
        // Not UTF-8: keyed by its size and sha256 below.
      }
    }
    if (value !== undefined) part.value = value
    else {
      part.size = content.byteLength
      part.sha256 = createHash('sha256').update(content).digest('hex')
    }
    parts.push(part)
    at = next
  }
}

/** The model named in a key's JSON body or multipart form, if any. */
export function modelOf(material: KeyMaterial): string | null {
  if (material.bodyType === 'multipart' && Array.isArray(material.body)) {
    // Stryker disable next-line ConditionalExpression: equivalent when true, a model part without a value gives null below either way
    const part = (material.body as MultipartKeyPart[]).find((p) => p.name === 'model' && typeof p.value === 'string')
    return part?.value ?? null
  }
  // A body that is no object (null, a string, a number) reads undefined for model: no type check needed.
  const model = (material.body as { model?: unknown } | null)?.model
  return typeof model === 'string' ? model : null
}
