import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/jest/**', 'test/consumers/**'],
    setupFiles: ['./test/setup.ts'],
    // One test file per core. Vitest's default is one fewer than the cores (a single worker on a 2-core
    // machine, which left the second core idle while a file waited on its child processes and servers).
    maxWorkers: availableParallelism(),
    typecheck: {
      enabled: true,
      include: ['test/types/**/*.test-d.ts'],
      tsconfig: './test/types/tsconfig.vitest.json',
    },
  },
})
