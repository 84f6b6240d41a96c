// Must fail: a model-backed matcher without await, under Jest in ESM mode.
import { expect, test } from '@jest/globals'
import { configure } from 'expect-llm'

configure({ judge: async () => { await new Promise((resolve) => setTimeout(resolve, 20)); return { score: 0, reason: 'Rude.' } } })

test('a judge verdict without await', () => {
  expect('Whatever.').toPassJudge('Is polite')
})
