// Golden agent and multi-turn cases (issue 12): the tool checks (toolF1, toolOrder, toolArguments), the
// goal judge and turn-by-turn conversations, scored on what real SDKs return (openai chat, Anthropic, the
// AI SDK) from agent loops against the scripted models of test/helpers/golden-agent.ts, replayed from
// committed recordings with no server running (the clients point at a closed port on 127.0.0.1).
//
// Recorded with
//   EXPECT_LLM_REPLAY=record npx vitest run test/golden/agent-cases.replay.test.ts
import Anthropic from '@anthropic-ai/sdk'
import { createOpenAI } from '@ai-sdk/openai'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import OpenAI from 'openai'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { configure, resetConfig } from '../../src/config.js'
import { turnByTurn } from '../../src/golden/conversation.js'
import { evaluate } from '../../src/golden/evaluate.js'
import type { GoldenCaseInput } from '../../src/golden/types.js'
import { resetLedger } from '../../src/ledger.js'
import { anthropicTools, openaiChatTools, REQUEST } from '../helpers/agent-model.js'
import { aiSdkAgent, anthropicAgent, chatAgent, chatBot, goldenAgentScript } from '../helpers/golden-agent.js'
import { isRecording, replayRecordings, type RecordedReplay } from '../helpers/model-server.js'

const recording = isRecording()

let recorded: RecordedReplay
let openai: OpenAI
let anthropic: Anthropic
let provider: ReturnType<typeof createOpenAI>

beforeAll(async () => {
  recorded = await replayRecordings(import.meta.url, goldenAgentScript)
  const { origin } = recorded
  openai = new OpenAI({ baseURL: `${origin}/v1`, apiKey: 'test-key', maxRetries: 0 })
  anthropic = new Anthropic({ baseURL: origin, apiKey: 'test-key', maxRetries: 0 })
  provider = createOpenAI({ baseURL: `${origin}/v1`, apiKey: 'test-key' })
  configure({ judge: { client: openai, model: 'judge-model' } })
})

afterEach(() => recorded.replay.assertNoProblems())

afterAll(async () => {
  await recorded.close()
  resetConfig()
  resetLedger()
})

/** The refund case: look the order up, then refund its $30, in this order. */
const refundCase: GoldenCaseInput = {
  id: 'refund',
  input: REQUEST,
  expectedTools: {
    calls: [
      { name: 'lookupOrder', args: { orderId: 'A17' } },
      { name: 'refundOrder', args: { amount: 30 } },
    ],
    order: 'strict',
  },
  keywords: ['R-100'],
}

const SDKS = [
  { sdk: 'openai chat', run: (model: string) => chatAgent(openai, REQUEST, model) },
  { sdk: 'Anthropic', run: (model: string) => anthropicAgent(anthropic, REQUEST, model) },
  { sdk: 'AI SDK', run: (model: string) => aiSdkAgent(provider.chat(model), REQUEST) },
] as const

