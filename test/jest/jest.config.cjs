// Jest 30 runs the *built* package (dist/), as users get it: once through the CommonJS build and
// once through the ESM build (Jest's ESM mode: `node --experimental-vm-modules`).
// `expect-llm/*` is mapped to dist/ because Jest does not resolve a package's imports of itself.
const path = require('node:path')

const root = path.resolve(__dirname, '../..')

/** @type {import('jest').Config} */
module.exports = {
  rootDir: root,
  projects: [
    {
      displayName: 'cjs',
      rootDir: root,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/jest/**/*.test.cjs'],
      setupFilesAfterEnv: ['expect-llm/jest'],
      moduleNameMapper: { '^expect-llm/(jest|matchers|vitest)$': '<rootDir>/dist/$1.cjs', '^expect-llm$': '<rootDir>/dist/index.cjs' },
      transform: {},
      // A Stryker sandbox left by an interrupted `npm run test:mutation` holds a second package.json.
      modulePathIgnorePatterns: ['<rootDir>/.stryker-tmp'],
    },
    {
      displayName: 'esm',
      rootDir: root,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/jest/**/*.test.mjs'],
      setupFilesAfterEnv: ['expect-llm/jest'],
      moduleNameMapper: { '^expect-llm/(jest|matchers|vitest)$': '<rootDir>/dist/$1.js', '^expect-llm$': '<rootDir>/dist/index.js' },
      transform: {},
      // A Stryker sandbox left by an interrupted `npm run test:mutation` holds a second package.json.
      modulePathIgnorePatterns: ['<rootDir>/.stryker-tmp'],
    },
  ],
}
