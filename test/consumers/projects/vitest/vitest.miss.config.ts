// Only for the consumer check of what a replay miss looks like (miss/changed-prompt.ts fails on purpose).
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { include: ['miss/**/*.ts'], setupFiles: ['expect-llm/vitest'] },
})
