// `compareGolden` computes its statistics with the same functions as `expect-llm report --merge`
// (src/golden/compare-stats.ts); test/report/merge.test.ts shows a live comparison and its merged shards
// agree. This pins what only the live suite knows, the scorer list, and that a merge decides on the
// same scorer.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import type { CompareReport } from '../../src/golden/report.js'
import { mergeCompareShards, type LoadedReport } from '../../src/report/merge.js'
import { makeCases, runCompare } from '../report/helpers.js'

const dir = mkdtempSync(join(tmpdir(), 'compare-stats-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const cases = makeCases(12).map(({ keywords: _, ...c }) => c)

test('expect without a scorer decides on the first scorer listed, even when it scored no case', async () => {
  const { report, failure } = await runCompare({
    dir,
    testPath: join(dir, 'compare.test.ts'),
    cases,
    options: { scorers: { keywords: 0.5, rougeL: 0.5 }, expect: { better: 'v2' } },
  })
  expect(report.scorers.map((s) => s.scorer)).toEqual(['rougeL'])
  expect(report.expectation).toMatchObject({ scorer: 'keywords', ok: false })
  expect(report.expectation?.message).toBe('v2 is not shown to be better than v1: no case was scored by "keywords" for every variant')
  expect(failure).toContain('no case was scored by "keywords"')
})

test('expect without a scorer decides on the first scorer listed when it scored the cases', async () => {
  const { report } = await runCompare({ dir, testPath: join(dir, 'compare.test.ts'), cases, options: { expect: { better: 'v2' } } })
  expect(report.expectation).toMatchObject({ scorer: 'rougeL', ok: true })
  expect(report.expectation?.message).toMatch(/^v2 is better: v2 vs v1 on rougeL: mean difference \+\d\.\d{3}, 95% CI \[/)
})

test('merged shards decide an expect without a scorer on the same scorer as one machine', async () => {
  const testPath = join(dir, 'merge.test.ts')
  const options = { expect: { better: 'v2' as const } }
  const single = await runCompare({ dir: join(dir, 'single'), testPath, cases, options })
  const parts: Array<LoadedReport<CompareReport>> = []
  for (const shard of ['1/3', '2/3', '3/3']) {
    const { report, reportFile } = await runCompare({ dir: join(dir, 'shards'), testPath, cases, shard, options })
    parts.push({ path: reportFile!, report })
  }
  const merged = mergeCompareShards(parts)
  expect(single.report.expectation?.scorer).toBe('rougeL')
  expect(merged.report.expectation).toEqual(single.report.expectation)
  expect(merged.report.scorers).toEqual(single.report.scorers)
  expect(merged.report.options).toEqual(single.report.options)
})
