/**
 * JSON in model output, and schema validation: pull the JSON out of a reply (whole text, a code fence,
 * or a `{...}` / `[...]` block in prose) and check it against a Standard Schema (zod 4, valibot, ArkType,
 * ...) or a JSON Schema (ajv 8). Pure: nothing here knows about `expect`.
 *
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import formatsPlugin from 'ajv-formats'

// ajv-formats is CommonJS with `exports.default`: depending on the loader the default import is the
// plugin itself or the module object holding it.
const addFormats = ((formatsPlugin as unknown as { default?: unknown }).default ?? formatsPlugin) as (ajv: Ajv | Ajv2019 | Ajv2020) => unknown
import { describeValue, formatMessage } from './errors.js'

/** A JSON Schema (draft-07 by default; 2019-09 and 2020-12 when its `$schema` says so), as a plain object. */
export type JsonSchemaObject = { [keyword: string]: unknown }

/** What `toMatchSchema` and {@link validateSchema} accept: a Standard Schema or a JSON Schema object. */
export type SchemaLike = StandardSchemaV1 | JsonSchemaObject

/** The result of {@link extractJson}: the parsed value and where it came from, or why none was found. */
export type ExtractedJson =
  | {
      ok: true
      value: unknown
      /**
       * `'whole'`: the whole (trimmed) text; `'fence'`: a ```` ```json ```` or bare ```` ``` ```` code fence;
       * `'block'`: the first `{...}` or `[...]` block that parses.
       */
      source: 'whole' | 'fence' | 'block'
    }
  | { ok: false; reason: string }

/** One schema violation: a JSON Pointer into the value (`''` is the root) and what is wrong there. */
export interface SchemaIssue {
  path: string
  message: string
}

/** The result of {@link validateSchema}. */
export interface SchemaValidation {
  ok: boolean
  issues: SchemaIssue[]
}

/**
 * A schema that cannot be used: not a schema at all, a JSON Schema that does not compile, or a Standard
 * Schema that validates asynchronously. `reason` and `fix` are the two halves of the message.
 */
export class SchemaUsageError extends TypeError {
  readonly reason: string
  readonly fix: string
  constructor(reason: string, fix: string) {
    super(formatMessage(`Failed to validate against the schema: ${reason}. ${fix}`))
    this.name = 'SchemaUsageError'
    this.reason = reason
    this.fix = fix
  }
}

/** How many `{` / `[` positions the block search tries before giving up (each try is linear in the text). */
const MAX_BLOCK_ATTEMPTS = 64

type Parsed = { ok: true; value: unknown } | { ok: false; error: string }

function parse(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    // V8 gives an offset into the parsed text, which the reader cannot see: quote the text around it.
    const at = /at position (\d+)/.exec(message)
    if (!at) return { ok: false, error: message }
    const position = Number(at[1])
    const quote = (part: string) => `\`${part.replace(/\r?\n/g, '⏎')}\``
    const before = `${position > 24 ? '…' : ''}${text.slice(Math.max(0, position - 24), position)}`
    const after = text.slice(position, position + 8)
    const near = after === '' ? `the end, after ${quote(before)}` : `${quote(`${after}${position + 8 < text.length ? '…' : ''}`)} after ${quote(before)}`
    return { ok: false, error: `${message}, which is ${near}` }
  }
}

/**
 * Code fences, as CommonMark has them: a line opening with a run of 3+ backticks and an optional info
 * string, the body, and a line holding only the same run. A closing fence must be on its own line, so
 * backticks inside a JSON string do not end the block.
 */
const FENCE = /^[ \t]*(`{3,})[ \t]*([^\n`]*)\n([\s\S]*?)\r?\n[ \t]*\1[ \t]*\r?$/gm

/** The index of the bracket that closes the one at `start`, skipping JSON strings; -1 if it never closes. */
function closingBracket(text: string, start: number): number {
  const stack: string[] = []
  let inString = false
  for (let i = start; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') {
      inString = true
    } else if (c === '{') {
      stack.push('}')
    } else if (c === '[') {
      stack.push(']')
    } else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return -1
      if (stack.length === 0) return i
    }
  }
  return -1
}

