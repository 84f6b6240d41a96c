import { directInput, runDirect, schemaCheck, type SchemaData, type SchemaIssue, schemaLabel, SchemaUsageError, type SchemaLike } from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { checkReceivedString, definitionPlan, hint, lines, preview, usageError, type Signature } from './utils.js'

const MAX_ISSUES = 10

/** Compact JSON on one line, cut in the middle past `max` characters. */
function compactJson(value: unknown, max = 200): string {
  const text = JSON.stringify(value) ?? String(value)
  const chars = Array.from(text)
  if (chars.length <= max) return text
  return `${chars.slice(0, Math.ceil(max * 0.6)).join('')} … ${chars.slice(chars.length - Math.floor(max * 0.4)).join('')} (${chars.length} characters)`
}

function issueLines(issues: readonly SchemaIssue[]): string[] {
  if (issues.length === 0) return ['  (the schema rejected the value without naming an issue)']
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => `  ${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`)
  return issues.length > MAX_ISSUES ? [...shown, `  … and ${issues.length - MAX_ISSUES} more`] : shown
}

/**
 * Passes when the received text holds JSON that satisfies `schema`. The JSON is the whole text, else the
 * first ```` ```json ```` (or bare ```` ``` ````) code fence that parses, else the first balanced `{...}` or
 * `[...]` block that parses. `schema` is a Standard Schema (zod 4, valibot, ArkType, ...) or a JSON Schema
 * object (ajv 8; draft-07 unless `$schema` names 2019-09 or 2020-12). A failure lists each failing path
 * (`/items/0/price`) with its message, or says why no JSON could be parsed.
 *
 * Synchronous: a Standard Schema with async refinements or transforms is a usage error.
 *
 * @example
 * ```ts
 * expect(reply).toMatchSchema(z.object({ city: z.string(), population: z.number().int() }))
 * expect(reply).toMatchSchema({ type: 'object', required: ['city'], properties: { city: { type: 'string' } } })
 * expect(chattyReply).not.toMatchSchema({ type: 'object', required: ['error'] })
 * ```
 */
export function toMatchSchema(this: MatcherContext, received: unknown, schema: unknown): MatcherResult {
  const sig: Signature = { name: 'toMatchSchema', expected: 'schema' }
  checkReceivedString(this, sig, received)
  const rethrow = (error: unknown): never => {
    if (error instanceof SchemaUsageError) usageError(this, sig, error.reason, error.fix)
    throw error
  }
  // The schema is validated by the check's definition; an issue found only while validating (an async
  // schema) is the same usage error.
  const plan = definitionPlan(this, sig, schemaCheck, { schema }, schemaCheck.defaultThreshold)
  const usable = schema as SchemaLike
  let outcome: ReturnType<typeof runDirect<SchemaData>>
  try {
    outcome = runDirect<SchemaData>(plan, directInput(received))
  } catch (error) {
    return rethrow(error)
  }
  const { pass } = outcome
  const { extracted, issues } = outcome.data

  return {
    pass,
    message: () => {
      const label = schemaLabel(usable)
      const expected = `Expected: ${this.isNot ? 'no JSON' : 'JSON'} matching the ${label}`
      if (!extracted.ok) {
        return lines(hint(this, sig), '', expected, `Received: ${extracted.reason}`, '', `Output: ${preview(received, 240)}`)
      }
      const source = { whole: 'the whole text', fence: 'a ``` code fence', block: `a ${Array.isArray(extracted.value) ? '[...]' : '{...}'} block in the text` }
      const from = `JSON from ${source[extracted.source]}`
      return lines(
        hint(this, sig),
        '',
        expected,
        pass ? `Received: ${from}, which matches it` : `Received: ${from}, with ${issues.length} schema error${issues.length === 1 ? '' : 's'}:`,
        pass ? undefined : issueLines(issues),
        '',
        `JSON:   ${compactJson(extracted.value)}`,
        extracted.source === 'whole' ? undefined : `Output: ${preview(received)}`,
      )
    },
  }
}
