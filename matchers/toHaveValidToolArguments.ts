import { countLine, formatCall, renderSteps, checkToolArguments, toolSchemas, type ArgumentCheck } from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { asUsage, hint, lines, trajectoryOf, type Signature } from './utils.js'

const MAX_ISSUES = 5

function verdictLines(check: ArgumentCheck, declared: readonly string[]): string[] {
  // Stryker disable next-line ConditionalExpression: equivalent when false, a valid check has no problem and no issues, so the lines below are empty too
  if (check.valid) return []
  if (check.problem === 'unknown tool') return [`not declared: the tools are ${declared.join(', ')}`]
  const shown = check.issues.slice(0, MAX_ISSUES).map((issue) => `${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`)
  return check.issues.length > MAX_ISSUES ? [...shown, `… and ${check.issues.length - MAX_ISSUES} more`] : shown
}

/**
 * Passes when every tool call of the agent run is valid against the tool definitions the request
 * declared: the tool exists, its arguments are JSON, and they satisfy the tool's schema (ajv for JSON
 * Schemas, with formats; `~standard.validate` for zod and other Standard Schemas).
 *
 * `tools` is what you passed to the model: OpenAI chat tools (`{ type: 'function', function: { name,
 * parameters } }`), Responses API tools (`{ type: 'function', name, parameters }`), Anthropic tools (`{
 * name, input_schema }`), an AI SDK tool set (`{ name: tool({ inputSchema }) }`), LangChain or MCP tools,
 * or a `{ name: schema }` map. A run with no tool call fails (there is nothing to vouch for), so an agent
 * that stopped calling tools does not pass unnoticed.
 *
 * @example
 * ```ts
 * expect(completion).toHaveValidToolArguments(request.tools)
 * expect(result).toHaveValidToolArguments({ lookupOrder, refundOrder }) // AI SDK tools
 * ```
 */
export function toHaveValidToolArguments(this: MatcherContext, received: unknown, tools: unknown): MatcherResult {
  const sig: Signature = { name: 'toHaveValidToolArguments', received: 'trajectory', expected: 'tools' }
  const schemas = asUsage(this, sig, () => toolSchemas(tools))
  const trajectory = trajectoryOf(this, sig, received)
  const checks = asUsage(this, sig, () => checkToolArguments(trajectory, schemas))
  const invalid = checks.filter((c) => !c.valid)
  const pass = checks.length > 0 && invalid.length === 0

  return {
    pass,
    message: () => {
      const declared = [...schemas.keys()]
      const expected = `Expected: ${this.isNot ? 'a tool call that is not valid' : 'every tool call valid'} against the declared tools (${declared.join(', ')})`
      if (checks.length === 0) {
        return lines(hint(this, sig), '', expected, `Received: no tool calls (${countLine(trajectory)})`, '', 'Trajectory:', renderSteps(trajectory))
      }
      const tally = invalid.length === 0 ? `all ${checks.length} valid` : `${invalid.length} of ${checks.length} invalid`
      const receivedLine = `Received: ${tally} (${countLine(trajectory)})`
      const first = invalid[0]?.index
      const digits = String(checks.length).length
      const rows = checks.flatMap((check) => {
        const marker = check.index === first ? '  > ' : '    '
        const status = check.valid ? '' : check.problem === 'not JSON' ? '   not JSON' : check.problem === 'unknown tool' ? '   unknown tool' : '   invalid'
        const row = `${marker}${String(check.index + 1).padStart(digits)}  ${formatCall(check.call)}${status}`
        return [row, ...verdictLines(check, declared).map((l) => `${' '.repeat(digits + 6)}${l}`)]
      })
      return lines(hint(this, sig), '', expected, receivedLine, '', 'Calls:', rows)
    },
  }
}
