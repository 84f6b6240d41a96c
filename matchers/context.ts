/** An equality tester of the runner (`iterableEquality`, `subsetEquality`, custom testers). */
export type EqualityTester = (...args: any[]) => boolean | undefined

/**
 * The part of a matcher's `this` that Jest 30 and Vitest 4/5 both provide. Matchers use only these
 * members, so one implementation serves both runners. (`this.utils.matcherErrorMessage` and
 * `ensureNoExpected` exist only in Jest, so they are not used.) `equals`, `customTesters` and the
 * testers in `utils` are the runner's own, so argument matching honours asymmetric matchers and
 * `expect.addEqualityTesters` exactly as `toMatchObject` does.
 */
export interface MatcherContext {
  isNot: boolean
  promise: string
  equals?: (a: unknown, b: unknown, customTesters?: EqualityTester[], strictCheck?: boolean) => boolean
  customTesters?: EqualityTester[]
  utils: {
    matcherHint: (
      name: string,
      received?: string,
      expected?: string,
      options?: { isNot?: boolean; promise?: string; secondArgument?: string; comment?: string },
    ) => string
    printReceived: (value: unknown) => string
    printExpected: (value: unknown) => string
    iterableEquality?: EqualityTester
    subsetEquality?: EqualityTester
  }
}

/** What a synchronous matcher returns. */
export interface MatcherResult {
  pass: boolean
  message: () => string
  /** The received value, for the runner's diff (Vitest, IDEs): set by the matchers that compare text to a reference. */
  actual?: unknown
  /** The reference (or the acceptable references), for the runner's diff. */
  expected?: unknown
}
