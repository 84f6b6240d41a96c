/**
 * The history of golden runs: one append-only JSON Lines file per suite under `.expect-llm/history/`
 * (beside the reports), one line per run with its commit, branch, time, aggregates, usage and every
 * case's verdict and scores. JSON Lines rather than an embedded database: an append is one `write` of
 * one line (no native module, no lock for the common case), a crash mid-append costs at most that line,
 * shard and branch files concatenate, and the files diff and grep as text.
 *
 * @module
 */
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { slugify } from '../golden/baseline.js'
import type { CompareReport, GitInfo, GoldenReport } from '../golden/report.js'

/** Version of a history line. */
export const HISTORY_VERSION = 1

/** One scorer (check) over a run. */
export interface HistoryScorer {
  mean: number
  count: number
  passRate: number
  threshold: number | null
  /** The 95% confidence interval of the mean, `[low, high]`. */
  ci?: [number, number]
}

/** What every history line has: which suite ran, where and when. */
export interface HistoryRunInfo {
  v: 1
  suite: string
  file: string | null
  runner: 'vitest' | 'jest' | 'evaluate'
  createdAt: string
  git: GitInfo
  /** Merged from this many shards. */
  shards?: number
}

/** One run of a `describeGolden` suite: one line of its history file. */
export interface GoldenHistoryEntry extends HistoryRunInfo {
  kind: 'golden'
  summary: { ran: number; passed: number; failed: number; errored: number; flaky: number; passRate: number | null }
  /** Per check (scorer) name. */
  scorers: Record<string, HistoryScorer>
  /** The baseline's mean per check at this run, when the run was compared with one. */
  baseline: Record<string, number> | null
  checks: Array<{ name: string; ok: boolean }>
  usage: { totalTokens: number; costUsd: number | null; p95LatencyMs: number | null }
  /**
   * Every case, column by column: `ids[i]`'s verdict is `verdicts[i]` (`p` pass, `f` fail, `e` errored)
   * and its score on a check is `scores[check][i]` (`null` when that check did not score it).
   */
  cases: { ids: string[]; verdicts: string; scores: Record<string, Array<number | null>> }
}

/** One run of a `compareGolden` suite. */
export interface CompareHistoryEntry extends HistoryRunInfo {
  kind: 'compare'
  variants: string[]
  cases: number
  passRates: Record<string, number>
  /** Per check: each variant's mean, and each pair's mean difference with its interval. */
  scorers: Record<string, { means: Record<string, number>; pairs: Array<{ a: string; b: string; meanDiff: number; low: number; high: number }> }>
  expectation: { ok: boolean; message: string } | null
}

export type HistoryEntry = GoldenHistoryEntry | CompareHistoryEntry

const round = (n: number) => Math.round(n * 1e6) / 1e6

function runInfo(report: GoldenReport | CompareReport): HistoryRunInfo {
  return {
    v: HISTORY_VERSION,
    suite: report.suite,
    file: report.file,
    runner: report.runner,
    createdAt: report.createdAt,
    git: report.git,
    ...(report.merged ? { shards: report.merged.shards } : {}),
  }
}

/** The history line of a golden report. */
export function goldenHistoryEntry(report: GoldenReport): GoldenHistoryEntry {
  const names = Object.keys(report.scorers)
  const scorers: Record<string, HistoryScorer> = {}
  for (const [name, sc] of Object.entries(report.scorers)) {
    if (!sc) continue
    scorers[name] = { mean: round(sc.mean), count: sc.count, passRate: round(sc.passRate), threshold: sc.threshold, ci: [round(sc.ci.low), round(sc.ci.high)] }
  }
  const comparison = report.baseline?.comparison
  return {
    ...runInfo(report),
    kind: 'golden',
    summary: {
      ran: report.summary.ran,
      passed: report.summary.passed,
      failed: report.summary.failed,
      errored: report.summary.errored,
      flaky: report.summary.flaky,
      passRate: report.summary.passRate,
    },
    scorers,
    baseline: comparison ? Object.fromEntries(comparison.scorers.map((d) => [d.scorer, round(d.baseline)])) : null,
    checks: report.checks.map((c) => ({ name: c.name, ok: c.ok })),
    usage: { totalTokens: report.usage.total.totalTokens, costUsd: report.usage.total.costUsd, p95LatencyMs: report.usage.latencyMs.p95 },
    cases: {
      ids: report.cases.map((c) => c.id),
      verdicts: report.cases.map((c) => (c.output === null && c.error !== undefined ? 'e' : c.pass ? 'p' : 'f')).join(''),
      scores: Object.fromEntries(
        names.map((n) => [n, report.cases.map((c) => (c.scores[n as keyof typeof c.scores] ? round(c.scores[n as keyof typeof c.scores]!.score) : null))]),
      ),
    },
  }
}

/** The history line of a comparison report. */
export function compareHistoryEntry(report: CompareReport): CompareHistoryEntry {
  return {
    ...runInfo(report),
    kind: 'compare',
    variants: report.variants,
    cases: report.cases,
    passRates: report.passRates,
    scorers: Object.fromEntries(
      report.scorers.map((s) => [
        s.scorer,
        {
          means: Object.fromEntries(Object.entries(s.means).map(([v, m]) => [v, round(m)])),
          pairs: s.pairs.map((p) => ({ a: p.a, b: p.b, meanDiff: round(p.meanDiff), low: round(p.ci.low), high: round(p.ci.high) })),
        },
      ]),
    ),
    expectation: report.expectation ? { ok: report.expectation.ok, message: report.expectation.message } : null,
  }
}

