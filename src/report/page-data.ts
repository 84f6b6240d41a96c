/**
 * The data the HTML report is drawn from, computed here (and unit-tested) rather than in the page:
 * per suite the summary, checks, budget figures, one distribution per check, every case with its
 * verdict and whether it regressed, and the history (trend per check, verdicts per run); per
 * comparison the paired statistics and every case side by side. The page only lays it out.
 *
 * @module
 */
import { slugify } from '../golden/baseline.js'
import type { CompareReport, CompareRow, GoldenReport, ReportCase } from '../golden/report.js'
import { goldenHistoryEntry, type CompareHistoryEntry, type GoldenHistoryEntry, type HistoryEntry } from './history.js'
import type { PageCase, PageCheck, PageCompare, PageData, PageGolden, PageHistory, PageMutation, PageRunInfo } from './page-types.js'
import type { MutationReport } from '../mutation/run.js'

/** Version of the page data (the `data` block of the HTML file). */
export const PAGE_DATA_VERSION = 1

/** Number of bins of each distribution plot, over [0, 1]. */
export const HISTOGRAM_BINS = 10

/** Options of {@link buildPageData}. */
export interface PageDataOptions {
  title?: string
  /** Each suite's history, oldest first (see `readHistory`). */
  history?: (report: GoldenReport | CompareReport) => readonly HistoryEntry[]
  notes?: string[]
  /** Longest text kept per field (input, expected, output, detail); the rest is cut with a note. Default 20,000. */
  maxText?: number
  now?: Date
}

/** Text of a case field: strings as they are, anything else as indented JSON, cut at `max` characters. */
export function pageText(value: unknown, max: number): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value))
  if (text.length <= max) return text
  return `${text.slice(0, max)}… [${(text.length - max).toLocaleString('en-US')} more characters in the JSON report]`
}

/** Counts scores into {@link HISTOGRAM_BINS} bins over [0, 1] (values outside are clamped). */
export function histogram(values: readonly number[], bins = HISTOGRAM_BINS): number[] {
  const counts = new Array<number>(bins).fill(0)
  for (const v of values) {
    const clamped = Math.min(1, Math.max(0, v))
    // Scores are decimals: 0.3 must land in [0.3, 0.4), not [0.2, 0.3) through 0.3 * 10 = 2.9999999999999996.
    const i = Math.min(bins - 1, Math.floor(clamped * bins + 1e-9))
    counts[i]!++
  }
  return counts
}

function caseStatus(c: ReportCase): PageCase['status'] {
  if (c.output === null && (c.error !== undefined || (c.errors?.length ?? 0) > 0)) return 'error'
  return c.pass ? 'pass' : 'fail'
}

function suiteKey(file: string | null, suite: string): string {
  return `${file ?? 'unknown-file'}#${slugify(suite)}`
}

function runInfo(report: GoldenReport | CompareReport, ok: boolean): PageRunInfo {
  return {
    key: suiteKey(report.file, report.suite),
    name: report.suite,
    file: report.file,
    createdAt: report.createdAt,
    commit: report.git.commit,
    branch: report.git.branch,
    runner: report.runner,
    durationMs: report.durationMs,
    ...(report.merged ? { shards: report.merged.shards } : {}),
    ...(report.shard ? { shard: `${report.shard.index}/${report.shard.count}` } : {}),
    ok,
  }
}

function sameRun(entry: HistoryEntry, report: GoldenReport | CompareReport): boolean {
  return entry.createdAt === report.createdAt && entry.suite === report.suite
}

/** Golden runs of the history, with the report itself as the last run when the history does not have it. */
function goldenRuns(report: GoldenReport, history: readonly HistoryEntry[], current: GoldenHistoryEntry): { runs: GoldenHistoryEntry[]; currentIndex: number } {
  const runs = history.filter((e): e is GoldenHistoryEntry => e.kind === 'golden' && e.suite === report.suite)
  const at = runs.findIndex((e) => sameRun(e, report))
  if (at >= 0) return { runs, currentIndex: at }
  const later = runs.findIndex((e) => Date.parse(e.createdAt) > Date.parse(report.createdAt))
  const index = later < 0 ? runs.length : later
  return { runs: [...runs.slice(0, index), current, ...runs.slice(index)], currentIndex: index }
}

function pageHistory(runs: GoldenHistoryEntry[], currentIndex: number, report: GoldenReport): PageHistory {
  const ids: string[] = []
  const position = new Map<string, number>()
  for (const run of runs) {
    for (const id of run.cases.ids) {
      if (!position.has(id)) {
        position.set(id, ids.length)
        ids.push(id)
      }
    }
  }
  return {
    ids,
    runs: runs.map((run, j) => {
      const verdicts = new Array<string>(ids.length).fill('-')
      run.cases.ids.forEach((id, i) => {
        verdicts[position.get(id)!] = run.cases.verdicts[i] ?? '-'
      })
      return {
        at: run.createdAt,
        commit: run.git.commit,
        branch: run.git.branch,
        passRate: run.summary.passRate,
        means: Object.fromEntries(Object.entries(run.scorers).map(([n, s]) => [n, s.mean])),
        verdicts: verdicts.join(''),
        current: j === currentIndex,
      }
    }),
    baseline: report.baseline?.comparison ? Object.fromEntries(report.baseline.comparison.scorers.map((d) => [d.scorer, d.baseline])) : null,
    thresholds: Object.fromEntries(Object.entries(report.scorers).map(([n, s]) => [n, s?.threshold ?? null])),
  }
}

