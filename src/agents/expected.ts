/**
 * The expected tool calls of a golden case (`expectedTools`) and the scores the tool checks compute from
 * them: tool-call F1 (name or argument level), the order verdict (the same as `toCallTools(list, { order,
 * extra })`) and argument correctness. Arguments are compared with {@link partialMatch}: the dataset's
 * values are partial (`toMatchObject` semantics), a JSON Schema or a Standard Schema checks them instead.
 *
 * @module
 */
import { describeValue } from '../errors.js'
import { validateSchema, type SchemaLike } from '../schema.js'
import { isRecord } from './builder.js'
import { differenceLines, formatCall, formatPattern, jsonStringify } from './format.js'
import { argsCheck, matchCall, matchSequence, type CallOrder, type CallPattern, type ExtraCalls } from './match.js'
import type { ToolCallItem } from './types.js'

/** One expected call of a case: the tool's name, and optionally its arguments (partial values or a schema). */
export interface ExpectedToolCall {
  name: string
  /** Partial argument values (`{ orderId: 'A17' }` matches `{ orderId: 'A17', reason: '...' }`), a JSON Schema or a Standard Schema. */
  args?: unknown
}

/** The expected calls of a case as loaded: the calls, the order mode and whether other calls are allowed (as `toCallTools`). */
export interface ExpectedTools {
  calls: ExpectedToolCall[]
  /** Default `'in-order'`. */
  order: CallOrder
  /** Default `'allow'`; `'forbid'` for an empty list (the agent must call no tool). */
  extra: ExtraCalls
}

/**
 * `expectedTools` as written in a dataset: a list of tool names or `{ name, args }`, or `{ calls, order,
 * extra }` with the options of `toCallTools(list, { order, extra })`. An empty list means that the agent
 * must call no tool.
 */
export type ExpectedToolsInput =
  | ReadonlyArray<string | ExpectedToolCall>
  | { calls: ReadonlyArray<string | ExpectedToolCall>; order?: CallOrder; extra?: ExtraCalls }

const ORDERS: readonly CallOrder[] = ['strict', 'in-order', 'any']
const EXTRAS: readonly ExtraCalls[] = ['allow', 'forbid']
const EXAMPLE = `["lookupOrder", { "name": "refundOrder", "args": { "amount": 30 } }]`

/**
 * Reads and checks `expectedTools`: the normalized value, or the problems (one line each, without the
 * `field "expectedTools"` prefix) for the dataset loader's error.
 */
export function readExpectedTools(raw: unknown): { value?: ExpectedTools; problems: string[] } {
  const problems: string[] = []
  let list: unknown = raw
  let order: unknown = 'in-order'
  let extra: unknown
  if (isRecord(raw) && !Array.isArray(raw)) {
    const unknown = Object.keys(raw).filter((k) => !['calls', 'order', 'extra'].includes(k))
    if (unknown.length > 0) problems.push(`has unknown key ${unknown.map((k) => `"${k}"`).join(', ')}; write a list of calls, or { calls, order, extra }`)
    list = raw.calls
    if (raw.order !== undefined) order = raw.order
    extra = raw.extra
    if (list === undefined) problems.push(`has no "calls": write { "calls": ${EXAMPLE}, "order": "strict" }`)
  }
  if (!ORDERS.includes(order as CallOrder)) problems.push(`order must be one of ${ORDERS.map((o) => `'${o}'`).join(', ')}, got ${describeValue(order)}`)
  if (extra !== undefined && !EXTRAS.includes(extra as ExtraCalls))
    problems.push(`extra must be one of ${EXTRAS.map((o) => `'${o}'`).join(', ')}, got ${describeValue(extra)}`)
  if (list !== undefined && !Array.isArray(list)) problems.push(`must be a list of tool calls, got ${describeValue(list)}; write for example ${EXAMPLE}`)
  if (problems.length > 0 || !Array.isArray(list)) return { problems }
  const calls: ExpectedToolCall[] = []
  list.forEach((entry: unknown, i) => {
    if (typeof entry === 'string' && entry.trim() !== '') calls.push({ name: entry })
    else if (isRecord(entry) && !Array.isArray(entry) && typeof entry.name === 'string' && entry.name.trim() !== '') {
      const unknown = Object.keys(entry).filter((k) => k !== 'name' && k !== 'args')
      if (unknown.length > 0)
        problems.push(`call ${i} has unknown key ${unknown.map((k) => `"${k}"`).join(', ')}; an expected call is a tool name or { name, args }`)
      else calls.push(entry.args === undefined ? { name: entry.name } : { name: entry.name, args: entry.args })
    } else problems.push(`call ${i} must be a tool name or { name, args }, got ${describeValue(entry)}`)
  })
  if (calls.length === 0 && list.length === 0 && extra === 'allow')
    problems.push(
      `is an empty list with extra 'allow', which every run passes; leave "extra" out (an empty list means: no tool call), or list the expected calls`,
    )
  if (problems.length > 0) return { problems }
  return { value: { calls, order: order as CallOrder, extra: (extra as ExtraCalls | undefined) ?? (calls.length === 0 ? 'forbid' : 'allow') }, problems }
}

