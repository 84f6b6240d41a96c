// expect-llm/expect in a Node script: no test runner installed, only @vitest/expect (the optional peer).
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { defineCheck } from 'expect-llm'
import { expect } from 'expect-llm/expect'

const require = createRequire(import.meta.url)
assert.throws(() => require.resolve('vitest'), /Cannot find module/)

const answer = 'You can ask for a refund within 30 days of delivery.'

// Jest's matchers and expect-llm's, on one expect.
expect({ days: 30 }).toEqual({ days: 30 })
expect(answer).toContainKeywords(['refund', '30 days'])
expect(answer).toHaveRougeLAbove('Refunds are possible within 30 days of delivery.', 0.4)
expect(answer).not.toContainPII()
expect(answer).not.toLeakSecrets()

// A failing matcher throws an AssertionError with the matcher's message.
assert.throws(() => expect('Mail jane@example.com').not.toContainPII(), (error) => {
  assert.match(error.message, /Received: email j\*\*\*@example\.com/)
  return true
})

// Async matchers and checks of your own.
const concise = defineCheck({ name: 'concise', threshold: 1, run: (output) => (output.length < 80 ? 1 : 0) })
await expect(answer).toPassCheck(concise)
await assert.rejects(expect(answer.repeat(3)).toPassCheck(concise), /Expected concise: >= \S*1/)

console.log('expect-llm/expect: ok')
