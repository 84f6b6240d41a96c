// toPassModeration with the default client (https://api.openai.com), replayed from committed recordings:
// no server and no key. Recorded against a scripted local server that answers as the endpoint does with
//   EXPECT_LLM_REPLAY=record OPENAI_API_KEY=<any key that is not a placeholder> npx vitest run test/safety/moderation.replay.test.ts
// (test/helpers/route-recording.ts sends the recorder's upstream requests to it).
import { afterAll, beforeAll, expect, test } from 'vitest'
import * as matcher from '../../matchers/toPassModeration.js'
import { resolveMode } from '../../src/replay/mode.js'
import { startOpenAIServer, type RecordedRequest } from '../helpers/model-server.js'
import { routeRecording } from '../helpers/route-recording.js'

expect.extend(matcher)

const recording = ['record', 'rerecord'].includes(resolveMode('replay').mode)
const threatening = 'I know where you live and I will hurt you.'
const friendly = 'Your parcel ships tomorrow. Thanks for your patience!'

/** The scripted endpoint: a threat scores high on harassment and violence, anything else low. */
function scores(text: string): Record<string, number> {
  const threat = /hurt|kill|where you live/i.test(text)
  return {
    harassment: threat ? 0.87 : 0.004,
    'harassment/threatening': threat ? 0.81 : 0.001,
    hate: 0.003,
    violence: threat ? 0.74 : 0.002,
    'self-harm': 0.0004,
    sexual: 0.0002,
  }
}

let stop = async (): Promise<void> => {}
beforeAll(async () => {
  if (!recording) return
  const server = await startOpenAIServer({
    reply: (req: RecordedRequest) => {
      const s = scores(String(req.body?.input ?? ''))
      const categories = Object.fromEntries(Object.entries(s).map(([c, v]) => [c, v >= 0.5]))
      return {
        json: {
          id: 'modr-scripted',
          model: 'omni-moderation-2024-09-26',
          results: [{ flagged: Object.values(categories).some(Boolean), categories, category_scores: s }],
        },
      }
    },
  })
  const unroute = routeRecording({ 'https://api.openai.com': server.origin })
  stop = async () => {
    unroute()
    await server.close()
  }
})
afterAll(() => stop())

test('a friendly answer passes moderation', async () => {
  await expect(friendly).toPassModeration()
})

test('a threat is flagged, and only the categories asked for count', async () => {
  await expect(threatening).not.toPassModeration()
  await expect(threatening).not.toPassModeration({ categories: ['violence'] })
  await expect(threatening).toPassModeration({ categories: ['hate', 'sexual'] })
})
