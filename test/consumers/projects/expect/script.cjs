// expect-llm/expect from CommonJS, without a test runner.
const assert = require('node:assert/strict')
const { expect } = require('expect-llm/expect')

assert.throws(() => require.resolve('vitest'), /Cannot find module/)
expect('Refunds within 30 days.').toContainKeywords(['30 days'])
expect('Call +44 20 7946 0958').toContainPII({ kinds: ['phone'] })
assert.throws(() => expect('Refunds within 30 days.').toContainKeywords(['60 days']), /60 days/)
console.log('expect-llm/expect (CommonJS): ok')
