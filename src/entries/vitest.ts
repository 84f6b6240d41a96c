/**
 * Vitest setup entry: `test: { setupFiles: ['expect-llm/vitest'] }` registers every expect-llm
 * matcher on Vitest's `expect`, adds their types to `expect()`, and starts record/replay of model HTTP
 * traffic while the setup file is imported, so that clients created at module level in test files are
 * intercepted too.
 *
 * @example
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config'
 * export default defineConfig({ test: { setupFiles: ['expect-llm/vitest'] } })
 * ```
 * @packageDocumentation
 */
import { chai, expect } from 'vitest'
import * as matchers from './matchers.js'
import type { LlmAsyncMatchers, LlmMatchers } from '../../matchers/types.js'
import { formatMessage } from '../errors.js'
import { setupReplay } from '../replay/setup.js'
import { vitestRunner } from '../runners/vitest.js'
import { registerAwaitChecks, trackAsyncMatchers, trackPromiseModifiers, type ChaiLike } from '../unawaited.js'

// Vitest sets VITEST_WORKER_ID in its test workers only. Loaded anywhere else (globalSetup, the config
// file), the matchers would be registered where no test runs: say where the entry belongs.
if (!process.env.VITEST_WORKER_ID) {
  throw new Error(
    formatMessage(
      "Failed to register the expect-llm matchers: 'expect-llm/vitest' was loaded outside a Vitest test worker " +
        '(from globalSetup, the config file or a script). List it under test.setupFiles (in every project of a ' +
        'multi-project config, or use extends: true), where it runs before each test file.',
    ),
  )
}

// An async matcher's promise is watched: a test that ends without awaiting it fails (see unawaited.ts).
expect.extend(trackAsyncMatchers(matchers, vitestRunner))
trackPromiseModifiers(chai as unknown as ChaiLike, Object.keys(matchers))
registerAwaitChecks(vitestRunner)

// Under Vitest msw loads synchronously: the server is listening when this call returns.
void setupReplay(vitestRunner)

declare module 'vitest' {
  // No type parameters on purpose: this merges with Vitest 4's `Matchers<T = any>` and with
  // Vitest 5's `Matchers<R, T>` alike (declaring either list breaks the other major).
  interface Matchers extends LlmMatchers, LlmAsyncMatchers {}
  // Only the synchronous matchers work asymmetrically (expect.toX()): asymmetric matchers are read
  // synchronously, so a model-backed one could never pass.
  interface AsymmetricMatchersContaining extends LlmMatchers {}
}

export { matchers }
export { describeGolden, compareGolden } from '../golden/vitest.js'
