// runTask on turnByTurn tasks (src/golden/conversation.ts): what each turn is sent, how the turns' outputs,
// usage, latency and trajectories combine into the run the checks score, and the trajectory helpers
// (finalText, lastTurn) on hand-made trajectories.
import { describe, expect, test } from 'vitest'
import type { Trajectory } from '../../src/agents/types.js'
import { finalText, lastTurn, readTaskResult, runTask, TaskReturnError, turnByTurn } from '../../src/golden/conversation.js'
import type { GoldenCase } from '../../src/golden/types.js'

const conversation: GoldenCase = {
  id: 'c',
  input: null,
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'My order is A17.' },
    { role: 'assistant', content: 'Noted (from the dataset).' },
    { role: 'user', content: 'Which order?' },
  ],
}
conversation.input = conversation.messages

/** A plain trajectory of one turn: the user message, then a tool call and the reply in step 0 and 1. */
const agentTurn = (user: string, reply: string): Trajectory => ({
  source: 'plain',
  items: [
    { type: 'user', text: user },
    { type: 'tool-call', name: 'lookup', arguments: { q: user }, step: 0 },
    { type: 'tool-result', result: 'ok', name: 'lookup' },
    { type: 'text', text: reply, step: 1 },
  ],
  steps: 2,
})

describe('turnByTurn', () => {
  test('every unknown option is named', () => {
    expect(() => turnByTurn(() => '', { turns: 2, mode: 'x' } as never)).toThrow(
      '[expect-llm] Failed to set up turnByTurn: unknown option "turns", "mode". The only option is score.',
    )
  })

  test('each user turn gets the system messages, the earlier user turns and the task replies (not the dataset replies), as copies', async () => {
    const seen: unknown[] = []
    let n = 0
    const task = turnByTurn((messages) => {
      seen.push(structuredClone(messages))
      messages.push({ role: 'user', content: 'mutated by the task' })
      return `reply ${++n}`
    })
    const run = await runTask(task, conversation)
    expect(seen).toEqual([
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'My order is A17.' },
      ],
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'My order is A17.' },
        { role: 'assistant', content: 'reply 1' },
        { role: 'user', content: 'Which order?' },
      ],
    ])
    expect(run).toEqual({ result: { output: 'reply 2' } })
  })

  test("score: 'conversation' scores every reply, one per line", async () => {
    let n = 0
    const run = await runTask(
      turnByTurn(() => `reply ${++n}`, { score: 'conversation' }),
      conversation,
    )
    expect(run.result.output).toBe('reply 1\nreply 2')
  })

  test('an object input is one user turn, sent as JSON', async () => {
    const seen: unknown[] = []
    await runTask(
      turnByTurn((messages) => {
        seen.push(messages)
        return 'ok'
      }),
      { id: 'o', input: { question: 'hi' } },
    )
    expect(seen).toEqual([[{ role: 'user', content: '{"question":"hi"}' }]])
  })

  test("the task's usage is summed over the turns (model of the last turn) only when every turn reports it", async () => {
    let n = 0
    const reported = await runTask(
      turnByTurn(() => ({ output: `r${++n}`, usage: { inputTokens: 10 * n, outputTokens: n === 1 ? undefined : 3, model: `m${n}` } })),
      conversation,
    )
    expect(reported.result).toEqual({ output: 'r2', usage: { inputTokens: 30, outputTokens: 3, model: 'm2' } })
    let k = 0
    const partial = await runTask(
      turnByTurn(() => (++k === 1 ? { output: 'a', usage: { inputTokens: 5 } } : 'b')),
      conversation,
    )
    expect(partial.result).toStrictEqual({ output: 'b' })
    let j = 0
    const noModel = await runTask(
      turnByTurn(() => ({ output: `x${++j}`, usage: { inputTokens: 1, outputTokens: 1 } })),
      conversation,
    )
    expect(noModel.result.usage).toEqual({ inputTokens: 2, outputTokens: 2 })
  })

  test("the turns' latencies are summed only when every turn gives one", async () => {
    const all = await runTask(
      turnByTurn(() => ({ output: 'a', latencyMs: 40 })),
      conversation,
    )
    expect(all.result.latencyMs).toBe(80)
    let n = 0
    const some = await runTask(
      turnByTurn(() => (++n === 2 ? { output: 'b', latencyMs: 40 } : 'a')),
      conversation,
    )
    expect(some.result).toEqual({ output: 'b' })
  })

  test('agent turns: the last turn by default, or every turn with its user message and steps numbered across turns', async () => {
    let n = 0
    const replies = ['A17 noted.', 'Order A17.']
    const agent = (score: 'last-turn' | 'conversation') => turnByTurn((messages) => agentTurn(messages.at(-1)!.content, replies[n++ % 2]!), { score })
    const last = await runTask(agent('last-turn'), conversation)
    expect(last.result.output).toBe('Order A17.')
    expect(last.trajectory).toEqual({ ...agentTurn('Which order?', 'Order A17.'), steps: 2 })
    const whole = await runTask(agent('conversation'), conversation)
    expect(whole.result.output).toBe('A17 noted.\nOrder A17.')
    expect(whole.trajectory).toEqual({
      source: 'plain',
      items: [
        { type: 'user', text: 'My order is A17.' },
        { type: 'tool-call', name: 'lookup', arguments: { q: 'My order is A17.' }, step: 0 },
        { type: 'tool-result', result: 'ok', name: 'lookup' },
        { type: 'text', text: 'A17 noted.', step: 1 },
        { type: 'user', text: 'Which order?' },
        { type: 'tool-call', name: 'lookup', arguments: { q: 'Which order?' }, step: 2 },
        { type: 'tool-result', result: 'ok', name: 'lookup' },
        { type: 'text', text: 'Order A17.', step: 3 },
      ],
      steps: 4,
    })
  })

  test('a text turn among agent turns becomes its user message and one step of text; an empty reply adds no text', async () => {
    let n = 0
    const run = await runTask(
      turnByTurn(() => (n++ === 0 ? '' : agentTurn('ignored', 'done')), { score: 'conversation' }),
      conversation,
    )
    // The empty first turn is its user message alone and counts one step; the agent turn keeps its own user item.
    expect(run.trajectory!.items.slice(0, 3)).toEqual([
      { type: 'user', text: 'My order is A17.' },
      { type: 'user', text: 'ignored' },
      { type: 'tool-call', name: 'lookup', arguments: { q: 'ignored' }, step: 1 },
    ])
    expect(run.trajectory!.steps).toBe(3)
    let k = 0
    const texts = await runTask(
      turnByTurn(() => (k++ === 0 ? 'first' : agentTurn('q', 'second')), { score: 'conversation' }),
      conversation,
    )
    expect(texts.trajectory!.items.slice(0, 3)).toEqual([
      { type: 'user', text: 'My order is A17.' },
      { type: 'text', text: 'first', step: 0 },
      { type: 'user', text: 'q' },
    ])
  })
  test('the joined turns keep the source of the first agent turn', async () => {
    let n = 0
    const run = await runTask(
      turnByTurn(() => (n++ === 0 ? 'first' : { ...agentTurn('q', 'second'), source: 'anthropic' }), { score: 'conversation' }),
      conversation,
    )
    expect(run.trajectory!.source).toBe('anthropic')
  })
})