/**
 * Finds the JSON in a model reply. Tried in order:
 * 1. the whole text (trimmed) is JSON;
 * 2. a code fence labelled `json` parses (the first that does), else a fence with no label;
 * 3. the first balanced `{...}` or `[...]` block that parses.
 *
 * When the reply clearly meant to be JSON and is broken (the whole text is bracketed, or a ```` ```json ````
 * fence is present) the parse error of that text is reported instead of searching further, so a broken
 * object is never silently replaced by a smaller one nested inside it.
 *
 * @example
 * ```ts
 * extractJson('{"city": "Paris"}')                         // { ok: true, value: { city: 'Paris' }, source: 'whole' }
 * extractJson('Here:\n```json\n{"city": "Paris"}\n```')    // { ok: true, value: { city: 'Paris' }, source: 'fence' }
 * extractJson('Sure! {"city": "Paris"} Anything else?')     // { ok: true, value: { city: 'Paris' }, source: 'block' }
 * extractJson('The capital is Paris.')                      // { ok: false, reason: 'no JSON found: ...' }
 * ```
 */
export function extractJson(text: string): ExtractedJson {
  if (typeof text !== 'string') {
    throw new TypeError(formatMessage(`Failed to extract JSON: the text must be a string, got ${describeValue(text)}. Pass the model output as a string.`))
  }
  const trimmed = text.trim()
  if (trimmed !== '') {
    const whole = parse(trimmed)
    if (whole.ok) return { ok: true, value: whole.value, source: 'whole' }
    if (/^[{[][\s\S]*[}\]]$/.test(trimmed)) return { ok: false, reason: `the text looks like JSON but does not parse: ${whole.error}` }
  }

  const labelled: string[] = []
  const bare: string[] = []
  for (const match of text.matchAll(FENCE)) {
    const language = (match[2] ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? ''
    if (language === 'json' || language === 'jsonc' || language === 'json5') labelled.push(match[3] ?? '')
    else if (language === '') bare.push(match[3] ?? '')
  }
  let fenceError: string | undefined
  for (const body of [...labelled, ...bare]) {
    const fenced = parse(body.trim())
    if (fenced.ok) return { ok: true, value: fenced.value, source: 'fence' }
    fenceError ??= fenced.error
  }
  if (labelled.length > 0) return { ok: false, reason: `the \`\`\`json code fence does not parse: ${fenceError ?? ''}` }

  let blockError: string | undefined
  let attempts = 0
  for (let start = text.search(/[{[]/); start !== -1 && attempts < MAX_BLOCK_ATTEMPTS; attempts++) {
    const end = closingBracket(text, start)
    if (end !== -1) {
      const block = parse(text.slice(start, end + 1))
      if (block.ok) return { ok: true, value: block.value, source: 'block' }
      blockError ??= `the first ${text[start] === '{' ? '{...}' : '[...]'} block does not parse: ${block.error}`
    }
    const next = text.slice(start + 1).search(/[{[]/)
    start = next === -1 ? -1 : start + 1 + next
  }
  if (blockError !== undefined) return { ok: false, reason: blockError }
  if (fenceError !== undefined) return { ok: false, reason: `the \`\`\` code fence does not parse: ${fenceError}` }
  return { ok: false, reason: 'no JSON found: the text is not JSON, and has no ``` code fence with JSON and no {...} or [...] block' }
}

/** Whether `schema` is a Standard Schema (zod >= 3.24, valibot >= 1, ArkType, ...): it has `~standard.validate`. */
export function isStandardSchema(schema: unknown): schema is StandardSchemaV1 {
  if ((typeof schema !== 'object' && typeof schema !== 'function') || schema === null) return false
  const props = (schema as { '~standard'?: unknown })['~standard']
  return typeof props === 'object' && props !== null && typeof (props as { validate?: unknown }).validate === 'function'
}

/** Whether `schema` can be a JSON Schema: a plain object (not an array, not a class instance such as a zod 3 schema). */
export function isJsonSchemaObject(schema: unknown): schema is JsonSchemaObject {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return false
  const proto: unknown = Object.getPrototypeOf(schema)
  return proto === Object.prototype || proto === null
}

/** A JSON Pointer segment: `~` and `/` escaped as `~0` and `~1` (RFC 6901). */
function pointerSegment(key: PropertyKey): string {
  const text = typeof key === 'symbol' ? (key.description ?? 'Symbol()') : String(key)
  return text.replaceAll('~', '~0').replaceAll('/', '~1')
}

function standardPath(path: StandardSchemaV1.Issue['path']): string {
  if (!path) return ''
  return path.map((segment) => `/${pointerSegment(typeof segment === 'object' && segment !== null ? segment.key : segment)}`).join('')
}

function validateStandard(value: unknown, schema: StandardSchemaV1): SchemaValidation {
  const result = schema['~standard'].validate(value)
  if (typeof (result as { then?: unknown }).then === 'function') {
    // Nobody will await it: keep a rejection from surfacing as an unhandled one.
    Promise.resolve(result).catch(() => undefined)
    throw new SchemaUsageError(
      `the ${schema['~standard'].vendor} schema validates asynchronously (its ~standard.validate returned a Promise, ` +
        'e.g. because of an async refinement or transform), and this check is synchronous',
      'Use a schema without async checks, or await the validation yourself: `const r = await schema["~standard"].validate(value)`, then assert on r.issues.',
    )
  }
  const { issues } = result as StandardSchemaV1.Result<unknown>
  if (!issues) return { ok: true, issues: [] }
  return { ok: false, issues: issues.map((issue) => ({ path: standardPath(issue.path), message: issue.message })) }
}

type Dialect = 'draft-07' | '2019-09' | '2020-12'
const ajvInstances = new Map<Dialect, Ajv | Ajv2019 | Ajv2020>()
const compiled = new WeakMap<JsonSchemaObject, ValidateFunction>()

function ajvFor(dialect: Dialect): Ajv | Ajv2019 | Ajv2020 {
  let ajv = ajvInstances.get(dialect)
  if (!ajv) {
    // `verbose` keeps the offending value on each error, so the message can say what was received.
    const options = { allErrors: true, strict: false, verbose: true }
    ajv = dialect === '2020-12' ? new Ajv2020(options) : dialect === '2019-09' ? new Ajv2019(options) : new Ajv(options)
    // Enforce "format" keywords (email, date-time, uri, uuid, ...) instead of ignoring them.
    addFormats(ajv)
    ajvInstances.set(dialect, ajv)
  }
  return ajv
}

function dialectOf(schema: JsonSchemaObject): Dialect {
  const uri = typeof schema.$schema === 'string' ? schema.$schema : ''
  if (uri.includes('2020-12')) return '2020-12'
  if (uri.includes('2019-09')) return '2019-09'
  return 'draft-07'
}

function compile(schema: JsonSchemaObject): ValidateFunction {
  const cached = compiled.get(schema)
  if (cached) return cached
  const ajv = ajvFor(dialectOf(schema))
  let validate: ValidateFunction
  try {
    try {
      validate = ajv.compile(schema)
    } catch (error) {
      // Another schema object with the same $id was compiled before (e.g. rebuilt per test): replace it.
      const id = typeof schema.$id === 'string' ? schema.$id : undefined
      if (id === undefined || !(error instanceof Error) || !error.message.includes('already exists')) throw error
      ajv.removeSchema(id)
      validate = ajv.compile(schema)
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw new SchemaUsageError(
      `the JSON Schema does not compile (${message})`,
      'Fix the schema; expect-llm supports JSON Schema draft-07 (the default), 2019-09 and 2020-12 (set by "$schema").',
    )
  }
  compiled.set(schema, validate)
  return validate
}

/** A short description of a JSON value, for "got ..." in a message. */
function describeJson(value: unknown): string {
  if (Array.isArray(value)) return `an array (${value.length} item${value.length === 1 ? '' : 's'})`
  if (typeof value === 'object' && value !== null) return 'an object'
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 60)}…` : text
}

function ajvIssue(error: ErrorObject): SchemaIssue {
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'required':
    case 'dependentRequired':
    case 'dependencies':
      if (typeof params.missingProperty === 'string') return { path: `${error.instancePath}/${pointerSegment(params.missingProperty)}`, message: 'is required' }
      break
    case 'additionalProperties':
      return { path: `${error.instancePath}/${pointerSegment(String(params.additionalProperty))}`, message: 'is not allowed (additionalProperties is false)' }
    case 'unevaluatedProperties':
      return { path: `${error.instancePath}/${pointerSegment(String(params.unevaluatedProperty))}`, message: 'is not allowed (unevaluatedProperties is false)' }
    case 'enum':
      if (Array.isArray(params.allowedValues)) {
        return {
          path: error.instancePath,
          message: `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}, got ${describeJson(error.data)}`,
        }
      }
      break
  }
  const message = error.message ?? `fails "${error.keyword}"`
  return { path: error.instancePath, message: 'data' in error ? `${message}, got ${describeJson(error.data)}` : message }
}

/**
 * Validates a parsed JSON value against a Standard Schema (zod 4, valibot, ArkType, ...) or a JSON Schema
 * object (ajv 8 with `allErrors`, `strict: false`; draft-07 unless `$schema` names 2019-09 or 2020-12).
 * Issue paths are JSON Pointers for both kinds (`/items/0/price`, `''` for the root); a missing required
 * property is reported at the property's own path. Compiled JSON Schemas are cached per schema object, so
 * do not mutate a schema after its first use.
 *
 * @throws SchemaUsageError when `schema` is neither kind, when a JSON Schema does not compile, or when a
 *   Standard Schema validates asynchronously (returns a Promise).
 *
 * @example
 * ```ts
 * validateSchema({ price: '7.80' }, { type: 'object', properties: { price: { type: 'number' } } })
 * // { ok: false, issues: [{ path: '/price', message: 'must be number, got "7.80"' }] }
 * validateSchema({ price: 7.8 }, z.object({ price: z.number() }))
 * // { ok: true, issues: [] }
 * ```
 */
export function validateSchema(value: unknown, schema: SchemaLike): SchemaValidation {
  assertSchema(schema)
  if (isStandardSchema(schema)) return validateStandard(value, schema)
  const validate = compile(schema)
  if (validate(value)) return { ok: true, issues: [] }
  return { ok: false, issues: (validate.errors ?? []).map(ajvIssue) }
}

/**
 * Checks that `schema` is usable before any output is seen: a Standard Schema, or a JSON Schema object that
 * compiles (the compiled validator is cached). Whether a Standard Schema validates asynchronously can only be
 * seen when it runs, in {@link validateSchema}.
 *
 * @throws SchemaUsageError otherwise.
 *
 * @example
 * ```ts
 * assertSchema({ type: 'object' }) // ok
 * assertSchema({ type: 'strin' })  // throws: the JSON Schema does not compile (...)
 * ```
 */
export function assertSchema(schema: unknown): asserts schema is SchemaLike {
  if (isStandardSchema(schema)) return
  if (!isJsonSchemaObject(schema)) {
    throw new SchemaUsageError(
      `the schema must be a Standard Schema (zod, valibot, ...) or a JSON Schema object, got ${describeSchema(schema)}`,
      'Pass a zod 4 / valibot schema, or a JSON Schema such as { type: "object", properties: { ... } }. ' +
        'Older schema libraries without "~standard" (zod < 3.24) need an upgrade.',
    )
  }
  compile(schema)
}

/**
 * What kind of schema this is, for messages: `'zod schema'`, `'valibot schema'`, `'JSON Schema (draft-07)'`.
 *
 * @example
 * ```ts
 * schemaLabel({ $schema: 'https://json-schema.org/draft/2020-12/schema' }) // 'JSON Schema (2020-12)'
 * ```
 */
export function schemaLabel(schema: SchemaLike): string {
  return isStandardSchema(schema) ? `${schema['~standard'].vendor} schema` : `JSON Schema (${dialectOf(schema)})`
}

function describeSchema(schema: unknown): string {
  if (typeof schema === 'object' && schema !== null && !Array.isArray(schema)) {
    const name = (schema as { constructor?: { name?: unknown } }).constructor?.name
    return typeof name === 'string' && name !== '' && name !== 'Object' ? `an instance of ${name} without a "~standard" property` : 'an object'
  }
  return describeValue(schema)
}
