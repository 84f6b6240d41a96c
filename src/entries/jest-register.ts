// Shared by the two Jest setup entries (jest.ts for ESM mode, jest-cjs.ts for CommonJS):
// registers every matcher on Jest's global `expect` and declares their types for `@jest/globals`
// and `@types/jest` users.
import type {} from 'expect'
import * as matchers from './matchers.js'
import type { LlmAsyncMatchers, LlmMatchers } from '../../matchers/types.js'
import { jestGlobals, jestRunner } from '../runners/jest.js'
import { registerAwaitChecks, trackAsyncMatchers } from '../unawaited.js'

// An async matcher's promise is watched: a test that ends without awaiting it fails (see unawaited.ts).
jestGlobals().expect.extend(trackAsyncMatchers(matchers, jestRunner))
registerAwaitChecks(jestRunner)

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
