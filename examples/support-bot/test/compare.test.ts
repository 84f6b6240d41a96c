// Prompt v1 against prompt v2 on the same golden cases. v2 dropped the sentence that tells the model to
// say "I don't know" when the handbook has no answer; the comparison shows what that costs, with a
// paired bootstrap interval and McNemar's test rather than a single average.
import { beforeAll } from 'vitest'
import { compareGolden } from 'expect-llm/vitest'
import { createSupportBot } from '../src/index.js'
import { dataset, testClient } from './client.js'

const client = testClient()
const v1 = createSupportBot({ client, prompt: 'v1' })
const v2 = createSupportBot({ client, prompt: 'v2', retriever: v1.retriever })

beforeAll(() => v1.ready())

const answerWith = (bot: typeof v1) => async (question: string) => {
  const { answer, retrieved, context } = await bot.answer(question)
  return { output: answer, retrieved, context }
}

compareGolden<string>('prompt v1 vs v2', {
  dataset,
  variants: { v1: answerWith(v1), v2: answerWith(v2) },
  scorers: { refusal: true, judge: { threshold: 0.7 }, semantic: 0.7 },
  // v1 must be better at knowing when to say "I don't know" (answering what it can, refusing what it cannot).
  expect: { better: 'v1', scorer: 'refusal' },
  // Also write the HTML report (.expect-llm/report.html: every suite's report, with its history).
  report: { html: true },
})
