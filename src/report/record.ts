/**
 * What a golden suite does after writing its JSON report: append the run to its history (and prune it),
 * and write the HTML report when asked (`report: { html }` or `EXPECT_LLM_HTML_REPORT`). Called once
 * by `describeGolden` and `compareGolden` when they finish.
 *
 * @module
 */
import { resolve } from 'node:path'
import { describeValue, formatMessage, isWholeNumber } from '../errors.js'
import type { CompareReport, GoldenReport } from '../golden/report.js'
import type { GoldenReportOptions } from '../golden/types.js'
import { appendHistory, historyEntry, historyFileOf, parseAge, pruneHistory, shownPath } from './history.js'
import { DEFAULT_REPORTS_DIR, defaultHistoryDir, defaultHtmlPath, latestPerSuite, loadReports, writeHtmlReport } from './load.js'

/**
 * Checks `report.history` and `report.html` when the suite is defined, so that a typo fails at once
 * rather than after the whole suite ran.
 */
export function checkRecordOptions(report: unknown, api: 'describeGolden' | 'compareGolden'): void {
  if (report === undefined || report === false || report === null || typeof report !== 'object') return
  const fail = (reason: string, fix: string): never => {
    throw new TypeError(formatMessage(`Failed to set up ${api}: ${reason}. ${fix}`))
  }
  const { history, html } = report as GoldenReportOptions
  if (html !== undefined && typeof html !== 'boolean' && (typeof html !== 'string' || html.trim() === ''))
    fail(
      `report.html must be true, false or a file path, got ${describeValue(html)}`,
      "Pass for example report: { html: true } or { html: 'reports/golden.html' }.",
    )
  if (history === undefined || history === false) return
  if (history === null || typeof history !== 'object')
    fail(`report.history must be false or { dir?, keep?, maxAge? }, got ${describeValue(history)}`, 'Pass for example report: { history: { keep: 100 } }.')
  for (const key of Object.keys(history))
    if (!['dir', 'keep', 'maxAge'].includes(key)) fail(`unknown report.history option "${key}"`, 'Valid options are: dir, keep, maxAge.')
  if (history.dir !== undefined && (typeof history.dir !== 'string' || history.dir.trim() === ''))
    fail(`report.history.dir must be a folder path, got ${describeValue(history.dir)}`, "Pass for example { dir: '.expect-llm/history' }.")
  if (history.keep !== undefined && (!isWholeNumber(history.keep) || history.keep < 1))
    fail(`report.history.keep must be a whole number >= 1, got ${describeValue(history.keep)}`, 'Pass for example { keep: 100 }.')
  if (history.maxAge !== undefined && ((typeof history.maxAge !== 'string' && typeof history.maxAge !== 'number') || parseAge(history.maxAge) === undefined))
    fail(
      `report.history.maxAge must be an age such as '90d', '12h' or a number of ms, got ${describeValue(history.maxAge)}`,
      "Pass for example { maxAge: '90d' }.",
    )
}

/** What the run recorded: lines for the console summary, and failures for the final test. */
export interface RecordOutcome {
  lines: string[]
  failures: string[]
}

/**
 * Appends the run to its history (not on a shard: the merge does) and writes the HTML report when
 * asked. Never throws: a file that cannot be written is a failure of the suite, with the reason.
 *
 * @example
 * ```ts
 * const { lines, failures } = recordRun(report, reportFile, options.report || undefined)
 * ```
 */
export function recordRun(
  report: GoldenReport | CompareReport,
  reportFile: string,
  option: GoldenReportOptions | undefined,
  env: Record<string, string | undefined> = process.env,
): RecordOutcome {
  const lines: string[] = []
  const failures: string[] = []
  const reportsDir = resolve(option?.dir ?? DEFAULT_REPORTS_DIR)
  const history = option?.history
  const historyDir = history === false ? false : history?.dir !== undefined ? resolve(history.dir) : defaultHistoryDir(reportsDir)
  if (historyDir !== false && !report.shard) {
    const file = historyFileOf(historyDir, report)
    try {
      appendHistory(file, historyEntry(report))
      if (history && (history.keep !== undefined || history.maxAge !== undefined)) {
        pruneHistory(file, {
          ...(history.keep !== undefined ? { keep: history.keep } : {}),
          ...(history.maxAge !== undefined ? { maxAgeMs: parseAge(history.maxAge)! } : {}),
        })
      }
      lines.push(`  history: ${shownPath(file)}`)
    } catch (error) {
      failures.push(
        `the run could not be added to its history ${file}: ${(error as Error).message}. Check that the ` +
          `folder is writable, or pass report: { history: false }.`,
      )
    }
  }
  const htmlOption =
    option?.html ?? (env.EXPECT_LLM_HTML_REPORT ? (['1', 'true'].includes(env.EXPECT_LLM_HTML_REPORT) ? true : env.EXPECT_LLM_HTML_REPORT) : false)
  if (htmlOption) {
    const out = typeof htmlOption === 'string' ? resolve(htmlOption) : defaultHtmlPath(reportsDir)
    try {
      // Every report in the folder, so that the page written by the last suite of a run shows them all.
      const loaded = loadReports([reportsDir])
      const picked = latestPerSuite(loaded.reports.some((r) => r.path === reportFile) ? loaded.reports : [...loaded.reports, { path: reportFile, report }])
      writeHtmlReport(picked.reports, { out, historyDir, notes: [...loaded.problems, ...picked.notes] })
      lines.push(`  html: ${shownPath(out)}`)
    } catch (error) {
      failures.push(
        `the HTML report could not be written to ${out}: ${(error as Error).message}. Check that the folder is writable, or pass report: { html: false }.`,
      )
    }
  }
  return { lines, failures }
}
