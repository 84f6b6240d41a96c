/**
 * Finding and reading golden JSON reports (files, or folders searched recursively), picking one report
 * per suite, and writing the HTML page from reports and their history.
 *
 * @module
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { slugify } from '../golden/baseline.js'
import type { CompareReport, GoldenReport } from '../golden/report.js'
import { historyFileOf, readHistory, shownPath, type HistoryEntry } from './history.js'
import { renderReportHtml, writeFileAtomic } from './html.js'
import { buildPageData } from './page-data.js'

/** A report read from a file. */
export interface LoadedReport<R = GoldenReport | CompareReport> {
  path: string
  report: R
}

export type AnyReport = GoldenReport | CompareReport

/** Where golden suites write their JSON reports unless `report.dir` says otherwise. */
export const DEFAULT_REPORTS_DIR = '.expect-llm/reports'

/** The history folder of a reports folder: `history` beside it (`.expect-llm/history`). */
export function defaultHistoryDir(reportsDir: string): string {
  return join(dirname(resolve(reportsDir)), 'history')
}

/** The HTML report's default path for a reports folder: `report.html` beside it (`.expect-llm/report.html`). */
export function defaultHtmlPath(reportsDir: string): string {
  return join(dirname(resolve(reportsDir)), 'report.html')
}

/** Whether parsed JSON is a golden or comparison report this version reads. */
export function isReport(value: unknown): value is AnyReport {
  const r = value as Partial<AnyReport> | null
  if (r === null || typeof r !== 'object' || r.schemaVersion !== 1 || typeof r.suite !== 'string') return false
  if (r.kind === 'golden') return Array.isArray((r as GoldenReport).cases) && typeof (r as GoldenReport).summary === 'object'
  return r.kind === 'compare' && Array.isArray((r as CompareReport).variants) && Array.isArray((r as CompareReport).scorers)
}

const SKIP_DIRS = new Set(['node_modules', '.git'])

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) walk(path, out)
    } else if (entry.isFile() && entry.name.endsWith('.json')) out.push(path)
  }
}

/** Reports found under the inputs, and the problems met (a missing input, an unreadable named file). */
export interface LoadResult {
  reports: LoadedReport[]
  problems: string[]
}

/**
 * Reads the reports named or found under `inputs`. In a folder, JSON files that are not reports are
 * passed over; a file named on its own must be a report.
 */
export function loadReports(inputs: readonly string[]): LoadResult {
  const reports: LoadedReport[] = []
  const problems: string[] = []
  for (const input of inputs) {
    const path = resolve(input)
    let isDir: boolean
    try {
      isDir = statSync(path).isDirectory()
    } catch {
      problems.push(`${input} does not exist`)
      continue
    }
    const files: string[] = []
    if (isDir) walk(path, files)
    else files.push(path)
    for (const file of files) {
      let parsed: unknown
      try {
        parsed = JSON.parse(readFileSync(file, 'utf8'))
      } catch (error) {
        problems.push(`${shownPath(file)} is not valid JSON (${(error as Error).message})`)
        continue
      }
      if (isReport(parsed)) reports.push({ path: file, report: parsed })
      else if (!isDir) problems.push(`${shownPath(file)} is not a describeGolden or compareGolden report (schemaVersion 1)`)
    }
  }
  return { reports, problems }
}

/** The key of a suite: its test file and name. */
export function suiteKeyOf(report: { file: string | null; suite: string }): string {
  return `${report.file ?? 'unknown-file'}#${slugify(report.suite)}`
}

/** Reports grouped by suite, in the order first met. */
export function groupBySuite<R extends LoadedReport>(reports: readonly R[]): R[][] {
  const groups = new Map<string, R[]>()
  for (const r of reports) {
    const key = suiteKeyOf(r.report)
    groups.set(key, [...(groups.get(key) ?? []), r])
  }
  return [...groups.values()]
}

/**
 * One report per suite for the page: a whole run (not a shard's) before a shard's, then the latest. Notes
 * say when a suite had shard reports that were not merged.
 */
export function latestPerSuite(reports: readonly LoadedReport[]): { reports: AnyReport[]; notes: string[] } {
  const notes: string[] = []
  const picked = groupBySuite(reports).map((group) => {
    const sorted = [...group].sort(
      (a, b) => Number(Boolean(a.report.shard)) - Number(Boolean(b.report.shard)) || Date.parse(b.report.createdAt) - Date.parse(a.report.createdAt),
    )
    const best = sorted[0]!.report
    const shards = new Set(group.filter((g) => g.report.shard).map((g) => g.report.shard!.index))
    if (best.shard && shards.size > 1)
      notes.push(
        `"${best.suite}" has reports from ${shards.size} shards: this page shows shard ` +
          `${best.shard.index}/${best.shard.count} only. Run expect-llm report --merge to combine them.`,
      )
    return best
  })
  return { reports: picked, notes }
}

/** Options of {@link writeHtmlReport}. */
export interface HtmlReportOptions {
  out: string
  /** The history folder, or `false` for none. */
  historyDir: string | false
  title?: string
  notes?: string[]
}

/**
 * Writes the HTML report of `reports` (with each suite's history) to `out`, atomically. Returns the
 * notes shown at the top of the page (unreadable history lines, ...).
 *
 * @example
 * ```ts
 * writeHtmlReport(latestPerSuite(loadReports(['.expect-llm/reports']).reports).reports, { out: 'report.html', historyDir: '.expect-llm/history' })
 * ```
 */
export function writeHtmlReport(reports: readonly AnyReport[], options: HtmlReportOptions): { notes: string[] } {
  const notes = [...(options.notes ?? [])]
  const histories = new Map<string, readonly HistoryEntry[]>()
  if (options.historyDir !== false) {
    for (const r of reports) {
      const file = historyFileOf(options.historyDir, r)
      const read = readHistory(file)
      if (read.skipped.length > 0)
        notes.push(
          `${shownPath(file)}: ${read.skipped.length} unreadable line${read.skipped.length === 1 ? '' : 's'} ` +
            `skipped (line ${read.skipped.map((s) => s.line).join(', ')})`,
        )
      histories.set(suiteKeyOf(r), read.entries)
    }
  }
  const data = buildPageData(reports, { ...(options.title ? { title: options.title } : {}), notes, history: (r) => histories.get(suiteKeyOf(r)) ?? [] })
  writeFileAtomic(options.out, renderReportHtml(data))
  return { notes }
}
