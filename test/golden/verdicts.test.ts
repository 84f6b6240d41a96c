// The verdicts of a golden suite at their boundaries: the baseline comparison and its tolerance (suite and
// case level), the baseline file, the gates' failure paragraphs, the latency, token and cost budgets, and
// what the report keeps of each case. Each value sits at, just inside or just outside its threshold.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import {
  addUsage,
  baselineComparisonCheck,
  budgetChecks,
  emptyTotals,
  failingList,
  ledgerTotals,
  reportCases,
  retrievalAverages,
  suiteGates,
  thresholdChecks,
  aggregateScorers,
  usageSummary,
  type GateCase,
} from '../../src/golden/aggregate.js'
import {
  baselinePath,
  compareBaseline,
  mergeBaseline,
  readBaseline,
  slugify,
  writeBaseline,
  type BaselineComparison,
  type BaselineFile,
} from '../../src/golden/baseline.js'
import type { CaseResult, CaseRun } from '../../src/golden/run.js'
import type { ScoreResult } from '../../src/golden/scorers.js'

const dir = mkdtempSync(join(tmpdir(), 'golden-verdicts-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function run(output: string | undefined, latencyMs = 100, usage: Partial<CaseRun['usage']> = {}, extra: Partial<CaseRun> = {}): CaseRun {
  return {
    ...(output !== undefined ? { output } : {}),
    scores: {},
    pass: true,
    latencyMs,
    latencySource: 'measured',
    usage: { calls: 1, inputTokens: 10, outputTokens: 5, costUsd: 0.001, models: ['m'], ...usage },
    ...extra,
  }
}
function result(id: string, scores: Record<string, ScoreResult>, runs: CaseRun[] = [run(`out ${id}`)], extra: Partial<CaseResult> = {}): CaseResult {
  const pass = Object.values(scores).every((s) => s.pass)
  return { c: { id, input: `q ${id}` }, runs, passes: pass ? runs.length : 0, pass, flaky: false, scores, errored: false, ...extra }
}
const s = (score: number, threshold: number | null = 0.5): ScoreResult => ({ score, threshold, pass: threshold === null || score >= threshold })
const baseline = (cases: BaselineFile['cases']): BaselineFile => ({ version: 1, suite: 's', updatedAt: '2026-01-01T00:00:00.000Z', cases })
const tol = (t: number) => () => t

describe('compareBaseline', () => {
  test('a mean drop of exactly the tolerance is not a regression; a drop beyond it is', () => {
    const before = baseline({ a: { pass: true, scores: { x: 0.5 } }, b: { pass: true, scores: { x: 0.7 } } })
    const at = compareBaseline(before, { a: { pass: true, scores: { x: 0.4 } }, b: { pass: true, scores: { x: 0.6 } } }, tol(0.1))
    expect(at.scorers).toEqual([{ scorer: 'x', baseline: 0.6, current: expect.closeTo(0.5, 12), delta: expect.closeTo(-0.1, 12), tolerance: 0.1, cases: 2 }])
    expect(at.regressions).toEqual([])
    const beyond = compareBaseline(before, { a: { pass: true, scores: { x: 0.39 } }, b: { pass: true, scores: { x: 0.6 } } }, tol(0.1))
    expect(beyond.regressions.map((d) => d.scorer)).toEqual(['x'])
  })

  test('a case whose score moved by exactly the tolerance is neither regressed nor improved; beyond it, it is', () => {
    const before = baseline({ a: { pass: true, scores: { x: 0.5 } }, b: { pass: true, scores: { x: 0.5 } }, c: { pass: true, scores: { x: 0.5 } } })
    const cmp = compareBaseline(
      before,
      { a: { pass: true, scores: { x: 0.4 } }, b: { pass: true, scores: { x: 0.6 } }, c: { pass: true, scores: { x: 0.5 } } },
      tol(0.1),
    )
    expect(cmp.regressedCases).toEqual([])
    expect(cmp.improvedCases).toEqual([])
    const moved = compareBaseline(
      before,
      { a: { pass: true, scores: { x: 0.39 } }, b: { pass: true, scores: { x: 0.61 } }, c: { pass: true, scores: { x: 0.5 } } },
      tol(0.1),
    )
    expect(moved.regressedCases).toEqual([{ id: 'a', scorer: 'x', baseline: 0.5, current: 0.39 }])
    expect(moved.improvedCases).toEqual([{ id: 'b', scorer: 'x', baseline: 0.5, current: 0.61 }])
  })

  test('each scorer gets its own tolerance, asked by name', () => {
    const asked: string[] = []
    const before = baseline({ a: { pass: true, scores: { x: 0.5, y: 0.5 } } })
    const cmp = compareBaseline(before, { a: { pass: true, scores: { x: 0.3, y: 0.3 } } }, (scorer) => {
      asked.push(scorer)
      return scorer === 'x' ? 0.25 : 0.1
    })
    expect(asked.sort()).toEqual(['x', 'y'])
    expect(cmp.regressions.map((d) => [d.scorer, d.tolerance])).toEqual([['y', 0.1]])
  })

  test('only cases and scorers both runs have are compared; new cases are listed; a scorer nobody had before is skipped', () => {
    const before = baseline({ a: { pass: true, scores: { x: 1 } }, gone: { pass: true, scores: { x: 0 } } })
    const cmp = compareBaseline(before, { a: { pass: true, scores: { x: 1, fresh: 0.2 } }, added: { pass: true, scores: { x: 0 } } }, tol(0.05))
    expect(cmp.newCases).toEqual(['added'])
    expect(cmp.scorers).toEqual([{ scorer: 'x', baseline: 1, current: 1, delta: 0, tolerance: 0.05, cases: 1 }])
    expect(cmp.regressions).toEqual([])
  })

  test('a case that flipped between pass and fail is a regressed or improved case on "pass"; the largest change first', () => {
    const before = baseline({
      a: { pass: true, scores: { x: 0.9 } },
      b: { pass: false, scores: { x: 0.1 } },
      c: { pass: true, scores: { x: 0.9 } },
    })
    const cmp = compareBaseline(
      before,
      { a: { pass: false, scores: { x: 0.8 } }, b: { pass: true, scores: { x: 0.1 } }, c: { pass: true, scores: { x: 0.1 } } },
      tol(0.05),
    )
    expect(cmp.regressedCases).toEqual([
      { id: 'a', scorer: 'pass', baseline: 1, current: 0 },
      { id: 'c', scorer: 'x', baseline: 0.9, current: 0.1 },
      { id: 'a', scorer: 'x', baseline: 0.9, current: 0.8 },
    ])
    expect(cmp.improvedCases).toEqual([{ id: 'b', scorer: 'pass', baseline: 0, current: 1 }])
  })
})

describe('compareBaseline at the edges', () => {
  test('a case without a score from a scorer other cases have is left out of that mean', () => {
    const before = baseline({ a: { pass: true, scores: { x: 0.5 } }, b: { pass: true, scores: { x: 0.7 } } })
    const cmp = compareBaseline(before, { a: { pass: true, scores: {} }, b: { pass: true, scores: { x: 0.7 } } }, tol(0.05))
    expect(cmp.scorers).toEqual([{ scorer: 'x', baseline: 0.7, current: 0.7, delta: 0, tolerance: 0.05, cases: 1 }])
  })

  test('a case that moved by exactly the tolerance plus 1e-12 is neither regressed nor improved', () => {
    const before = baseline({ a: { pass: true, scores: { x: 1 } }, b: { pass: true, scores: { x: 0 } } })
    const cmp = compareBaseline(before, { a: { pass: true, scores: { x: 1 - 1e-12 } }, b: { pass: true, scores: { x: 1e-12 } } }, tol(0))
    expect(cmp.regressedCases).toEqual([])
    expect(cmp.improvedCases).toEqual([])
  })

  test('a mean that dropped by exactly the tolerance plus 1e-12 is not a regression', () => {
    const cmp = compareBaseline(baseline({ a: { pass: true, scores: { x: 1e-12 } } }), { a: { pass: true, scores: { x: 0 } } }, tol(0))
    expect(cmp.scorers[0]!.delta).toBe(-1e-12)
    expect(cmp.regressions).toEqual([])
  })

  test('the case that moved the most comes first, whatever its scores add up to', () => {
    const before = baseline({ p: { pass: true, scores: { x: 0.3 } }, q: { pass: true, scores: { x: 0.9 } } })
    const cmp = compareBaseline(before, { p: { pass: true, scores: { x: 0 } }, q: { pass: true, scores: { x: 0.8 } } }, tol(0.05))
    expect(cmp.regressedCases).toEqual([
      { id: 'p', scorer: 'x', baseline: 0.3, current: 0 },
      { id: 'q', scorer: 'x', baseline: 0.9, current: 0.8 },
    ])
  })
})

describe('the baseline file', () => {
  test('baselinePath: __golden__/<test file>/<suite slug>.json next to the test file', () => {
    expect(baselinePath('/repo/test/bot.test.ts', 'Support Bot')).toBe('/repo/test/__golden__/bot.test.ts/support-bot.json')
  })

  test('slugify: accents folded, runs of other characters one dash, trimmed, at most 80 characters, "suite" when nothing is left', () => {
    expect(slugify('  Héllo, Wörld!! v2 ')).toBe('hello-world-v2')
    expect(slugify('--a--')).toBe('a')
    expect(slugify('x'.repeat(100))).toBe('x'.repeat(80))
    expect(slugify('!!!')).toBe('suite')
  })

  test('writeBaseline creates the folders, writes pretty JSON with a final newline and leaves no temporary file', () => {
    const path = join(dir, 'w', '__golden__', 'a.test.ts', 'bot.json')
    const file = baseline({ a: { pass: true, scores: { x: 1 } } })
    writeBaseline(path, file)
    expect(readFileSync(path, 'utf8')).toBe(`${JSON.stringify(file, null, 2)}\n`)
    expect(readdirSync(join(dir, 'w', '__golden__', 'a.test.ts'))).toEqual(['bot.json'])
    expect(readBaseline(path)).toEqual(file)
  })

  test('readBaseline: undefined when missing; invalid JSON and another format fail with the path and the fix', () => {
    expect(readBaseline(join(dir, 'none.json'))).toBeUndefined()
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, '{')
    expect(() => readBaseline(bad)).toThrow(
      new RegExp(
        `^\\[expect-llm\\] Failed to read the golden baseline ${bad}: invalid JSON \\(.+\\)\\. Fix the file, or delete it and run with -u to write a new one\\.$`,
      ),
    )
    const notVersion = join(dir, 'v2.json')
    for (const content of [{ version: 2, cases: {} }, { version: 1 }, { version: 1, cases: null }, { version: 1, cases: 'x' }]) {
      writeFileSync(notVersion, JSON.stringify(content))
      expect(() => readBaseline(notVersion)).toThrow(
        `[expect-llm] Failed to read the golden baseline ${notVersion}: it is not a version 1 baseline (no "version": 1 or no "cases"). Delete it and run with -u to write a new one.`,
      )
    }
  })

  test('readBaseline rethrows an error other than a missing file', () => {
    const folder = join(dir, 'a-folder.json')
    mkdirSync(folder, { recursive: true })
    expect(() => readBaseline(folder)).toThrow(expect.objectContaining({ code: 'EISDIR' }))
  })

  test('mergeBaseline: the run replaces its cases and keeps the others', () => {
    const previous = baseline({ a: { pass: true, scores: { x: 1 } }, b: { pass: true, scores: { x: 1 } } })
    const now = new Date('2026-02-03T04:05:06.000Z')
    expect(mergeBaseline(previous, 'bot', { b: { pass: false, scores: { x: 0 } } }, now)).toEqual({
      version: 1,
      suite: 'bot',
      updatedAt: '2026-02-03T04:05:06.000Z',
      cases: { a: { pass: true, scores: { x: 1 } }, b: { pass: false, scores: { x: 0 } } },
    })
    expect(mergeBaseline(undefined, 'bot', {}, now).cases).toEqual({})
    expect(existsSync(join(dir, 'never-written.json'))).toBe(false)
  })
})

