// Config of the child Vitest runs started by test/golden/vitest-runner.test.ts (never run directly).
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: ['*.golden.ts'],
    setupFiles: ['../../setup.ts'],
  },
})
