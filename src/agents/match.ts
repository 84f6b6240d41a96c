/**
 * Matching tool calls against expected calls: one call against a name and arguments (a partial deep match
 * or a schema), and a list of calls against an expected list in an order mode, with the alignment that
 * failure messages show. Equality is passed in (`Equals`), so asymmetric matchers and the runner's custom
 * testers work: the matchers pass the runner's `this.equals` with its subset testers.
 *
 * @module
 */
import { isJsonSchemaObject, isStandardSchema, validateSchema, type SchemaIssue, type SchemaLike } from '../schema.js'
import { isRecord } from './builder.js'
import type { ToolCallItem } from './types.js'

/** Partial deep equality of `actual` against `expected` (toMatchObject semantics, asymmetric matchers allowed). */
export type Equals = (actual: unknown, expected: unknown) => boolean

/** How the arguments of a call are checked. */
export type ArgsCheck = { kind: 'any' } | { kind: 'schema'; schema: SchemaLike } | { kind: 'partial'; expected: unknown }

/** An expected call: a tool name and how its arguments are checked. */
export interface CallPattern {
  name: string
  args: ArgsCheck
}

/**
 * Whether an `args` value is a JSON Schema rather than expected argument values: a plain object with a
 * `$schema` string, or with `type: 'object'` and a `properties` object. (To match arguments that are
 * literally such an object, wrap them in `expect.objectContaining`.)
 */
export function isJsonSchemaArgs(value: unknown): boolean {
  if (!isJsonSchemaObject(value)) return false
  return typeof value.$schema === 'string' || (value.type === 'object' && isRecord(value.properties))
}

/** Classifies an `args` argument: none, a Standard Schema or JSON Schema, or values to match partially. */
export function argsCheck(args: unknown): ArgsCheck {
  if (args === undefined) return { kind: 'any' }
  if (isStandardSchema(args) || isJsonSchemaArgs(args)) return { kind: 'schema', schema: args as SchemaLike }
  return { kind: 'partial', expected: args }
}

/** One reason why a call's arguments do not match. */
export interface ArgumentDifference {
  /** JSON Pointer into the arguments (`''` is the root). */
  path: string
  /** What was expected there (a value, an asymmetric matcher) or a schema message. */
  expected?: unknown
  actual?: unknown
  /** A schema issue's message, or a note such as "is missing". */
  message?: string
}

/** The verdict on one call against a pattern. */
export interface CallMatch {
  nameMatches: boolean
  argsMatch: boolean
  /** Why the arguments do not match (empty when they do or the name differs). */
  differences: ArgumentDifference[]
}

function isAsymmetric(value: unknown): boolean {
  return isRecord(value) && typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function'
}

function pointer(path: string, key: string | number): string {
  return `${path}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`
}

/** Where a partial match fails, leaf by leaf (for the message; the verdict itself is one `equals` call). */
function partialDifferences(actual: unknown, expected: unknown, equals: Equals, path: string, out: ArgumentDifference[]): void {
  if (out.length >= 10) return
  if (isAsymmetric(expected) || (!Array.isArray(expected) && !isRecord(expected))) {
    if (!equals(actual, expected)) out.push({ path, expected, actual })
    return
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      out.push({ path, expected, actual })
      return
    }
    expected.forEach((e, i) => partialDifferences(actual[i], e, equals, pointer(path, i), out))
    return
  }
  if (!isRecord(actual)) {
    out.push({ path, expected, actual })
    return
  }
  for (const [key, e] of Object.entries(expected)) {
    if (!(key in actual)) out.push({ path: pointer(path, key), expected: e, message: 'is missing' })
    else partialDifferences(actual[key], e, equals, pointer(path, key), out)
  }
}

function schemaDifferences(issues: readonly SchemaIssue[]): ArgumentDifference[] {
  return issues.map((issue) => ({ path: issue.path, message: issue.message }))
}

/**
 * Matches one call against a pattern: same name, and arguments that satisfy the schema or contain the
 * expected values. Arguments that did not parse as JSON match only `args: undefined`.
 */
