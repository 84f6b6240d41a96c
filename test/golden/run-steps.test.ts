// The pure steps of one run of a golden case (src/golden/run.ts runOnce): a task that threw, the latency
// of a run, what the scorers see, the scores settled, and the verdict with its diagnosis; then the runs of
// a case combined, and the concurrency limit.
import { describe, expect, test } from 'vitest'
import type { ScorerPlan } from '../../src/checks/types.js'
import { TaskReturnError } from '../../src/golden/conversation.js'
import { type CaseRun, combineRuns, createLimiter, failedTaskRun, runLatency, runVerdict, scorerInput, settledScores } from '../../src/golden/run.js'
import type { ScoreResult } from '../../src/golden/scorers.js'

describe('failedTaskRun', () => {
  test('a task that threw: the message, the wall time, and the usage of the calls made before', () => {
    const calls = [{ model: 'gpt-4o-mini', inputTokens: 1_000_000, outputTokens: 1_000_000 }, { model: 'gpt-4o-mini' }]
    expect(failedTaskRun(new Error('rate limited'), 812, calls)).toEqual({
      error: 'the task threw: rate limited',
      errors: ['the task threw: rate limited'],
      scores: {},
      pass: false,
      latencyMs: 812,
      latencySource: 'measured',
      // gpt-4o-mini: $0.15 in + $0.60 out per million tokens.
      usage: { calls: 2, inputTokens: 1_000_000, outputTokens: 1_000_000, costUsd: 0.75, models: ['gpt-4o-mini'] },
    })
  })

  test('a call before the throw without a model but with tokens has no price: the cost is unknown', () => {
    const calls = [
      { inputTokens: 5, outputTokens: 5 },
      { model: 'gpt-4o-mini', inputTokens: 1_000_000 },
    ]
    expect(failedTaskRun(new Error('rate limited'), 812, calls).usage).toEqual({
      calls: 2,
      inputTokens: 1_000_005,
      outputTokens: 5,
      costUsd: undefined,
      models: ['gpt-4o-mini'],
    })
  })

  test('a thrown string is its own message', () => {
    expect(failedTaskRun('nope', 5, []).error).toBe('the task threw: nope')
  })

  test('a task that returned the wrong thing: its message as is, no usage counted', () => {
    expect(
      failedTaskRun(new TaskReturnError('[expect-llm] Failed to run the golden task: no output.'), 10, [{ model: 'gpt-4o-mini', inputTokens: 5 }]),
    ).toEqual({
      error: '[expect-llm] Failed to run the golden task: no output.',
      errors: ['[expect-llm] Failed to run the golden task: no output.'],
      scores: {},
      pass: false,
      latencyMs: 10,
      latencySource: 'measured',
      usage: { calls: 1, inputTokens: 0, outputTokens: 0, costUsd: 0, models: [] },
    })
  })
})

describe('runLatency', () => {
  test("the task's own figure first", () => {
    expect(runLatency({ output: 'x', latencyMs: 42 }, [{ recordedMs: 300 }], 7)).toEqual({ latencyMs: 42, latencySource: 'task' })
  })

  test('every call replayed: the recorded latencies, summed', () => {
    expect(runLatency({ output: 'x' }, [{ recordedMs: 300 }, { recordedMs: 120 }], 7)).toEqual({ latencyMs: 420, latencySource: 'recorded' })
  })

  test('some calls not recorded, no calls, or a task figure that is not finite: the wall time', () => {
    expect(runLatency({ output: 'x' }, [{ recordedMs: 300 }, {}], 7)).toEqual({ latencyMs: 7, latencySource: 'measured' })
    expect(runLatency({ output: 'x' }, [], 7)).toEqual({ latencyMs: 7, latencySource: 'measured' })
    expect(runLatency({ output: 'x', latencyMs: Number.NaN }, [], 7)).toEqual({ latencyMs: 7, latencySource: 'measured' })
  })
})

describe('scorerInput', () => {
  const c = { id: 'A17', input: { question: 'Where is A17?' }, context: ['case doc'] }

  test("the case's context when the task gives none; the input as text", () => {
    expect(scorerInput(c, { output: 'In transit' }, undefined)).toEqual({
      output: 'In transit',
      c,
      inputText: '{"question":"Where is A17?"}',
      context: ['case doc'],
    })
  })

  test("the task's context (a string becomes a list), retrieved items, trajectory and tools", () => {
    const trajectory = { steps: [], source: 'openai' } as never
    const retrieved = [{ id: 'd1', text: 'doc' }]
    expect(scorerInput({ id: 'B', input: 'q' }, { output: 'a', context: 'task doc', retrieved, tools: ['lookup'] }, trajectory)).toEqual({
      output: 'a',
      c: { id: 'B', input: 'q' },
      inputText: 'q',
      context: ['task doc'],
      retrieved: [{ id: 'd1', text: 'doc' }],
      trajectory,
      tools: ['lookup'],
    })
  })

  test('no context at all: no context key', () => {
    expect(Object.keys(scorerInput({ id: 'B', input: 'q' }, { output: 'a' }, undefined))).toEqual(['output', 'c', 'inputText'])
  })
})

