/**
 * `expect-llm report [inputs...] --out report.html` and `expect-llm report --merge`: the HTML report
 * from golden JSON reports, and the merge of a sharded run (one report and one history entry per suite,
 * the aggregate gates decided over all cases, exit code 1 when one fails).
 *
 * @module
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { joinNegativeValues } from '../cli-args.js'
import { writeReport, type CompareReport, type GoldenReport } from '../golden/report.js'
import { appendHistory, historyEntry, historyFileOf, parseAge, pruneHistory, readHistory, shownPath, suiteFilePath } from './history.js'
import { DEFAULT_REPORTS_DIR, groupBySuite, latestPerSuite, loadReports, writeHtmlReport, type AnyReport } from './load.js'
import { mergeCompareShards, mergeGoldenShards, unshardedOutcome, type LoadedReport, type MergeOutcome } from './merge.js'

export const REPORT_HELP = `Usage: expect-llm report [inputs...] [options]
       expect-llm report --merge [inputs...] [options]

Writes one self-contained HTML file (no server, no network) from the JSON reports of describeGolden
and compareGolden, with each suite's history. Inputs are report files or folders searched for them
(default: .expect-llm/reports).

With --merge, the inputs are the reports of a sharded run (EXPECT_LLM_SHARD=i/n on each machine, e.g.
the artifacts of a CI matrix): each suite's shards become one report with every aggregate, comparison
statistic, gate and the baseline check recomputed over all its cases; the merged JSON reports go to
--reports-dir, one history entry per suite is added, and the exit code is 1 when a gate fails or a
shard is missing.

Options:
  --out <file>          The HTML file (default: .expect-llm/report.html under --root)
  --merge               Merge shard reports (see above)
  --reports-dir <dir>   --merge: where the merged JSON reports go (default: .expect-llm/reports under --root)
  --history <dir>       The history folder (default: .expect-llm/history under --root)
  --no-history          Neither read nor write history
  --keep <n>            Prune each suite's history to its last n runs
  --max-age <age>       Prune runs older than this, e.g. 90d, 12h
  --root <dir>          Project root: defaults are under it, and --merge reads baselines from it (default: .)
  --title <text>        The page title (default: expect-llm report)
  -h, --help            Print this help

Exit codes:
  0  written (with --merge: every gate passed)
  1  --merge: a gate failed, a shard is missing or shards do not fit together; or no report was found
  2  usage error: an unknown option or a missing value
`

/** Where the command writes. */
export interface ReportIo {
  out: (line: string) => void
  err: (line: string) => void
}

