/**
 * Jest setup entry (ESM mode): `setupFilesAfterEnv: ['expect-llm/jest']` registers every expect-llm
 * matcher on Jest's global `expect`, adds their types for `@jest/globals` and `@types/jest` users, and
 * starts record/replay of model HTTP traffic before any test file is imported (this module awaits
 * `listen()` at the top level, so clients created at module level in test files are intercepted).
 *
 * Replay needs Jest's ESM mode (`NODE_OPTIONS=--experimental-vm-modules`), because msw is ESM-only.
 * Under CommonJS, Jest loads `dist/jest.cjs`, which registers the matchers only.
 *
 * @example
 * ```js
 * // jest.config.cjs
 * module.exports = { setupFilesAfterEnv: ['expect-llm/jest'] }
 * ```
 * @packageDocumentation
 */
import { matchers } from './jest-register.js'
import { setupReplay } from '../replay/setup.js'
import { jestRunner } from '../runners/jest.js'

await setupReplay(jestRunner)

export { matchers }
export { describeGolden, compareGolden } from '../golden/jest.js'