export function matchCall(call: ToolCallItem, pattern: CallPattern, equals: Equals): CallMatch {
  if (call.name !== pattern.name) return { nameMatches: false, argsMatch: false, differences: [] }
  const check = pattern.args
  if (check.kind === 'any') return { nameMatches: true, argsMatch: true, differences: [] }
  if (call.argumentsError !== undefined)
    return { nameMatches: true, argsMatch: false, differences: [{ path: '', message: `the arguments are ${call.argumentsError}` }] }
  if (check.kind === 'schema') {
    const result = validateSchema(call.arguments, check.schema)
    return { nameMatches: true, argsMatch: result.ok, differences: result.ok ? [] : schemaDifferences(result.issues) }
  }
  if (equals(call.arguments, check.expected)) return { nameMatches: true, argsMatch: true, differences: [] }
  const differences: ArgumentDifference[] = []
  partialDifferences(call.arguments, check.expected, equals, '', differences)
  if (differences.length === 0) differences.push({ path: '', expected: check.expected, actual: call.arguments })
  return { nameMatches: true, argsMatch: false, differences }
}

/** How `toCallTools` compares the expected list with the calls made. */
export type CallOrder = 'strict' | 'in-order' | 'any'
/** Whether calls that are not in the expected list are allowed. */
export type ExtraCalls = 'allow' | 'forbid'

/** One row of the aligned expected/actual view: an expected call, an actual call, or both when they match. */
export interface AlignedRow {
  expected?: number
  actual?: number
  /** `match`: the pair matches; `missing`: an expected call with no match; `extra`: a call that is not in the list. */
  status: 'match' | 'missing' | 'extra'
  /** `true` when this row makes the check fail (`extra` only does with `extra: 'forbid'`). */
  error: boolean
  /** An `extra` call made between two matched calls, which `order: 'strict'` does not allow (see {@link strictDisplay}). */
  between?: boolean
}

/** The outcome of {@link matchSequence}. */
export interface SequenceMatch {
  pass: boolean
  /** For each expected call, the index of the actual call it matched, or `undefined`. */
  assignment: Array<number | undefined>
  rows: AlignedRow[]
  /** Index into `rows` of the first row that makes the check fail. */
  divergence: number | undefined
}

/** Maximum bipartite matching (Kuhn's augmenting paths): each expected call gets a distinct actual call. */
function anyOrder(n: number, m: number, matches: (a: number, e: number) => boolean): Array<number | undefined> {
  const owner: Array<number | undefined> = Array.from({ length: n }, () => undefined)
  const tryAssign = (e: number, seen: boolean[]): boolean => {
    for (let a = 0; a < n; a++) {
      if (seen[a] || !matches(a, e)) continue
      seen[a] = true
      const current = owner[a]
      if (current === undefined || tryAssign(current, seen)) {
        owner[a] = e
        return true
      }
    }
    return false
  }
  for (let e = 0; e < m; e++) tryAssign(e, [])
  const assignment: Array<number | undefined> = Array.from({ length: m }, () => undefined)
  owner.forEach((e, a) => {
    if (e !== undefined) assignment[e] = a
  })
  return assignment
}

/** Subsequence matching: the earliest actual call after the previous match (greedy is optimal here). */
function inOrder(n: number, m: number, matches: (a: number, e: number) => boolean): Array<number | undefined> {
  const assignment: Array<number | undefined> = []
  let from = 0
  for (let e = 0; e < m; e++) {
    let found: number | undefined
    for (let a = from; a < n; a++) {
      if (matches(a, e)) {
        found = a
        break
      }
    }
    assignment.push(found)
    if (found !== undefined) from = found + 1
  }
  return assignment
}

/**
 * Contiguous matching: the expected calls one after another from some start (from 0, with nothing after,
 * when extra calls are forbidden). Without a full match, the start with the longest matching prefix is
 * kept, so the message shows where the sequence broke.
 */
function strict(n: number, m: number, matches: (a: number, e: number) => boolean, extra: ExtraCalls): { assignment: Array<number | undefined>; start: number } {
  const starts = extra === 'forbid' ? [0] : Array.from({ length: Math.max(1, n - m + 1) }, (_, s) => s)
  let best = { start: 0, length: -1 }
  for (const s of starts) {
    let length = 0
    while (length < m && s + length < n && matches(s + length, length)) length++
    if (length > best.length) best = { start: s, length }
    if (length === m) break
  }
  const assignment = Array.from({ length: m }, (_, e) => (e < best.length ? best.start + e : undefined))
  return { assignment, start: best.start }
}

