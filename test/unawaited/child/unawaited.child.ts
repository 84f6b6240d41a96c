// Run in a child Vitest by test/unawaited/vitest.test.ts: every way of leaving an expect-llm assertion
// unawaited (each test must fail), and every way of waiting for one (each test must pass).
import { expect, test } from 'vitest'
import { configure } from '../../../src/entries/index.js'

const slowJudge = (score: number) => async () => {
  await new Promise((resolve) => setTimeout(resolve, 30))
  return { score, reason: 'fixed verdict' }
}
configure({ judge: slowJudge(0) })
const quick = "I don't know, the handbook does not say."

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
  expect(quick).toRefuse()
  await new Promise((resolve) => setTimeout(resolve, 5))
})

test('unawaited .resolves', () => {
  expect(Promise.resolve('Rude answer.')).resolves.toPassJudge('Is polite')
})

test('unawaited .rejects', () => {
  expect(Promise.reject(new Error('x'))).rejects.toPassJudge('Is polite')
})

test('unawaited expect.soft', () => {
  expect.soft('Rude answer.').toPassJudge('Is polite')
})

test('then() without await', () => {
  expect('Rude answer.').toPassJudge('Is polite').then(() => undefined, () => undefined)
})

test('two unawaited', () => {
  expect('Rude answer.').toPassJudge('Is polite')
  expect('Other answer.').toBeSemanticallySimilar('x', { embedder: async (texts: string[]) => texts.map(() => [1, 0]) })
})

test('awaited', async () => {
  await expect('Rude answer.').not.toPassJudge('Is polite')
})

test('returned', () => expect('Rude answer.').not.toPassJudge('Is polite'))

test('Promise.all', async () => {
  await Promise.all([expect(quick).toRefuse(), expect('Rude answer.').not.toPassJudge('Is polite')])
})

test('awaited later', async () => {
  const verdict = expect('Rude answer.').not.toPassJudge('Is polite')
  await new Promise((resolve) => setTimeout(resolve, 1))
  await verdict
})

test('awaited .resolves.not', async () => {
  await expect(Promise.resolve('Rude answer.')).resolves.not.toPassJudge('Is polite')
})

test('awaited failing assertion fails as usual', async () => {
  await expect('Rude answer.').toPassJudge('Is polite')
})

test('lexical matchers need no await', () => {
  expect('a b c').toHaveRougeLAbove('a b c', 1)
})