describe('tool checks on what the SDKs return', () => {
  test.for(SDKS)('a right run scores 1 on every tool check, and the text checks read its final answer ($sdk)', async ({ run }) => {
    const report = await evaluate([refundCase], { task: () => run('gpt-4.1-mini') })
    expect(report.ok, report.failures.join('\n')).toBe(true)
    const c = report.cases[0]!
    expect(c.output).toBe('Done: refund R-100 of $30 for order A17 is on its way.')
    expect(Object.fromEntries(Object.entries(c.scores).map(([k, s]) => [k, s.score]))).toEqual({ keywords: 1, toolF1: 1, toolOrder: 1, toolArguments: 1 })
  })

  test.for(SDKS)('a sloppy run: F1 by hand at both levels, order and arguments fail with the reason ($sdk)', async ({ run }) => {
    // Expected: lookupOrder(A17), refundOrder(amount 30), escalate. Made: refundOrder(amount -25), lookupOrder(A17).
    // Name level: 2 of 2 calls match, 2 of 3 expected are found: P = 1, R = 2/3, F1 = 2·(2/3)/(5/3) = 0.8.
    // Argument level: only lookupOrder matches: P = 1/2, R = 1/3, F1 = 2·(1/6)/(5/6) = 0.4.
    const expectedTools = [{ name: 'lookupOrder', args: { orderId: 'A17' } }, { name: 'refundOrder', args: { amount: 30 } }, 'escalate']
    const report = await evaluate([{ id: 'sloppy', input: REQUEST, expectedTools }], {
      task: () => run('sloppy-agent'),
      scorers: { 'toolF1:names': { level: 'name' }, toolF1: true },
    })
    const scores = report.cases[0]!.scores
    expect(scores['toolF1:names']!.score).toBeCloseTo(0.8, 12)
    expect(scores.toolF1!.score).toBeCloseTo(0.4, 12)
    expect(scores.toolF1!.detail).toBe('precision 0.5 (1/2), recall 0.333 (1/3); missing refundOrder({"amount": 30}), escalate(…); unexpected refundOrder')
    expect(scores.toolOrder).toMatchObject({
      score: 0,
      pass: false,
      detail:
        'expected call 2 refundOrder({"amount": 30}): call 1 has other arguments (/amount: expected 30, received -25); calls made: refundOrder, lookupOrder',
    })
    // lookupOrder's arguments are right, refundOrder's are not: 1 of 2.
    expect(scores.toolArguments).toMatchObject({ score: 0.5, pass: false, detail: '1/2 right; refundOrder (call 1): /amount: expected 30, received -25' })
    expect(report.cases[0]!.output).toBe('I refunded $25 for order A17.')
    expect(report.ok).toBe(false)
  })
})

describe('the goal judge over the whole run', () => {
  test('passes the right run and fails the sloppy one, with the reasoning', async () => {
    const report = await evaluate(
      [
        { id: 'right', input: REQUEST, criteria: 'Refund order A17 in full and tell the customer the refund id' },
        { id: 'sloppy', input: REQUEST, criteria: 'Refund order A17 in full and tell the customer the refund id' },
      ],
      { task: (_input, c) => chatAgent(openai, REQUEST, c.id === 'right' ? 'gpt-4.1-mini' : 'sloppy-agent'), scorers: { goal: true } },
    )
    const [right, sloppy] = report.cases
    // `goal` judges the case's criteria: no `judge` is added for them.
    expect(Object.keys(right!.scores)).toEqual(['goal'])
    expect(right!.scores.goal).toMatchObject({ score: 1, pass: true })
    expect(sloppy!.scores.goal).toMatchObject({
      score: 0,
      pass: false,
      detail: 'No refund of the full $30 for A17: the amount is wrong or the refund is missing.',
    })
  })
})

describe('toolArguments against the tools the request declared', () => {
  test.for([
    { sdk: 'openai chat', tools: openaiChatTools, run: () => chatAgent(openai, REQUEST, 'sloppy-agent') },
    { sdk: 'Anthropic', tools: anthropicTools, run: () => anthropicAgent(anthropic, REQUEST, 'sloppy-agent') },
  ])('every call is checked against its schema, with the expected arguments ($sdk)', async ({ tools, run }) => {
    const expectedTools = [
      { name: 'lookupOrder', args: { orderId: 'A17' } },
      { name: 'refundOrder', args: { amount: 30 } },
    ]
    const report = await evaluate([{ id: 'sloppy', input: REQUEST, expectedTools }], { task: async () => ({ trajectory: await run(), tools }) })
    // Expected arguments: lookupOrder right, refundOrder wrong. Schemas: refundOrder's amount must be > 0, lookupOrder is valid. 2 of 4.
    expect(report.cases[0]!.scores.toolArguments).toMatchObject({
      score: 0.5,
      pass: false,
      detail: '2/4 right; refundOrder (call 1): /amount: expected 30, received -25; call 1 refundOrder: /amount must be > 0, got -25',
    })
  })
})

