// Golden checks added by issue 18: chrF and TER, acceptable answers scored as rouge-score's
// score_multi, and the bootstrap confidence interval of each check's mean in the report.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { chrF } from '../../src/metrics/chrf.js'
import { rougeMulti } from '../../src/metrics/rouge.js'
import { ter } from '../../src/metrics/ter.js'
import { planScorers, runScorer, scorersFor } from '../../src/golden/scorers.js'
import { validateCases } from '../../src/golden/dataset.js'
import { GoldenSuite } from '../../src/golden/suite.js'
import { BootstrapAggregator } from '../../src/golden/stats.js'
import type { GoldenCase, GoldenScorers } from '../../src/golden/types.js'

const dir = mkdtempSync(join(tmpdir(), 'golden-lexical-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function score(scorers: GoldenScorers, c: Partial<GoldenCase>, output: string) {
  const [plan] = planScorers(scorers)
  const theCase = { id: 'c', input: 'q', ...c } as GoldenCase
  return runScorer(plan!, { output, c: theCase, inputText: 'q' }, {})
}

describe('the chrF check', () => {
  test('scores chrF against the best of expected and acceptable, with sacrebleu options', async () => {
    const c = { expected: 'The cat is on the mat.', acceptable: ['There is a cat on the mat.'] }
    const r = await score({ chrF: { threshold: 0.5, wordOrder: 2 } }, c, 'A cat is on the mat.')
    expect(r.score).toBe(chrF('A cat is on the mat.', ['The cat is on the mat.', 'There is a cat on the mat.'], { wordOrder: 2 }))
    expect(r.pass).toBe(r.score >= 0.5)
  })

  test('fails a case below its threshold', async () => {
    const r = await score({ chrF: 0.9 }, { expected: 'The cat is on the mat.' }, 'A dog.')
    expect(r).toMatchObject({ threshold: 0.9, pass: false })
  })

  test('runs only on cases with a reference', () => {
    const plans = planScorers({ chrF: true, ter: true })
    expect(scorersFor({ id: 'a', input: 'q' } as GoldenCase, plans).map((p) => p.name)).toEqual([])
    expect(scorersFor({ id: 'a', input: 'q', expected: 'x' } as GoldenCase, plans).map((p) => p.name)).toEqual(['chrF', 'ter'])
  })

  test('rejects unknown options', () => {
    expect(() => planScorers({ chrF: { order: 2 } as never })).toThrow('unknown option "order" of the "chrF" scorer')
  })
})

describe('the ter check', () => {
  test('scores 1 - TER and shows the TER in the detail', async () => {
    const r = await score({ ter: 0.5 }, { expected: 'a b c d e f g h' }, 'd e f g h a b c')
    expect(r).toEqual({ score: 1 - 0.125, threshold: 0.5, pass: true, detail: 'TER 0.125 (1 edit over 8 reference words)' })
  })

  test('maxTer sets the threshold as a TER', async () => {
    expect(planScorers({ ter: { maxTer: 0.3 } })[0]!.threshold).toBeCloseTo(0.7, 15)
    const r = await score({ ter: { maxTer: 0.1 } }, { expected: 'a b c d e f g h' }, 'd e f g h a b c')
    expect(r.pass).toBe(false)
  })

  test('floors the score at 0 when the edits outnumber the reference words', async () => {
    const r = await score({ ter: true }, { expected: 'yes' }, 'no, certainly not today')
    expect(ter('no, certainly not today', 'yes')).toBeGreaterThan(1)
    expect(r.score).toBe(0)
  })

  test('uses the best acceptable answer and sacrebleu options', async () => {
    const r = await score({ ter: { caseSensitive: true } }, { expected: 'The Cat', acceptable: ['the cat'] }, 'the cat')
    expect(r.score).toBe(1)
  })

  test('rejects threshold and maxTer together', () => {
    expect(() => planScorers({ ter: { threshold: 0.7, maxTer: 0.3 } })).toThrow('takes threshold or maxTer, not both')
  })
})

describe('ROUGE checks with acceptable answers are scored as score_multi', () => {
  test('precision comes from the reference with the best F-measure, not the best precision', async () => {
    // 'cat here': overlap 2, P 0.4, R 1, F 0.571. The long reference: overlap 3, P 0.6, R 0.25, F 0.353.
    const c = { expected: 'the cat sat on the mat in the big house today please', acceptable: ['cat here'] }
    const output = 'the cat sat here now'
    const multi = rougeMulti(output, [c.expected, ...c.acceptable], { types: ['rouge1'] }).rouge1!
    expect(multi.referenceIndex).toBe(1)
    const r = await score({ rouge1: { measure: 'precision' } }, c, output)
    expect(r.score).toBe(0.4) // the best precision over the references (0.6) would be a different answer
    expect(r.score).toBe(multi.precision)
    const f = await score({ rouge1: true }, c, output)
    expect(f.score).toBe(multi.f)
  })
})

describe('the report gives a bootstrap confidence interval per check', () => {
  test('low <= mean-ish mid <= high, as BootstrapAggregator over the case scores (seed 42, 1,000 resamples)', async () => {
    const answers: Record<string, string> = { a: 'The cat is on the mat.', b: 'A dog.', c: 'The cat sat on a mat.' }
    const cases = Object.keys(answers).map((id) => ({ id, input: id, expected: 'The cat is on the mat.' }))
    const suite = new GoldenSuite('ci', {
      dataset: cases,
      task: (i: string) => answers[i] as string,
      scorers: { chrF: true, rougeL: true },
      report: { dir: join(dir, 'reports'), console: false },
    })
    suite.setCases(validateCases(cases))
    const results = []
    for (const c of suite.cases) results.push(await suite.runCase(c))
    const outcome = suite.finish({ runner: 'vitest', testPath: join(dir, 'ci.test.ts'), updateMode: 'new' })
    const report = outcome.report as {
      scorers: Record<string, { mean: number; ci: { low: number; mid: number; high: number; confidence: number; samples: number; seed: number } }>
    }
    for (const name of ['chrF', 'rougeL']) {
      const sc = report.scorers[name]!
      const aggregator = new BootstrapAggregator({ seed: 42, samples: 1000, confidence: 0.95 })
      for (const r of results) aggregator.addScores({ score: r.scores[name as 'chrF']!.score })
      const want = aggregator.aggregate().score!
      expect(sc.ci).toEqual({ ...want, confidence: 0.95, samples: 1000, seed: 42 })
      expect(sc.ci.low).toBeLessThanOrEqual(sc.ci.mid)
      expect(sc.ci.mid).toBeLessThanOrEqual(sc.ci.high)
      expect(sc.ci.low).toBeLessThan(sc.ci.high)
    }
  })
})
