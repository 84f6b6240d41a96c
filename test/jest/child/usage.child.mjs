// Child test file of test/jest/usage-record.test.mjs: two tests, the second fails when CHILD_FAIL is set.
import { expect, test } from '@jest/globals'

test('passes', () => {
  expect(1).toBe(1)
})

test('fails when asked to', () => {
  expect(process.env.CHILD_FAIL ? 2 : 1).toBe(1)
})
