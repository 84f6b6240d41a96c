/**
 * Vitest setup entry: `test: { setupFiles: ['expect-llm/vitest'] }` registers every expect-llm
 * matcher on Vitest's `expect` and adds their types to `expect()`.
 *
 * @example
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config'
 * export default defineConfig({ test: { setupFiles: ['expect-llm/vitest'] } })
 * ```
 * @packageDocumentation
 */
import { expect } from 'vitest'
import * as matchers from '../matchers/index.js'
import type { LlmMatchers } from '../matchers/types.js'

expect.extend(matchers)

declare module 'vitest' {
  // No type parameters on purpose: this merges with Vitest 4's `Matchers<T = any>` and with
  // Vitest 5's `Matchers<R, T>` alike (declaring either list breaks the other major).
  interface Matchers extends LlmMatchers {}
  interface AsymmetricMatchersContaining extends LlmMatchers {}
}

export { matchers }
