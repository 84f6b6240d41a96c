// Run by test/unawaited/jest.test.ts in a child Jest against the built package, as it is (CommonJS) and
// with its two require lines turned into imports (ESM mode).
const { expect, test } = require('@jest/globals')
const { configure } = require('expect-llm')

configure({ judge: async () => { await new Promise((resolve) => setTimeout(resolve, 30)); return { score: 0, reason: 'fixed verdict' } } })

test('unawaited failing judge', () => {
  expect('Rude answer.').toPassJudge('Is polite')
})

test('unawaited .not', () => {
  expect('Rude answer.').not.toPassJudge('Is polite')
})

test('unawaited rejection', () => {
  expect('Some answer.').toPassJudge('')
})

test('unawaited, passing quickly', async () => {
  expect("I don't know.").toRefuse()
  await new Promise((resolve) => setTimeout(resolve, 5))
})

test('unawaited .resolves, still running at the end', async () => {
  expect(Promise.resolve('Rude answer.')).resolves.toPassJudge('Is polite')
  await new Promise((resolve) => setTimeout(resolve, 1))
})

test('awaited', async () => {
  await expect('Rude answer.').not.toPassJudge('Is polite')
})

test('returned', () => expect('Rude answer.').not.toPassJudge('Is polite'))

test('awaited .resolves', async () => {
  await expect(Promise.resolve('Rude answer.')).resolves.not.toPassJudge('Is polite')
})
