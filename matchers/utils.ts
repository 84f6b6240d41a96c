// Internal helpers shared by the matchers: argument checks that fail with an actionable message,
// and the building blocks of failure messages. Nothing here is exported from the package.
import {
  readTrajectory,
  TrajectoryError,
  describeValue,
  isWholeNumber,
  formatMessage,
  SchemaUsageError,
  describeScaleValue,
  runJudge,
  squadTokens,
  type Equals,
  type Trajectory,
  type JudgeVerdict,
  type PreparedJudgeCall,
  type CheckDefinition,
  type ScorerPlan,
  matcherOptionKeys,
  planCheck,
} from './_engine.js'
import type { MatcherContext } from './context.js'

/** How a matcher's call looks in messages: `expect(output).toX(reference, threshold)`. */
export interface Signature {
  name: string
  received?: string
  expected: string
  secondArgument?: string
}

export function hint(ctx: MatcherContext, sig: Signature): string {
  // Vitest's and Jest's matcherHint leave out a secondArgument that is undefined (or empty).
  const options = { isNot: ctx.isNot, promise: ctx.promise, secondArgument: sig.secondArgument }
  return ctx.utils.matcherHint(sig.name, sig.received ?? 'output', sig.expected, options)
}

const USAGE_ERRORS = new WeakSet<object>()

/** Throws a usage error (wrong input) with the matcher hint on top. It is never flipped by `.not`. */
export function usageError(ctx: MatcherContext, sig: Signature, reason: string, fix: string, Kind: ErrorConstructor = TypeError): never {
  const error = new Kind(`${hint(ctx, sig)}\n\n${formatMessage(`Failed to run ${sig.name}: ${reason}. ${fix}`)}`)
  // Stryker disable next-line OptionalChaining: equivalent on Node, which always has it (the ?. is for runners in other engines)
  Error.captureStackTrace?.(error, usageError)
  USAGE_ERRORS.add(error)
  throw error
}

/** Whether `error` is a matcher's usage error (thrown by {@link usageError}), as opposed to a model error. */
export function isUsageError(error: unknown): boolean {
  // WeakSet#has answers false for null and primitives, so anything can be asked.
  return USAGE_ERRORS.has(error as object)
}

export function checkReceivedString(ctx: MatcherContext, sig: Signature, received: unknown): asserts received is string {
  if (typeof received !== 'string') {
    usageError(ctx, sig, `the received value must be a string, got ${describeValue(received)}`, 'Pass the model output text to expect().')
  }
}

export function checkString(ctx: MatcherContext, sig: Signature, value: unknown, what: string): asserts value is string {
  if (typeof value !== 'string') {
    usageError(ctx, sig, `the ${what} must be a string, got ${describeValue(value)}`, `Pass the ${what} as a string.`)
  }
}

export function checkStringOrStrings(ctx: MatcherContext, sig: Signature, value: unknown, what: string): asserts value is string | string[] {
  if (typeof value === 'string') return
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) return
  const got = Array.isArray(value)
    ? value.length === 0
      ? 'an empty array'
      : `an array containing ${describeValue(value.find((v) => typeof v !== 'string'))}`
    : describeValue(value)
  usageError(
    ctx,
    sig,
    `the ${what} must be a string or a non-empty array of strings, got ${got}`,
    `Pass the ${what} as a string, or every acceptable one in an array.`,
  )
}

export function checkThreshold(ctx: MatcherContext, sig: Signature, threshold: unknown): asserts threshold is number {
  if (typeof threshold !== 'number' || Number.isNaN(threshold) || threshold < 0 || threshold > 1) {
    const got = typeof threshold === 'number' ? String(threshold) : describeValue(threshold)
    usageError(
      ctx,
      sig,
      `the threshold must be a number from 0 to 1, got ${got}`,
      'Pass a fraction such as 0.5 (scores are between 0 and 1).',
      typeof threshold === 'number' ? RangeError : TypeError,
    )
  }
}

export function checkOptions(
  ctx: MatcherContext,
  sig: Signature,
  options: unknown,
  allowed: readonly string[],
): asserts options is Record<string, unknown> | undefined {
  if (options === undefined) return
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    usageError(ctx, sig, `the options must be an object, got ${describeValue(options)}`, `Pass an object with any of: ${allowed.join(', ')}.`)
  }
  const unknown = Object.keys(options).filter((k) => !allowed.includes(k))
  if (unknown.length > 0) {
    usageError(ctx, sig, `unknown option ${unknown.map((k) => `"${k}"`).join(', ')}`, `Valid options are: ${allowed.join(', ')}.`)
  }
}