describe('the baseline check', () => {
  const comparison = (over: Partial<BaselineComparison>): BaselineComparison => ({
    scorers: [],
    regressions: [],
    regressedCases: [],
    improvedCases: [],
    newCases: [],
    ...over,
  })
  const drop = { scorer: 'rougeL', baseline: 0.8, current: 0.6, delta: -0.2, tolerance: 0.05, cases: 1 }

  test('a regression: the scorer, its means, the cases that moved, and how to accept an intended change', () => {
    const out = baselineComparisonCheck(
      'b.json',
      comparison({
        scorers: [drop, { scorer: 'exact', baseline: 1, current: 1, delta: 0, tolerance: 0.05, cases: 2 }],
        regressions: [drop],
        regressedCases: [{ id: 'a', scorer: 'rougeL', baseline: 0.8, current: 0.6 }],
        improvedCases: [{ id: 'b', scorer: 'pass', baseline: 0, current: 1 }],
      }),
      false,
    )
    expect(out.check).toEqual({ name: 'baseline', ok: false, message: 'baseline: rougeL mean 0.60 vs 0.80' })
    expect(out.failure).toBe(
      [
        'scores regressed against the baseline b.json:',
        '  rougeL: mean 0.600 vs 0.800 (-0.200, tolerance 0.05) over 1 case',
        'Regressed cases:',
        '  - a: rougeL 0.80 → 0.60',
        'Improved cases:',
        '  - b: pass 0 → 1',
        'If the change is intended, update the baseline with -u.',
      ].join('\n'),
    )
  })

  test('more than 20 moved cases are cut with a count; several cases are "cases"; the advice can be replaced', () => {
    const moved = Array.from({ length: 23 }, (_, i) => ({ id: `c${i}`, scorer: 'x', baseline: 1, current: 0 }))
    const out = baselineComparisonCheck('b.json', comparison({ regressions: [{ ...drop, cases: 23 }], regressedCases: moved }), false, 'commit it')
    const lines = out.failure!.split('\n')
    expect(lines[1]).toBe('  rougeL: mean 0.600 vs 0.800 (-0.200, tolerance 0.05) over 23 cases')
    expect(lines.filter((l) => l.startsWith('  - c'))).toHaveLength(20)
    expect(lines.at(-2)).toBe('  … 3 more')
    expect(lines.at(-1)).toBe('If the change is intended, commit it.')
  })

  test('when -u was refused in CI the check says so; with nothing in common it says there was nothing to compare', () => {
    expect(baselineComparisonCheck('b.json', comparison({}), true).check.message).toBe(
      'baseline (-u ignored: CI is set): no scorer mean dropped by more than its tolerance (nothing to compare)',
    )
    expect(baselineComparisonCheck('b.json', comparison({ scorers: [{ ...drop, delta: -0.01 }] }), false).check.message).toBe(
      'baseline: no scorer mean dropped by more than its tolerance (rougeL -0.010)',
    )
  })
})

