// Records the consumer suite's model calls (test/consumers/projects/vitest/test/__llm_fixtures__) from
// this repository's sources, against the support-bot example's scripted model:
//   npm run test:consumers:record
// The requests are the ones the installed package makes, so the temporary projects replay them.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))

export default defineConfig({
  resolve: {
    alias: [
      { find: /^expect-llm\/vitest$/, replacement: here('../../src/entries/vitest.ts') },
      { find: /^expect-llm$/, replacement: here('../../src/entries/index.ts') },
    ],
  },
  test: {
    root: here('./projects/vitest'),
    // miss/ holds the prompt that changed after recording (see miss/changed-prompt.ts), miss-tool/ the agent
    // loop whose tool result changed (miss-tool/changed-tool-result.ts).
    include: ['test/**/*.test.ts', 'miss/**/*.ts', 'miss-tool/**/*.ts'],
    setupFiles: [here('../../src/entries/vitest.ts'), here('./record.setup.ts'), here('../../examples/support-bot/scripted-model/setup.ts')],
  },
})
