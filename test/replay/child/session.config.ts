// Config of the child Vitest run started by test/replay/session.test.ts (never run directly). A setup file
// that builds an OpenAI client runs before expect-llm's, as a user's own setup file listed first would.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: ['session.child.ts'],
    setupFiles: ['./early-client.ts', '../../../src/entries/vitest.ts', './setup.ts'],
  },
})
