/**
 * Jest setup entry (CommonJS): `setupFilesAfterEnv: ['expect-llm/jest']` registers every expect-llm
 * matcher on Jest's global `expect` and adds their types. Record/replay is not available here: msw is
 * ESM-only and Jest's CommonJS runtime cannot load it. Run Jest in ESM mode
 * (`NODE_OPTIONS=--experimental-vm-modules`) to get replay; a requested replay mode is reported once.
 *
 * @example
 * ```js
 * // jest.config.js
 * module.exports = { setupFilesAfterEnv: ['expect-llm/jest'] }
 * ```
 * @packageDocumentation
 */
import { formatMessage } from './errors.js'
import { matchers } from './jest-register.js'

if (process.env.EXPECT_LLM_REPLAY && process.env.EXPECT_LLM_REPLAY !== 'live') {
  console.warn(
    formatMessage(
      `Failed to start record/replay (EXPECT_LLM_REPLAY=${process.env.EXPECT_LLM_REPLAY}): Jest is running in CommonJS mode, which cannot load msw (ESM-only). Run Jest with NODE_OPTIONS=--experimental-vm-modules and an ESM config; the matchers work either way.`,
    ),
  )
}

export { matchers }
