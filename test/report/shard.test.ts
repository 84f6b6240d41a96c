// Shards of a golden suite: EXPECT_LLM_SHARD, a stable slice by case id, and the report options checked up front.
import { describe, expect, test } from 'vitest'
import { GoldenSuite } from '../../src/golden/suite.js'
import { currentShard, shardFileSuffix, shardOf, sliceForShard, takeShardSlice } from '../../src/report/shard.js'

const ids = Array.from({ length: 1000 }, (_, i) => ({ id: `case-${i}` }))

describe('EXPECT_LLM_SHARD', () => {
  test('i/n, 1-based; unset, empty and 1/1 mean no sharding', () => {
    expect(currentShard({ EXPECT_LLM_SHARD: '2/4' })).toEqual({ index: 2, count: 4, source: 'env' })
    expect(currentShard({ EXPECT_LLM_SHARD: ' 3 / 3 ' })).toEqual({ index: 3, count: 3, source: 'env' })
    expect([currentShard({}), currentShard({ EXPECT_LLM_SHARD: '' }), currentShard({ EXPECT_LLM_SHARD: '1/1' })]).toEqual([undefined, undefined, undefined])
  })

  test.each(['0/4', '5/4', '2', 'two/four', '1/0', '-1/2'])('%s throws rather than run every case or none', (value) => {
    expect(() => currentShard({ EXPECT_LLM_SHARD: value })).toThrow(
      `[expect-llm] Failed to read EXPECT_LLM_SHARD: ${JSON.stringify(value)} is not a shard. Set it to <index>/<count> with 1 <= index <= count, e.g. EXPECT_LLM_SHARD=2/4.`,
    )
  })
})

describe('slices', () => {
  test('every case on exactly one shard, in dataset order, with its position', () => {
    const slices = [1, 2, 3, 4].map((index) => sliceForShard(ids, { index, count: 4, source: 'env' }))
    const all = slices.flatMap((s) => s.positions).sort((a, b) => a - b)
    expect(all).toEqual(ids.map((_, i) => i))
    for (const s of slices) {
      expect(s.cases.map((c) => c.id)).toEqual(s.positions.map((p) => ids[p]!.id))
      expect(s.cases.length).toBeGreaterThan(200)
      expect(s.cases.length).toBeLessThan(300)
    }
  })

  test('a case lands on the same shard whatever else is in the dataset or its order', () => {
    const reversed = [...ids].reverse()
    const grown = [...ids, ...Array.from({ length: 500 }, (_, i) => ({ id: `new-${i}` }))]
    const on = (list: typeof ids) => new Set(sliceForShard(list, { index: 2, count: 3, source: 'env' }).cases.map((c) => c.id))
    const base = on(ids)
    expect(on(reversed)).toEqual(base)
    expect([...on(grown)].filter((id) => id.startsWith('case-'))).toEqual([...base])
    expect(shardOf('refund-window', 4)).toBe(shardOf('refund-window', 4))
  })

  test('takeShardSlice reads the environment; no shard keeps every case', () => {
    expect(takeShardSlice(ids, {})).toEqual({ cases: ids })
    const { shard, cases } = takeShardSlice(ids, { EXPECT_LLM_SHARD: '1/2' })
    expect(shard).toMatchObject({ index: 1, count: 2, total: 1000 })
    expect(shard!.positions).toHaveLength(cases.length)
    expect([shardFileSuffix(undefined), shardFileSuffix({ index: 1, count: 2, source: 'env' })]).toEqual(['', '.shard-1-of-2'])
  })
})

describe('report options are checked when the suite is defined', () => {
  const make = (report: unknown) => () => new GoldenSuite('bot', { dataset: [], task: () => '', report } as never)
  test.each([
    [
      { html: 3 },
      "report.html must be true, false or a file path, got a number (3). Pass for example report: { html: true } or { html: 'reports/golden.html' }.",
    ],
    [
      { history: 'yes' },
      'report.history must be false or { dir?, keep?, maxAge? }, got a string ("yes"). Pass for example report: { history: { keep: 100 } }.',
    ],
    [{ history: { keep: 0 } }, 'report.history.keep must be a whole number >= 1, got a number (0). Pass for example { keep: 100 }.'],
    [
      { history: { maxAge: 'soon' } },
      "report.history.maxAge must be an age such as '90d', '12h' or a number of ms, got a string (\"soon\"). Pass for example { maxAge: '90d' }.",
    ],
    [
      { history: { maxAge: {} } },
      "report.history.maxAge must be an age such as '90d', '12h' or a number of ms, got an object. Pass for example { maxAge: '90d' }.",
    ],
    [{ history: { kept: 3 } }, 'unknown report.history option "kept". Valid options are: dir, keep, maxAge.'],
  ])('%j', (report, message) => {
    expect(make(report)).toThrow(`[expect-llm] Failed to set up describeGolden: ${message}`)
  })
  test('valid options pass', () => {
    expect(make({ html: true, history: { dir: 'h', keep: 10, maxAge: '30d' } })).not.toThrow()
    expect(make({ html: 'out/report.html', history: false })).not.toThrow()
  })
})
