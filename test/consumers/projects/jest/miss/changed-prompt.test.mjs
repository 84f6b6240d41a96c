// Run on purpose by the consumer check (`jest --roots <rootDir>/miss`), never by the other steps: an app
// whose prompt changed after it was recorded (the recording is the Vitest project's miss/ one, "in one
// line"). The test must fail with one clear block, without the SDK's error and its causes repeating it.
import { expect, test } from '@jest/globals'
import OpenAI from 'openai'

const client = new OpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'replay-without-a-key' })

test('a prompt changed since it was recorded', async () => {
  const completion = await client.chat.completions.create({
    model: 'gpt-4.1-mini',
    temperature: 0,
    messages: [{ role: 'user', content: 'Summarize this ticket in one sentence: the parcel arrived damaged.' }],
  })
  expect(completion.choices[0]?.message.content).toBeTruthy()
})
