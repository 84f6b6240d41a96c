// The agent checks and task results of golden cases, without a model: order modes, empty expectations,
// partial arguments with asymmetric matchers, gates, usage errors and every new error message. The same
// checks on real SDK output are in agent-cases.replay.test.ts.
import { describe, expect, test } from 'vitest'
import { partialMatch } from '../../src/agents/expected.js'
import { turnByTurn } from '../../src/golden/conversation.js'
import { evaluate } from '../../src/golden/evaluate.js'
import { GoldenSuite } from '../../src/golden/suite.js'
import { escalateRun, refundRun } from '../helpers/trajectories.js'

const REQUEST = 'Please refund order A17, it arrived broken.'
const scoresOf = async (expectedTools: unknown, run: unknown, scorers?: Record<string, unknown>) => {
  const report = await evaluate([{ id: 'c', input: REQUEST, expectedTools: expectedTools as never }], { task: () => run, scorers: scorers as never })
  return report.cases[0]!.scores
}

describe('toolOrder mirrors toCallTools', () => {
  test("order 'any' accepts the calls in another order; 'in-order' says which call is out of order", async () => {
    const reversed = ['refundOrder', 'lookupOrder']
    expect((await scoresOf({ calls: reversed, order: 'any' }, refundRun())).toolOrder).toMatchObject({ score: 1, pass: true })
    expect((await scoresOf(reversed, refundRun())).toolOrder).toMatchObject({
      score: 0,
      pass: false,
      detail: "expected call 2 lookupOrder(…): call 1 matches it, but not in the expected order ('in-order'); calls made: lookupOrder, refundOrder",
    })
  })

  test('a missing call and an extra call', async () => {
    expect((await scoresOf(['lookupOrder', 'refundOrder'], escalateRun())).toolOrder!.detail).toBe(
      'expected call 2 refundOrder(…) was not made; calls made: lookupOrder, escalate',
    )
    expect((await scoresOf({ calls: ['lookupOrder'], extra: 'forbid' }, refundRun())).toolOrder!.detail).toBe(
      `call 2 refundOrder({"orderId": "A17", "amount": 30}) is not an expected call (extra: 'forbid'); calls made: lookupOrder, refundOrder`,
    )
  })

  test('an empty list: the run must call no tool', async () => {
    const answerOnly = [
      { role: 'user', content: 'Thanks, bye!' },
      { role: 'assistant', content: 'Bye!' },
    ]
    expect(await scoresOf([], answerOnly)).toMatchObject({ toolF1: { score: 1 }, toolOrder: { score: 1, pass: true } })
    const scores = await scoresOf([], refundRun())
    expect(scores.toolF1!.score).toBe(0)
    expect(scores.toolOrder).toMatchObject({ score: 0, pass: false })
    expect(scores.toolArguments).toBeUndefined()
  })
})

describe('toolF1 and toolArguments', () => {
  test('partial arguments with asymmetric matchers (an in-memory dataset), at argument level', async () => {
    const expectedTools = [{ name: 'refundOrder', args: { amount: expect.any(Number), orderId: expect.stringMatching(/^A\d+$/) } }]
    const scores = await scoresOf(expectedTools, refundRun())
    // 1 of 2 calls matches the 1 expected call: P = 1/2, R = 1, F1 = 2/3.
    expect(scores.toolF1!.score).toBeCloseTo(2 / 3, 12)
    expect(scores.toolArguments).toMatchObject({ score: 1, pass: true })
  })

  test('a JSON Schema as the expected arguments', async () => {
    const args = { type: 'object', properties: { amount: { type: 'number', maximum: 20 } }, required: ['amount'] }
    const scores = await scoresOf([{ name: 'refundOrder', args }], refundRun())
    expect(scores.toolArguments).toMatchObject({ score: 0, pass: false })
    expect(scores.toolArguments!.detail).toMatch(/^0\/1 right; refundOrder \(call 2\): \/amount: must be <= 20/)
  })

  test('partialMatch: toMatchObject semantics', () => {
    expect(partialMatch({ a: 1, b: { c: [1, 2], d: 'x' } }, { b: { c: [1, 2] } })).toBe(true)
    expect(partialMatch({ a: [1, 2, 3] }, { a: [1, 2] })).toBe(false)
    expect(partialMatch({ a: 1 }, { a: 1, b: undefined })).toBe(false)
    expect(partialMatch([{ a: 1, b: 2 }], [{ a: 1 }])).toBe(true)
    expect(partialMatch('30', 30)).toBe(false)
    expect(partialMatch(Number.NaN, Number.NaN)).toBe(true)
  })

  test('a threshold on toolF1 and a gate on its mean', async () => {
    const report = await evaluate(
      [
        { id: 'right', input: REQUEST, expectedTools: ['lookupOrder', 'refundOrder'] },
        { id: 'escalated', input: REQUEST, expectedTools: ['lookupOrder', 'refundOrder'] },
      ],
      { task: (_i, c) => (c.id === 'right' ? refundRun() : escalateRun()), scorers: { toolF1: { level: 'name' } }, thresholds: { mean: { toolF1: 0.9 } } },
    )
    expect(report.scorers.toolF1).toMatchObject({ count: 2, mean: 0.75 })
    expect(report.checks.find((c) => c.name === 'mean.toolF1')).toMatchObject({ ok: false })
  })
})

