// Single answers checked with expect-llm's matchers: the kind of test you write next to the bot's code.
import { beforeAll, describe, expect, test } from 'vitest'
import { createSupportBot } from '../src/index.js'
import { testClient } from './client.js'

const client = testClient()
const bot = createSupportBot({ client })
const v2 = createSupportBot({ client, prompt: 'v2', retriever: bot.retriever })

beforeAll(() => bot.ready())

describe('support bot', () => {
  test('answers a refund question from the refunds section', async () => {
    const question = 'How long do I have to ask for a refund?'
    const reference = 'You can ask for a refund within 30 days of delivery.'
    const { answer, retrieved, context } = await bot.answer(question)

    expect(retrieved).toRetrieve(['refunds'], { k: 1, minScore: 0.2 })
    expect(answer).toContainKeywords(['refund', '30 days'])
    expect(answer).toHaveRougeLAbove(reference, 0.5)
    expect(answer).toBeConcise({ maxWords: 60 })
    await expect(answer).toBeSemanticallySimilar(reference, { threshold: 0.7 })
    await expect(answer).toPassJudge({ reference, input: question })
    await expect(answer).toBeRelevantTo(question, { context })
    await expect(answer).toBeFaithfulTo(context)
    await expect(answer).not.toRefuse()
  })

  test('a relevant section with a near-zero score is a lucky hit, not a hit', async () => {
    // "cracked screen" and "dropped" are not words of the warranty section: it still ranks first, but
    // with a similarity of about 0.18, below minScore, so toRetrieve does not count it.
    const { retrieved } = await bot.answer('Does the warranty cover a cracked screen after I dropped the phone?')
    expect(retrieved[0]?.id).toBe('warranty')
    expect(retrieved).not.toRetrieve(['warranty'], { k: 3, minScore: 0.2 })
  })

  test('prompt v1 says "I don\'t know" when the handbook has no answer; v2 makes one up', async () => {
    const question = 'Do you offer a student discount?'
    await expect((await bot.answer(question)).answer).toRefuse()
    const made_up = (await v2.answer(question)).answer
    await expect(made_up).not.toRefuse()
    await expect(made_up).not.toPassJudge({ criteria: 'Says that the handbook has no information on student discounts', input: question })
  })
})
