/**
 * The end of a suite on disk (`describeGolden` and `compareGolden`): its JSON report written atomically,
 * then the run recorded in the history (and the HTML page) by `recordRun`. The file I/O of a suite's end
 * is here, so that the steps before it stay pure.
 *
 * @module
 */
import { recordRun } from '../report/record.js'
import { shardFileSuffix, type SuiteShard } from '../report/shard.js'
import { slugify } from './baseline.js'
import { type CompareReport, type GoldenReport, reportPath, writeReport } from './report.js'
import type { GoldenReportOptions } from './types.js'

/** What saving a suite's report gave: the file written, the failures (write, history), the console lines of the history. */
export interface SavedReport {
  /** Unset when `report: false` or when the report could not be written. */
  reportFile?: string
  failures: string[]
  historyLines: string[]
}

/**
 * Writes a suite's JSON report under `report.dir` (default `.expect-llm/reports`), at the test file's path
 * and the suite's slug (with the shard's suffix), then records the run. A write that fails is a failure
 * (with `fix`, what to do), never a crash; nothing is written with `report: false`.
 */
export function saveSuiteReport(
  report: GoldenReport | CompareReport,
  option: GoldenReportOptions | false | undefined,
  where: { suite: string; testPath: string | undefined; shard: SuiteShard | undefined },
  fix?: string,
): SavedReport {
  if (option === false) return { failures: [], historyLines: [] }
  const file = reportPath(option?.dir ?? '.expect-llm/reports', where.testPath, `${slugify(where.suite)}${shardFileSuffix(where.shard)}`)
  try {
    writeReport(file, report)
  } catch (error) {
    return { failures: [`the JSON report could not be written to ${file}: ${(error as Error).message}${fix ? `. ${fix}` : ''}`], historyLines: [] }
  }
  const recorded = recordRun(report, file, option)
  return { reportFile: file, failures: recorded.failures, historyLines: recorded.lines }
}