function isAsymmetric(value: unknown): value is { asymmetricMatch(actual: unknown): boolean } {
  return isRecord(value) && typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function'
}

/**
 * Partial deep equality with `toMatchObject` semantics, outside a test runner (the golden checks run in
 * the engine, which has no `expect`): every key of `expected` must be in `actual` with a matching value,
 * arrays match element by element with the same length, and asymmetric matchers (`expect.any(Number)`,
 * in an in-memory dataset) decide for themselves. Written by hand because the runners' `equals` is what
 * the matchers use, and the engine may not import a runner.
 */
export function partialMatch(actual: unknown, expected: unknown): boolean {
  if (isAsymmetric(expected)) return expected.asymmetricMatch(actual)
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => partialMatch(actual[i], e))
  if (isRecord(expected)) {
    if (!isRecord(actual) || Array.isArray(actual)) return false
    return Object.entries(expected).every(([k, e]) => Object.hasOwn(actual, k) && partialMatch(actual[k], e))
  }
  return Object.is(actual, expected) || (actual === expected && actual === 0)
}

/** The call patterns of an expectation (arguments: partial values, or a schema). */
export function patternsOf(expected: ExpectedTools): CallPattern[] {
  return expected.calls.map((call) => ({ name: call.name, args: argsCheck(call.args) }))
}

/** Precision, recall and F1 of the tool calls made against the expected ones. */
export interface ToolCallF1 {
  precision: number
  recall: number
  f1: number
  /** Calls that count for an expected call (a maximum matching: each call counts once). */
  matched: number
  expected: number
  actual: number
  /** The expected calls that no call matched. */
  missing: CallPattern[]
  /** The calls that matched no expected call. */
  unexpected: ToolCallItem[]
}

/**
 * Tool-call F1: each call made counts for at most one expected call (maximum bipartite matching, order
 * ignored: the order is the `toolOrder` check's business). `level: 'name'` matches by tool name only,
 * `'arguments'` also needs the arguments to match. Precision = matched / calls made, recall = matched /
 * expected calls; with no expected call and no call made, every value is 1.
 */
export function toolCallF1(calls: readonly ToolCallItem[], expected: ExpectedTools, level: 'name' | 'arguments'): ToolCallF1 {
  const patterns = patternsOf(expected)
  const matches = (a: number, e: number) => {
    const m = matchCall(calls[a]!, patterns[e]!, partialMatch)
    return level === 'name' ? m.nameMatches : m.argsMatch
  }
  const { assignment } = matchSequence(calls.length, patterns.length, matches, 'any', 'allow')
  const matched = assignment.filter((a) => a !== undefined).length
  const used = new Set(assignment.filter((a): a is number => a !== undefined))
  const n = calls.length
  const m = patterns.length
  const precision = n === 0 ? (m === 0 ? 1 : 0) : matched / n
  const recall = m === 0 ? (n === 0 ? 1 : 0) : matched / m
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
  return {
    precision,
    recall,
    f1,
    matched,
    expected: m,
    actual: n,
    missing: patterns.filter((_, e) => assignment[e] === undefined),
    unexpected: calls.filter((_, a) => !used.has(a)),
  }
}

