/**
 * Shards of a golden suite: which slice of the cases this machine runs. Test runners shard by test
 * file, so a single large dataset in one file must split too: each shard takes the cases whose id
 * hashes to it (stable across runs, datasets reordered or grown: a case always lands on the same
 * shard), and `expect-llm report --merge` puts the shards back together.
 *
 * @module
 */
import { createHash } from 'node:crypto'
import { formatMessage } from '../errors.js'
import type { ReportShard } from '../golden/report.js'

/** Which shard this run is, 1-based, and where that came from. */
export interface Shard {
  index: number
  count: number
  /** `env`: `EXPECT_LLM_SHARD=i/n`. */
  source: 'env'
}

/**
 * Parses `EXPECT_LLM_SHARD` (`i/n`, 1-based, as Vitest's and Jest's `--shard`). Unset, empty or `1/1`
 * means no sharding. A malformed value throws: running every case on every shard, or none, would
 * silently double or drop the suite.
 *
 * @example
 * ```ts
 * currentShard({ EXPECT_LLM_SHARD: '2/4' }) // { index: 2, count: 4, source: 'env' }
 * ```
 */
export function currentShard(env: Record<string, string | undefined> = process.env): Shard | undefined {
  const raw = env.EXPECT_LLM_SHARD?.trim()
  if (!raw) return undefined
  const m = /^(\d+)\s*\/\s*(\d+)$/.exec(raw)
  const index = m ? Number(m[1]) : NaN
  const count = m ? Number(m[2]) : NaN
  if (!m || count < 1 || index < 1 || index > count) {
    throw new TypeError(
      formatMessage(
        `Failed to read EXPECT_LLM_SHARD: ${JSON.stringify(raw)} is not a shard. Set it to <index>/<count> ` +
          `with 1 <= index <= count, e.g. EXPECT_LLM_SHARD=2/4.`,
      ),
    )
  }
  return count === 1 ? undefined : { index, count, source: 'env' }
}

/**
 * The shard (1-based) a case belongs to: the first 32 bits of the SHA-1 of its id, modulo `count`.
 * Depends on nothing but the id and the count.
 *
 * @example
 * ```ts
 * shardOf('refund-window', 4) // always the same number from 1 to 4
 * ```
 */
export function shardOf(id: string, count: number): number {
  return (createHash('sha1').update(id).digest().readUInt32BE(0) % count) + 1
}

/** This shard's cases, in dataset order, with their positions in the full list (for the merge). */
export function sliceForShard<C extends { id: string }>(cases: readonly C[], shard: Shard | undefined): { cases: C[]; positions: number[] } {
  if (!shard) return { cases: [...cases], positions: cases.map((_, i) => i) }
  const picked: C[] = []
  const positions: number[] = []
  cases.forEach((c, i) => {
    if (shardOf(c.id, shard.count) === shard.index) {
      picked.push(c)
      positions.push(i)
    }
  })
  return { cases: picked, positions }
}

/** A suite's shard: which shard, and where its cases sit in the whole suite. */
export interface SuiteShard extends Shard {
  /** Cases of the whole suite over every shard. */
  total: number
  /** Position of each of this shard's cases in the whole suite. */
  positions: number[]
}

/**
 * The cases a suite runs on this machine: all of them, or this shard's slice when `EXPECT_LLM_SHARD`
 * is set. Called by `describeGolden` and `compareGolden` after `filter`.
 */
export function takeShardSlice<C extends { id: string }>(
  cases: readonly C[],
  env: Record<string, string | undefined> = process.env,
): { cases: C[]; shard?: SuiteShard } {
  const shard = currentShard(env)
  if (!shard) return { cases: [...cases] }
  const slice = sliceForShard(cases, shard)
  return { cases: slice.cases, shard: { ...shard, total: cases.length, positions: slice.positions } }
}

/** The aggregate checks a suite's options ask for, by the names the report gives them. */
export function aggregateCheckNames(options: {
  thresholds?: { passRate?: number; mean?: object; min?: object }
  budget?: object
  baseline?: unknown
}): string[] {
  const t = options.thresholds
  return [
    ...(t?.passRate !== undefined ? ['passRate'] : []),
    ...Object.keys(t?.mean ?? {}).map((k) => `mean.${k}`),
    ...Object.keys(t?.min ?? {}).map((k) => `min.${k}`),
    ...Object.keys(options.budget ?? {}).map((k) => `budget.${k}`),
    ...(options.baseline !== undefined && options.baseline !== false ? ['baseline'] : []),
  ]
}

/** The line a shard adds to the console summary: which slice ran, and that the gates are the merge's. */
export function shardSummaryLine(shard: { index: number; count: number; total: number; positions: readonly number[]; deferred: readonly string[] }): string {
  const deferred = shard.deferred.length > 0 ? `; aggregate checks (${shard.deferred.join(', ')}) are left to \`expect-llm report --merge\`` : ''
  return `  shard ${shard.index}/${shard.count}: ${shard.positions.length} of ${shard.total} cases${deferred}`
}

/**
 * What a shard adds to its report's file name (`<suite>.shard-2-of-4.json`), so that the reports of all
 * shards can sit in one folder (CI artifacts downloaded together) without overwriting each other.
 */
export function shardFileSuffix(shard: Shard | undefined): string {
  return shard ? `.shard-${shard.index}-of-${shard.count}` : ''
}

/**
 * The `shard` field of a shard's report (golden suite or comparison): which shard, where its cases sit in
 * the whole suite, each case's run latencies (a golden suite's, for the merged P95) and the aggregate
 * checks left to `expect-llm report --merge`.
 */
export function reportShard(shard: SuiteShard, deferred: string[], runLatenciesMs?: number[][]): ReportShard {
  const { index, count, source, total, positions } = shard
  return { index, count, source, total, positions, ...(runLatenciesMs ? { runLatenciesMs } : {}), deferred }
}