describe('the threshold gates', () => {
  const gate = (id: string, scores: Record<string, ScoreResult>, extra: Partial<GateCase> = {}): GateCase => ({
    id,
    input: `q ${id}`,
    pass: Object.values(scores).every((x) => x.pass),
    errored: false,
    assertFailed: false,
    runs: 1,
    passes: Object.values(scores).every((x) => x.pass) ? 1 : 0,
    scores,
    ...extra,
  })

  test('the pass rate gate names every failing case, an errored one first, then the largest shortfall', () => {
    const cases = [
      gate('small', { x: s(0.45) }),
      gate('ok', { x: s(0.9) }),
      gate('broken', {}, { pass: false, errored: true, passes: 0 }),
      gate('assert', { x: s(0.9) }, { pass: false, assertFailed: true, passes: 0 }),
      gate('large', { x: s(0.1) }),
    ]
    const [passRate] = suiteGates(cases, {}, { passRate: 0.5 })
    expect(passRate!.check).toEqual({ name: 'passRate', ok: false, message: 'pass rate 1/5 = 20.0% < 50.0%' })
    expect(passRate!.failure).toBe(
      [
        'pass rate 1/5 = 20.0% is below 50.0%. Failing cases, worst first:',
        '  - broken: errored  q broken',
        '  - large: x 0.10<0.50  q large',
        '  - small: x 0.45<0.50  q small',
        '  - assert: assert failed  q assert',
      ].join('\n'),
    )
  })

  test('no pass rate gate without cases; a pass rate gate exactly at the rate passes with >=', () => {
    expect(suiteGates([], {}, { passRate: 1 })).toEqual([])
    const [g] = suiteGates([gate('a', { x: s(1) }), gate('b', { x: s(0) })], {}, { passRate: 0.5 })
    expect(g!.check).toEqual({ name: 'passRate', ok: true, message: 'pass rate 1/2 = 50.0% >= 50.0%' })
    expect(g!.failure).toBeUndefined()
  })

  test('a case that failed on its runs without a failed scorer shows its passing runs', () => {
    const flaky = gate('f', { x: s(0.9) }, { pass: false, runs: 3, passes: 1 })
    expect(suiteGates([flaky], {}, { passRate: 1 })[0]!.failure).toContain('  - f: 1/3 runs passed  q f')
  })

  test('cases with equal shortfall: the one with more failed scorers first, then the fewest passing runs', () => {
    const cases = [
      gate('one', { x: s(0.4), y: s(0.9) }, { passes: 0 }),
      gate('two', { x: s(0.4), y: s(0.45) }, { passes: 0 }),
      gate('runs2', { x: s(0.4), y: s(0.9) }, { runs: 3, passes: 2 }),
      gate('runs1', { x: s(0.4), y: s(0.9) }, { runs: 3, passes: 1 }),
    ]
    const lines = suiteGates(cases, {}, { passRate: 1 })[0]!.failure!.split('\n').slice(1)
    expect(lines.map((l) => l.split(':')[0]!.trim().slice(2))).toEqual(['two', 'one', 'runs1', 'runs2'])
  })

  test('at most 20 failing cases are listed, then how many more', () => {
    const cases = Array.from({ length: 22 }, (_, i) => gate(`c${i}`, { x: s(0.1) }))
    const failure = suiteGates(cases, {}, { passRate: 1 })[0]!.failure!
    expect(failure.split('\n').filter((l) => l.startsWith('  - '))).toHaveLength(20)
    expect(failure.endsWith('\n  … 2 more')).toBe(true)
  })

  const ran = [result('a', { rougeL: s(0.2) }), result('b', { rougeL: s(0.8) }), result('c', { rougeL: s(0.3) })]
  const scorers = aggregateScorers(ran, ['rougeL'])

  test('the mean gate: exact paragraph with the cases below it, worst first', () => {
    const [mean] = thresholdChecks(ran, scorers, { mean: { rougeL: 0.5 } })
    expect(mean!.check).toEqual({ name: 'mean.rougeL', ok: false, message: 'mean rougeL 0.43 < 0.50' })
    expect(mean!.failure).toBe('mean rougeL 0.433 is below 0.5. Cases below 0.5, worst first:\n  - a: rougeL 0.20  q a\n  - c: rougeL 0.30  q c')
  })

  test('the min gate: several cases are "cases"; a score equal to the minimum is not below it', () => {
    const [min] = thresholdChecks(ran, scorers, { min: { rougeL: 0.8 } })
    expect(min!.check).toEqual({ name: 'min.rougeL', ok: false, message: 'min rougeL 0.20 < 0.80' })
    expect(min!.failure).toBe('2 cases scored rougeL below 0.8, worst first:\n  - a: rougeL 0.20  q a\n  - c: rougeL 0.30  q c')
    expect(thresholdChecks(ran, scorers, { min: { rougeL: 0.2 } })[0]!.check).toEqual({ name: 'min.rougeL', ok: true, message: 'min rougeL 0.20 >= 0.20' })
  })

  test('a min gate on a key no case was scored by fails, without the "list it" advice of the mean gate', () => {
    expect(thresholdChecks(ran, scorers, { min: { short: 0.5 } })[0]).toEqual({
      check: { name: 'min.short', ok: false, message: 'min short: no case was scored by "short"' },
      failure: 'thresholds.min.short is set but no case was scored by "short".',
    })
  })

  test('failingList with one scorer shows that score only', () => {
    expect(failingList([result('a', { x: s(0.2), y: s(0.1) })], 'x')).toBe('  - a: x 0.20  q a')
  })
})