describe('what a task returns', () => {
  test('text only: the tool checks fail and say why', async () => {
    const scores = await scoresOf(['lookupOrder'], 'Done: refund R-100 is on its way.')
    expect(scores.toolOrder).toMatchObject({
      score: 0,
      pass: false,
      detail:
        'the task returned text only, so its tool calls cannot be seen: return what the SDK returned (the messages, the result or the steps), or { output, trajectory }',
    })
    expect(scores.toolF1).toMatchObject({ score: 0, pass: true })
  })

  test('an unknown shape, a TaskResult with a trajectory that cannot be read, an output that is not text', async () => {
    const errorOf = async (value: unknown) => (await evaluate([{ id: 'c', input: REQUEST }], { task: () => value })).cases[0]!.error
    expect(await errorOf({ answer: 'hi' })).toMatch(
      /^\[expect-llm\] Failed to run the golden task for case "c": it returned an object, which is neither text, a TaskResult nor a trajectory \(an object with keys answer is not a trajectory shape expect-llm knows\)\. Return the answer text, \{ output, trajectory\?, tools\?, context\?, retrieved\?, usage\?, latencyMs\? \}, or what your SDK returned for an agent \(an OpenAI chat completion/,
    )
    expect(await errorOf(42)).toMatch(/^\[expect-llm\] Failed to run the golden task for case "c": it returned a number \(42\)\. Return the answer text/)
    expect(await errorOf({ trajectory: { steps: 'x' } })).toMatch(
      /^\[expect-llm\] Failed to run the golden task for case "c": the "trajectory" it returned cannot be read: an object with keys steps is not a trajectory shape expect-llm knows\. Pass one of: /,
    )
    expect(await errorOf({ output: 42, trajectory: refundRun() })).toBe(
      '[expect-llm] Failed to run the golden task for case "c": it returned a result whose "output" is a number (42). Give "output" as the answer text.',
    )
  })

  test('a TaskResult with a trajectory: its output is the final answer unless given', async () => {
    const report = await evaluate([{ id: 'c', input: REQUEST, keywords: ['R-100'] }], { task: () => ({ trajectory: refundRun() }) })
    expect(report.cases[0]!.output).toBe('Done: refund R-100 of $30 for order A17 is on its way.')
    const given = await evaluate([{ id: 'c', input: REQUEST, keywords: ['R-100'] }], { task: () => ({ output: 'Refunded.', trajectory: refundRun() }) })
    expect(given.cases[0]!.output).toBe('Refunded.')
  })

  test('a run that ended on a tool result has no final answer', async () => {
    const report = await evaluate([{ id: 'c', input: REQUEST }], { task: () => refundRun().slice(0, 4) })
    expect(report.cases[0]!.output).toBe('')
  })
})

describe('usage errors', () => {
  test('toolF1.level and the tools of toolArguments', async () => {
    expect(() => new GoldenSuite('s', { dataset: [], task: () => '', scorers: { toolF1: { level: 'calls' as never } } })).toThrow(
      `[expect-llm] Failed to set up the golden scorers: toolF1.level must be 'name' or 'arguments', got a string ("calls"). Pass { level: 'name' } or { level: 'arguments' } (default).`,
    )
    const report = await evaluate([{ id: 'c', input: REQUEST, expectedTools: ['lookupOrder'] }], {
      task: () => refundRun(),
      scorers: { toolArguments: { tools: 42 } },
    })
    expect(report.cases[0]!.error).toMatch(
      /^scorer toolArguments failed: \[expect-llm\] Failed to score the golden case: the tools given to the toolArguments scorer cannot be read: the tools are a number \(42\)\. /,
    )
  })

  test('turnByTurn: its arguments, and a call outside a golden suite', async () => {
    expect(() => turnByTurn(42 as never)).toThrow(
      '[expect-llm] Failed to set up turnByTurn: the task must be a function (messages, case) => reply, got a number (42). Pass the function that answers one turn.',
    )
    expect(() => turnByTurn(() => '', { score: 'all' as never })).toThrow(
      `[expect-llm] Failed to set up turnByTurn: "score" must be 'last-turn' or 'conversation', got a string ("all"). Pass { score: 'last-turn' } (default) or { score: 'conversation' }.`,
    )
    expect(() => turnByTurn(() => '', { turns: 2 } as never)).toThrow(
      '[expect-llm] Failed to set up turnByTurn: unknown option "turns". The only option is score.',
    )
    expect(() => turnByTurn(() => '', 'x' as never)).toThrow(
      `[expect-llm] Failed to set up turnByTurn: the options must be an object, got a string ("x"). Pass for example { score: 'conversation' }.`,
    )
    await expect(async () => turnByTurn(() => '')('hi', {} as never)).rejects.toThrow(
      '[expect-llm] Failed to run a turnByTurn task: it was called outside a golden suite. Pass it as the task of describeGolden, compareGolden or evaluate.',
    )
  })

  test('turnByTurn on a case with an input: one user turn', async () => {
    const seen: unknown[] = []
    const report = await evaluate([{ id: 'c', input: 'Hello' }], {
      task: turnByTurn((messages) => {
        seen.push(messages)
        return 'Hi!'
      }),
    })
    expect(seen).toEqual([[{ role: 'user', content: 'Hello' }]])
    expect(report.cases[0]!.output).toBe('Hi!')
  })
})

describe('goal', () => {
  test('does not score a case without criteria, and only runs when listed', async () => {
    const report = await evaluate([{ id: 'c', input: REQUEST, expectedTools: ['lookupOrder'] }], { task: () => refundRun(), scorers: { goal: true } })
    expect(Object.keys(report.cases[0]!.scores)).toEqual(['toolF1', 'toolOrder'])
  })
})
