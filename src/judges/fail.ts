import { formatMessage } from '../errors.js'

/** Reports a usage problem found before any model call; the matchers pass one that puts the matcher hint on top. */
export type Fail = (reason: string, fix: string) => never

/** A default {@link Fail} for core functions: a TypeError `[expect-llm] Failed to <action>: <reason>. <fix>`. */
export function failWith(action: string): Fail {
  return (reason, fix) => {
    throw new TypeError(formatMessage(`Failed to ${action}: ${reason}. ${fix}`))
  }
}
