// The OpenAI client the tests give the bot. It calls the real API's default base URL: in replay mode
// (the default, and always in CI) expect-llm answers every request from __llm_fixtures__ and nothing
// reaches the network, so no key is needed; recording needs OPENAI_API_KEY.
import OpenAI from 'openai'

export function testClient(): OpenAI {
  // The SDK refuses to start without a key; on replay any placeholder will do (it is never sent anywhere).
  return new OpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'replay-without-a-key', maxRetries: 0 })
}

/** The golden dataset, as a path (describeGolden reads .jsonl, .json, .yaml and .csv). */
export const dataset = new URL('../golden/support-bot.jsonl', import.meta.url)
