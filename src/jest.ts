/**
 * Jest setup entry: `setupFilesAfterEnv: ['expect-llm/jest']` registers every expect-llm matcher on
 * Jest's global `expect` and adds their types for `@jest/globals` and `@types/jest` users.
 *
 * @example
 * ```js
 * // jest.config.js
 * module.exports = { setupFilesAfterEnv: ['expect-llm/jest'] }
 * ```
 * @packageDocumentation
 */
import type {} from 'expect'
import * as matchers from '../matchers/index.js'
import type { LlmMatchers } from '../matchers/types.js'
import { formatMessage } from './errors.js'

const jestExpect = (globalThis as { expect?: { extend?: (m: object) => void } }).expect

if (typeof jestExpect?.extend !== 'function') {
  throw new Error(
    formatMessage(
      'Failed to register matchers: no global "expect" found. List "expect-llm/jest" under setupFilesAfterEnv (not setupFiles) in your Jest config; with injectGlobals: false, call expect.extend(matchers) yourself with `import * as matchers from \'expect-llm/matchers\'` and `import { expect } from \'@jest/globals\'`.',
    ),
  )
}
jestExpect.extend(matchers)

declare module 'expect' {
  // @jest/globals users (Jest 30).
  interface Matchers<R extends void | Promise<void>, T = unknown> extends LlmMatchers<R> {}
}

declare global {
  // @types/jest users.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R, T = {}> extends LlmMatchers<R> {}
  }
}

export { matchers }