export function checkOneOf<T extends string>(
  ctx: MatcherContext,
  sig: Signature,
  value: unknown,
  what: string,
  allowed: readonly T[],
): asserts value is T | undefined {
  if (value === undefined) return
  if (!allowed.includes(value as T)) {
    usageError(
      ctx,
      sig,
      `${what} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${describeValue(value)}`,
      `Pass one of ${allowed.map((a) => `'${a}'`).join(', ')}.`,
    )
  }
}

/** A score rounded for display: at most 4 decimals, no trailing zeros. */
export function fmt(score: number): string {
  return String(Number(score.toFixed(4)))
}

/** The two aligned lines `Expected <label>: >= t` / `Received <label>: s` (`<` under `.not`). */
export function scoreLines(ctx: MatcherContext, label: string, score: number, threshold: number, detail?: string): string[] {
  const expected = `Expected ${label}: `
  const received = `Received ${label}: `
  return [
    `${expected}${ctx.isNot ? '< ' : '>= '}${ctx.utils.printExpected(threshold)}`,
    `${received}${' '.repeat(ctx.isNot ? 2 : 3)}${ctx.utils.printReceived(Number(fmt(score)))}${detail ? ` ${detail}` : ''}`,
  ]
}

/**
 * Multiset difference of two token lists, in first-appearance order: `missing` are reference tokens
 * the output lacks, `extra` are output tokens the reference lacks.
 */
export function tokenDiff(output: readonly string[], reference: readonly string[]): { missing: string[]; extra: string[] } {
  const counts = (tokens: readonly string[]) => {
    const m = new Map<string, number>()
    for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1)
    return m
  }
  const out = counts(output)
  const ref = counts(reference)
  const missing: string[] = []
  const extra: string[] = []
  const seen = new Set<string>()
  for (const t of reference) {
    if (seen.has(t)) continue
    seen.add(t)
    const n = (ref.get(t) ?? 0) - (out.get(t) ?? 0)
    for (let i = 0; i < n; i++) missing.push(t)
  }
  seen.clear()
  for (const t of output) {
    if (seen.has(t)) continue
    seen.add(t)
    const n = (out.get(t) ?? 0) - (ref.get(t) ?? 0)
    for (let i = 0; i < n; i++) extra.push(t)
  }
  return { missing, extra }
}

/** `Label (n): "a", "b", … and 3 more`, or `Label: none`. */
export function tokenList(label: string, tokens: readonly string[], max = 15): string {
  if (tokens.length === 0) return `${label}: none`
  const shown = tokens
    .slice(0, max)
    .map((t) => JSON.stringify(t))
    .join(', ')
  const more = tokens.length > max ? ` … and ${tokens.length - max} more` : ''
  return `${label} (${tokens.length}): ${shown}${more}`
}

/** A one-line preview of a text: newlines shown as ⏎, cut in the middle past `max` characters. */
export function preview(text: string, max = 160): string {
  const flat = text.replace(/\r?\n/g, '⏎')
  const chars = Array.from(flat)
  if (chars.length <= max) return JSON.stringify(flat)
  const head = chars.slice(0, Math.ceil(max * 0.6)).join('')
  const tail = chars.slice(chars.length - Math.floor(max * 0.4)).join('')
  return `${JSON.stringify(head)} … ${JSON.stringify(tail)} (${chars.length} characters)`
}

/** Joins message parts, dropping `undefined` ones (blank strings are kept as blank lines). */
export function lines(...parts: Array<string | string[] | undefined | false>): string {
  return parts.flatMap((p) => (p === undefined || p === false ? [] : Array.isArray(p) ? p : [p])).join('\n')
}

/** Checks a non-empty array of non-empty strings (keywords, document ids); `example` shows the fix. */
export function checkStringArray(ctx: MatcherContext, sig: Signature, value: unknown, what: string, example: string): asserts value is string[] {
  if (!Array.isArray(value) || value.length === 0) {
    const got = Array.isArray(value) ? 'an empty array' : describeValue(value)
    usageError(ctx, sig, `the ${what} must be a non-empty array of strings, got ${got}`, `Pass them as an array, e.g. ${example}.`)
  }
  const index = value.findIndex((v) => typeof v !== 'string' || v.trim() === '')
  if (index !== -1) {
    const bad: unknown = value[index]
    const got = typeof bad === 'string' ? `an empty string (${JSON.stringify(bad)})` : describeValue(bad)
    usageError(ctx, sig, `the ${what} must be non-empty strings, got ${got} at index ${index}`, `Remove it, or pass the ${what} as strings, e.g. ${example}.`)
  }
}

