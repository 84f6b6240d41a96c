import {
  describeValue,
  clip,
  countLine,
  differenceLines,
  callTable,
  argsCheck,
  matchCall,
  matchSequence,
  strictDisplay,
  toolCalls,
  assertSchema,
  type ArgumentDifference,
  type CallMatch,
  type CallOrder,
  type CallPattern,
  type ExtraCalls,
  type SequenceMatch,
  type ToolCallItem,
  type Trajectory,
} from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { asUsage, checkOneOf, checkOptions, hint, lines, partialEquals, trajectoryOf, usageError, type Signature } from './utils.js'

/** An expected call of {@link toCallTools}: a tool name, or a name with arguments (partial values or a schema). */
export type ExpectedToolCall = string | { name: string; args?: unknown }

/** Options of {@link toCallTools}. */
export interface CallToolsOptions {
  /**
   * - `'in-order'` (default): the calls are made in this order; other calls may come between them.
   * - `'strict'`: one after another in this order, nothing between them (with `extra: 'forbid'`: exactly these calls).
   * - `'any'`: each call is made, in any order.
   */
  order?: CallOrder
  /** `'allow'` (default): other calls are fine. `'forbid'`: every call made must be one of the expected calls. */
  extra?: ExtraCalls
}

const OPTIONS = ['order', 'extra'] as const

function expectedCalls(ctx: MatcherContext, sig: Signature, list: unknown): CallPattern[] {
  const example = "['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }]"
  if (!Array.isArray(list) || list.length === 0) {
    usageError(
      ctx,
      sig,
      `the expected calls must be a non-empty array, got ${Array.isArray(list) ? 'an empty array' : describeValue(list)}`,
      `Pass the tool names or { name, args } objects in an array, e.g. ${example}.`,
    )
  }
  return list.map((entry: unknown, i) => {
    if (typeof entry === 'string' && entry.trim() !== '') return { name: entry, args: { kind: 'any' } }
    if (
      entry !== null &&
      typeof entry === 'object' &&
      !Array.isArray(entry) &&
      typeof (entry as { name?: unknown }).name === 'string' &&
      (entry as { name: string }).name.trim() !== ''
    ) {
      const unknown = Object.keys(entry).filter((k) => k !== 'name' && k !== 'args')
      if (unknown.length > 0)
        usageError(
          ctx,
          sig,
          `expected call ${i} has unknown key ${unknown.map((k) => `"${k}"`).join(', ')}`,
          'An expected call is a tool name, or { name, args }.',
        )
      const check = argsCheck((entry as { args?: unknown }).args)
      if (check.kind === 'schema') asUsage(ctx, sig, () => assertSchema(check.schema))
      return { name: (entry as { name: string }).name, args: check }
    }
    return usageError(ctx, sig, `expected call ${i} must be a tool name or { name, args }, got ${describeValue(entry)}`, `Pass for example ${example}.`)
  })
}

function describeMode(count: number, order: CallOrder, extra: ExtraCalls, isNot: boolean): string {
  const these = `these ${count} calls`
  const how =
    count === 1
      ? extra === 'forbid'
        ? 'this call and no other'
        : 'this call'
      : order === 'any'
        ? extra === 'forbid'
          ? `${these}, in any order, and no other call`
          : `${these}, in any order (other calls allowed)`
        : extra === 'forbid'
          ? `exactly ${these}, in this order, and no other call`
          : order === 'strict'
            ? `${these} one after another, in this order (other calls allowed before and after)`
            : `${these} in this order (other calls allowed between them)`
  return `${isNot ? 'not ' : ''}${how}`
}

/** Why expected call `e` found no match: the call that would match and why it does not count, or the nearest call of the same tool. */
function explainMissing(
  e: number,
  patterns: readonly CallPattern[],
  calls: readonly ToolCallItem[],
  matches: (a: number, e: number) => boolean,
  differences: (a: number, e: number) => ArgumentDifference[],
  assignment: ReadonlyArray<number | undefined>,
): string[] {
  const pattern = patterns[e]!
  const full = calls.findIndex((_, a) => matches(a, e))
  if (full !== -1) {
    const owner = assignment.indexOf(full)
    if (owner !== -1) return [`call ${full + 1} matches it, but it already counts for expected call ${owner + 1}`]
    // The call of the expected call just before this one: e is the first missing expected call, so every one
    // before it matched (none before the first). The order is broken relative to it.
    const previous = assignment[e - 1]
    if (previous === undefined) return [`call ${full + 1} matches it, but out of the expected order`]
    // Stryker disable next-line EqualityOperator: full === previous cannot be, that call counts for an expected call (returned above)
    if (full < previous) return [`call ${full + 1} matches it, but it comes before call ${previous + 1} (${calls[previous]!.name})`]
    // Only order 'strict' gets here: in order, the first match after previous would have been taken; in any
    // order, the call would count for this expected call.
    const between = calls.slice(previous + 1, full).map((c, i) => `call ${previous + 2 + i} (${c.name})`)
    const verb = between.length === 1 ? 'comes' : 'come'
    return [`call ${full + 1} matches it, but ${between.join(', ')} ${verb} between it and call ${previous + 1}, and order 'strict' allows none`]
  }
  const named = calls.findIndex((c) => c.name === pattern.name)
  if (named === -1) return [`no call to ${pattern.name} was made`]
  return [`call ${named + 1} is ${pattern.name} with other arguments:`, ...differenceLines(differences(named, e)).map((d) => `  ${d}`)]
}

