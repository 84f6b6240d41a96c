// describeGolden from the setup entry, over lexical and judge scorers replayed from __llm_fixtures__.
import type { GoldenCaseInput } from 'expect-llm'
import { describeGolden } from 'expect-llm/vitest'

const question = 'How long do I have to ask for a refund?'
const reference = 'You can ask for a refund within 30 days of delivery.'
const right = 'You have 30 days from delivery to request a refund.'

const cases: Array<GoldenCaseInput<string, string, { answer: string }>> = [
  { id: 'refund-window', input: question, expected: reference, keywords: ['30 days'], metadata: { answer: right } },
  {
    id: 'damaged-item',
    input: 'My order arrived damaged. What should I do?',
    expected: 'Send us a photo of the damage within 48 hours and we will send a replacement at no cost.',
    keywords: ['48 hours', 'photo'],
    metadata: { answer: "Send a photo of the damage within 48 hours and we'll ship you a free replacement." },
  },
]

describeGolden<string, string, { answer: string }>('refund and delivery answers', {
  dataset: cases,
  task: (_question, c) => c.metadata?.answer ?? '',
  scorers: { judge: true, rougeL: null },
  thresholds: { passRate: 1 },
  report: { console: false },
})
