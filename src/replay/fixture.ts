import { sortKeysDeep } from './canonical.js'
import { hashMaterial } from './key.js'
import type { Fixture, RecordedResponse } from './types.js'
import { formatMessage } from '../errors.js'

/** Current fixture file schema version. */
export const SCHEMA_VERSION = 1

/**
 * A fixture file that cannot be used: invalid JSON, wrong schema version, missing or mistyped fields, hash mismatch.
 *
 * @example
 * ```ts
 * import { FixtureError, parseFixture } from 'expect-llm/replay'
 *
 * try {
 *   parseFixture('{', file)
 * } catch (error) {
 *   if (error instanceof FixtureError) console.log(error.file, error.reason) // reason: 'it is not valid JSON (...)'
 * }
 * ```
 */
export class FixtureError extends Error {
  /** Absolute path of the file. */
  readonly file: string
  /** What is wrong, e.g. `"response.status" must be an integer`. */
  readonly reason: string
  constructor(file: string, reason: string) {
    super(formatMessage(`Failed to read fixture ${file}: ${reason}. Fix the file by hand, or delete it and record it again with EXPECT_LLM_REPLAY=record.`))
    this.name = 'FixtureError'
    this.file = file
    this.reason = reason
  }
}

function sortResponse(r: RecordedResponse): RecordedResponse {
  // Everything sorted for stable diffs, except the recorded body, which keeps the server's key order.
  const out: Record<string, unknown> = {}
  // An undefined member stays undefined here, and JSON.stringify in serializeFixture drops it.
  for (const k of Object.keys(r).sort()) {
    const v = (r as unknown as Record<string, unknown>)[k]
    out[k] = k === 'json' ? v : sortKeysDeep(v)
  }
  return out as unknown as RecordedResponse
}

/**
 * Serializes a fixture the way it is stored: pretty-printed, keys sorted (the recorded JSON body keeps
 * the server's order), trailing newline.
 *
 * @example
 * ```ts
 * import { readFile, writeFile } from 'node:fs/promises'
 * import { parseFixture, serializeFixture } from 'expect-llm/replay'
 *
 * const fixture = parseFixture(await readFile(file, 'utf8'), file)
 * fixture.meta.testFile = 'test/chat.test.ts' // edit meta or the response; editing `key` breaks the hash
 * await writeFile(file, serializeFixture(fixture))
 * ```
 */
export function serializeFixture(fixture: Fixture): string {
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(fixture).sort()) {
    const v = (fixture as unknown as Record<string, unknown>)[k]
    if (v === undefined) continue
    if (k === 'response') out[k] = sortResponse(v as RecordedResponse)
    else if (k === 'responses') out[k] = (v as RecordedResponse[]).map(sortResponse)
    else out[k] = sortKeysDeep(v)
  }
  return `${JSON.stringify(out, null, 2)}\n`
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

function checkResponse(r: unknown, where: string): string | null {
  if (!isObj(r)) return `"${where}" must be an object`
  if (!Number.isInteger(r.status) || (r.status as number) < 100 || (r.status as number) > 599)
    return `"${where}.status" must be an HTTP status (an integer 100-599)`
  if (!isObj(r.headers) || !Object.values(r.headers).every((h) => typeof h === 'string')) return `"${where}.headers" must be an object of strings`
  const bodies = ['json', 'sse', 'text', 'base64'].filter((k) => r[k] !== undefined)
  if (bodies.length > 1) return `"${where}" has more than one body (${bodies.join(', ')}); keep exactly one`
  if (r.sse !== undefined && !(Array.isArray(r.sse) && r.sse.every((c) => typeof c === 'string'))) return `"${where}.sse" must be an array of strings`
  if (r.chunkOffsetsMs !== undefined && !(Array.isArray(r.chunkOffsetsMs) && r.chunkOffsetsMs.every((n) => typeof n === 'number')))
    return `"${where}.chunkOffsetsMs" must be an array of numbers`
  if (r.text !== undefined && typeof r.text !== 'string') return `"${where}.text" must be a string`
  if (r.jsonSpace !== undefined && !(Number.isInteger(r.jsonSpace) && (r.jsonSpace as number) > 0 && (r.jsonSpace as number) <= 10))
    return `"${where}.jsonSpace" must be a whole number from 1 to 10`
  if (r.jsonNewline !== undefined && typeof r.jsonNewline !== 'boolean') return `"${where}.jsonNewline" must be true or false`
  if (r.base64 !== undefined && typeof r.base64 !== 'string') return `"${where}.base64" must be a string`
  if (r.durationMs !== undefined && !(typeof r.durationMs === 'number' && r.durationMs >= 0)) return `"${where}.durationMs" must be a number of milliseconds`
  return null
}