/** What the message explains a verdict from: the expected and actual calls, how they matched, the table shown. */
interface Matching {
  patterns: readonly CallPattern[]
  calls: readonly ToolCallItem[]
  verdicts: ReadonlyArray<ReadonlyArray<CallMatch>>
  matches: (a: number, e: number) => boolean
  result: SequenceMatch
  shown: Pick<SequenceMatch, 'rows' | 'divergence'>
}

/** The `Received:` line, and why the first divergence happened (an expected call that is missing). */
function firstDivergence(m: Matching, trajectory: Trajectory): { receivedLine: string; explanation: string[] } {
  const { patterns, calls, result, shown } = m
  if (result.divergence === undefined) return { receivedLine: `Received: ${countLine(trajectory)}, with every expected call in place`, explanation: [] }
  const first = result.rows[result.divergence]!
  if (first.status !== 'missing') {
    const a = first.actual as number
    return { receivedLine: `Received: ${countLine(trajectory)}; call ${a + 1}, ${calls[a]!.name}, is not an expected call`, explanation: [] }
  }
  const e = first.expected as number
  // In the strict view's in-order table the call may stand next to a later call: then it is there, but not next.
  // (In any other table, e's only row is the missing one.)
  const later = shown.rows.some((row) => row.expected === e && row.status === 'match')
  const where = later ? 'is made, but not right after the call before it' : 'is not there'
  const differences = (a: number, x: number) => m.verdicts[a]![x]!.differences
  return {
    receivedLine: `Received: ${countLine(trajectory)}; expected call ${e + 1}, ${patterns[e]!.name}, ${where}`,
    explanation: explainMissing(e, patterns, calls, m.matches, differences, result.assignment),
  }
}

/**
 * Passes when the agent made the expected tool calls, in the order mode given:
 *
 * - `order: 'in-order'` (default): in this order, other calls may come between them;
 * - `order: 'strict'`: one after another in this order, nothing between them;
 * - `order: 'any'`: each one, in any order (each call made counts for one expected call);
 * - `extra: 'forbid'`: no call besides the expected ones (default `'allow'`); with `'strict'` or
 *   `'in-order'` that means exactly this sequence.
 *
 * An expected call is a tool name (any arguments) or `{ name, args }`, where `args` is a partial deep match
 * (asymmetric matchers allowed) or a Standard Schema / JSON Schema, as in `toCallTool`. The failure message
 * shows the expected and actual calls side by side and marks the first divergence.
 *
 * @example
 * ```ts
 * expect(result).toCallTools(['lookupOrder', 'refundOrder'])
 * expect(messages).toCallTools([{ name: 'lookupOrder', args: { orderId: 'A17' } }, 'refundOrder'], { order: 'strict', extra: 'forbid' })
 * expect(messages).toCallTools(['getWeather', 'getTime'], { order: 'any' })
 * ```
 */
export function toCallTools(this: MatcherContext, received: unknown, expected: unknown, options?: CallToolsOptions): MatcherResult {
  const sig: Signature = { name: 'toCallTools', received: 'trajectory', expected: 'expected', ...(options !== undefined ? { secondArgument: 'options' } : {}) }
  const patterns = expectedCalls(this, sig, expected)
  checkOptions(this, sig, options as unknown, OPTIONS)
  checkOneOf(this, sig, options?.order, 'order', ['strict', 'in-order', 'any'] as const)
  checkOneOf(this, sig, options?.extra, 'extra', ['allow', 'forbid'] as const)
  const order = options?.order ?? 'in-order'
  // Stryker disable next-line StringLiteral: only extra === 'forbid' is ever tested, so any other default acts as 'allow'
  const extra = options?.extra ?? 'allow'
  const trajectory = trajectoryOf(this, sig, received)
  const calls = toolCalls(trajectory)
  const equals = partialEquals(this, sig)

  const verdicts = asUsage(this, sig, () => calls.map((call) => patterns.map((pattern) => matchCall(call, pattern, equals))))
  // argsMatch is false whenever the name differs, so it is the whole verdict.
  const matches = (a: number, e: number): boolean => verdicts[a]![e]!.argsMatch
  const result = matchSequence(calls.length, patterns.length, matches, order, extra)
  // A failed strict match is shown in order, with the calls in between marked (the verdict stays strict's).
  const shown = (order === 'strict' && !result.pass && strictDisplay(calls.length, patterns.length, matches, extra)) || result

  return {
    pass: result.pass,
    message: () => {
      const names = patterns.map((p) => p.name).join(order === 'any' ? ', ' : ' → ')
      const { receivedLine, explanation } = firstDivergence({ patterns, calls, verdicts, matches, result, shown }, trajectory)
      return lines(
        hint(this, sig),
        '',
        `Expected: ${describeMode(patterns.length, order, extra, this.isNot)}: ${clip(names, 120)}`,
        receivedLine,
        '',
        callTable(shown, patterns, calls),
        explanation.length > 0 ? ['', `First divergence: ${explanation[0]}`, ...explanation.slice(1).map((l) => `  ${l}`)] : undefined,
      )
    },
  }
}
