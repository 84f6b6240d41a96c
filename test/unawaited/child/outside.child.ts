// An unawaited assertion outside any test (in beforeAll) fails the file, from afterAll.
import { beforeAll, expect, test } from 'vitest'
import { configure } from '../../../src/entries/index.js'

configure({ judge: async () => ({ score: 1, reason: 'fine' }) })

beforeAll(() => {
  expect('An answer.').toPassJudge('Is polite')
})

test('a test', () => {
  expect('a').toHaveEditSimilarityAbove('a', 1)
})
