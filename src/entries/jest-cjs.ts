/**
 * Jest setup entry, CommonJS build: `setupFilesAfterEnv: ['expect-llm/jest']` registers every
 * expect-llm matcher on Jest's global `expect` and adds their types.
 *
 * Jest resolves setup files listed in its config with the `require` condition, so this file is the one
 * Jest loads even in ESM mode. It therefore exports an async function, which Jest awaits before it
 * imports any test file: in ESM mode (`NODE_OPTIONS=--experimental-vm-modules`) that function starts
 * record/replay, loading msw (ESM-only) through Jest's own module loader, so clients created at module
 * level in test files are intercepted. In plain CommonJS mode msw cannot be loaded; the matchers still
 * work, and a replay mode requested through `EXPECT_LLM_REPLAY` is reported once.
 *
 * @example
 * ```js
 * // jest.config.cjs
 * module.exports = { setupFilesAfterEnv: ['expect-llm/jest'] }
 * ```
 * @packageDocumentation
 */
import { compareGolden, describeGolden } from '../golden/jest.js'
import { matchers } from './jest-register.js'
import { setupReplay } from '../replay/setup.js'
import { jestRunner } from '../runners/jest.js'

/** Starts record/replay for the test file about to run (Jest awaits a setup file's exported function). */
async function startReplay(): Promise<void> {
  await setupReplay(jestRunner)
}

// Jest awaits a setup file whose module.exports is a function. The named exports stay reachable as its
// properties (`require('expect-llm/jest').describeGolden`); the ESM-style exports below declare their types.
module.exports = Object.assign(startReplay, { matchers, describeGolden, compareGolden })

export { matchers, describeGolden, compareGolden }