/** What {@link pageCase} reads besides the case: the previous run's verdicts and the baseline's regressions. */
export interface PageCaseContext {
  /** Each case's verdict in the previous run (`p` passed). */
  before: ReadonlyMap<string, string>
  /** Cases the baseline comparison lists as regressed. */
  regressedIds: ReadonlySet<string>
  maxText: number
}

/** The page's view of one case of a golden report: its status, whether it regressed, its texts clipped. */
export function pageCase(c: ReportCase, ctx: PageCaseContext): PageCase {
  const { maxText } = ctx
  const status = caseStatus(c)
  const page: PageCase = {
    id: c.id,
    tags: c.tags ?? [],
    status,
    flaky: c.flaky,
    regressed: status !== 'pass' && (ctx.regressedIds.has(c.id) || ctx.before.get(c.id) === 'p'),
    runs: c.runs,
    passes: c.passes,
    input: pageText(c.input, maxText),
    output: c.output === null ? null : pageText(c.output, maxText),
    scores: Object.fromEntries(
      Object.entries(c.scores).map(([n, s]) => [n, { s: s!.score, t: s!.threshold, p: s!.pass, ...(s!.detail ? { d: pageText(s!.detail, maxText) } : {}) }]),
    ),
    latencyMs: Math.round(c.latencyMs),
  }
  if (c.expected !== undefined) page.expected = pageText(c.expected, maxText)
  if (c.diagnosis)
    page.diagnosis = c.diagnosis === 'retrieval' ? 'retrieval missed the relevant documents' : 'the relevant documents were retrieved; the answer misused them'
  const errors = c.errors ?? (c.error ? [c.error] : [])
  if (errors.length > 0) page.errors = errors.map((e) => pageText(e, maxText))
  if (c.assertError) page.assertError = pageText(c.assertError, maxText)
  return page
}

/** The page's view of each scorer of a golden report: figures, mean threshold, histogram, baseline mean. */
export function pageChecks(report: GoldenReport): PageCheck[] {
  const thresholds = (report.options.thresholds ?? {}) as { mean?: Record<string, number> }
  const baselineMeans = new Map(report.baseline?.comparison?.scorers.map((d) => [d.scorer as string, d.baseline]) ?? [])
  return Object.entries(report.scorers).map(([name, sc]) => ({
    name,
    count: sc!.count,
    mean: sc!.mean,
    min: sc!.min,
    max: sc!.max,
    threshold: sc!.threshold,
    meanThreshold: thresholds.mean?.[name] ?? null,
    passRate: sc!.passRate,
    ci: [sc!.ci.low, sc!.ci.high],
    bins: histogram(report.cases.flatMap((c) => (c.scores[name as keyof typeof c.scores] ? [c.scores[name as keyof typeof c.scores]!.score] : []))),
    baseline: baselineMeans.get(name) ?? null,
  }))
}

/** The page's budget panel of a golden report: P95 latency, tokens and cost beside their limits. */
export function pageBudget(report: GoldenReport): PageGolden['budget'] {
  const budget = (report.options.budget ?? {}) as { p95LatencyMs?: number; maxTokens?: number; maxCostUsd?: number }
  const u = report.usage
  return {
    p95LatencyMs: u.latencyMs.p95,
    p95LatencyLimit: budget.p95LatencyMs ?? null,
    totalTokens: u.total.totalTokens,
    tokenLimit: budget.maxTokens ?? null,
    costUsd: u.total.costUsd,
    costLimit: budget.maxCostUsd ?? null,
    appCostUsd: u.app.costUsd,
    evaluatorCostUsd: u.evaluator.costUsd,
    unpricedModels: u.total.unpricedModels,
  }
}

/** The page's view of a golden report. */
export function goldenPageSuite(report: GoldenReport, history: readonly HistoryEntry[], maxText = 20_000): PageGolden {
  const current = goldenHistoryEntry(report)
  const { runs, currentIndex } = goldenRuns(report, history, current)
  const previous = currentIndex > 0 ? runs[currentIndex - 1] : undefined
  const before = new Map<string, string>()
  previous?.cases.ids.forEach((id, i) => before.set(id, previous.cases.verdicts[i] ?? '-'))
  const regressedIds = new Set(report.baseline?.comparison?.regressedCases.map((c) => c.id) ?? [])
  const cases = report.cases.map((c) => pageCase(c, { before, regressedIds, maxText }))
  return {
    ...runInfo(
      report,
      report.checks.every((c) => c.ok),
    ),
    kind: 'golden',
    summary: { ...report.summary, regressed: cases.filter((c) => c.regressed).length },
    checks: report.checks,
    budget: pageBudget(report),
    scorers: pageChecks(report),
    tags: [...new Set(cases.flatMap((c) => c.tags))].sort(),
    cases,
    history: runs.length > 0 ? pageHistory(runs, currentIndex, report) : null,
    ...(report.mutation ? { mutation: pageMutation(report.mutation, maxText) } : {}),
  }
}