/** The history line of any report. */
export function historyEntry(report: GoldenReport | CompareReport): HistoryEntry {
  return report.kind === 'golden' ? goldenHistoryEntry(report) : compareHistoryEntry(report)
}

/**
 * `<dir>/<test file>/<suite slug><ext>`: where a suite's file goes under a folder, as its JSON report
 * does under the reports folder (a test file outside the working directory keeps its path, made relative).
 */
export function suiteFilePath(dir: string, file: string | null, suite: string, ext: string): string {
  const safe = (file ?? 'unknown-file').replace(/^(\.\.[/\\])+/, '').replace(/^[/\\]+/, '')
  return resolve(dir, safe, `${slugify(suite)}${ext}`)
}

/** `<history dir>/<test file>/<suite slug>.jsonl`, as reports are laid out under their folder. */
export function historyPath(dir: string, file: string | null, suite: string): string {
  return suiteFilePath(dir, file, suite, '.jsonl')
}

/**
 * Appends one run to a history file (creating its folder): a single `write` of one line in append
 * mode, so concurrent appends from several processes each land whole.
 *
 * @example
 * ```ts
 * appendHistory(historyPath('.expect-llm/history', report.file, report.suite), historyEntry(report))
 * ```
 */
export function appendHistory(path: string, entry: HistoryEntry): void {
  mkdirSync(dirname(path), { recursive: true })
  appendFileSync(path, `${JSON.stringify(entry)}\n`)
}

/** A history file's runs, oldest first, and the lines that could not be read. */
export interface HistoryRead {
  entries: HistoryEntry[]
  /** Lines that are not a history entry (a run cut off mid-write, a hand edit), by 1-based line number. */
  skipped: Array<{ line: number; reason: string }>
}

function isEntry(value: unknown): value is HistoryEntry {
  const e = value as Partial<HistoryEntry> | null
  return (
    e !== null &&
    typeof e === 'object' &&
    e.v === HISTORY_VERSION &&
    (e.kind === 'golden' || e.kind === 'compare') &&
    typeof e.suite === 'string' &&
    typeof e.createdAt === 'string'
  )
}

/** Reads a history file; a missing file is an empty history. Unreadable lines are skipped and listed, never fatal. */
export function readHistory(path: string): HistoryRead {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], skipped: [] }
    throw error
  }
  const entries: HistoryEntry[] = []
  const skipped: HistoryRead['skipped'] = []
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return
    try {
      const parsed: unknown = JSON.parse(line)
      if (isEntry(parsed)) entries.push(parsed)
      else skipped.push({ line: i + 1, reason: `not a version ${HISTORY_VERSION} history entry` })
    } catch (error) {
      skipped.push({ line: i + 1, reason: `invalid JSON (${(error as Error).message})` })
    }
  })
  entries.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))
  return { entries, skipped }
}

/** Ages (`keep`'s companion `maxAge`, `--max-age`) are read as replay's `maxAge` is: `90d`, `12h`, `30m`, `45s`, `2w`, `500ms` or ms. */
export { parseAge } from '../replay/age.js'

/** How much history to keep: the last `keep` runs, and/or the runs of the last `maxAgeMs`. */
export interface PruneOptions {
  keep?: number
  maxAgeMs?: number
  now?: number
}

/** Which entries pruning keeps: a run goes when it is older than `maxAgeMs` or not among the last `keep`. */
export function selectKept<E extends { createdAt: string }>(entries: readonly E[], options: PruneOptions): E[] {
  const now = options.now ?? Date.now()
  let kept = options.maxAgeMs === undefined ? [...entries] : entries.filter((e) => now - Date.parse(e.createdAt) <= options.maxAgeMs!)
  if (options.keep !== undefined) kept = kept.slice(Math.max(0, kept.length - options.keep))
  return kept
}

/**
 * Prunes a history file to the runs {@link selectKept} keeps, rewriting it atomically (temporary file,
 * then rename). Unreadable lines are dropped. Returns how many runs were removed.
 *
 * @example
 * ```ts
 * pruneHistory('.expect-llm/history/test/bot.test.ts/support-bot.jsonl', { keep: 50, maxAgeMs: 90 * 86_400_000 })
 * ```
 */
export function pruneHistory(path: string, options: PruneOptions): { removed: number; kept: number } {
  const { entries, skipped } = readHistory(path)
  const kept = selectKept(entries, options)
  const removed = entries.length - kept.length
  if (removed === 0 && skipped.length === 0) return { removed: 0, kept: kept.length }
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, kept.map((e) => `${JSON.stringify(e)}\n`).join(''))
  renameSync(tmp, path)
  return { removed, kept: kept.length }
}

/** The history file of a report, given the history folder (see {@link historyPath}). */
export function historyFileOf(dir: string, report: { file: string | null; suite: string }): string {
  return historyPath(dir, report.file, report.suite)
}

/** A path relative to the working directory, for messages. */
export function shownPath(path: string): string {
  const rel = relative(process.cwd(), path)
  return rel.startsWith('..') ? path : rel
}
