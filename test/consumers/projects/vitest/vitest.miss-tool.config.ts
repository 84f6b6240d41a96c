// Only for the consumer check of a replayed agent loop whose tool result changed (miss-tool/ fails on purpose).
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { include: ['miss-tool/**/*.ts'], setupFiles: ['expect-llm/vitest'] },
})
