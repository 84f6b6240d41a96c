/**
 * The agent checks of golden cases with `expectedTools`: `toolF1` (tool-call F1 at name or argument
 * level), `toolOrder` (the verdict of `toCallTools` with the case's order mode and extra-call rule) and
 * `toolArguments` (argument correctness: the expected arguments, and the schemas of the declared tools).
 * They score the trajectory the task returned (see `src/golden/conversation.ts`).
 *
 * @module
 */
import { argumentCorrectness, toolCallF1, toolOrderVerdict } from '../agents/expected.js'
import { formatPattern, jsonStringify } from '../agents/format.js'
import { toolCalls } from '../agents/read.js'
import { toolSchemas } from '../agents/tools.js'
import { TrajectoryError } from '../agents/builder.js'
import { SchemaUsageError } from '../schema.js'
import { describeValue } from '../errors.js'
import { fail, fmt, result, usageError } from './shared.js'
import type { CheckDefinition, CheckInput, CheckOutcome } from './types.js'
import type { ToolCallItem } from '../agents/types.js'

const NO_TRAJECTORY =
  'the task returned text only, so its tool calls cannot be seen: return what the SDK returned ' +
  '(the messages, the result or the steps), or { output, trajectory }'

function callsOf(input: CheckInput): ToolCallItem[] | undefined {
  return input.trajectory ? toolCalls(input.trajectory) : undefined
}

const hasExpectedTools = (c: { expectedTools?: unknown }) => c.expectedTools !== undefined

export const toolF1: CheckDefinition = {
  name: 'toolF1',
  defaultThreshold: null,
  optionKeys: ['level', 'threshold'],
  resolve({ key, threshold, options }) {
    if (options.level !== undefined && options.level !== 'name' && options.level !== 'arguments')
      fail(`${key}.level must be 'name' or 'arguments', got ${describeValue(options.level)}`, "Pass { level: 'name' } or { level: 'arguments' } (default).")
    return threshold
  },
  appliesTo: hasExpectedTools,
  calledFor: hasExpectedTools,
  run(input, { threshold, options }): CheckOutcome {
    const calls = callsOf(input)
    if (!calls) return result(0, threshold, NO_TRAJECTORY, threshold === null ? true : undefined)
    const f = toolCallF1(calls, input.c.expectedTools!, options.level === 'name' ? 'name' : 'arguments')
    const parts = [`precision ${fmt(f.precision)} (${f.matched}/${f.actual}), recall ${fmt(f.recall)} (${f.matched}/${f.expected})`]
    if (f.missing.length > 0) parts.push(`missing ${f.missing.map((p) => formatPattern(p, jsonStringify, 50)).join(', ')}`)
    if (f.unexpected.length > 0) parts.push(`unexpected ${f.unexpected.map((c) => c.name).join(', ')}`)
    return result(f.f1, threshold, parts.join('; '), undefined, f)
  },
}

export const toolOrder: CheckDefinition = {
  name: 'toolOrder',
  defaultThreshold: 1,
  optionKeys: ['threshold'],
  appliesTo: hasExpectedTools,
  calledFor: hasExpectedTools,
  run(input, { threshold }): CheckOutcome {
    const calls = callsOf(input)
    if (!calls) return result(0, threshold, NO_TRAJECTORY)
    const verdict = toolOrderVerdict(calls, input.c.expectedTools!)
    return result(verdict.pass ? 1 : 0, threshold, verdict.detail)
  },
}

const hasExpectedArguments = (c: { expectedTools?: { calls: Array<{ args?: unknown }> } }) =>
  c.expectedTools !== undefined && c.expectedTools.calls.some((call) => call.args !== undefined)

export const toolArguments: CheckDefinition = {
  name: 'toolArguments',
  defaultThreshold: 1,
  optionKeys: ['tools', 'threshold'],
  appliesTo: (c, { options }) => hasExpectedArguments(c) || options.tools !== undefined,
  calledFor: hasExpectedArguments,
  run(input, { key, threshold, options }): CheckOutcome | undefined {
    const calls = callsOf(input)
    if (!calls) return result(0, threshold, NO_TRAJECTORY)
    const declared = input.tools ?? options.tools
    let schemas: ReturnType<typeof toolSchemas> | undefined
    if (declared !== undefined) {
      try {
        schemas = toolSchemas(declared)
      } catch (error) {
        if (error instanceof TrajectoryError || error instanceof SchemaUsageError)
          usageError(`the tools given to the ${key} scorer cannot be read: ${error.reason}`, error.fix)
        throw error
      }
    }
    const expected = hasExpectedArguments(input.c) ? input.c.expectedTools : undefined
    const checked = argumentCorrectness(calls, expected, schemas)
    // Nothing to check (no expected tool with arguments was called, no declared tools): no score; tool-call F1 and order say what is missing.
    if (checked.checked === 0) return undefined
    const detail = checked.problems.length > 0 ? `${checked.correct}/${checked.checked} right; ${checked.problems.slice(0, 3).join('; ')}` : undefined
    return result(checked.correct / checked.checked, threshold, detail, undefined, checked)
  },
}
