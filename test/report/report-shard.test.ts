// The `shard` field of a shard's report, written by describeGolden and compareGolden through one function.
import { describe, expect, test } from 'vitest'
import { reportShard, takeShardSlice } from '../../src/report/shard.js'

const cases = Array.from({ length: 12 }, (_, i) => ({ id: `case-${i}` }))

describe('reportShard', () => {
  const { shard } = takeShardSlice(cases, { EXPECT_LLM_SHARD: '2/3' })

  test("a golden suite's: the slice, each case's run latencies and the checks left to the merge, in this key order", () => {
    const field = reportShard(shard!, ['passRate', 'mean.rougeL'], [[120, 130], [90]])
    expect(Object.keys(field)).toEqual(['index', 'count', 'source', 'total', 'positions', 'runLatenciesMs', 'deferred'])
    expect(field).toEqual({
      index: 2,
      count: 3,
      source: 'env',
      total: 12,
      positions: shard!.positions,
      runLatenciesMs: [[120, 130], [90]],
      deferred: ['passRate', 'mean.rougeL'],
    })
  })

  test("a comparison's: no run latencies", () => {
    const field = reportShard(shard!, ['expectation'])
    expect(Object.keys(field)).toEqual(['index', 'count', 'source', 'total', 'positions', 'deferred'])
    expect(field.deferred).toEqual(['expectation'])
  })
})
