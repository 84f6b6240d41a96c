// Jest in CommonJS mode cannot load msw (ESM-only), so record/replay is off. A suite that never calls a
// model hears nothing about it (matchers.test.cjs); the first model request of a file gets one warning
// that says what is missing: Jest's ESM mode, not msw.
const { expect, jest: jestApi, test } = require('@jest/globals')
const { configure, resetConfig } = require('expect-llm')

test("a model request under CommonJS warns once that replay needs Jest's ESM mode", async () => {
  const warn = jestApi.spyOn(console, 'warn').mockImplementation(() => undefined)
  configure({ replay: { hosts: ['http://127.0.0.1:2'] } })
  try {
    for (let i = 0; i < 2; i++) await fetch('http://127.0.0.1:2/v1/chat/completions', { method: 'POST', body: '{}' }).catch(() => undefined)
    expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.startsWith('[expect-llm]'))).toEqual([
      "[expect-llm] Failed to replay POST http://127.0.0.1:2/v1/chat/completions: record/replay is off, so this model request goes to the network. msw is installed, but Jest runs test files in CommonJS mode and msw is ESM-only, so replay needs Jest's ESM mode. Run Jest with NODE_OPTIONS=--experimental-vm-modules (Node >= 24.9 loads msw without it).",
    ])
  } finally {
    resetConfig()
    warn.mockRestore()
  }
})
