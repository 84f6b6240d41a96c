import { defineConfig } from 'tsup'

export default defineConfig([{
  entry: {
    index: 'src/index.ts',
    matchers: 'matchers/index.ts',
    vitest: 'src/vitest.ts',
    jest: 'src/jest.ts',
    replay: 'src/replay/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: ['!cli.js'], // cleans dist except the bin, which the second config below builds in parallel
  target: 'node22',
  platform: 'node',
  sourcemap: false,
  external: ['vitest', 'expect', '@jest/globals', 'msw', 'msw/node', 'openai'],
  // ml-distance 5 is ESM-only: bundle it so the CommonJS build works under Jest's CJS runtime,
  // which cannot require() an ES module.
  noExternal: ['ml-distance'],
}, {
  // The `expect-llm` bin: ESM only, with a shebang; `clean: false` so it does not wipe the build above.
  entry: { cli: 'src/replay/cli.ts' },
  format: ['esm'],
  dts: false,
  clean: false,
  target: 'node22',
  platform: 'node',
  sourcemap: false,
  banner: { js: '#!/usr/bin/env node' },
  external: ['vitest', 'expect', '@jest/globals', 'msw', 'msw/node', 'openai'],
}])