/** The page's view of a report's `mutation` section: the checks as reported (worst first), every survivor. */
export function pageMutation(m: MutationReport, maxText = 20_000): PageMutation {
  return {
    seed: m.seed,
    operators: m.operators,
    minScore: m.minScore,
    cases: m.cases,
    mutants: m.mutants,
    survivedSuite: m.survivedSuite,
    checks: m.checks.map((c) => ({
      name: c.check,
      mutants: c.mutants,
      rejected: c.rejected,
      score: c.score,
      blindTo: c.blindTo,
      errors: c.errors.length,
      gate: c.gate,
    })),
    skipped: m.skipped,
    survivors: m.survivors.map((s) => ({ ...s, text: pageText(s.text, maxText) })),
  }
}

/** The page's view of one row of a comparison: each variant's output clipped, its scores, whether the variants differ. */
export function compareRow(
  r: CompareRow | (CompareReport['differing'][number] & { tags: string[] }),
  differing: ReadonlySet<string>,
  maxText: number,
): PageCompare['rows'][number] {
  const row: PageCompare['rows'][number] = {
    id: r.id,
    input: pageText(r.input, maxText),
    tags: r.tags ?? [],
    outputs: Object.fromEntries(Object.entries(r.outputs).map(([v, o]) => [v, o === null ? null : pageText(o, maxText)])),
    pass: r.pass,
    scores: r.scores as Record<string, Record<string, number>>,
    details: 'details' in r && r.details ? r.details : {},
    differs: differing.has(r.id),
  }
  if ('expected' in r && r.expected !== undefined) row.expected = pageText(r.expected, maxText)
  return row
}

/** A comparison's history on the page: each earlier run's means, and this run's (added when not in the history yet). */
export function compareHistory(report: CompareReport, history: readonly HistoryEntry[]): PageCompare['history'] {
  const runs = history.filter((e): e is CompareHistoryEntry => e.kind === 'compare' && e.suite === report.suite)
  const shown = runs.some((e) => sameRun(e, report)) ? runs : [...runs, null]
  const means = (e: CompareHistoryEntry) => Object.fromEntries(Object.entries(e.scorers).map(([n, s]) => [n, s.means]))
  return {
    runs: shown.map((e) =>
      e === null
        ? { at: report.createdAt, commit: report.git.commit, means: Object.fromEntries(report.scorers.map((s) => [s.scorer, s.means])), current: true }
        : { at: e.createdAt, commit: e.git.commit, means: means(e), current: sameRun(e, report) },
    ),
  }
}

/** The page's view of a comparison report. */
export function comparePageSuite(report: CompareReport, history: readonly HistoryEntry[], maxText = 20_000): PageCompare {
  const differing = new Set(report.differing.map((d) => d.id))
  const source = report.rows ?? report.differing.map((d) => ({ ...d, tags: [] as string[] }))
  return {
    ...runInfo(report, report.expectation?.ok ?? true),
    kind: 'compare',
    variants: report.variants,
    cases: report.cases,
    passRates: report.passRates,
    scorers: report.scorers.map((s) => ({
      name: s.scorer,
      means: s.means,
      pairs: s.pairs.map((p) => ({
        a: p.a,
        b: p.b,
        cases: p.cases,
        meanDiff: p.meanDiff,
        low: p.ci.low,
        high: p.ci.high,
        confidence: p.ci.confidence,
        wins: p.wins,
        ties: p.ties,
        losses: p.losses,
      })),
    })),
    mcnemar: report.mcnemar,
    expectation: report.expectation,
    rows: source.map((r) => compareRow(r, differing, maxText)),
    differingOnly: report.rows === undefined,
    history: compareHistory(report, history),
  }
}

/**
 * Builds the page data from reports (and their history): one suite each, failing suites first, then by
 * file and name.
 *
 * @example
 * ```ts
 * const data = buildPageData([goldenReport, compareReport], { history: (r) => readHistory(historyFileOf(dir, r)).entries })
 * ```
 */
export function buildPageData(reports: ReadonlyArray<GoldenReport | CompareReport>, options: PageDataOptions = {}): PageData {
  const maxText = options.maxText ?? 20_000
  const suites = reports.map((r) => {
    const history = options.history?.(r) ?? []
    return r.kind === 'golden' ? goldenPageSuite(r, history, maxText) : comparePageSuite(r, history, maxText)
  })
  suites.sort((a, b) => Number(a.ok) - Number(b.ok) || (a.file ?? '').localeCompare(b.file ?? '') || a.name.localeCompare(b.name))
  return {
    v: PAGE_DATA_VERSION,
    title: options.title ?? 'expect-llm report',
    generatedAt: (options.now ?? new Date()).toISOString(),
    suites,
    notes: options.notes ?? [],
  }
}
