import { defineConfig } from 'vitest/config'

// The mutation suite (run by `expect-llm mutate ... -- --config mutate/vitest.config.ts`).
export default defineConfig({
  test: { include: ['mutate/**/*.mutate.ts'], setupFiles: ['expect-llm/vitest'] },
})
