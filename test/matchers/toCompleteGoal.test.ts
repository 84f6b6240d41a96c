import { afterEach, describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toCompleteGoal.js'
import { resetConfig } from '../../src/config.js'
import { asyncFailureMessage, fixedJudge, sampledJudge } from '../helpers/model-fakes.js'
import { escalateRun, refundRun } from '../helpers/trajectories.js'

expect.extend(matcher)

afterEach(() => resetConfig())

const goal = 'Refund order A17 in full and tell the customer the refund id'

describe('.toCompleteGoal', () => {
  test('passes when the judge finds the goal achieved', async () => {
    await expect(refundRun()).toCompleteGoal(goal, { judge: fixedJudge(1) })
  })

  test('shows the judge the goal and the whole run: user message, calls with arguments, results and answers', async () => {
    const judge = fixedJudge(1)
    await expect(refundRun()).toCompleteGoal(goal, { judge })
    expect(judge.requests[0]).toMatchObject({ template: 'goal', criteria: goal, scale: 'binary' })
    expect(judge.requests[0]?.output).toBe(
      [
        '[user] Please refund order A17, it arrived broken.',
        '[assistant, step 1] called lookupOrder({"orderId": "A17"})',
        '[tool result, lookupOrder] {"orderId":"A17","status":"delivered","total":30}',
        '[assistant, step 2] Order A17 was delivered; refunding it.',
        '[assistant, step 2] called refundOrder({"orderId": "A17", "amount": 30})',
        '[tool result, refundOrder] {"orderId":"A17","amount":30,"refundId":"R-100"}',
        '[assistant, step 3] Done: refund R-100 of $30 for order A17 is on its way.',
      ].join('\n'),
    )
    expect(judge.requests[0]?.prompt).toContain(`<goal>\n${goal}\n</goal>`)
    expect(judge.requests[0]?.prompt).toContain('Saying that something was done is not doing it.')
  })

  test('fails when the judge finds the goal not achieved, with its reasoning and the run', async () => {
    const judge = fixedJudge(0, 'The agent escalated instead of refunding; no refundOrder call was made.')
    expect(await asyncFailureMessage(expect(escalateRun()).toCompleteGoal(goal, { judge }))).toMatchInlineSnapshot(`
      "expect(trajectory).toCompleteGoal(goal, options)

      Expected goal score: >= 0.7
      Received goal score:    0 (FAIL, judge fake-judge)

      Judge's reasoning: "The agent escalated instead of refunding; no refundOrder call was made."

      Goal: "Refund order A17 in full and tell the customer the refund id"

      Trajectory:
          user: "Please refund order A17, it arrived broken."
          step 1  call lookupOrder({"orderId": "A17"})
                  result lookupOrder → {"orderId": "A17", "status": "delivered", "total": 30}
          step 2  call escalate({"reason": "refund request"})
                  result escalate → {"ticket": "T-9"}
          step 3  "I passed your request to a colleague (ticket T-9).""
    `)
  })

  test('fails when most samples find the goal not achieved', async () => {
    const message = await asyncFailureMessage(expect(refundRun()).toCompleteGoal(goal, { samples: 3, judge: sampledJudge([1, 0, 0]) }))
    expect(message).toContain('Samples: 3, 1 passed (agreement 67%, majority FAIL); scores 1, 0, 0')
  })

  test('fails with the model error when the judge call fails, under .not too', async () => {
    const judge = { name: 'broken', evaluate: async () => Promise.reject(new Error('429 rate limited')) }
    await expect(expect(refundRun()).not.toCompleteGoal(goal, { judge })).rejects.toThrow('429 rate limited')
  })
})

describe('.not.toCompleteGoal', () => {
  test('passes when the judge finds the goal not achieved', async () => {
    await expect(escalateRun()).not.toCompleteGoal(goal, { judge: fixedJudge(0) })
  })

  test('fails when the judge finds the goal achieved', async () => {
    const message = await asyncFailureMessage(expect(refundRun()).not.toCompleteGoal(goal, { judge: fixedJudge(1, 'Refunded and confirmed.') }))
    expect(message.split('\n').slice(0, 4)).toEqual([
      'expect(trajectory).not.toCompleteGoal(goal, options)',
      '',
      'Expected goal score: < 0.7',
      'Received goal score:   1 (PASS, judge fake-judge)',
    ])
  })
})

describe('toCompleteGoal usage errors', () => {
  test('rejects a missing goal', async () => {
    await expect((expect(refundRun()).toCompleteGoal as (...args: unknown[]) => Promise<void>)()).rejects.toThrow(
      "[expect-llm] Failed to run toCompleteGoal: the goal must be a non-empty string, got undefined. Describe what the run must achieve, e.g. 'Refund order A17 and tell the customer the refund id'.",
    )
  })

  test('rejects a blank goal before any model call', async () => {
    const judge = fixedJudge(1)
    expect(await asyncFailureMessage(expect(refundRun()).toCompleteGoal(' \t', { judge }))).toBe(
      'expect(trajectory).toCompleteGoal(goal, options)\n\n[expect-llm] Failed to run toCompleteGoal: the goal must be a non-empty string, got a string (" \\t"). ' +
        "Describe what the run must achieve, e.g. 'Refund order A17 and tell the customer the refund id'.",
    )
    expect(judge.requests).toHaveLength(0)
  })

  test('rejects a value that is not a trajectory, before any model call', async () => {
    const judge = fixedJudge(1)
    await expect(expect('I refunded it.').toCompleteGoal(goal, { judge })).rejects.toThrow(
      'Failed to run toCompleteGoal: a string ("I refunded it.") is not a trajectory shape expect-llm knows.',
    )
    expect(judge.requests).toHaveLength(0)
  })

  test('rejects an empty trajectory', async () => {
    await expect(expect([]).toCompleteGoal(goal, { judge: fixedJudge(1) })).rejects.toThrow('the trajectory is empty, so there is nothing to judge.')
  })

  test('rejects an empty trajectory with the fix, and without options the hint has no options argument', async () => {
    expect(await asyncFailureMessage(expect([]).toCompleteGoal(goal))).toBe(
      'expect(trajectory).toCompleteGoal(goal)\n\n[expect-llm] Failed to run toCompleteGoal: the trajectory is empty, so there is nothing to judge. Pass the run: the messages, the result or the steps of the agent loop.',
    )
  })

  test('rejects an unknown option and a threshold outside [0, 1]', async () => {
    await expect(expect(refundRun()).toCompleteGoal(goal, { criteria: 'x' } as never)).rejects.toThrow(
      'unknown option "criteria". Valid options are: threshold, judge, samples.',
    )
    await expect(expect(refundRun()).toCompleteGoal(goal, { threshold: 7, judge: fixedJudge(1) })).rejects.toThrow(
      'the threshold must be a number from 0 to 1, got 7.',
    )
  })
})
