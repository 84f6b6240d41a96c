// Shared by the two Jest setup entries (src/jest.ts for ESM mode, src/jest-cjs.ts for CommonJS):
// registers every matcher on Jest's global `expect` and declares their types for `@jest/globals`
// and `@types/jest` users.
import type {} from 'expect'
import * as matchers from '../matchers/index.js'
import type { LlmAsyncMatchers, LlmMatchers } from '../matchers/types.js'
import { formatMessage } from './errors.js'
import { registerAwaitChecks, trackAsyncMatchers } from './unawaited.js'

/** Jest's global `expect`, or a clear error saying how to make it available. */
export function jestGlobals(): { expect: { extend: (m: object) => void; getState(): { testPath?: string; currentTestName?: string } }; afterEach: (fn: () => unknown) => void; afterAll: (fn: () => unknown) => void } {
  const g = globalThis as { expect?: { extend?: unknown }; afterEach?: unknown; afterAll?: unknown }
  if (typeof g.expect?.extend !== 'function') {
    throw new Error(
      formatMessage(
        'Failed to register matchers: no global "expect" found. List "expect-llm/jest" under setupFilesAfterEnv (not setupFiles) in your Jest config; with injectGlobals: false, call expect.extend(matchers) yourself with `import * as matchers from \'expect-llm/matchers\'` and `import { expect } from \'@jest/globals\'`.',
      ),
    )
  }
  return g as never
}

// An async matcher's promise is watched: a test that ends without awaiting it fails (see unawaited.ts).
const globals = jestGlobals()
globals.expect.extend(trackAsyncMatchers(matchers, { runner: 'jest' }))
registerAwaitChecks({ runner: 'jest', afterEach: globals.afterEach, afterAll: globals.afterAll, expect: globals.expect })

declare module 'expect' {
  // @jest/globals users (Jest 30).
  interface Matchers<R extends void | Promise<void>, T = unknown> extends LlmMatchers<R>, LlmAsyncMatchers {}
}

declare global {
  // @types/jest users.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R, T = {}> extends LlmMatchers<R>, LlmAsyncMatchers {}
  }
}

export { matchers }
