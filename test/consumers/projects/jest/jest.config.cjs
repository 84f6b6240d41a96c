/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  setupFilesAfterEnv: ['expect-llm/jest'],
  transform: {},
  projects: [
    // CommonJS: the matchers and describeGolden with lexical scorers (record/replay needs ESM mode).
    { displayName: 'cjs', testEnvironment: 'node', setupFilesAfterEnv: ['expect-llm/jest'], transform: {}, testMatch: ['<rootDir>/test/**/*.test.cjs'] },
    // ESM mode (node --experimental-vm-modules): model-backed matchers replayed from __llm_fixtures__.
    { displayName: 'esm', testEnvironment: 'node', setupFilesAfterEnv: ['expect-llm/jest'], transform: {}, testMatch: ['<rootDir>/test/**/*.test.mjs'] },
    // A replay miss on purpose (run alone by the consumer check): what a changed prompt looks like.
    { displayName: 'miss', testEnvironment: 'node', setupFilesAfterEnv: ['expect-llm/jest'], transform: {}, testMatch: ['<rootDir>/miss/**/*.test.mjs'] },
  ],
}
