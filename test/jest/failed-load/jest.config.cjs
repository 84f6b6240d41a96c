// Config of the child Jest run started by test/jest/failed-load.test.mjs (never run directly): one worker,
// files in name order, so a file that fails to load runs just before one that makes a model request.
const path = require('node:path')

const root = path.resolve(__dirname, '../../..')

/** @type {import('jest').Config} */
module.exports = {
  rootDir: root,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/jest/failed-load/*.child.mjs'],
  setupFilesAfterEnv: ['expect-llm/jest'],
  moduleNameMapper: { '^expect-llm/(jest|matchers|vitest|replay)$': '<rootDir>/dist/$1.js', '^expect-llm$': '<rootDir>/dist/index.js' },
  transform: {},
  testSequencer: '<rootDir>/test/jest/failed-load/sequencer.cjs',
}