describe('a plain task', () => {
  test('gets the input and the case; an agent result is cut to its last turn', async () => {
    const seen: unknown[] = []
    const run = await runTask(
      (input, c) => {
        seen.push([input, c.id])
        return {
          source: 'plain',
          items: [
            { type: 'user', text: 'first' },
            { type: 'text', text: 'one', step: 0 },
            { type: 'user', text: 'second' },
            { type: 'text', text: 'two', step: 1 },
          ],
          steps: 2,
        } satisfies Trajectory
      },
      { id: 'p', input: 'q' },
    )
    expect(seen).toEqual([['q', 'p']])
    expect(run.result.output).toBe('two')
    expect(run.trajectory).toEqual({
      source: 'plain',
      items: [
        { type: 'user', text: 'second' },
        { type: 'text', text: 'two', step: 0 },
      ],
      steps: 1,
    })
  })

  test('a TaskResult made by a class (its prototype not Object) is read as one when it is not a trajectory', () => {
    class Reply {
      output = 'hi'
    }
    const given = new Reply()
    expect(readTaskResult(given, { id: 'a', input: 'q' })).toEqual({ result: given })
  })

  test('a plain object with an output is a TaskResult even when it also reads as a trajectory (a spread SDK result)', () => {
    const given = {
      output: 'from output',
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'from messages' },
      ],
    }
    expect(readTaskResult(given, { id: 'a', input: 'q' })).toEqual({ result: given })
  })

  test('an object without a prototype with an output is a TaskResult even when it also reads as a trajectory', () => {
    const given = Object.assign(Object.create(null) as Record<string, unknown>, {
      output: 'from output',
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'from messages' },
      ],
    })
    expect(readTaskResult(given, { id: 'a', input: 'q' })).toEqual({ result: given })
  })

  test('a return value that cannot be read is a TaskReturnError', () => {
    let error: unknown
    try {
      readTaskResult(42, { id: 'a', input: 'q' })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(TaskReturnError)
    expect((error as Error).name).toBe('TaskReturnError')
  })

  test('an error thrown while reading the returned value (a getter) propagates as it is', () => {
    const boom = new Error('steps not loaded')
    const value = {
      get steps(): unknown {
        throw boom
      },
    }
    let thrown: unknown
    try {
      readTaskResult(value, { id: 'a', input: 'q' })
    } catch (e) {
      thrown = e
    }
    expect(thrown).toBe(boom)
  })

  test('an error thrown while reading the returned trajectory (a getter) propagates as it is', () => {
    const boom = new Error('steps not loaded')
    const trajectory = {
      get steps(): unknown {
        throw boom
      },
    }
    let thrown: unknown
    try {
      readTaskResult({ output: 'x', trajectory }, { id: 'a', input: 'q' })
    } catch (e) {
      thrown = e
    }
    expect(thrown).toBe(boom)
  })

  test('a TaskResult without a trajectory is kept as it is', () => {
    const given = { output: 'x', latencyMs: 5, context: ['c'] }
    expect(readTaskResult(given, { id: 'a', input: 'q' })).toEqual({ result: given })
  })
})