/** Checks an integer option or argument that is at least `min` (n-gram size, k, word limits). */
export function checkInteger(ctx: MatcherContext, sig: Signature, value: unknown, what: string, min: number): asserts value is number {
  if (!isWholeNumber(value) || value < min) {
    const got = typeof value === 'number' ? String(value) : describeValue(value)
    usageError(
      ctx,
      sig,
      `${what} must be an integer >= ${min}, got ${got}`,
      `Pass a whole number such as ${min}.`,
      typeof value === 'number' ? RangeError : TypeError,
    )
  }
}

/**
 * Refuses expected answers that SQuAD normalization empties (`'The'`, `'A'`, `'?!'`): they would equal any
 * output that also normalizes to nothing, and be contained in every output.
 */
export function checkAnswersNormalize(ctx: MatcherContext, sig: Signature, expected: string | readonly string[]): void {
  for (const answer of typeof expected === 'string' ? [expected] : expected) {
    if (squadTokens(answer).length === 0) {
      usageError(
        ctx,
        sig,
        `the expected answer ${JSON.stringify(answer)} normalizes to nothing (SQuAD normalization drops case, ASCII punctuation and the articles a, an, the)`,
        'Pass an answer with at least one other word or number; for a single-letter choice such as "A", use toBe or toMatch instead.',
        RangeError,
      )
    }
  }
}

// ---- Model-backed matchers (judges and embeddings) ----

/** A `Fail` for core validation (judge specs, templates, cases) that throws a usage error with the matcher hint. */
export function failFor(ctx: MatcherContext, sig: Signature): (reason: string, fix: string, kind?: ErrorConstructor) => never {
  return (reason, fix, kind) => usageError(ctx, sig, reason, fix, kind)
}

/**
 * Rethrows an error from a model call (judge or embedder) with the matcher hint on top, keeping the
 * original as `cause`. The assertion fails with it whether or not `.not` is used.
 */
export function modelError(ctx: MatcherContext, sig: Signature, error: unknown): never {
  const message = error instanceof Error ? error.message : String(error)
  const wrapped = new Error(`${hint(ctx, sig)}\n\n${message}`, { cause: error })
  // Stryker disable next-line OptionalChaining: equivalent on Node, which always has it (the ?. is for runners in other engines)
  Error.captureStackTrace?.(wrapped, modelError)
  throw wrapped
}

/** Runs a prepared judge call; a model error (no key, 401, 429, an unreadable reply) becomes the matcher's error. */
export async function judgeVerdict(ctx: MatcherContext, sig: Signature, call: PreparedJudgeCall): Promise<JudgeVerdict> {
  try {
    return await runJudge(call)
  } catch (error) {
    return modelError(ctx, sig, error)
  }
}

/** `67%` */
export function percent(share: number): string {
  return `${Math.round(share * 100)}%`
}

/**
 * The judge part of a failure message: score vs threshold (with the scale value and the judge's name),
 * the samples line when there were several (for a panel of judges: each judge's score and verdict, and
 * the agreement), notes from reading the replies, and the reasoning.
 */
