// Jest in ESM mode: model-backed matchers replayed from __llm_fixtures__ (the same recordings as the
// Vitest consumer: identical requests share a fixture), and describeGolden imported from 'expect-llm/jest'
// in a file whose setupFilesAfterEnv already loaded it.
import { describe, expect, test } from '@jest/globals'
import { configure } from 'expect-llm'
import { describeGolden } from 'expect-llm/jest'

configure({ embedder: { dimensions: 256 } })

const question = 'How long do I have to ask for a refund?'
const reference = 'You can ask for a refund within 30 days of delivery.'
const right = 'You have 30 days from delivery to request a refund.'
const wrong = 'Wait 30 days after delivery before you can ask for a refund.'

describe('model-backed matchers under ESM', () => {
  test('the judge passes the right answer and fails the keyword-fooled one', async () => {
    await expect(right).toPassJudge({ reference, input: question })
    await expect(wrong).not.toPassJudge({ reference, input: question })
  })

  test('embeddings', async () => {
    await expect(right).toBeSemanticallySimilar(reference, { threshold: 0.5 })
    await expect('Standard shipping costs $4.99.').not.toBeSemanticallySimilar(reference, { threshold: 0.5 })
  })
})

describeGolden('refund answers (ESM)', {
  dataset: [{ id: 'refund-window', input: question, expected: reference, keywords: ['30 days', 'refund'] }],
  task: () => right,
  scorers: { rougeL: null, tokenF1: null },
  report: false,
})
