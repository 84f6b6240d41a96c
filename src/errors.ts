const PREFIX = '[expect-llm]'

/**
 * Formats a user-facing message with the library prefix.
 *
 * Messages follow one shape: `Failed to <action>: <reason>. <fix>`.
 *
 * @example
 * ```ts
 * formatMessage('Failed to score ROUGE-L: the reference is not a string. Pass the expected text as a string.')
 * // '[expect-llm] Failed to score ROUGE-L: the reference is not a string. Pass the expected text as a string.'
 * ```
 */
export function formatMessage(message: string): string {
  return `${PREFIX} ${message}`
}

/**
 * Reports a usage problem found before any model call. Core functions throw a `TypeError` through
 * {@link failWith}; the matchers pass one that puts the matcher hint on top.
 */
export type Fail = (reason: string, fix: string) => never

/**
 * A default {@link Fail} for core functions: a TypeError `[expect-llm] Failed to <action>: <reason>. <fix>`.
 *
 * @example
 * ```ts
 * failWith('use the judge')('"model" must be a string', 'Pass a model name.')
 * // TypeError: [expect-llm] Failed to use the judge: "model" must be a string. Pass a model name.
 * ```
 */
export function failWith(action: string): Fail {
  return (reason, fix) => {
    throw new TypeError(formatMessage(`Failed to ${action}: ${reason}. ${fix}`))
  }
}

/**
 * Whether a value is a whole number, as a type guard: `Number.isInteger` already refuses every
 * non-number, so checks read `!isWholeNumber(v) || v < 1` rather than `typeof v !== 'number' ||
 * !Number.isInteger(v) || v < 1`, whose typeof test only narrows the type (and is an equivalent mutant).
 *
 * @example
 * ```ts
 * isWholeNumber(3) // true
 * isWholeNumber('3') // false
 * ```
 */
export function isWholeNumber(value: unknown): value is number {
  return Number.isInteger(value)
}

/**
 * Whether a value is a finite number, as a type guard: `Number.isFinite` refuses every non-number (it does
 * not coerce), so no `typeof` test is needed before it.
 *
 * @example
 * ```ts
 * isFiniteNumber(0.5) // true
 * isFiniteNumber(Number.NaN) // false
 * ```
 */
export function isFiniteNumber(value: unknown): value is number {
  return Number.isFinite(value)
}

/** Describes a runtime value for an error message: `a number (3)`, `undefined`, `an array`, ... */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'undefined'
  if (Array.isArray(value)) return `an array (length ${value.length})`
  switch (typeof value) {
    case 'string':
      return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`
    case 'number':
      return `a number (${String(value)})`
    case 'bigint':
      return `a bigint (${String(value)}n)`
    case 'boolean':
      return `a boolean (${String(value)})`
    case 'function':
      return 'a function'
    case 'symbol':
      return 'a symbol'
    default:
      return value instanceof Promise ? 'a Promise (did you forget to await it?)' : 'an object'
  }
}

/**
 * Throws a `TypeError` unless `value` is a string.
 *
 * @param what - what the value is, for the message (`'candidate'`, `'reference'`).
 * @param action - what was being done (`'compute ROUGE'`).
 *
 * @example
 * ```ts
 * assertString(42, 'candidate', 'compute ROUGE')
 * // TypeError: [expect-llm] Failed to compute ROUGE: the candidate must be a string, got a number (42). Pass the model output as a string.
 * ```
 */
export function assertString(value: unknown, what: string, action: string): asserts value is string {
  if (typeof value !== 'string') {
    throw new TypeError(formatMessage(`Failed to ${action}: the ${what} must be a string, got ${describeValue(value)}. Pass the ${what} as a string.`))
  }
}

/**
 * Throws a `TypeError` unless `value` is a string or a non-empty array of strings.
 *
 * @example
 * ```ts
 * assertStringOrStrings(['Paris', 'paris, France'], 'reference', 'compute token F1') // ok
 * ```
 */
export function assertStringOrStrings(value: unknown, what: string, action: string): asserts value is string | string[] {
  if (typeof value === 'string') return
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) return
  const got = Array.isArray(value)
    ? value.length === 0
      ? 'an empty array'
      : `an array with ${describeValue(value.find((v) => typeof v !== 'string'))} in it`
    : describeValue(value)
  throw new TypeError(
    formatMessage(
      `Failed to ${action}: the ${what} must be a string or a non-empty array of strings, got ${got}. ` +
        `Pass the ${what} as a string, or several acceptable ones as an array.`,
    ),
  )
}
