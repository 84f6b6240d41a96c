// Run on purpose by the consumer check (vitest.miss.config.ts), never by `vitest run`: an app whose prompt
// changed after it was recorded. `npm run test:consumers:record` records the prompt as it was ("in one
// line"); replay then sees today's prompt ("in one sentence"). The test must fail with one clear block (the
// miss, the diff against the recording, the command to record it), without the SDK's error repeating it.
import OpenAI from 'openai'
import { expect, test } from 'vitest'

const client = new OpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'replay-without-a-key' })
const recording = process.env.EXPECT_LLM_REPLAY === 'record'

test('a prompt changed since it was recorded', async () => {
  const completion = await client.chat.completions.create({
    model: 'gpt-4.1-mini',
    temperature: 0,
    messages: [{ role: 'user', content: `Summarize this ticket in one ${recording ? 'line' : 'sentence'}: the parcel arrived damaged.` }],
  })
  expect(completion.choices[0]?.message.content).toBeTruthy()
})
