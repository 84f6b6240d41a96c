// Runs only the replay tests, without the repository setup file (which registers matchers and starts the
// global replay session): `npx vitest run --config test/replay/vitest.config.ts`. The root config runs
// them too, with the setup file; both must pass.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/replay/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/replay/child/**'],
  },
})