describe('settledScores', () => {
  test('scores by key, a message per scorer that threw, in the order settled', () => {
    const ok: ScoreResult = { score: 1, threshold: 1, pass: true }
    expect(
      settledScores([
        { key: 'exact', result: ok },
        { key: 'judge', error: new Error('429 Too Many Requests') },
        { key: 'semantic', error: 'no embedder' },
        { key: 'skipped' },
      ]),
    ).toEqual({ scores: { exact: ok }, errors: ['scorer judge failed: 429 Too Many Requests', 'scorer semantic failed: no embedder'] })
  })
})

describe('runVerdict', () => {
  const plan = (key: string, name = key) => ({ key, name }) as ScorerPlan
  const plans = [plan('retrieval'), plan('rougeL')]
  const s = (pass: boolean): ScoreResult => ({ score: pass ? 1 : 0, threshold: 0.5, pass })

  test('every score passed, no error, no assert failure: a pass without diagnosis', () => {
    expect(runVerdict({ scores: { retrieval: s(true), rougeL: s(true) } }, plans)).toEqual({ pass: true })
  })

  test('a scorer error or a failed assert fails the run', () => {
    expect(runVerdict({ scores: { rougeL: s(true) }, error: 'scorer judge failed: x' }, plans)).toEqual({ pass: false })
    expect(runVerdict({ scores: {}, assertError: 'expected "a"' }, plans)).toEqual({ pass: false })
  })

  test('retrieval passed and the answer failed: generation', () => {
    expect(runVerdict({ scores: { retrieval: s(true), rougeL: s(false) } }, plans)).toEqual({ pass: false, diagnosis: 'generation' })
  })

  test('retrieval failed, with or without another failure: retrieval', () => {
    expect(runVerdict({ scores: { retrieval: s(false), rougeL: s(false) } }, plans)).toEqual({ pass: false, diagnosis: 'retrieval' })
    expect(runVerdict({ scores: { retrieval: s(false), rougeL: s(true) } }, plans)).toEqual({ pass: false, diagnosis: 'retrieval' })
  })

  test('a retrieval check under its own key counts by name; no retrieval scored: no diagnosis', () => {
    expect(runVerdict({ scores: { docs: s(true), rougeL: s(false) } }, [plan('docs', 'retrieval'), plan('rougeL')])).toEqual({
      pass: false,
      diagnosis: 'generation',
    })
    expect(runVerdict({ scores: { rougeL: s(false) } }, plans)).toEqual({ pass: false })
  })

  test('two retrieval checks, one failed and the answer fine: retrieval', () => {
    const two = [plan('docs', 'retrieval'), plan('retrieval'), plan('rougeL')]
    expect(runVerdict({ scores: { docs: s(true), retrieval: s(false), rougeL: s(true) } }, two)).toEqual({ pass: false, diagnosis: 'retrieval' })
  })
})

describe('combineRuns', () => {
  const c = { id: 'A17', input: 'Where is A17?' }
  const runOf = (scores: CaseRun['scores']): CaseRun => ({
    output: 'In transit',
    scores,
    pass: Object.values(scores).every((x) => x.pass),
    latencyMs: 5,
    latencySource: 'measured',
    usage: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, models: [] },
  })

  test('a scorer without detail in any run: no detail key in the combined score', () => {
    const r = combineRuns(c, [runOf({ exact: { score: 1, threshold: 1, pass: true } }), runOf({ exact: { score: 0, threshold: 1, pass: false } })], 1)
    expect(Object.keys(r.scores.exact!)).toEqual(['score', 'threshold', 'pass'])
  })

  test('the judges and agreement of the first run that has a panel, not of a run without one', () => {
    const judges = [
      { judge: 'gpt-4o', score: 1, pass: true },
      { judge: 'claude', score: 0, pass: false },
    ]
    const r = combineRuns(
      c,
      [runOf({ judge: { score: 0.5, threshold: 0.5, pass: true } }), runOf({ judge: { score: 0.5, threshold: 0.5, pass: true, judges, agreement: 0.5 } })],
      1,
    )
    expect(r.scores.judge).toEqual({ score: 0.5, threshold: 0.5, pass: true, judges, agreement: 0.5 })
  })
})

describe('createLimiter', () => {
  test('at most `concurrency` tasks in flight; the others start in order as one finishes', async () => {
    const limit = createLimiter(2)
    const release: Array<() => void> = []
    const started: number[] = []
    let active = 0
    let most = 0
    const task = (i: number) =>
      limit(async () => {
        started.push(i)
        most = Math.max(most, ++active)
        await new Promise<void>((r) => release.push(r))
        active--
        return i
      })
    const done = [task(1), task(2), task(3), task(4)]
    await new Promise((r) => setTimeout(r, 0))
    expect(started).toEqual([1, 2])
    release.shift()!()
    await new Promise((r) => setTimeout(r, 0))
    expect(started).toEqual([1, 2, 3])
    while (release.length > 0) {
      release.shift()!()
      await new Promise((r) => setTimeout(r, 0))
    }
    expect(await Promise.all(done)).toEqual([1, 2, 3, 4])
    expect(most).toBe(2)
  })
})