describe('usage and the budget', () => {
  test('the P95 latency budget: equal passes, over fails with the five slowest runs', () => {
    const ran = [100, 200, 300, 400, 500, 600].map((ms, i) => result(`c${i}`, {}, [run('o', ms)]))
    const usage = usageSummary(ran, [])
    const p95 = usage.latency.p95!
    expect(p95).toBe(575)
    expect(budgetChecks({ p95LatencyMs: 575 }, ran, usage)[0]).toEqual({
      check: { name: 'budget.p95LatencyMs', ok: true, message: 'P95 latency 575 ms <= 575 ms' },
    })
    const over = budgetChecks({ p95LatencyMs: 574 }, ran, usage)[0]!
    expect(over.check).toEqual({ name: 'budget.p95LatencyMs', ok: false, message: 'P95 latency 575 ms > 574 ms' })
    expect(over.failure).toBe(
      'P95 latency 575 ms is over the budget of 574 ms. Slowest cases:\n  - c5: 600 ms\n  - c4: 500 ms\n  - c3: 400 ms\n  - c2: 300 ms\n  - c1: 200 ms',
    )
  })

  test('no run with an output: the latency is unknown and the latency budget fails', () => {
    const ran = [result('e', {}, [run(undefined, 50, {}, { error: 'boom' })], { errored: true })]
    const usage = usageSummary(ran, [])
    expect(usage.latency).toEqual({ p50: null, p95: null, p99: null, sources: {} })
    expect(budgetChecks({ p95LatencyMs: 1000 }, ran, usage)[0]!.check).toEqual({
      name: 'budget.p95LatencyMs',
      ok: false,
      message: 'P95 latency n/a > 1,000 ms',
    })
  })

  test('latency sources are counted per run that produced an output', () => {
    const ran = [
      result('a', {}, [run('o', 10, {}, { latencySource: 'recorded' }), run('o', 20, {}, { latencySource: 'recorded' })]),
      result('b', {}, [run('o', 30, {}, { latencySource: 'task' }), run(undefined, 5, {}, { error: 'x' })]),
    ]
    expect(usageSummary(ran, []).latency.sources).toEqual({ recorded: 2, task: 1 })
  })

  test('the token budget: equal passes, one over fails; the message splits app and evaluator', () => {
    const ran = [result('a', {}, [run('o', 10, { inputTokens: 600, outputTokens: 400 })])]
    const usage = usageSummary(ran, [{ kind: 'judge', model: 'gpt-4o-mini', inputTokens: 1000, outputTokens: 500 } as never])
    expect(budgetChecks({ maxTokens: 2500 }, ran, usage)[0]!.check).toEqual({
      name: 'budget.maxTokens',
      ok: true,
      message: 'tokens 2,500 <= 2,500 (app 1,000, evaluator 1,500)',
    })
    expect(budgetChecks({ maxTokens: 2499 }, ran, usage)[0]!.check).toMatchObject({ ok: false, message: 'tokens 2,500 > 2,499 (app 1,000, evaluator 1,500)' })
  })

  test('the cost budget: equal passes, above fails', () => {
    const ran = [result('a', {}, [run('o', 10, { costUsd: 0.25 })]), result('b', {}, [run('o', 10, { costUsd: 0.25 })])]
    const usage = usageSummary(ran, [])
    expect(usage.total.costUsd).toBe(0.5)
    expect(budgetChecks({ maxCostUsd: 0.5 }, ran, usage)[0]!.check.ok).toBe(true)
    expect(budgetChecks({ maxCostUsd: 0.49 }, ran, usage)[0]!.check.ok).toBe(false)
  })

  test('an unknown cost names the models without a price; a call without a model is "(unknown model)"', () => {
    const t = emptyTotals()
    addUsage(t, 1, 1, 1, 0.5, ['a'])
    expect(t).toEqual({ calls: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: 0.5, unpricedModels: [] })
    addUsage(t, 2, 3, 4, undefined, [])
    addUsage(t, 1, 0, 0, undefined, ['x', 'x'])
    addUsage(t, 1, 0, 0, 0.25, ['priced'])
    expect(t).toEqual({ calls: 5, inputTokens: 4, outputTokens: 5, totalTokens: 9, costUsd: null, unpricedModels: ['(unknown model)', 'x'] })
  })

  test('ledgerTotals: per kind, models once, and a call without reported usage has no price', () => {
    const totals = ledgerTotals([
      { kind: 'judge', model: 'gpt-4o-mini', inputTokens: 1_000_000, outputTokens: 0 },
      { kind: 'judge', model: 'gpt-4o-mini', inputTokens: 0, outputTokens: 0, usageMissing: true },
      { kind: 'embedding', model: 'text-embedding-3-small', inputTokens: 10, outputTokens: 0 },
    ] as never)
    expect(totals.calls).toBe(3)
    expect(totals.byKind.judge.calls).toBe(2)
    expect(totals.byKind.embedding.calls).toBe(1)
    expect(totals.models).toEqual({ judge: ['gpt-4o-mini'], embedding: ['text-embedding-3-small'] })
    expect(totals.costUsd).toBeNull()
    expect(totals.unpricedModels).toEqual(['gpt-4o-mini (no token usage reported)'])
    expect(totals.byKind.embedding.costUsd).toBeGreaterThan(0)
  })

  test('retrieval averages with nothing retrieved or nothing relevant are 0, not NaN', () => {
    expect(retrievalAverages([{ found: 0, k: 0, relevant: 0 }])).toEqual({
      micro: { precision: 0, recall: 0, f1: 0 },
      macro: { precision: 0, recall: 0, f1: 0 },
    })
    expect(retrievalAverages([])).toEqual({ micro: { precision: 0, recall: 0, f1: 0 }, macro: { precision: 0, recall: 0, f1: 0 } })
  })
})

