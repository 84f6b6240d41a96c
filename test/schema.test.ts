import type { StandardSchemaV1 } from '@standard-schema/spec'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { assertSchema, extractJson, isJsonSchemaObject, isStandardSchema, schemaLabel, SchemaUsageError, validateSchema } from '../src/schema.js'

/** A hand-written Standard Schema, to exercise what zod does not produce (path segments as objects, symbols). */
function customSchema(result: StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>): StandardSchemaV1 {
  return { '~standard': { version: 1, vendor: 'custom', validate: () => result } }
}

describe('extractJson', () => {
  test('parses a whole text that is JSON', () => {
    expect(extractJson('  {"city": "Paris"}\n')).toEqual({ ok: true, value: { city: 'Paris' }, source: 'whole' })
  })

  test('parses a whole text that is a JSON scalar', () => {
    expect(extractJson('42')).toEqual({ ok: true, value: 42, source: 'whole' })
  })

  test('parses a ```json code fence inside prose', () => {
    expect(extractJson('Here you go:\n```json\n{"city": "Paris"}\n```\nAnything else?')).toEqual({ ok: true, value: { city: 'Paris' }, source: 'fence' })
  })

  test('parses a fence whose label is upper-case or has attributes', () => {
    expect(extractJson('```JSON title="x"\n[1, 2]\n```')).toEqual({ ok: true, value: [1, 2], source: 'fence' })
  })

  test('parses a fence without a label', () => {
    expect(extractJson('Result:\n```\n{"ok": true}\n```')).toEqual({ ok: true, value: { ok: true }, source: 'fence' })
  })

  test('prefers a ```json fence over an earlier unlabelled one', () => {
    expect(extractJson('```\n{"a": 1}\n```\n```json\n{"b": 2}\n```')).toEqual({ ok: true, value: { b: 2 }, source: 'fence' })
  })

  test('ignores fences labelled with another language', () => {
    expect(extractJson('```python\nprint({"a": 1})\n```')).toEqual({ ok: true, value: { a: 1 }, source: 'block' })
  })

  test('accepts a fence of four backticks', () => {
    expect(extractJson('````json\n{"a": "```"}\n````')).toEqual({ ok: true, value: { a: '```' }, source: 'fence' })
  })

  test('does not end a fence at backticks inside a JSON string', () => {
    expect(extractJson('```json\n{"code": "```py\\nprint(1)\\n```"}\n```')).toEqual({ ok: true, value: { code: '```py\nprint(1)\n```' }, source: 'fence' })
  })

  test('parses a fence with Windows line endings', () => {
    expect(extractJson('Result:\r\n```json\r\n{"a": 1}\r\n```\r\n')).toEqual({ ok: true, value: { a: 1 }, source: 'fence' })
  })

  test('parses any JSON value given as the whole text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = extractJson(JSON.stringify(value))
        return result.ok && result.source === 'whole' && JSON.stringify(result.value) === JSON.stringify(value)
      }),
    )
  })

  test('parses any pretty-printed JSON object or array from a ```json fence in prose', () => {
    const container = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue()))
    fc.assert(
      fc.property(container, (value) => {
        const result = extractJson(`Here you go:\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`\n\nAnything else?`)
        return result.ok && result.source === 'fence' && JSON.stringify(result.value) === JSON.stringify(value)
      }),
    )
  })

  test('finds a {...} block in prose', () => {
    expect(extractJson('Sure! {"city": "Paris"} Anything else?')).toEqual({ ok: true, value: { city: 'Paris' }, source: 'block' })
  })

  test('finds a [...] block in prose', () => {
    expect(extractJson('The ids are [3, 5, 8].')).toEqual({ ok: true, value: [3, 5, 8], source: 'block' })
  })

  test('skips braces inside JSON strings when balancing a block', () => {
    expect(extractJson('Output: {"x": "}{", "y": "\\"}"} done')).toEqual({ ok: true, value: { x: '}{', y: '"}' }, source: 'block' })
  })

  test('skips a block that does not parse and takes the next one', () => {
    expect(extractJson('I think {maybe} this: {"a": 1}')).toEqual({ ok: true, value: { a: 1 }, source: 'block' })
  })

  test('takes the first block that parses, even a short array before the object', () => {
    expect(extractJson('See [1]. {"a": 1}')).toEqual({ ok: true, value: [1], source: 'block' })
  })

  test('finds a block in a truncated, unclosed fence', () => {
    expect(extractJson('```json\n{"a": 1}')).toEqual({ ok: true, value: { a: 1 }, source: 'block' })
  })

  test('reports the parse error of a whole text that looks like JSON instead of searching inside it', () => {
    // The middle is V8's own wording; ours is the start and the quote of where it broke.
    expect(extractJson('{"a": {"b": 1},}')).toEqual({
      ok: false,
      reason: expect.stringMatching(/^the text looks like JSON but does not parse: .+ at position 15 .+, which is `}` after `{"a": {"b": 1},`$/),
    })
  })

  test('reports the parse error of a ```json fence instead of falling back to blocks', () => {
    expect(extractJson('```json\n{"a": {"b": 1}, }\n```')).toEqual({
      ok: false,
      reason: expect.stringMatching(/^the ```json code fence does not parse: .+ at position 16 .+, which is `}` after `{"a": {"b": 1}, `$/),
    })
  })

  test('reports the parse error of the first bracketed block when nothing parses', () => {
    expect(extractJson("Here: {'a': 1}")).toEqual({
      ok: false,
      reason: expect.stringMatching(/^the first \{\.\.\.\} block does not parse: .+ at position 1 .+, which is `'a': 1}` after `{`$/),
    })
  })

  test('quotes where a long text broke, shortened on both sides', () => {
    const text = `{"answer": "${'x'.repeat(40)}" "next": 1, "more": true}`
    expect(extractJson(text)).toEqual({ ok: false, reason: expect.stringMatching(/, which is `"next": …` after `…x{22}" `$/) })
  })

  test('reports that no JSON was found in plain prose', () => {
    expect(extractJson('The capital is Paris.')).toEqual({
      ok: false,
      reason: 'no JSON found: the text is not JSON, and has no ``` code fence with JSON and no {...} or [...] block',
    })
  })

  test('reports that no JSON was found in an empty text', () => {
    expect(extractJson('')).toMatchObject({ ok: false, reason: expect.stringContaining('no JSON found') })
  })

  // A scan that restarts at every bracket would be quadratic here; the test's timeout catches it.
  test('handles text with thousands of unbalanced brackets', { timeout: 5000 }, () => {
    expect(extractJson('{['.repeat(100_000)).ok).toBe(false)
  })

  test('throws a TypeError when the text is not a string', () => {
    expect(() => extractJson(null as unknown as string)).toThrow(
      new TypeError('[expect-llm] Failed to extract JSON: the text must be a string, got null. Pass the model output as a string.'),
    )
  })
})

describe('validateSchema with a JSON Schema', () => {
  const order = {
    type: 'object',
    required: ['items'],
    properties: {
      items: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'price'],
          additionalProperties: false,
          properties: { name: { type: 'string' }, price: { type: 'number', minimum: 0 }, size: { enum: ['S', 'M'] } },
        },
      },
    },
  }

  test('accepts a valid value', () => {
    expect(validateSchema({ items: [{ name: 'tea', price: 2.5 }] }, order)).toEqual({ ok: true, issues: [] })
  })

  test('reports a wrong type at its JSON Pointer, with the received value', () => {
    expect(validateSchema({ items: [{ name: 'tea', price: '2.50' }] }, order).issues).toEqual([
      { path: '/items/0/price', message: 'must be number, got "2.50"' },
    ])
  })

  test('reports a missing required property at the property path', () => {
    expect(validateSchema({ items: [{ price: 1 }] }, order).issues).toEqual([{ path: '/items/0/name', message: 'is required' }])
  })

  test('reports an additional property at its own path', () => {
    expect(validateSchema({ items: [{ name: 'tea', price: 1, sugar: true }] }, order).issues).toEqual([
      { path: '/items/0/sugar', message: 'is not allowed (additionalProperties is false)' },
    ])
  })

  test('lists the allowed values of an enum', () => {
    expect(validateSchema({ items: [{ name: 'tea', price: 1, size: 'XL' }] }, order).issues).toEqual([
      { path: '/items/0/size', message: 'must be one of "S", "M", got "XL"' },
    ])
  })

  test('reports every error, not only the first', () => {
    expect(validateSchema({ items: [{ price: -1 }, { name: 3, price: 1 }] }, order).issues.map((i) => i.path)).toEqual([
      '/items/0/name',
      '/items/0/price',
      '/items/1/name',
    ])
  })

  test('reports a root error with the empty pointer', () => {
    expect(validateSchema([], order).issues).toEqual([{ path: '', message: 'must be object, got an array (0 items)' }])
  })

  test('escapes "/" and "~" in property names', () => {
    const schema = { type: 'object', properties: { 'a/b~c': { type: 'string' } } }
    expect(validateSchema({ 'a/b~c': 1 }, schema).issues).toEqual([{ path: '/a~1b~0c', message: 'must be string, got 1' }])
  })

  test('uses draft 2020-12 when $schema says so', () => {
    const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'array', prefixItems: [{ type: 'string' }] }
    expect(validateSchema([1], schema).issues).toEqual([{ path: '/0', message: 'must be string, got 1' }])
  })

  test('uses draft-07 by default, where prefixItems is not a keyword', () => {
    expect(validateSchema([1], { type: 'array', prefixItems: [{ type: 'string' }] })).toEqual({ ok: true, issues: [] })
  })

  test('compiles a schema object once and reuses it', () => {
    const schema = { type: 'string' }
    expect([validateSchema('a', schema).ok, validateSchema(1, schema).ok]).toEqual([true, false])
  })

  test('accepts a second schema object that reuses an $id', () => {
    validateSchema('a', { $id: 'https://example.com/answer', type: 'string' })
    expect(validateSchema('a', { $id: 'https://example.com/answer', type: 'number' }).ok).toBe(false)
  })

  test('throws a SchemaUsageError for a JSON Schema that does not compile', () => {
    expect(() => validateSchema('a', { type: 'strin' })).toThrow(SchemaUsageError)
  })

  test('explains why a JSON Schema does not compile', () => {
    expect(() => validateSchema('a', { $schema: 'http://json-schema.org/draft-04/schema#', type: 'string' })).toThrow(
      '[expect-llm] Failed to validate against the schema: the JSON Schema does not compile (no schema with key or ref "http://json-schema.org/draft-04/schema#"). Fix the schema; expect-llm supports JSON Schema draft-07 (the default), 2019-09 and 2020-12 (set by "$schema").',
    )
  })
})