describe('trajectory helpers', () => {
  test('finalText: the text after the last user message or tool result, joined by lines', () => {
    expect(
      finalText({
        source: 'plain',
        items: [
          { type: 'text', text: 'before', step: 0 },
          { type: 'tool-result', result: 1 },
          { type: 'text', text: 'a', step: 1 },
          { type: 'text', text: 'b', step: 1 },
        ],
        steps: 2,
      }),
    ).toBe('a\nb')
    expect(finalText({ source: 'plain', items: [{ type: 'text', text: 'only', step: 0 }], steps: 1 })).toBe('only')
    expect(finalText({ source: 'plain', items: [{ type: 'user', text: 'q' }], steps: 0 })).toBe('')
  })

  test('finalText: the text before a final tool call, without a line for the call', () => {
    const t: Trajectory = {
      source: 'plain',
      items: [
        { type: 'user', text: 'q' },
        { type: 'text', text: 'Let me look.', step: 0 },
        { type: 'tool-call', name: 'lookup', arguments: {}, step: 0 },
      ],
      steps: 1,
    }
    expect(finalText(t)).toBe('Let me look.')
  })

  test('finalText: empty when the run ended on a tool call', () => {
    const t: Trajectory = {
      source: 'plain',
      items: [
        { type: 'user', text: 'q' },
        { type: 'tool-call', name: 'lookup', arguments: {}, step: 0 },
      ],
      steps: 1,
    }
    expect(finalText(t)).toBe('')
  })

  test('lastTurn: unchanged without a user message or when the only one is first', () => {
    const noUser: Trajectory = { source: 'plain', items: [{ type: 'text', text: 'a', step: 3 }], steps: 4 }
    expect(lastTurn(noUser)).toBe(noUser)
    const first: Trajectory = {
      source: 'plain',
      items: [
        { type: 'user', text: 'q' },
        { type: 'text', text: 'a', step: 0 },
      ],
      steps: 1,
    }
    expect(lastTurn(first)).toBe(first)
  })

  test('lastTurn: a last turn without steps has zero steps', () => {
    const t: Trajectory = {
      source: 'plain',
      items: [
        { type: 'user', text: 'q1' },
        { type: 'text', text: 'a', step: 0 },
        { type: 'user', text: 'q2' },
      ],
      steps: 1,
    }
    expect(lastTurn(t)).toEqual({ source: 'plain', items: [{ type: 'user', text: 'q2' }], steps: 0 })
  })
})
