import { stripVTControlCharacters } from 'node:util'

/**
 * Runs `assertion`, which must throw, and returns the thrown error's message with colours stripped,
 * so that inline snapshots read the same with or without a TTY, `NO_COLOR` or CI.
 *
 * @example
 * ```ts
 * expect(failureMessage(() => expect('a').toHaveRougeLAbove('b', 0.5))).toMatchInlineSnapshot()
 * ```
 */
export function failureMessage(assertion: () => unknown): string {
  let thrown: unknown
  let threw = false
  try {
    assertion()
  } catch (error) {
    threw = true
    thrown = error
  }
  if (!threw) throw new Error('Expected the assertion to fail, but it passed.')
  if (!(thrown instanceof Error)) throw new Error(`Expected the assertion to throw an Error, but it threw ${String(thrown)}.`)
  return stripVTControlCharacters(thrown.message)
}
