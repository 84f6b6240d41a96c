// Config of the child Jest runs started by test/jest/usage-record.test.mjs (never run directly).
const path = require('node:path')

const root = path.resolve(__dirname, '../../..')

/** @type {import('jest').Config} */
module.exports = {
  rootDir: root,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/jest/child/*.child.mjs'],
  setupFilesAfterEnv: ['expect-llm/jest', '<rootDir>/test/jest/child/setup.mjs'],
  moduleNameMapper: { '^expect-llm/(jest|matchers|vitest|replay)$': '<rootDir>/dist/$1.js', '^expect-llm$': '<rootDir>/dist/index.js' },
  transform: {},
}
