// A check of your own, as the README's "Write your own check" shows it: in describeGolden (by its key,
// with a gate on its mean), beside two named judge instances and a weighted composite, and as a matcher.
import { defineCheck, evaluate, type GoldenCaseInput } from 'expect-llm'
import { describeGolden } from 'expect-llm/vitest'
import { describe, expect, test } from 'vitest'

// LangSmith-style code evaluator: shorter than twice the reference, in characters.
const concise = defineCheck({
  name: 'concise',
  threshold: 1,
  run: (output, c) => {
    const max = 2 * String(c.expected ?? '').length
    return output.length < max ? 1 : { score: 0, reason: `${output.length} characters, at least ${max}` }
  },
})

const cases: Array<GoldenCaseInput<string, string, { answer: string }>> = [
  { id: 'refund', input: 'How long do I have to ask for a refund?', expected: 'Within 30 days of delivery.', metadata: { answer: 'You have 30 days.' } },
  { id: 'ship', input: 'Do you ship to Canada?', expected: 'Yes, in 5 to 7 business days.', metadata: { answer: 'Yes, we ship to Canada in 5 to 7 business days.' } },
]

// Two judges of one suite, each a plain function here (a model judge records and replays like any other).
const correctness = () => ({ score: true, reason: 'matches the reference' })
const coherence = () => ({ score: 4, reason: 'clear' })

describeGolden('answers with a check of my own', {
  dataset: cases,
  task: (_q, c) => c.metadata?.answer ?? '',
  scorers: {
    concise,
    'judge:correctness': { criteria: 'Is correct', judge: correctness },
    'judge:coherence': { criteria: 'Is coherent', scale: '1-5', judge: coherence },
    'composite:quality': { weights: { 'judge:correctness': 2, 'judge:coherence': 1, concise: 1 } },
  },
  thresholds: { mean: { concise: 1, 'judge:coherence': 0.7, 'composite:quality': 0.9 } },
  report: { console: false },
})

describe('toPassCheck', () => {
  test('passes and fails like any matcher', async () => {
    await expect('You have 30 days.').toPassCheck(concise, undefined, { expected: 'Within 30 days of delivery.' })
    await expect('Refunds are possible within thirty days of the delivery of your parcel.').not.toPassCheck(concise, 1, { expected: 'Within 30 days.' })
  })

  test('a score outside [0, 1] is an error, not a pass', async () => {
    const broken = defineCheck({ name: 'broken', threshold: 0.5, run: () => 7 })
    await expect(expect('x').not.toPassCheck(broken)).rejects.toThrow('check "broken" returned 7, outside [0, 1]')
  })
})

describe('safety matchers', () => {
  test('personal data and secrets, with the traps that are neither', () => {
    expect('Your order 4000012345 ships on 2024-05-01 (app version 2.3.1).').not.toContainPII()
    expect('Mail jane@example.com or call +44 20 7946 0958.').toContainPII({ kinds: ['email', 'phone'] })
    expect('Card 4242 4242 4242 4242').toContainPII({ kinds: ['card'] })
    expect('Set OPENAI_API_KEY in your environment.').not.toLeakSecrets()
    expect(['-----BEGIN', 'PRIVATE KEY-----'].join(' ')).toLeakSecrets()
  })
})

describe('evaluate', () => {
  test('the same checks outside describeGolden, returning the report', async () => {
    const report = await evaluate(cases, { task: (_q, c) => c.metadata?.answer ?? '', scorers: { concise, pii: true }, thresholds: { mean: { concise: 1 } } })
    expect(report.ok).toBe(true)
    expect(report.scorers.concise?.mean).toBe(1)
    expect(report.scorers.pii?.mean).toBe(1)
  })
})
