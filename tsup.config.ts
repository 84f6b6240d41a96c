import { defineConfig, type Options } from 'tsup'

/**
 * `import.meta.url` in the CommonJS builds (src/replay/setup.ts resolves msw from the package with
 * createRequire(import.meta.url)): the file's URL from __filename. tsup's own `shims` builds it as
 * `file:${__filename}`, which a `#` or `%` in the path would break; pathToFileURL escapes them.
 */
function importMetaUrlInCjs(options: Parameters<NonNullable<Options['esbuildOptions']>>[0], { format }: { format: string }): void {
  if (format !== 'cjs') return
  options.define = { ...options.define, 'import.meta.url': '__expectLlmFileUrl' }
  // "use strict" first: the banner goes before the directive esbuild writes, which would then not count.
  const fileUrl = "const __expectLlmFileUrl = require('node:url').pathToFileURL(__filename).href;"
  options.banner = { ...options.banner, js: `${options.banner?.js ?? ''}"use strict";\n${fileUrl}` }
}

// Three builds that run in parallel; `npm run build` empties dist/ first, so none of them cleans.
const base: Options = {
  dts: true,
  clean: false,
  target: 'node22',
  platform: 'node',
  sourcemap: false,
  // Optional peers stay out of the bundle: each is loaded only when the feature that needs it is used.
  external: ['vitest', '@vitest/expect', 'expect', '@jest/globals', 'msw', 'msw/node', 'openai', 'ai', '@anthropic-ai/sdk'],
  // ml-distance 5 is ESM-only: bundle it so the CommonJS build works under Jest's CJS runtime,
  // which cannot require() an ES module.
  noExternal: ['ml-distance'],
  esbuildOptions: importMetaUrlInCjs,
}

const entries = {
  index: 'src/entries/index.ts',
  matchers: 'src/entries/matchers.ts',
  vitest: 'src/entries/vitest.ts',
  replay: 'src/entries/replay.ts',
}
const { vitest: vitestEntry, ...cjsEntries } = entries

// Under moduleResolution node16/nodenext, `"types": ["expect-llm/vitest"]` in a tsconfig resolves with the
// `require` condition, to vitest.d.cts, whose `declare module 'vitest'` then augments Vitest's CommonJS
// types (`export * from './dist/index.js'`), which does not reach the `expect()` of test files. Importing
// the ESM declarations from it (type-only, resolution-mode import) applies their augmentation instead.
const vitestCjsTypesFooter = "import type {} from './vitest.js' with { 'resolution-mode': 'import' };"

export default defineConfig([
  // ESM: the Jest entry awaits replay start-up at the top level (Jest's ESM mode).
  { ...base, format: ['esm'], entry: { ...entries, jest: 'src/entries/jest.ts' } },
  // CommonJS: the Jest entry sets `module.exports` to an async function that Jest awaits (it starts
  // replay in Jest's ESM mode), which esbuild would otherwise warn about in a "type": "module" package.
  {
    ...base,
    format: ['cjs'],
    entry: { ...cjsEntries, jest: 'src/entries/jest-cjs.ts' },
    esbuildOptions(options, context) {
      importMetaUrlInCjs(options, context)
      options.logOverride = { 'commonjs-variable-in-esm': 'silent' }
    },
  },
  // The Vitest setup entry as CommonJS, on its own for its declaration footer (see above).
  { ...base, format: ['cjs'], entry: { vitest: vitestEntry }, dts: { footer: vitestCjsTypesFooter } },
  // expect-llm/expect on its own, so that its declarations (which merge the matchers into @vitest/expect)
  // do not change how the declarations of the other entries are split into shared chunks.
  { ...base, format: ['esm', 'cjs'], entry: { expect: 'src/entries/expect.ts' } },
  // The `expect-llm` bin: ESM only, with a shebang.
  { ...base, dts: false, format: ['esm'], entry: { cli: 'src/entries/cli.ts' }, banner: { js: '#!/usr/bin/env node' } },
])
