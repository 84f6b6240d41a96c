// Suites that must fail, and how: run by test/consumers/run.mjs, which checks their output.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { include: ['trust/**/*.trust.ts'], exclude: ['trust/no-setup.trust.ts'], setupFiles: ['expect-llm/vitest'] },
})
