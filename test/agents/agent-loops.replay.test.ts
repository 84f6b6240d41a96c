// Real multi-step agent loops (the model asks for a tool, the test's tool runs, its result goes back, the
// model answers) with the openai SDK, the Vercel AI SDK and the Anthropic SDK, streaming and not, replayed
// from committed recordings with no server running: every client points at a closed port on 127.0.0.1
// (the replay `hosts` include that origin), so a request that is not answered from a fixture fails to
// connect instead of reaching any network.
//
// Recorded against the scripted tool-calling model (test/helpers/agent-model.ts on the local server of
// test/helpers/openai-server.ts) with
//   EXPECT_LLM_REPLAY=record npx vitest run test/agents/agent-loops.replay.test.ts
// which starts the server and records what is missing into __llm_fixtures__/agent-loops.replay.test.ts/,
// keyed under RECORDED_ORIGIN so that the server's ephemeral port does not matter.
import Anthropic from '@anthropic-ai/sdk'
import { createOpenAI } from '@ai-sdk/openai'
import OpenAI from 'openai'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { readTrajectory } from '../../src/agents/read.js'
import {
  agentReply,
  aiSdkLoop,
  aiSdkTools,
  anthropicLoop,
  anthropicTools,
  openaiChatLoop,
  openaiChatTools,
  openaiResponsesLoop,
  openaiResponsesTools,
} from '../helpers/agent-model.js'
import { isRecording, replayRecordings, type RecordedReplay } from '../helpers/model-server.js'

const recording = isRecording()

let recorded: RecordedReplay
let openai: OpenAI
let anthropic: Anthropic
let provider: ReturnType<typeof createOpenAI>

beforeAll(async () => {
  recorded = await replayRecordings(import.meta.url, agentReply)
  const { origin } = recorded
  openai = new OpenAI({ baseURL: `${origin}/v1`, apiKey: 'test-key', maxRetries: 0 })
  anthropic = new Anthropic({ baseURL: origin, apiKey: 'test-key', maxRetries: 0 })
  provider = createOpenAI({ baseURL: `${origin}/v1`, apiKey: 'test-key' })
})

afterEach(() => recorded.replay.assertNoProblems())

afterAll(() => recorded.close())

/** The checks every loop must pass, whatever the SDK: the same run, step for step. */
function expectRefundRun(run: unknown, tools: unknown[] | Record<string, unknown>): void {
  expect(run).toCallTools(
    [
      { name: 'lookupOrder', args: { orderId: 'A17' } },
      { name: 'refundOrder', args: { orderId: 'A17', amount: 30 } },
    ],
    { order: 'strict', extra: 'forbid' },
  )
  expect(run).toHaveValidToolArguments(tools)
  expect(run).toUseAtMostSteps(3, { repeatedCalls: 'forbid' })
  const items = readTrajectory(run).items
  expect(items.at(-1)).toMatchObject({ type: 'text', text: 'Done: refund R-100 of $30 for order A17 is on its way.', step: 2 })
}

describe('agent loops replayed offline', () => {
  test.for([{ stream: false }, { stream: true }])('openai SDK, chat completions (stream: $stream)', async ({ stream }) => {
    expectRefundRun(await openaiChatLoop(openai, { stream }), openaiChatTools)
  })

  test.for([{ stream: false }, { stream: true }])('openai SDK, Responses API (stream: $stream)', async ({ stream }) => {
    const { input } = await openaiResponsesLoop(openai, { stream })
    expectRefundRun(input, openaiResponsesTools)
  })

  test.for([{ stream: false }, { stream: true }])(
    'AI SDK generateText / streamText with tools that execute, chat model (stream: $stream)',
    async ({ stream }) => {
      const { steps, text } = await aiSdkLoop(provider.chat('gpt-4.1-mini'), { stream })
      expect(steps).toHaveLength(3)
      expect(text).toBe('Done: refund R-100 of $30 for order A17 is on its way.')
      expectRefundRun(steps, aiSdkTools())
    },
  )

  test('AI SDK generateText, Responses model', async () => {
    const { result } = await aiSdkLoop(provider('gpt-4.1-mini'))
    expectRefundRun(result, aiSdkTools())
  })

  test.for([{ stream: false }, { stream: true }])('Anthropic SDK, messages (stream: $stream)', async ({ stream }) => {
    expectRefundRun(await anthropicLoop(anthropic, { stream }), anthropicTools)
  })

  test('the same loop replays to the same trajectory every time', async () => {
    const first = readTrajectory(await openaiChatLoop(openai))
    const second = readTrajectory(await openaiChatLoop(openai))
    expect(second).toEqual(first)
  })
})

describe('a changed tool result in replay', () => {
  // Recording would record the changed request instead of missing it.
  test.skipIf(recording).for([
    { sdk: 'openai chat', path: '/body/messages/4/content', where: 'messages[4]', run: () => openaiChatLoop(openai, { refundId: 'R-999' }) },
    {
      sdk: 'Anthropic',
      path: '/body/messages/4/content/0/content',
      where: 'messages[4].content[0]',
      run: () => anthropicLoop(anthropic, { refundId: 'R-999' }),
    },
    { sdk: 'AI SDK', path: '/body/messages/4/content', where: 'messages[4]', run: () => aiSdkLoop(provider.chat('gpt-4.1-mini'), { refundId: 'R-999' }) },
  ])('is a miss whose diff points at the tool message and names the tool ($sdk)', async ({ path, where, run }) => {
    await expect(run()).rejects.toThrow()
    const problems = recorded.replay.takeProblems()
    expect(problems).toHaveLength(1)
    const message = problems[0]!.message
    expect(message).toContain('no fixture matches this request, and mode "replay" never calls the network')
    expect(message).toContain(`differs at 1 path(s):\n    ${path}\n`)
    expect(message).toMatch(/- recorded: .*R-100/)
    expect(message).toMatch(/\+ actual: {3}.*R-999/)
    expect(message).toMatch(
      new RegExp(
        `\\n  Hint: ${where.replace(/[[\].]/g, '\\$&')} is the result of the tool refundOrder \\(call [\\w-]+\\), and it differs from the recording: the tool returned something else this time\\.`,
      ),
    )
  })
})