/**
 * Matches `n` actual calls against `m` expected calls.
 *
 * - `order: 'strict'`: the expected calls are made one after another, in this order, with no other call
 *   between them (with `extra: 'forbid'`: exactly these calls and nothing else);
 * - `'in-order'`: in this order, other calls may come between them;
 * - `'any'`: each expected call is made, in any order; each actual call counts for one expected call.
 *
 * `extra: 'forbid'` fails on any call that matched no expected call.
 */
export function matchSequence(n: number, m: number, matches: (a: number, e: number) => boolean, order: CallOrder, extra: ExtraCalls): SequenceMatch {
  let assignment: Array<number | undefined>
  // Where each missing expected call is shown: before this actual row (n: at the end).
  const anchor: number[] = []
  if (order === 'any') {
    assignment = anyOrder(n, m, matches)
    for (let e = 0; e < m; e++) anchor.push(n)
  } else if (order === 'in-order') {
    assignment = inOrder(n, m, matches)
    let next = 0
    for (let e = 0; e < m; e++) {
      const a = assignment[e]
      if (a !== undefined) next = a + 1
      anchor.push(a ?? next)
    }
  } else {
    const result = strict(n, m, matches, extra)
    assignment = result.assignment
    for (let e = 0; e < m; e++) anchor.push(Math.min(n, result.start + e))
  }

  const matchedActual = new Map<number, number>()
  assignment.forEach((a, e) => {
    if (a !== undefined) matchedActual.set(a, e)
  })
  const rows: AlignedRow[] = []
  const missing = assignment.flatMap((a, e) => (a === undefined ? [e] : []))
  for (let a = 0; a <= n; a++) {
    for (const e of missing) if (anchor[e] === a) rows.push({ expected: e, status: 'missing', error: true })
    if (a === n) break
    const e = matchedActual.get(a)
    rows.push(e !== undefined ? { expected: e, actual: a, status: 'match', error: false } : { actual: a, status: 'extra', error: extra === 'forbid' })
  }
  const divergence = rows.findIndex((r) => r.error)
  return { pass: divergence === -1, assignment, rows, divergence: divergence === -1 ? undefined : divergence }
}

/**
 * Identical calls made more than once: same tool name and deep-equal arguments (compared as canonical
 * JSON, key order ignored). Returns groups of call indexes, in order of their first repeat.
 */
export function repeatedCalls(calls: readonly ToolCallItem[]): number[][] {
  const groups = new Map<string, number[]>()
  calls.forEach((call, i) => {
    const key = `${call.name}\0${canonical(call.arguments)}`
    const group = groups.get(key)
    if (group) group.push(i)
    else groups.set(key, [i])
  })
  return [...groups.values()].filter((g) => g.length > 1).sort((a, b) => (a[1] as number) - (b[1] as number))
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => value[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(value) ?? String(value)
}

/**
 * How a failed `order: 'strict'` match is shown: the in-order alignment, so that a call made later (after a
 * call in between) stands next to its expected call instead of being listed as missing, with the calls made
 * between two matched calls marked as what breaks `'strict'`. Only for messages: the verdict stays the
 * strict one (`matchSequence`). Returns `undefined` when this view shows no failing row, so the caller keeps
 * the strict rows.
 */
export function strictDisplay(
  n: number,
  m: number,
  matches: (a: number, e: number) => boolean,
  extra: ExtraCalls,
): Pick<SequenceMatch, 'rows' | 'divergence'> | undefined {
  const shown = matchSequence(n, m, matches, 'in-order', extra)
  const matched = shown.rows.flatMap((r) => (r.status === 'match' ? [r.actual as number] : []))
  const first = Math.min(...matched)
  const last = Math.max(...matched)
  const rows = shown.rows.map((r) =>
    r.status === 'extra' && (r.actual as number) > first && (r.actual as number) < last ? { ...r, error: true, between: true } : r,
  )
  const divergence = rows.findIndex((r) => r.error)
  return divergence === -1 ? undefined : { rows, divergence }
}
