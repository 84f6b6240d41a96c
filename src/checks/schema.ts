/** The `schema` check: the output holds JSON that satisfies the schema (0 or 1). @module */
import { assertSchema, type ExtractedJson, extractJson, type SchemaIssue, schemaLabel, SchemaUsageError, validateSchema, type SchemaLike } from '../schema.js'
import { result } from './shared.js'
import type { CheckDefinition } from './types.js'

/** What the schema check keeps as `data`: the JSON found in the output, and the schema's issues with it. */
export interface SchemaData {
  extracted: ExtractedJson
  issues: SchemaIssue[]
}

export const schema: CheckDefinition = {
  name: 'schema',
  defaultThreshold: 1,
  optionKeys: ['schema', 'threshold'],
  shorthands: {
    noNumber: 'Pass { schema: true } or an options object.',
    bareObject: (raw) => ('schema' in raw ? undefined : { schema: raw }),
  },
  resolve({ key, threshold, options }, _raw, how) {
    if (!('schema' in options)) return threshold
    try {
      assertSchema(options.schema)
    } catch (error) {
      if (!(error instanceof SchemaUsageError)) throw error
      how.fail(how.prefix === '' ? error.reason : `the "${key}" scorer: ${error.reason}`, error.fix)
    }
    return threshold
  },
  run({ output }, { threshold, options }) {
    const s = options.schema as SchemaLike
    const extracted = extractJson(output)
    if (!extracted.ok) return result<SchemaData>(0, threshold, `no JSON: ${extracted.reason}`, undefined, { extracted, issues: [] })
    const v = validateSchema(extracted.value, s)
    const issues = v.issues
      .slice(0, 3)
      .map((i) => `${i.path || '/'} ${i.message}`)
      .join('; ')
    return result<SchemaData>(v.ok ? 1 : 0, threshold, v.ok ? undefined : `${schemaLabel(s)}: ${issues}`, undefined, { extracted, issues: v.issues })
  },
}