const OPTIONS = {
  out: { type: 'string' },
  merge: { type: 'boolean' },
  'reports-dir': { type: 'string' },
  history: { type: 'string' },
  'no-history': { type: 'boolean' },
  keep: { type: 'string' },
  'max-age': { type: 'string' },
  root: { type: 'string' },
  title: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

const fail = (io: ReportIo, action: string, reason: string, fix: string, code: number): number => {
  io.err(`[expect-llm] Failed to ${action}: ${reason}. ${fix}`)
  return code
}

function mergeGroup(all: LoadedReport[], root: string): MergeOutcome {
  // With shard reports present, only they are merged: a report merged earlier, or one of a whole run
  // left in the same folder (a local run before the sharded one), is not one of the shards.
  const group = all.some((g) => g.report.shard) ? all.filter((g) => g.report.shard) : all
  const first = group[0]!.report
  if (group.length === 1 && !first.shard) return unshardedOutcome(first)
  if (group.some((g) => g.report.kind !== first.kind)) {
    return { report: first, failures: [`suite "${first.suite}": its reports are of different kinds (golden and compare)`], complete: false }
  }
  return first.kind === 'golden'
    ? mergeGoldenShards(group as Array<LoadedReport<GoldenReport>>, { root })
    : mergeCompareShards(group as Array<LoadedReport<CompareReport>>)
}

function suiteLine(outcome: MergeOutcome, shards: number): string {
  const r = outcome.report
  const from = shards > 1 || r.merged ? `merged from ${shards} shard${shards === 1 ? '' : 's'}` : 'not sharded'
  const figures =
    r.kind === 'golden'
      ? `${r.summary.ran} cases, pass rate ${r.summary.passRate === null ? 'n/a' : `${(r.summary.passRate * 100).toFixed(1)}%`}`
      : `${r.cases} cases, variants ${r.variants.join(', ')}`
  return `${outcome.failures.length === 0 ? '✓' : '✗'} ${r.suite}${r.file ? ` (${r.file})` : ''}: ${from}, ${figures}`
}

/** The settings of one `expect-llm report` run, read from its arguments (see {@link readReportArgs}). */
export interface ReportSettings {
  root: string
  merge: boolean
  keep: number | undefined
  maxAgeMs: number | undefined
  /** The history folder, or `false` with --no-history. */
  historyDir: string | false
  out: string
  inputs: string[]
  reportsDir: string
  title: string | undefined
}

/** A usage error of `expect-llm report`: what to print, and the exit code (2). */
export interface ReportUsageError {
  action: string
  reason: string
  fix: string
  /** Print the help first (an unknown option or a missing value). */
  help: boolean
}

/**
 * Reads the arguments of `expect-llm report` (after `report`): the settings, `'help'` for -h, or the
 * usage error. Paths are resolved against the working folder (and --root); nothing is read or written.
 */
export function readReportArgs(argv: string[]): ReportSettings | 'help' | ReportUsageError {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>>
  try {
    parsed = parseArgs({ args: joinNegativeValues(argv, OPTIONS), options: OPTIONS, allowPositionals: true, strict: true })
  } catch (error) {
    const reason = (error as Error).message.split(/\.(?:\s|$)/)[0]!
    return { action: `run "expect-llm report ${argv.join(' ')}"`, reason, fix: 'See the options above', help: true }
  }
  const { values, positionals } = parsed
  if (values.help) return 'help'
  const usage = (reason: string, fix: string): ReportUsageError => ({ action: 'run expect-llm report', reason, fix, help: false })
  const root = resolve(values.root ?? '.')
  const keep = values.keep === undefined ? undefined : Number(values.keep)
  if (keep !== undefined && !(Number.isInteger(keep) && keep >= 1))
    return usage(`--keep ${JSON.stringify(values.keep)} is not a whole number >= 1`, 'Pass for example --keep 50')
  const maxAgeMs = values['max-age'] === undefined ? undefined : parseAge(values['max-age'])
  if (values['max-age'] !== undefined && maxAgeMs === undefined) {
    return usage(`--max-age ${JSON.stringify(values['max-age'])} is not an age`, 'Use a number with a unit, e.g. 90d, 12h or 30m')
  }
  if (values['no-history'] && (values.history !== undefined || keep !== undefined || maxAgeMs !== undefined)) {
    return usage('--no-history cannot be combined with --history, --keep or --max-age', 'Drop one of them')
  }
  return {
    root,
    merge: values.merge === true,
    keep,
    maxAgeMs,
    historyDir: values['no-history'] ? false : resolve(root, values.history ?? '.expect-llm/history'),
    out: resolve(values.out ?? resolve(root, '.expect-llm/report.html')),
    inputs: positionals.length > 0 ? positionals : [resolve(root, DEFAULT_REPORTS_DIR)],
    reportsDir: resolve(root, values['reports-dir'] ?? DEFAULT_REPORTS_DIR),
    title: values.title,
  }
}

/** Prunes a suite's history to --keep and --max-age, when asked (the history file I/O). */
function pruner(settings: ReportSettings, io: ReportIo): (report: AnyReport) => void {
  const { historyDir, keep, maxAgeMs } = settings
  return (report) => {
    if (historyDir === false || (keep === undefined && maxAgeMs === undefined)) return
    const { removed } = pruneHistory(historyFileOf(historyDir, report), {
      ...(keep !== undefined ? { keep } : {}),
      ...(maxAgeMs !== undefined ? { maxAgeMs } : {}),
    })
    if (removed > 0) io.out(`pruned ${removed} old run${removed === 1 ? '' : 's'} of "${report.suite}" from its history`)
  }
}

/** The HTML page of the latest report of each suite. */
function writePage(settings: ReportSettings, loaded: ReturnType<typeof loadReports>, io: ReportIo): number {
  const { out, historyDir, title } = settings
  const { reports, notes } = latestPerSuite(loaded.reports)
  reports.forEach(pruner(settings, io))
  const written = writeHtmlReport(reports, { out, historyDir, notes: [...loaded.problems, ...notes], ...(title ? { title } : {}) })
  for (const n of written.notes) io.err(`[expect-llm] ${n}`)
  io.out(`HTML report of ${reports.length} suite${reports.length === 1 ? '' : 's'}: ${shownPath(out)}`)
  return loaded.problems.length > 0 ? 1 : 0
}

/** --merge: each suite's shards merged, written, added to the history once, then the page; 1 when one fails. */
function mergeAndWrite(settings: ReportSettings, loaded: ReturnType<typeof loadReports>, io: ReportIo): number {
  const { root, reportsDir, historyDir, out, title } = settings
  const prune = pruner(settings, io)
  const outcomes: MergeOutcome[] = []
  let failed = loaded.problems.length > 0
  for (const group of groupBySuite(loaded.reports)) {
    const outcome = mergeGroup(group, root)
    outcomes.push(outcome)
    const report = outcome.report
    if (report.merged) writeReport(suiteFilePath(reportsDir, report.file, report.suite, '.json'), report)
    // One history entry per suite, once: a report already in the history (the same run) is not added twice.
    if (historyDir !== false && outcome.complete) {
      const file = historyFileOf(historyDir, report)
      if (!readHistory(file).entries.some((e) => e.createdAt === report.createdAt && e.suite === report.suite)) appendHistory(file, historyEntry(report))
      prune(report)
    }
    io.out(suiteLine(outcome, report.merged?.shards ?? group.length))
    for (const f of outcome.failures) io.out(`  ✗ ${f.replace(/\n/g, '\n    ')}`)
    if (outcome.failures.length > 0) failed = true
  }
  writeHtmlReport(
    outcomes.map((o) => o.report),
    { out, historyDir, notes: loaded.problems, ...(title ? { title } : {}) },
  )
  io.out(`HTML report: ${shownPath(out)}`)
  if (failed) {
    const failing = outcomes.filter((o) => o.failures.length > 0).length
    io.err(
      `[expect-llm] Failed to pass the merged golden suites: ${failing} of ${outcomes.length} have a failing check or a missing shard (listed above). ` +
        'Fix the cases or the shards, then merge again.',
    )
  }
  return failed ? 1 : 0
}

/**
 * Runs `expect-llm report` with `argv` (the arguments after `report`) and returns the exit code.
 *
 * @example
 * ```ts
 * await runReportCli(['--merge', 'shards/', '--out', 'report.html'], { out: console.log, err: console.error })
 * ```
 */
export async function runReportCli(argv: string[], io: ReportIo = { out: (l) => console.log(l), err: (l) => console.error(l) }): Promise<number> {
  const settings = readReportArgs(argv)
  if (settings === 'help') {
    io.out(REPORT_HELP)
    return 0
  }
  if ('action' in settings) {
    if (settings.help) io.err(REPORT_HELP)
    return fail(io, settings.action, settings.reason, settings.fix, 2)
  }
  const loaded = loadReports(settings.inputs)
  for (const p of loaded.problems) io.err(`[expect-llm] ${p}`)
  if (loaded.reports.length === 0) {
    return fail(
      io,
      'write the HTML report',
      `no describeGolden or compareGolden report under ${settings.inputs.map((i) => shownPath(resolve(i))).join(', ')}`,
      'Run the golden suites first (they write .expect-llm/reports/), or name the folder or files',
      1,
    )
  }
  return settings.merge ? mergeAndWrite(settings, loaded, io) : writePage(settings, loaded, io)
}
