// Config of the child Vitest run started by test/replay/runner.test.ts (never run directly).
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: ['module-client.child.ts'],
    setupFiles: ['./setup.ts'],
  },
})