describe('validateSchema with a Standard Schema', () => {
  const order = z.object({ items: z.array(z.object({ name: z.string(), price: z.number() })) })

  test('accepts a valid value with zod', () => {
    expect(validateSchema({ items: [{ name: 'tea', price: 2.5 }] }, order)).toEqual({ ok: true, issues: [] })
  })

  test('reports zod issues at JSON Pointer paths', () => {
    expect(validateSchema({ items: [{ price: '2.50' }] }, order).issues).toEqual([
      { path: '/items/0/name', message: 'Invalid input: expected string, received undefined' },
      { path: '/items/0/price', message: 'Invalid input: expected number, received string' },
    ])
  })

  test('reports an issue without a path at the root', () => {
    expect(validateSchema(1, customSchema({ issues: [{ message: 'nope' }] })).issues).toEqual([{ path: '', message: 'nope' }])
  })

  test('reads path segments given as { key } objects, symbols and escapes', () => {
    const schema = customSchema({ issues: [{ message: 'bad', path: [{ key: 'a/b' }, 0, Symbol('s'), '~'] }] })
    expect(validateSchema(1, schema).issues).toEqual([{ path: '/a~1b/0/s/~0', message: 'bad' }])
  })

  test('throws a SchemaUsageError when validation is asynchronous', () => {
    const schema = z.string().refine(async () => true)
    expect(() => validateSchema('x', schema)).toThrow(
      '[expect-llm] Failed to validate against the schema: the zod schema validates asynchronously (its ~standard.validate returned a Promise, e.g. because of an async refinement or transform), and this check is synchronous. Use a schema without async checks, or await the validation yourself: `const r = await schema["~standard"].validate(value)`, then assert on r.issues.',
    )
  })

  test('does not leave an unhandled rejection behind when async validation rejects', async () => {
    const rejected = Promise.reject(new Error('boom'))
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    try {
      expect(() => validateSchema('x', customSchema(rejected))).toThrow(SchemaUsageError)
      await new Promise((resolve) => setTimeout(resolve, 10))
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
    expect(unhandled).toEqual([])
  })
})

describe('schema kinds', () => {
  test('recognises a zod schema as a Standard Schema', () => {
    expect(isStandardSchema(z.string())).toBe(true)
  })

  test('does not take a JSON Schema for a Standard Schema', () => {
    expect(isStandardSchema({ type: 'string' })).toBe(false)
  })

  test('takes only plain objects for JSON Schemas', () => {
    expect([isJsonSchemaObject({ type: 'string' }), isJsonSchemaObject(Object.create(null)), isJsonSchemaObject([]), isJsonSchemaObject(new Date())]).toEqual([
      true,
      true,
      false,
      false,
    ])
  })

  test('labels a schema for messages', () => {
    expect([schemaLabel(z.string()), schemaLabel({}), schemaLabel({ $schema: 'https://json-schema.org/draft/2019-09/schema' })]).toEqual([
      'zod schema',
      'JSON Schema (draft-07)',
      'JSON Schema (2019-09)',
    ])
  })

  test('rejects a class instance without "~standard", such as a zod 3 schema', () => {
    class ZodString {
      parse() {}
    }
    expect(() => assertSchema(new ZodString())).toThrow('got an instance of ZodString without a "~standard" property')
  })

  test('rejects a value that is no schema at all', () => {
    expect(() => assertSchema('string')).toThrow(
      '[expect-llm] Failed to validate against the schema: the schema must be a Standard Schema (zod, valibot, ...) or a JSON Schema object, got a string ("string"). Pass a zod 4 / valibot schema, or a JSON Schema such as { type: "object", properties: { ... } }. Older schema libraries without "~standard" (zod < 3.24) need an upgrade.',
    )
  })
})

describe('validateSchema: JSON Schema formats', () => {
  test('enforces "format" keywords such as email', () => {
    const schema = { type: 'object', properties: { email: { type: 'string', format: 'email' } } }
    expect(validateSchema({ email: 'ada@example.com' }, schema).ok).toBe(true)
    const result = validateSchema({ email: 'not an email' }, schema)
    expect(result.ok).toBe(false)
    expect(result.issues[0]?.path).toBe('/email')
  })

  test('enforces date-time in a 2020-12 schema', () => {
    const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'string', format: 'date-time' }
    expect(validateSchema('2026-11-29T10:00:00Z', schema).ok).toBe(true)
    expect(validateSchema('yesterday', schema).ok).toBe(false)
  })
})
