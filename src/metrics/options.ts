/**
 * Reading the options object of a metric function: the checks every metric shares (an object, no
 * unknown keys), with messages in the library's format.
 *
 * @module
 */
import { describeValue, formatMessage } from '../errors.js'

/** A `TypeError` `[expect-llm] Failed to <action>: <reason>. <fix>`. */
export function optionError(action: string, reason: string, fix: string): TypeError {
  return new TypeError(formatMessage(`Failed to ${action}: ${reason}. ${fix}`))
}

/**
 * The options as a record (empty for `undefined`/`null`), after checking that they are an object
 * whose defined keys are all in `keys`.
 *
 * @example
 * ```ts
 * readOptionObject({ beta: 1 }, ['beta'], 'compute chrF', 'Pass e.g. { beta: 2 }.') // { beta: 1 }
 * ```
 */
export function readOptionObject(options: unknown, keys: readonly string[], action: string, example: string): Record<string, unknown> {
  if (options === undefined || options === null) return {}
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw optionError(action, `the options must be an object, got ${describeValue(options)}`, example)
  }
  const o = options as Record<string, unknown>
  const unknown = Object.keys(o).filter((k) => o[k] !== undefined && !keys.includes(k))
  if (unknown.length > 0) {
    throw optionError(action, `unknown option ${unknown.map((k) => `"${k}"`).join(', ')}`, `Valid options are: ${keys.join(', ')}.`)
  }
  return o
}
