// The checks example (run by `npm run test:examples`): the workflows of "Write your own check" in the
// README, on the support bot of ../support-bot, replayed from test/__llm_fixtures__ (recorded with
// `npm run examples:record-checks` against the scripted model). In your own project the config is just
// `test: { setupFiles: ['expect-llm/vitest'] }`; the aliases point `expect-llm` at this repository's sources.
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
    setupFiles: [here('../../src/entries/vitest.ts'), './test/setup.ts', ...(scripted ? ['../support-bot/scripted-model/setup.ts'] : [])],
    testTimeout: 30_000,
  },
})