describe('multi-turn conversations', () => {
  const remembers: GoldenCaseInput = {
    id: 'remembers-order',
    messages: [
      { role: 'system', content: 'You are a support bot.' },
      { role: 'user', content: 'Hi, my order is A17.' },
      { role: 'user', content: 'It has not arrived yet.' },
      { role: 'user', content: 'What was my order number again?' },
    ],
    keywords: ['A17'],
  }

  test('turn by turn: a bot that sends the conversation remembers the order number of turn 1; one that sends only the last message does not', async () => {
    const sent: string[][] = []
    const bot = (memory: boolean) =>
      turnByTurn(async (messages) => {
        sent.push(messages.map((m) => `${m.role}: ${m.content}`))
        return chatBot(openai, messages, memory)
      })
    const good = await evaluate([remembers], { task: bot(true) })
    expect(good.ok, good.failures.join('\n')).toBe(true)
    expect(good.cases[0]!.output).toBe('Your order number is A17.')
    // Each turn gets the conversation so far, the bot's own replies in it.
    expect(sent.at(-1)).toEqual([
      'system: You are a support bot.',
      'user: Hi, my order is A17.',
      'assistant: Noted, thank you.',
      'user: It has not arrived yet.',
      'assistant: Noted, thank you.',
      'user: What was my order number again?',
    ])
    const forgetful = await evaluate([remembers], { task: bot(false) })
    expect(forgetful.ok).toBe(false)
    expect(forgetful.cases[0]!.output).toBe('Sorry, I do not know your order number.')
    expect(forgetful.cases[0]!.scores.keywords).toMatchObject({ score: 0, pass: false, detail: 'missing "A17"' })
  })

  test("score: 'conversation' scores every reply: the bot's first answers count too", async () => {
    const report = await evaluate([{ ...remembers, keywords: ['Noted', 'A17'] }], {
      task: turnByTurn((messages) => chatBot(openai, messages, true), { score: 'conversation' }),
    })
    expect(report.cases[0]!.output).toBe('Noted, thank you.\nNoted, thank you.\nYour order number is A17.')
    expect(report.cases[0]!.scores.keywords!.score).toBe(1)
  })

  test('without turnByTurn the task gets the whole conversation once and answers its last message', async () => {
    const report = await evaluate([remembers], { task: (messages) => chatBot(openai, messages as never, true) })
    expect(report.ok, report.failures.join('\n')).toBe(true)
    expect(report.cases[0]!.input).toEqual(remembers.messages)
  })

  test('turn by turn with an agent: the tool checks score the tool calls of the last turn, or of every turn', async () => {
    const conversation: GoldenCaseInput = {
      id: 'two-refunds',
      messages: [
        { role: 'user', content: 'Please refund order A17, it arrived broken.' },
        { role: 'user', content: 'And order B22 too, please.' },
      ],
      expectedTools: ['lookupOrder', 'refundOrder'],
    }
    // Each turn runs the agent loop on that turn's request (the scripted agent reads the order id from it).
    const agent = (score: 'last-turn' | 'conversation') => turnByTurn((messages) => chatAgent(openai, messages.at(-1)!.content), { score })
    const last = await evaluate([conversation], { task: agent('last-turn') })
    expect(last.cases[0]!.scores.toolOrder).toMatchObject({ score: 1 })
    expect(last.cases[0]!.output).toBe('Done: refund R-100 of $30 for order B22 is on its way.')
    const whole = await evaluate([{ ...conversation, expectedTools: { calls: ['lookupOrder', 'refundOrder'], extra: 'forbid' } }], {
      task: agent('conversation'),
    })
    // Four calls over the two turns; two are extra: F1 = 2·(1/2·1)/(3/2) = 2/3.
    expect(whole.cases[0]!.scores.toolF1!.score).toBeCloseTo(2 / 3, 12)
    expect(whole.cases[0]!.scores.toolOrder).toMatchObject({
      score: 0,
      detail: `call 3 lookupOrder({"orderId": "B22"}) is not an expected call (extra: 'forbid'); calls made: lookupOrder, refundOrder, lookupOrder, refundOrder`,
    })
  })
})

describe('the captured runs the child golden suites use', () => {
  // fixtures/golden/agent-runs.json holds what the SDKs returned (written while recording); the Vitest and
  // Jest child suites (child/agents.golden.ts, agents.golden.test.mjs) return these runs from their tasks.
  const file = fileURLToPath(new URL('../../fixtures/golden/agent-runs.json', import.meta.url))
  test('are what the replayed SDK loops return', async () => {
    const runs = {
      right: await chatAgent(openai, REQUEST),
      sloppy: await chatAgent(openai, REQUEST, 'sloppy-agent'),
      anthropic: await anthropicAgent(anthropic, REQUEST),
    }
    if (recording) writeFileSync(file, `${JSON.stringify(runs, null, 2)}\n`)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(JSON.stringify(runs)))
  })
})
