// A golden suite and a comparison whose tasks call a chat model through the real openai SDK. Run by
// test/report/browser.test.ts in a child Vitest: once recording against a local OpenAI-compatible
// server, once replaying with it stopped; the HTML report is drawn from what the replayed run wrote.
// REPORT_RUN=2 changes two reference answers, so that two cases change their verdict between the runs
// (the history's "verdict changed" view); replay does not see it (references are not sent to the model).
import OpenAI from 'openai'
import { configure } from '../../../src/config.js'
import { compareGolden, describeGolden } from '../../../src/entries/vitest.js'

configure({ replay: { hosts: [process.env.CHILD_ORIGIN as string], rootDir: process.cwd() } })

const client = new OpenAI({ baseURL: process.env.CHILD_BASE_URL, apiKey: 'test-key-local', maxRetries: 0 })
const second = process.env.REPORT_RUN === '2'

const ask = (prompt: string) => async (input: string) => {
  const reply = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: prompt },
      { role: 'user', content: input },
    ],
  })
  return reply.choices[0]?.message.content ?? ''
}

const dataset = [
  { id: 'refund', input: 'refund window', expected: 'Refunds are accepted within 30 days of purchase.', tags: ['billing'] },
  { id: 'shipping', input: 'shipping cost', expected: 'Shipping is free on orders over $50.', tags: ['shipping'] },
  { id: 'canada', input: 'ship to canada', expected: 'We ship to Canada in 5 to 7 business days.', tags: ['shipping'] },
  { id: 'warranty', input: 'warranty length', expected: 'Every product has a two year warranty.', tags: ['product'] },
  { id: 'exchange', input: 'exchange a size', expected: 'You can exchange a size for free within 60 days.', tags: ['product'] },
  { id: 'giftcard', input: 'gift card expiry', expected: 'Gift cards never expire.', tags: ['billing'] },
  { id: 'password', input: 'reset password', expected: 'Reset your password from the sign-in page with the forgot password link.', tags: ['account'] },
  { id: 'invoice', input: 'invoice copy', expected: 'Invoices are in your account under Orders.', tags: ['billing'] },
  { id: 'injected', input: 'html in the answer', expected: 'Refunds take 30 days.', tags: ['security'] },
  { id: 'long', input: 'long answer', expected: 'Our warranty covers parts and labour for two years.', tags: ['product'] },
  {
    id: 'tracking',
    input: 'track my order',
    expected: second ? 'Tracking numbers are sent by text message only.' : 'Track your order from the link in the shipping email.',
    tags: ['shipping'],
  },
  {
    id: 'cancel',
    input: 'cancel an order',
    expected: second ? 'Call us to cancel an order.' : 'Cancel an order from your account within one hour.',
    tags: ['account'],
  },
]

describeGolden('support answers', {
  dataset,
  task: ask('You are the support bot, prompt v1.'),
  scorers: { rougeL: 0.5, tokenF1: null },
  concurrency: 4,
  thresholds: { mean: { rougeL: 0.5 } },
  baseline: true,
  budget: { p95LatencyMs: 5000, maxTokens: 100_000 },
})

compareGolden('prompt v1 vs v2', {
  dataset: dataset.slice(0, 8),
  variants: { v1: ask('You are the support bot, prompt v1.'), v2: ask('You are the support bot, prompt v2.') },
  scorers: { rougeL: 0.5 },
  concurrency: 4,
  expect: { better: 'v1', scorer: 'rougeL' },
})
