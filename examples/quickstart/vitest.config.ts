// The quick-start example, run by `npm run demo`. In your own project you would write
// `setupFiles: ['expect-llm/vitest']` and import from 'expect-llm'; here the aliases point at this
// repository's sources so the demo needs no build step.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (p: string) => fileURLToPath(new URL(`../../src/${p}`, import.meta.url))

export default defineConfig({
  resolve: {
    alias: [
      { find: /^expect-llm\/vitest$/, replacement: src('entries/vitest.ts') },
      { find: /^expect-llm$/, replacement: src('entries/index.ts') },
    ],
  },
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['**/*.test.ts'],
    // Setup files are resolved as paths, not through resolve.alias: the source file the alias points to.
    setupFiles: [src('entries/vitest.ts')],
    reporters: ['verbose'],
  },
})
