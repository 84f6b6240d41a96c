// The order-agent example, run by `npm run demo` (replay, offline) and `npm run examples:record-order-agent`
// (records against the scripted local model). In your own project the config is just
// `test: { setupFiles: ['expect-llm/vitest'] }`; here the aliases point `expect-llm` at this repository's
// sources, so the demo needs no build step.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))
const scripted = process.env.EXPECT_LLM_SCRIPTED_MODEL === '1'

export default defineConfig({
  resolve: {
    alias: [
      { find: /^expect-llm\/vitest$/, replacement: here('../../src/entries/vitest.ts') },
      { find: /^expect-llm$/, replacement: here('../../src/entries/index.ts') },
    ],
  },
  test: {
    root: here('.'),
    include: ['test/**/*.test.ts'],
    // expect-llm, then the example's configure(), then the scripted model (recording only). Setup files are
    // resolved as paths, not through resolve.alias, so here it is the source file the alias points to.
    setupFiles: [here('../../src/entries/vitest.ts'), './test/setup.ts', ...(scripted ? ['./scripted-model/setup.ts'] : [])],
    testTimeout: 30_000,
  },
})
