// openAIJudge (src/judges/openai.ts) with the client it is given, recording what it passes to
// `chat.completions.create`: the output-token limit's name by host. No request leaves the process; the
// HTTP side against local servers is covered by openai-judge.test.ts.
import { describe, expect, test } from 'vitest'
import { openAIJudge } from '../../src/judges/openai.js'
import type { JudgeRequest } from '../../src/judges/types.js'

const request = { prompt: 'Is the answer right?', template: 'custom', scale: 'binary', output: 'x', sample: 0 } as JudgeRequest

/** A client at `baseURL` as the judge sees it, recording each request body. */
function recordingClient(baseURL: string) {
  const bodies: Array<Record<string, unknown>> = []
  const client = {
    baseURL,
    maxRetries: 0,
    chat: {
      completions: {
        create: async (body: Record<string, unknown>) => {
          bodies.push(body)
          return { model: 'gpt-4.1-mini', choices: [{ message: { content: '{"reasoning": "Right.", "score": 1}' } }] }
        },
      },
    },
  }
  return { client: client as never, bodies }
}

describe('the output-token limit', () => {
  test.each([
    ['https://api.openai.com', 'max_completion_tokens'],
    ['https://api.openai.com/v1', 'max_completion_tokens'],
    ['http://127.0.0.1:11434/v1', 'max_tokens'],
    // A local proxy whose path names OpenAI's URL is still a local server.
    ['http://127.0.0.1:8080/forward/https://api.openai.com/v1', 'max_tokens'],
  ])('at %s is %s', async (baseURL, key) => {
    const { client, bodies } = recordingClient(baseURL)
    await openAIJudge({ client, maxTokens: 300 }).evaluate(request)
    expect(bodies[0]?.[key]).toBe(300)
    expect(Object.keys(bodies[0] ?? {}).filter((k) => k.startsWith('max_'))).toEqual([key])
  })

  test('none is sent when maxTokens is not set', async () => {
    const { client, bodies } = recordingClient('http://127.0.0.1:11434/v1')
    await openAIJudge({ client }).evaluate(request)
    expect(Object.keys(bodies[0] ?? {}).filter((k) => k.startsWith('max_'))).toEqual([])
  })
})
