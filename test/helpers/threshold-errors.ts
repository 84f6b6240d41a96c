import { expect, test } from 'vitest'

/** Invalid thresholds and how the error names them. */
const INVALID: Array<[unknown, string]> = [
  [Number.NaN, 'got NaN'],
  [-0.1, 'got -0.1'],
  [1.5, 'got 1.5'],
  ['0.5', 'got a string ("0.5")'],
]

/**
 * Registers one test per invalid threshold (NaN, below 0, above 1, a string): each must throw the
 * library's usage error for `matcher`. Shared by the score matchers, which validate thresholds alike.
 *
 * @example
 * ```ts
 * testRejectsInvalidThresholds('toHaveBleuAbove', (t) => expect('x').toHaveBleuAbove('x', t as number))
 * ```
 */
export function testRejectsInvalidThresholds(matcher: string, call: (threshold: unknown) => void): void {
  test.each(INVALID)('fails when the threshold is %s', (threshold, got) => {
    expect(() => call(threshold)).toThrow(
      `[expect-llm] Failed to run ${matcher}: the threshold must be a number from 0 to 1, ${got}. Pass a fraction such as 0.5 (scores are between 0 and 1).`,
    )
  })
}
