import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    matchers: 'matchers/index.ts',
    vitest: 'src/vitest.ts',
    jest: 'src/jest.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'node22',
  platform: 'node',
  sourcemap: false,
  external: ['vitest', 'expect', '@jest/globals', 'msw', 'msw/node', 'openai'],
})