/** The verdict of `toCallTools(expected.calls, { order, extra })` on the calls, with the first divergence in words. */
export function toolOrderVerdict(calls: readonly ToolCallItem[], expected: ExpectedTools): { pass: boolean; detail?: string } {
  const patterns = patternsOf(expected)
  const match = (a: number, e: number) => matchCall(calls[a]!, patterns[e]!, partialMatch)
  const seq = matchSequence(calls.length, patterns.length, (a, e) => match(a, e).argsMatch, expected.order, expected.extra)
  if (seq.pass) return { pass: true }
  const row = seq.rows[seq.divergence as number]!
  const made = calls.length === 0 ? 'no tool call was made' : `calls made: ${calls.map((c) => c.name).join(', ')}`
  if (row.status === 'extra') {
    const a = row.actual as number
    return { pass: false, detail: `call ${a + 1} ${formatCall(calls[a]!, jsonStringify, 60)} is not an expected call (extra: 'forbid'); ${made}` }
  }
  const e = row.expected as number
  const what = `expected call ${e + 1} ${formatPattern(patterns[e]!, jsonStringify, 60)}`
  const full = calls.findIndex((_, a) => match(a, e).argsMatch)
  if (full !== -1) {
    const owner = seq.assignment.indexOf(full)
    const why = owner !== -1 ? `it already counts for expected call ${owner + 1}` : `not in the expected order ('${expected.order}')`
    return { pass: false, detail: `${what}: call ${full + 1} matches it, but ${why}; ${made}` }
  }
  const sameName = calls.findIndex((_, a) => match(a, e).nameMatches)
  if (sameName !== -1) {
    const differences = differenceLines(match(sameName, e).differences).slice(0, 2).join('; ')
    return { pass: false, detail: `${what}: call ${sameName + 1} has other arguments (${differences}); ${made}` }
  }
  return { pass: false, detail: `${what} was not made; ${made}` }
}

/** Argument correctness: how many of the checked arguments are right, and what is wrong with the others. */
export interface ArgumentCorrectness {
  /** Expected calls with arguments whose tool was called, plus (with schemas) every call made. */
  checked: number
  correct: number
  /** One line per wrong argument set. */
  problems: string[]
}

/**
 * Argument correctness: for every expected call that gives arguments and whose tool was called, do the
 * arguments of the call paired with it match (the pairing prefers calls whose arguments match, so a
 * right call is never hidden by a wrong one)? With `schemas` (the tools the task's request declared),
 * every call made must also name a declared tool and satisfy its schema. Calls of expected entries
 * without arguments, and expected tools never called, are not counted (tool-call F1 counts those).
 */
export function argumentCorrectness(
  calls: readonly ToolCallItem[],
  expected: ExpectedTools | undefined,
  schemas: ReadonlyMap<string, SchemaLike> | undefined,
): ArgumentCorrectness {
  const out: ArgumentCorrectness = { checked: 0, correct: 0, problems: [] }
  if (expected) {
    const patterns = patternsOf(expected)
    const withArgs = patterns.map((p, e) => (p.args.kind === 'any' ? -1 : e)).filter((e) => e !== -1)
    const sub = withArgs.map((e) => patterns[e]!)
    const full = matchSequence(calls.length, sub.length, (a, e) => matchCall(calls[a]!, sub[e]!, partialMatch).argsMatch, 'any', 'allow').assignment
    const taken = new Set(full.filter((a): a is number => a !== undefined))
    sub.forEach((pattern, e) => {
      if (full[e] !== undefined) {
        out.checked++
        out.correct++
        return
      }
      const a = calls.findIndex((call, i) => !taken.has(i) && call.name === pattern.name)
      if (a === -1) return
      taken.add(a)
      out.checked++
      const differences = differenceLines(matchCall(calls[a]!, pattern, partialMatch).differences)
        .slice(0, 2)
        .join('; ')
      out.problems.push(`${pattern.name} (call ${a + 1}): ${differences}`)
    })
  }
  if (schemas) {
    calls.forEach((call, i) => {
      out.checked++
      const schema = schemas.get(call.name)
      if (schema === undefined) {
        out.problems.push(`call ${i + 1} ${call.name}: not a declared tool (declared: ${[...schemas.keys()].join(', ')})`)
        return
      }
      if (call.argumentsError !== undefined) {
        out.problems.push(`call ${i + 1} ${call.name}: the arguments are ${call.argumentsError}`)
        return
      }
      const result = validateSchema(call.arguments, schema)
      if (result.ok) out.correct++
      else
        out.problems.push(
          `call ${i + 1} ${call.name}: ${result.issues
            .slice(0, 2)
            .map((issue) => `${issue.path || '(root)'} ${issue.message}`)
            .join('; ')}`,
        )
    })
  }
  return out
}