export function judgeLines(ctx: MatcherContext, verdict: JudgeVerdict, label = 'judge score'): string[] {
  const single = verdict.results.length === 1 ? verdict.results[0] : undefined
  const panel = verdict.panel
  if (panel && panel.length > 1) {
    const out = scoreLines(ctx, label, verdict.score, verdict.threshold, `(mean of ${panel.length} judges)`)
    out.push(
      `Judges: ${panel.length}, ${verdict.passes} passed (agreement ${percent(verdict.agreement)}, ` +
        `majority ${verdict.pass ? 'PASS' : 'FAIL'}${verdict.passes * 2 === panel.length ? ', a tie fails' : ''})`,
    )
    for (const vote of panel) {
      const onScale = verdict.scale === 'binary' ? '' : `${describeScaleValue(vote.scaleValue, verdict.scale)}, `
      out.push(`  ${vote.judge}: ${fmt(vote.score)} (${onScale}${vote.pass ? 'PASS' : 'FAIL'})`)
    }
    for (const note of verdict.notes) out.push(`Note: ${note}`)
    out.push('', `Judge's reasoning: ${verdict.reason.trim() === '' ? '(none given)' : preview(verdict.reason, 600)}`)
    return out
  }
  const how = single
    ? verdict.scale === '0-1'
      ? undefined
      : describeScaleValue(single.scaleValue, verdict.scale)
    : `mean of ${verdict.results.length} samples`
  const out = scoreLines(ctx, label, verdict.score, verdict.threshold, `(${how ? `${how}, ` : ''}judge ${verdict.judgeName})`)
  if (!single) {
    const scores = verdict.results.map((r) => fmt(r.score)).join(', ')
    out.push(
      `Samples: ${verdict.results.length}, ${verdict.passes} passed ` +
        `(agreement ${percent(verdict.agreement)}, majority ${verdict.pass ? 'PASS' : 'FAIL'}); scores ${scores}`,
    )
  }
  for (const note of verdict.notes) out.push(`Note: ${note}`)
  out.push('', `Judge's reasoning: ${verdict.reason.trim() === '' ? '(none given)' : preview(verdict.reason, 600)}`)
  return out
}

/** `Context: 2 documents, first "…"`: a one-line summary of the context documents shown to a judge. */
export function contextLine(docs: readonly string[]): string {
  return `Context: ${docs.length} document${docs.length === 1 ? '' : 's'}, first ${preview(docs[0] ?? '', 100)}`
}

// ---- Agent matchers (trajectories and tool calls) ----

/** Reads the received value as a trajectory; an unknown shape is a usage error listing the supported ones. */
export function trajectoryOf(ctx: MatcherContext, sig: Signature, received: unknown): Trajectory {
  try {
    return readTrajectory(received)
  } catch (error) {
    if (error instanceof TrajectoryError) usageError(ctx, sig, error.reason, error.fix)
    throw error
  }
}

/** Runs `fn`; a trajectory, tool-definition or schema problem it throws becomes a usage error with the matcher hint. */
export function asUsage<T>(ctx: MatcherContext, sig: Signature, fn: () => T): T {
  try {
    return fn()
  } catch (error) {
    if (error instanceof TrajectoryError || error instanceof SchemaUsageError) usageError(ctx, sig, error.reason, error.fix)
    throw error
  }
}

/**
 * Partial deep equality with the runner's own `equals` and testers: `toMatchObject` semantics, so
 * asymmetric matchers (`expect.any(Number)`, `expect.stringMatching(...)`) and custom equality testers work
 * in Vitest and Jest alike.
 */
export function partialEquals(ctx: MatcherContext, sig: Signature): Equals {
  const { equals } = ctx
  const { iterableEquality, subsetEquality } = ctx.utils
  if (typeof equals !== 'function' || typeof subsetEquality !== 'function' || typeof iterableEquality !== 'function') {
    usageError(
      ctx,
      sig,
      "the matcher context has no equals() and subsetEquality (they come from the test runner's expect)",
      'Register the matcher with expect.extend() of Vitest or Jest, or through expect-llm/vitest or expect-llm/jest.',
      Error,
    )
  }
  const testers = [...(ctx.customTesters ?? []), iterableEquality, subsetEquality]
  return (actual, expected) => equals(actual, expected, testers)
}

/** Checks a tool name argument: a non-empty string. */
export function checkToolName(ctx: MatcherContext, sig: Signature, name: unknown, what = 'tool name'): asserts name is string {
  if (typeof name !== 'string' || name.trim() === '') {
    usageError(ctx, sig, `the ${what} must be a non-empty string, got ${describeValue(name)}`, "Pass the tool's name as the model sees it, e.g. 'lookupOrder'.")
  }
}

/**
 * The plan of the check a matcher runs: the options checked against the definition's keys (less those
 * the matcher takes as arguments) and validated by the definition, failing with the matcher's usage error.
 */
export function definitionPlan(
  ctx: MatcherContext,
  sig: Signature,
  check: CheckDefinition,
  options: unknown,
  threshold: number | null,
  positional: readonly string[] = ['threshold'],
): ScorerPlan {
  checkOptions(ctx, sig, options, matcherOptionKeys(check, positional))
  return planCheck(check, options, threshold, failFor(ctx, sig))
}