/**
 * Parses and validates a fixture file's text. Throws a {@link FixtureError} naming the file and what is
 * wrong: invalid JSON, a schema version this release does not read, a missing or mistyped field, or key
 * material that no longer matches its hash (a hand edit of the request part).
 *
 * @example
 * ```ts
 * const fixture = parseFixture(await readFile(file, 'utf8'), file)
 * ```
 */
export function parseFixture(text: string, file: string): Fixture {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new FixtureError(file, `it is not valid JSON (${(error as Error).message})`)
  }
  if (!isObj(data)) throw new FixtureError(file, 'it must hold a JSON object')
  if (data.schemaVersion !== SCHEMA_VERSION) {
    throw new FixtureError(
      file,
      data.schemaVersion === undefined
        ? '"schemaVersion" is missing'
        : `"schemaVersion" is ${JSON.stringify(data.schemaVersion)}, but this version of expect-llm reads schema ${SCHEMA_VERSION}`,
    )
  }
  const key = data.key
  if (!isObj(key)) throw new FixtureError(file, '"key" is missing or not an object')
  for (const f of ['method', 'origin', 'path', 'bodyType'] as const) {
    if (typeof key[f] !== 'string') throw new FixtureError(file, `"key.${f}" is missing or not a string`)
  }
  if (typeof key.v !== 'number') throw new FixtureError(file, '"key.v" is missing or not a number')
  if (!Array.isArray(key.query)) throw new FixtureError(file, '"key.query" is missing or not an array')
  if (!('body' in key)) throw new FixtureError(file, '"key.body" is missing')
  if (typeof data.hash !== 'string' || !/^[0-9a-f]{64}$/.test(data.hash)) throw new FixtureError(file, '"hash" is missing or not a sha256 hex string')
  if (data.response === undefined && data.responses === undefined) throw new FixtureError(file, '"response" is missing')
  if (data.response !== undefined) {
    const problem = checkResponse(data.response, 'response')
    if (problem) throw new FixtureError(file, problem)
  }
  if (data.responses !== undefined) {
    if (!Array.isArray(data.responses) || data.responses.length === 0) throw new FixtureError(file, '"responses" must be a non-empty array')
    for (let i = 0; i < data.responses.length; i++) {
      const problem = checkResponse(data.responses[i], `responses[${i}]`)
      if (problem) throw new FixtureError(file, problem)
    }
  }
  if (!isObj(data.meta)) throw new FixtureError(file, '"meta" is missing or not an object')
  const computed = hashMaterial(key as unknown as Fixture['key'])
  if (computed !== data.hash) {
    throw new FixtureError(
      file,
      `the request in "key" does not match "hash" (stored ${data.hash.slice(0, 16)}, computed ${computed.slice(0, 16)}); the key was edited by hand`,
    )
  }
  const m = /\.([0-9a-f]{16})\.json$/.exec(file)
  if (m && m[1] !== data.hash.slice(0, 16)) {
    throw new FixtureError(
      file,
      `the file name carries hash ${m[1]} but the fixture's hash starts with ${data.hash.slice(0, 16)}; the file was renamed or copied over`,
    )
  }
  return data as unknown as Fixture
}
