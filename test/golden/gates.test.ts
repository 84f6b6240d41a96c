// One definition of a golden suite's gates (src/golden/aggregate.ts suiteGates) over one case shape
// (GateCase), read from a live case result or from a report's case: a suite and the merge of its shard
// reports give the same verdicts and messages, at the threshold and just below it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import {
  aggregateScorers,
  baselineCases,
  baselineScores,
  gateCaseOfReport,
  gateCaseOfResult,
  reportCases,
  scorerAggregates,
  suiteGates,
  thresholdChecks,
} from '../../src/golden/aggregate.js'
import type { CaseResult, CaseRun } from '../../src/golden/run.js'
import type { ScoreResult } from '../../src/golden/scorers.js'
import type { GoldenThresholds } from '../../src/golden/types.js'
import { resetConfig } from '../../src/config.js'
import { resetLedger } from '../../src/ledger.js'
import { mergeGoldenShards } from '../../src/report/merge.js'
import { makeCases, runGolden } from '../report/helpers.js'

function run(output: string | undefined, extra: Partial<CaseRun> = {}): CaseRun {
  return {
    output,
    scores: {},
    pass: output !== undefined,
    latencyMs: 100,
    latencySource: 'measured',
    usage: { calls: 1, inputTokens: 10, outputTokens: 5, costUsd: 0.001, models: ['m'] },
    ...extra,
  }
}
const s = (score: number, threshold: number | null = 0.5): ScoreResult => ({ score, threshold, pass: threshold === null || score >= threshold })
function result(id: string, scores: Record<string, ScoreResult>, runs: CaseRun[] = [run(`out ${id}`)]): CaseResult {
  const pass = Object.values(scores).every((x) => x.pass) && runs.every((r) => r.pass)
  const errored = runs.every((r) => r.error !== undefined && r.output === undefined)
  return { c: { id, input: { question: `q ${id}` } }, runs, passes: pass ? runs.length : 0, pass, flaky: false, scores, errored }
}

// Four cases: one at the threshold, one above, one just below, one errored and one whose assert failed.
const ran = [
  result('at', { x: s(0.5), y: s(0.9, null) }),
  result('above', { x: s(0.75), y: s(0.4, null) }),
  result('below', { x: s(0.5 - 1e-9) }),
  result('errored', {}, [run(undefined, { error: 'task failed' })]),
  result('assert', { x: s(0.6) }, [run('out assert', { pass: false, assertError: 'expected "a"' })]),
]
const live = () => ran.map(gateCaseOfResult)
const fromReport = () => reportCases(ran).map(gateCaseOfReport)

describe('GateCase', () => {
  test('a live case result and its report case give the same gate case', () => {
    expect(fromReport()).toEqual(live())
  })

  test('an errored case and a failed assert are marked as such', () => {
    const byId = Object.fromEntries(live().map((c) => [c.id, c]))
    expect(byId.errored).toMatchObject({ errored: true, assertFailed: false, runs: 1, passes: 0 })
    expect(byId.assert).toMatchObject({ errored: false, assertFailed: true })
    expect(byId.at).toMatchObject({ errored: false, assertFailed: false, pass: true })
  })
})