describe('reportCases', () => {
  test('an errored case: no output, the first error, its errors; a failed assert, a diagnosis, tags, source and expected', () => {
    const r = result('a', {}, [run(undefined, 10, {}, { error: 'boom\nsecond', errors: ['boom', 'second'] }), run(undefined, 30, { costUsd: undefined })], {
      errored: true,
    })
    r.c = { id: 'a', input: 'q', expected: 'e', tags: ['t'], source: 'd.jsonl:3' }
    expect(reportCases([r])[0]).toEqual({
      id: 'a',
      input: 'q',
      output: null,
      pass: true,
      runs: 2,
      passes: 2,
      flaky: false,
      scores: {},
      latencyMs: 20,
      usage: { inputTokens: 20, outputTokens: 10, costUsd: null },
      source: 'd.jsonl:3',
      tags: ['t'],
      expected: 'e',
      error: 'boom\nsecond',
      errors: ['boom', 'second'],
    })
    const asserted = result('b', {}, [
      run(undefined, 10, {}, { error: 'x' }),
      run('second output', 10, {}, { assertError: 'expected 1', diagnosis: 'retrieval' }),
    ])
    expect(reportCases([asserted])[0]).toMatchObject({ output: 'second output', error: 'x', assertError: 'expected 1', diagnosis: 'retrieval' })
    expect(reportCases([asserted])[0]).not.toHaveProperty('errors')
    expect(reportCases([asserted])[0]!.usage).toEqual({ inputTokens: 20, outputTokens: 10, costUsd: 0.002 })
  })
})
