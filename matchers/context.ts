/**
 * The part of a matcher's `this` that Jest 30 and Vitest 4/5 both provide. Matchers use only these
 * members, so one implementation serves both runners. (`this.utils.matcherErrorMessage` and
 * `ensureNoExpected` exist only in Jest, so they are not used.)
 */
export interface MatcherContext {
  isNot: boolean
  promise: string
  utils: {
    matcherHint: (
      name: string,
      received?: string,
      expected?: string,
      options?: { isNot?: boolean; promise?: string; secondArgument?: string; comment?: string },
    ) => string
    printReceived: (value: unknown) => string
    printExpected: (value: unknown) => string
  }
}

/** What a synchronous matcher returns. */
export interface MatcherResult {
  pass: boolean
  message: () => string
}