describe('suiteGates', () => {
  const scorers = () => scorerAggregates(live(), ['x', 'y'])

  test('the same verdicts and messages from live results and from report cases', () => {
    const t: GoldenThresholds = { passRate: 0.5, mean: { x: 0.5, y: 0.7, missing: 0.1 }, min: { x: 0.5, missing: 0 } }
    const a = suiteGates(live(), scorers(), t)
    expect(suiteGates(fromReport(), scorers(), t)).toEqual(a)
    expect(a.map((l) => [l.check.name, l.check.ok])).toEqual([
      ['passRate', false],
      ['mean.x', true],
      ['mean.y', false],
      ['mean.missing', false],
      ['min.x', false],
      ['min.missing', false],
    ])
  })

  test('thresholdChecks is suiteGates over the live results', () => {
    const t: GoldenThresholds = { passRate: 0.4, mean: { x: 0.6 }, min: { x: 0.5 } }
    expect(thresholdChecks(ran, aggregateScorers(ran, ['x', 'y']), t)).toEqual(suiteGates(live(), scorers(), t))
  })

  test('pass rate: exactly at the threshold passes, just above it fails', () => {
    // 2 of 5 cases pass (at, above).
    expect(suiteGates(live(), scorers(), { passRate: 0.4 })[0]!.check).toEqual({ name: 'passRate', ok: true, message: 'pass rate 2/5 = 40.0% >= 40.0%' })
    const failed = suiteGates(live(), scorers(), { passRate: 0.4 + 1e-12 })[0]!
    expect(failed.check).toEqual({ name: 'passRate', ok: false, message: 'pass rate 2/5 = 40.0% < 40.0%' })
    expect(failed.failure).toContain('Failing cases, worst first:\n  - errored: errored')
  })

  test('mean: exactly at the threshold passes, just above it fails', () => {
    const mean = scorers().x!.mean
    expect(suiteGates(live(), scorers(), { mean: { x: mean } })[0]!.check.ok).toBe(true)
    expect(suiteGates(live(), scorers(), { mean: { x: mean + 1e-12 } })[0]!.check.ok).toBe(false)
  })

  test('min: a score equal to the threshold passes, one below fails and is listed', () => {
    const onlyAtOrAbove = live().filter((c) => c.id !== 'below')
    expect(suiteGates(onlyAtOrAbove, scorerAggregates(onlyAtOrAbove, ['x']), { min: { x: 0.5 } })[0]!.check.ok).toBe(true)
    const failed = suiteGates(live(), scorers(), { min: { x: 0.5 } })[0]!
    expect(failed.check.ok).toBe(false)
    expect(failed.failure).toBe('1 case scored x below 0.5, worst first:\n  - below: x 0.50  {"question":"q below"}')
  })
})

describe('baselineScores', () => {
  test('the same baseline from live results and from report cases, without the errored case', () => {
    expect(baselineScores(fromReport())).toEqual(baselineCases(ran))
    expect(Object.keys(baselineCases(ran))).toEqual(['at', 'above', 'below', 'assert'])
  })
})

describe('a suite and the merge of its shard reports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'golden-gates-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  beforeEach(() => {
    resetLedger()
    resetConfig()
  })
  const cases = makeCases(24)
  const testPath = join(dir, 'gates.test.ts')
  const noBaseline = { baseline: undefined, budget: undefined }

  async function wholeAndMerged(thresholds: GoldenThresholds) {
    const options = { ...noBaseline, thresholds }
    const whole = await runGolden({ dir: join(dir, 'whole'), testPath, cases, options })
    const group = []
    for (const shard of ['1/3', '2/3', '3/3']) {
      const part = await runGolden({ dir: join(dir, 'shards'), testPath, cases, shard, options })
      group.push({ path: part.reportFile!, report: part.report })
    }
    return { whole, merged: mergeGoldenShards(group, { root: dir }) }
  }

  test('give the same verdicts and messages at the thresholds and just above them', async () => {
    const probe = await runGolden({ dir: join(dir, 'probe'), testPath, cases, options: { ...noBaseline, thresholds: {} } })
    const { passRate } = probe.report.summary
    const rouge = probe.report.scorers.rougeL!
    const at: GoldenThresholds = { passRate: passRate!, mean: { rougeL: rouge.mean }, min: { rougeL: rouge.min } }
    const above: GoldenThresholds = { passRate: passRate! + 1e-12, mean: { rougeL: rouge.mean + 1e-12 }, min: { rougeL: rouge.min + 1e-12 } }

    const pass = await wholeAndMerged(at)
    expect(pass.whole.report.checks.map((c) => c.ok)).toEqual([true, true, true])
    expect(pass.merged.report.checks).toEqual(pass.whole.report.checks)
    expect(pass.merged.failures).toEqual([])

    const fail = await wholeAndMerged(above)
    expect(fail.whole.report.checks.map((c) => c.ok)).toEqual([false, false, false])
    expect(fail.merged.report.checks).toEqual(fail.whole.report.checks)
    expect(fail.merged.failures).toEqual(fail.whole.failures)
  })
})
