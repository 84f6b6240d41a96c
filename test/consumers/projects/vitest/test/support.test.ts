// A consumer's first suite: the setup file registers the matchers and replays the model calls from
// __llm_fixtures__, so this runs with no key and no network. Nothing here imports 'expect-llm/vitest': the
// matchers' types on expect() come from the tsconfig's "types": ["node", "expect-llm/vitest"] alone.
import { describe, expect, test } from 'vitest'
import { configure, rougeL } from 'expect-llm'

configure({ embedder: { dimensions: 256 } })

const question = 'How long do I have to ask for a refund?'
const reference = 'You can ask for a refund within 30 days of delivery.'
const right = 'You have 30 days from delivery to request a refund.'
const wrong = 'Wait 30 days after delivery before you can ask for a refund.'

describe('lexical matchers', () => {
  test('keywords, overlap, exact answers, length, JSON and retrieval', () => {
    expect(right).toContainKeywords(['30 days', 'refund'])
    expect(wrong).toContainKeywords(['30 days', 'refund'])
    expect(right).toHaveRougeLAbove(reference, 0.3)
    expect(rougeL(wrong, reference).f).toBeGreaterThan(0.4)
    expect('Paris.').toMatchAnswer(['Paris', 'Paris, France'])
    expect(right).toBeConcise({ maxWords: 20 })
    expect('```json\n{"days": 30}\n```').toMatchSchema({ type: 'object', required: ['days'], properties: { days: { type: 'integer' } } })
    expect([{ id: 'refunds', score: 0.8 }, { id: 'shipping', score: 0.3 }]).toRetrieve(['refunds'], { k: 1 })
    expect("I don't know, the handbook does not say.").not.toMatchAnswer(reference)
  })
})

describe('model-backed matchers, replayed', () => {
  test('the judge tells a right answer from one with the right keywords and the wrong meaning', async () => {
    await expect(right).toPassJudge({ reference, input: question })
    await expect(wrong).not.toPassJudge({ reference, input: question })
  })

  test('embeddings: a paraphrase is close, an answer about something else is not', async () => {
    await expect(right).toBeSemanticallySimilar(reference, { threshold: 0.5 })
    await expect('Standard shipping costs $4.99.').not.toBeSemanticallySimilar(reference, { threshold: 0.5 })
  })

  test('refusals are recognised without a model call', async () => {
    await expect("I don't know. Please contact our support team.").toRefuse()
    await expect(right).not.toRefuse()
  })
})
