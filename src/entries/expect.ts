/**
 * `expect-llm/expect`: an `expect` with every expect-llm matcher registered, for use outside a test
 * runner (a script, a REPL, a server-side check). It is built on `@vitest/expect`, the assertion engine
 * Vitest runs on (Chai plus Jest's matchers), without Vitest: install `@vitest/expect` next to
 * expect-llm (an optional peer dependency; nothing else of expect-llm needs it).
 *
 * @example
 * ```ts
 * import { expect } from 'expect-llm/expect'
 *
 * expect(answer).toContainKeywords(['30 days'])
 * expect(answer).not.toContainPII()
 * await expect(answer).toPassJudge('Answers the refund question politely')
 * ```
 *
 * @module
 */
import {
  addCustomEqualityTesters,
  ASYMMETRIC_MATCHERS_OBJECT,
  chai,
  getState,
  GLOBAL_EXPECT,
  JestAsymmetricMatchers,
  JestChaiExpect,
  JestExtend,
  setState,
  type ExpectStatic,
} from '@vitest/expect'
import * as matchers from '../../matchers/index.js'
import type { LlmAsyncMatchers, LlmMatchers } from '../../matchers/types.js'

declare module '@vitest/expect' {
  // No type parameters, as in expect-llm/vitest: merges with `Matchers<R, T>`.
  interface Matchers extends LlmMatchers, LlmAsyncMatchers {}
  interface AsymmetricMatchersContaining extends LlmMatchers {}
}

chai.use(JestExtend)
chai.use(JestChaiExpect)
chai.use(JestAsymmetricMatchers)

/** The `expect` Vitest builds for a test (its createExpect), without the parts that need a running test. */
function createExpect(): ExpectStatic {
  const expect = ((value: unknown, message?: string) => {
    const { assertionCalls } = getState(expect)
    setState({ assertionCalls: assertionCalls + 1 }, expect)
    return chai.expect(value, message)
  }) as unknown as ExpectStatic
  Object.assign(expect, chai.expect)
  Object.assign(expect, (globalThis as Record<symbol, unknown>)[ASYMMETRIC_MATCHERS_OBJECT])
  expect.getState = () => getState(expect)
  expect.setState = (state) => setState(state, expect)
  setState(
    {
      assertionCalls: 0,
      isExpectingAssertions: false,
      isExpectingAssertionsError: null,
      expectedAssertionsNumber: null,
      expectedAssertionsNumberErrorGen: null,
      currentTestName: undefined,
      testPath: undefined,
    } as never,
    expect,
  )
  ;(expect as unknown as { assert: unknown }).assert = chai.assert
  expect.extend = (m) => (chai.expect as unknown as { extend: (e: unknown, m: unknown) => void }).extend(expect, m)
  ;(expect as unknown as { addEqualityTesters: unknown }).addEqualityTesters = (testers: Parameters<typeof addCustomEqualityTesters>[0]) =>
    addCustomEqualityTesters(testers)
  return expect
}

/** An `expect` with Jest's matchers and every expect-llm matcher, usable anywhere (no test runner). */
export const expect: ExpectStatic = createExpect()
// Vitest sets the global expect when it runs; a script has none, and the matchers' state is read from it.
const g = globalThis as Record<symbol, unknown>
g[GLOBAL_EXPECT] ??= expect
expect.extend(matchers as never)
