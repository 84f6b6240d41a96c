import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import * as matcher from '../../matchers/toMatchSchema.js'
import { failureMessage } from '../helpers/failure-message.js'

expect.extend(matcher)

const city = z.object({ city: z.string(), population: z.number().int() })
const cityJsonSchema = {
  type: 'object',
  required: ['city', 'population'],
  properties: { city: { type: 'string' }, population: { type: 'integer' } },
}

describe('.toMatchSchema', () => {
  test('passes when the whole text is JSON that matches a zod schema', () => {
    expect('{"city": "Paris", "population": 2102650}').toMatchSchema(city)
  })

  test('passes when a ```json code fence in prose matches a JSON Schema', () => {
    expect('Here it is:\n```json\n{"city": "Paris", "population": 2102650}\n```').toMatchSchema(cityJsonSchema)
  })

  test('passes when a {...} block in prose matches', () => {
    expect('Sure! {"city": "Paris", "population": 2102650} Anything else?').toMatchSchema(city)
  })

  test('fails when a zod schema rejects a field', () => {
    expect(failureMessage(() => expect('```json\n{"city": "Paris", "population": "2.1 million"}\n```').toMatchSchema(city))).toMatchInlineSnapshot(`
      "expect(output).toMatchSchema(schema)

      Expected: JSON matching the zod schema
      Received: JSON from a \`\`\` code fence, with 1 schema error:
        /population: Invalid input: expected number, received string

      JSON:   {"city":"Paris","population":"2.1 million"}
      Output: "\`\`\`json⏎{\\"city\\": \\"Paris\\", \\"population\\": \\"2.1 million\\"}⏎\`\`\`""
    `)
  })

  test('fails when a JSON Schema reports several errors', () => {
    expect(failureMessage(() => expect('{"population": 2.5}').toMatchSchema(cityJsonSchema))).toMatchInlineSnapshot(`
      "expect(output).toMatchSchema(schema)

      Expected: JSON matching the JSON Schema (draft-07)
      Received: JSON from the whole text, with 2 schema errors:
        /city: is required
        /population: must be integer, got 2.5

      JSON:   {"population":2.5}"
    `)
  })

  test('fails when the text holds no JSON', () => {
    expect(failureMessage(() => expect('The capital of France is Paris.').toMatchSchema(city))).toMatchInlineSnapshot(`
      "expect(output).toMatchSchema(schema)

      Expected: JSON matching the zod schema
      Received: no JSON found: the text is not JSON, and has no \`\`\` code fence with JSON and no {...} or [...] block

      Output: "The capital of France is Paris.""
    `)
  })

  test('fails when the ```json fence does not parse', () => {
    expect(failureMessage(() => expect('```json\n{"city": "Paris", "population": 2102650,}\n```').toMatchSchema(city))).toMatchInlineSnapshot(`
      "expect(output).toMatchSchema(schema)

      Expected: JSON matching the zod schema
      Received: the \`\`\`json code fence does not parse: Expected double-quoted property name in JSON at position 40 (line 1 column 41), which is \`}\` after \`…, "population": 2102650,\`

      Output: "\`\`\`json⏎{\\"city\\": \\"Paris\\", \\"population\\": 2102650,}⏎\`\`\`""
    `)
  })

  test('fails listing at most 10 schema errors', () => {
    const schema = z.array(z.number())
    expect(failureMessage(() => expect(JSON.stringify(Array.from({ length: 12 }, (_, i) => `n${i}`))).toMatchSchema(schema))).toContain('  … and 2 more')
  })

  test('lists 10 errors and then one line for the rest', () => {
    const schema = z.array(z.number())
    const message = failureMessage(() => expect(JSON.stringify(Array.from({ length: 12 }, (_, i) => `n${i}`))).toMatchSchema(schema))
    const listed = message.split('\n').filter((line) => line.startsWith('  '))
    expect(listed).toHaveLength(11)
    expect(listed[9]).toMatch(/^ {2}\/9: /)
    expect(listed[10]).toBe('  … and 2 more')
  })

  test('lists exactly 10 errors in full, with no "and 0 more" line', () => {
    const schema = z.array(z.number())
    const message = failureMessage(() => expect(JSON.stringify(Array.from({ length: 10 }, (_, i) => `n${i}`))).toMatchSchema(schema))
    expect(message).toContain('with 10 schema errors:')
    expect(message.split('\n').filter((line) => line.startsWith('  '))).toHaveLength(10)
    expect(message).not.toContain('more')
  })

  test('names a [...] block in prose as the JSON it read', () => {
    const message = failureMessage(() => expect('The ids are [1, 2] as asked.').toMatchSchema(z.array(z.string())))
    expect(message).toContain('Received: JSON from a [...] block in the text, with 2 schema errors:')
  })

  test('an error at the root of the JSON is shown at (root)', () => {
    expect(failureMessage(() => expect('[1, 2]').toMatchSchema(z.object({ city: z.string() })))).toContain('\n  (root): ')
  })

  test('an error thrown by a schema (not a usage error) is rethrown as is', () => {
    const boom = new RangeError('the validator crashed')
    const throwing = {
      '~standard': {
        version: 1,
        vendor: 'custom',
        validate: () => {
          throw boom
        },
      },
    }
    let thrown: unknown
    try {
      expect('{"city": "Paris"}').toMatchSchema(throwing)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBe(boom)
  })

  test('fails with a usage error when the received value is not a string', () => {
    expect(() => expect({ city: 'Paris' }).toMatchSchema(city)).toThrow(
      '[expect-llm] Failed to run toMatchSchema: the received value must be a string, got an object. Pass the model output text to expect().',
    )
  })

  test('fails with a usage error when the schema is missing', () => {
    expect(() => (expect('{}').toMatchSchema as (...args: unknown[]) => void)()).toThrow(
      '[expect-llm] Failed to run toMatchSchema: the schema must be a Standard Schema (zod, valibot, ...) or a JSON Schema object, got undefined.',
    )
  })

  test('fails with a usage error when the JSON Schema does not compile, even if the output has no JSON', () => {
    expect(() => expect('no json').toMatchSchema({ type: 'strnig' })).toThrow(
      '[expect-llm] Failed to run toMatchSchema: the JSON Schema does not compile (schema is invalid: data/type must be equal to one of the allowed values',
    )
  })

  test('fails with a usage error when the Standard Schema validates asynchronously', () => {
    const asyncSchema = z.object({ city: z.string().refine(async (name) => name.length > 0) })
    expect(() => expect('{"city": "Paris"}').toMatchSchema(asyncSchema)).toThrow(
      '[expect-llm] Failed to run toMatchSchema: the zod schema validates asynchronously (its ~standard.validate returned a Promise, e.g. because of an async refinement or transform), and this check is synchronous.',
    )
  })
})

describe('.not.toMatchSchema', () => {
  test('passes when the JSON does not match', () => {
    expect('{"city": 42}').not.toMatchSchema(cityJsonSchema)
  })

  test('passes when the text holds no JSON', () => {
    expect('I could not find that city.').not.toMatchSchema(city)
  })

  test('fails when the JSON matches', () => {
    expect(failureMessage(() => expect('Result: {"city": "Paris", "population": 2102650}').not.toMatchSchema(city))).toMatchInlineSnapshot(`
      "expect(output).not.toMatchSchema(schema)

      Expected: no JSON matching the zod schema
      Received: JSON from a {...} block in the text, which matches it

      JSON:   {"city":"Paris","population":2102650}
      Output: "Result: {\\"city\\": \\"Paris\\", \\"population\\": 2102650}""
    `)
  })

  test('fails with a usage error, not a pass, when the schema is invalid', () => {
    expect(() => expect('{}').not.toMatchSchema([] as never)).toThrow(
      'the schema must be a Standard Schema (zod, valibot, ...) or a JSON Schema object, got an array (length 0).',
    )
  })
})

describe('toMatchSchema: long JSON in the message', () => {
  const jsonLine = (value: unknown) =>
    failureMessage(() => expect(JSON.stringify(value)).toMatchSchema(city))
      .split('\n')
      .find((l) => l.startsWith('JSON:'))

  test('JSON longer than 200 characters keeps its first 120 and last 80, and says how long it was', () => {
    const value = { city: '0123456789'.repeat(30), population: 1.5 } // fails .int()
    const text = JSON.stringify(value) // 9 + 300 + 19 = 328 characters
    expect(jsonLine(value)).toBe(`JSON:   ${text.slice(0, 120)} … ${text.slice(text.length - 80)} (328 characters)`)
    expect(text.slice(0, 120)).toBe(`{"city":"${'0123456789'.repeat(11)}0`)
    expect(text.slice(text.length - 80)).toBe(`${'0123456789'.repeat(7).slice(-61)}","population":1.5}`)
  })

  test('JSON of exactly 200 characters is shown whole', () => {
    const value = { city: 'x'.repeat(200 - '{"city":"","population":1.5}'.length), population: 1.5 }
    expect(JSON.stringify(value)).toHaveLength(200)
    expect(jsonLine(value)).toBe(`JSON:   ${JSON.stringify(value)}`)
  })
})

describe('toMatchSchema: a schema that fails without naming an issue', () => {
  test('says so instead of listing nothing', () => {
    const silent = { '~standard': { version: 1 as const, vendor: 'test', validate: () => ({ issues: [] }) } }
    const message = failureMessage(() => expect('{"a":1}').toMatchSchema(silent))
    expect(message).toContain('with 0 schema errors:\n  (the schema rejected the value without naming an issue)\n')
  })
})
