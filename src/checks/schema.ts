/** The `schema` check: the output holds JSON that satisfies the schema (0 or 1). @module */
import { extractJson, schemaLabel, validateSchema, type SchemaLike } from '../schema.js'
import { result } from './shared.js'
import type { CheckDefinition } from './types.js'

export const schema: CheckDefinition = {
  name: 'schema',
  defaultThreshold: 1,
  optionKeys: ['schema', 'threshold'],
  shorthands: {
    noNumber: 'Pass { schema: true } or an options object.',
    bareObject: (raw) => ('schema' in raw ? undefined : { schema: raw }),
  },
  run({ output }, { threshold, options }) {
    const s = options.schema as SchemaLike
    const extracted = extractJson(output)
    if (!extracted.ok) return result(0, threshold, `no JSON: ${extracted.reason}`)
    const v = validateSchema(extracted.value, s)
    return result(
      v.ok ? 1 : 0,
      threshold,
      v.ok
        ? undefined
        : `${schemaLabel(s)}: ${v.issues
            .slice(0, 3)
            .map((i) => `${i.path || '/'} ${i.message}`)
            .join('; ')}`,
    )
  },
}
