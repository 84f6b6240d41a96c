/**
 * Pure steps of the report page's script (`app.ts`): what it computes from the page data before it
 * draws, kept apart from the DOM so that they are unit-tested in Node. No DOM, no imports but types.
 *
 * @module
 */
import type { PageCase, PageCompare, PageGolden, PageMutation } from '../page-types.js'

/** A case whose verdict differs between two runs (`p` pass, `f` fail, `e` errored, `-` not in the run). */
export interface VerdictChange {
  id: string
  before: string
  after: string
}

/**
 * The cases whose verdict differs between two runs of a suite's history: now failing first, then now
 * passing, then the rest (added, removed), each by id; with the counts of the summary line.
 */
export function verdictChangesBetween(
  ids: readonly string[],
  before: string,
  after: string,
): { changed: VerdictChange[]; nowFailing: number; nowPassing: number } {
  const changed: VerdictChange[] = []
  ids.forEach((id, i) => {
    const was = before[i] ?? '-'
    const is = after[i] ?? '-'
    if (was !== is) changed.push({ id, before: was, after: is })
  })
  const rank = (c: VerdictChange) => (c.after === 'f' || c.after === 'e' ? 0 : c.after === 'p' ? 1 : 2)
  changed.sort((x, y) => rank(x) - rank(y) || x.id.localeCompare(y.id))
  const nowFailing = changed.filter((c) => c.before === 'p' && (c.after === 'f' || c.after === 'e')).length
  const nowPassing = changed.filter((c) => c.after === 'p' && (c.before === 'f' || c.before === 'e')).length
  return { changed, nowFailing, nowPassing }
}

type CompareRow = PageCompare['rows'][number]

/** Variant `b`'s score on check `n` minus variant `a`'s, or null when either has no score for it. */
export function scoreDelta(r: CompareRow, a: string, b: string, n: string): number | null {
  return r.scores[b]?.[n] !== undefined && r.scores[a]?.[n] !== undefined ? r.scores[b]![n]! - r.scores[a]![n]! : null
}

/** Whether a comparison's case shows under the filters: only differing cases, and a lower-case query in id, input or an output. */
export function compareRowMatches(r: CompareRow, query: string, onlyDiffering: boolean): boolean {
  if (onlyDiffering && !r.differs) return false
  if (
    query &&
    !r.id.toLowerCase().includes(query) &&
    !r.input.toLowerCase().includes(query) &&
    !Object.values(r.outputs).some((o) => (o ?? '').toLowerCase().includes(query))
  )
    return false
  return true
}

/** Per check, the paired difference of variant `b` against the first with its interval (checks without that pair left out). */
export function pairIntervalRows(scorers: PageCompare['scorers'], b: string): Array<{ label: string; diff: number; low: number; high: number }> {
  return scorers.flatMap((sc) => {
    const p = sc.pairs.find((x) => x.b === b)
    return p ? [{ label: sc.name, diff: p.meanDiff, low: p.low, high: p.high }] : []
  })
}

/** The line of McNemar's test between two variants. */
export function mcnemarLine(m: PageCompare['mcnemar'][number]): string {
  return (
    `McNemar ${m.b} vs ${m.a}: ${m.aOnly + m.bOnly} discordant (${m.a} only ${m.aOnly}, ${m.b} only ` +
    `${m.bOnly}), p = ${m.pValue < 0.0001 ? m.pValue.toExponential(2) : m.pValue.toFixed(4)} ` +
    `(${m.method === 'exact' ? 'exact binomial' : 'chi-square'})`
  )
}

/** Rows sorted by a key, ascending (`dir` 1) or descending (-1); rows with equal keys keep their order. */
export function sortedRows<R>(rows: readonly R[], key: (row: R) => number | string, dir: 1 | -1): R[] {
  return rows
    .map((row, i) => ({ row, i, k: key(row) }))
    .sort((a, b) => (a.k < b.k ? -dir : a.k > b.k ? dir : a.i - b.i))
    .map((x) => x.row)
}

/** The page of a table to show: at least one page, the page asked for kept within them, its rows' slice `[start, end)`. */
export function pageWindow(total: number, page: number, pageSize: number): { pages: number; page: number; start: number; end: number } {
  const pages = Math.max(1, Math.ceil(total / pageSize))
  const shown = Math.min(page, pages - 1)
  const start = shown * pageSize
  return { pages, page: shown, start, end: start + pageSize }
}

/** A score as the page shows it: `–` for none, `1` and `0` bare, else two decimals. */
export const fmtScore = (n: number | null | undefined): string => (n === null || n === undefined ? '–' : n === 1 ? '1' : n === 0 ? '0' : n.toFixed(2))
/** A whole number with thousands separators. */
export const fmtInt = (n: number): string => n.toLocaleString('en-US')
/** `1 run`, `1,200 runs`. */
export const plural = (n: number, word: string): string => `${fmtInt(n)} ${word}${n === 1 ? '' : 's'}`

// ---------------------------------------------------------------- trend chart

/** The trend chart's frame: view box and margins, in SVG units. */
export const TREND = { W: 360, H: 170, m: { l: 34, r: 12, t: 14, b: 30 } } as const
const TREND_IW = TREND.W - TREND.m.l - TREND.m.r
const TREND_IH = TREND.H - TREND.m.t - TREND.m.b

/** The x of run `i` of `n` in the trend chart: spread over the plot's width, a single run in its middle. */
export function trendX(i: number, n: number): number {
  return TREND.m.l + (n === 1 ? TREND_IW / 2 : (i / (n - 1)) * TREND_IW)
}

/** The y of a score in the trend chart, the score clamped to [0, 1]. */
export function trendY(v: number): number {
  return TREND.m.t + TREND_IH - Math.min(1, Math.max(0, v)) * TREND_IH
}

/** One line of a trend: a name and a value per run (`null` where the run has none). */
export interface TrendSeries {
  name: string
  values: Array<number | null>
}

/** A reference line of a trend chart (threshold, baseline). */
export interface TrendRef {
  label: string
  value: number
  kind: 'threshold' | 'baseline'
}

/** The caption of a trend: each series' value at the run shown (else its last value), then the reference lines. */
export function trendCaption(title: string, runs: number, series: readonly TrendSeries[], refs: readonly TrendRef[], current: number): string {
  const last = (values: Array<number | null>) => [...values].reverse().find((v) => v !== null) ?? null
  const nows = series.map((se) => `${series.length > 1 ? `${se.name} ` : ''}now ${fmtScore(se.values[current] ?? last(se.values))}`)
  return `${title} over ${plural(runs, 'run')}: ${nows.join(', ')}${refs.map((r) => `; ${r.label}`).join('')}.`
}

/**
 * The run labels shown under a trend: about six, always the last; the first and last anchored inside the
 * plot so that they are not cut at its edges.
 */
export function trendTicks(labels: readonly string[]): Array<{ i: number; label: string; anchor: 'start' | 'middle' | 'end' }> {
  const n = labels.length
  const every = Math.max(1, Math.ceil(n / 6))
  return labels.flatMap((label, i) =>
    i % every === 0 || i === n - 1 ? [{ i, label, anchor: n > 1 && i === 0 ? 'start' : n > 1 && i === n - 1 ? 'end' : 'middle' }] : [],
  ) as Array<{ i: number; label: string; anchor: 'start' | 'middle' | 'end' }>
}

/** The SVG path of a series over `n` runs: a gap where a run has no value (the line starts again after it). */
export function trendPath(values: ReadonlyArray<number | null>, n: number): string {
  let d = ''
  values.forEach((v, i) => {
    if (v === null) return
    d += `${d === '' || values[i - 1] === null ? 'M' : 'L'}${trendX(i, n).toFixed(1)},${trendY(v).toFixed(1)}`
  })
  return d
}

// ---------------------------------------------------------------- tables

/** The sort after a click on a column's header: the same column flips direction, another sorts ascending. */
export function nextSort(current: { key: string; dir: 1 | -1 }, key: string): { key: string; dir: 1 | -1 } {
  return current.key === key ? { key, dir: current.dir === 1 ? -1 : 1 } : { key, dir: 1 }
}

/** The `aria-sort` state of a column's header. */
export function ariaSort(sort: { key: string; dir: 1 | -1 }, key: string): 'ascending' | 'descending' | 'none' {
  return sort.key === key ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'
}

/** The filters of the cases table: which cases to show, a tag, and a lower-case query. */
export interface CaseFilter {
  show: string
  tag: string
  query: string
}

/** Whether a case shows under the filters: failures, regressions, flaky or errored only; a tag; a query in id, input or output. */
export function caseMatches(c: PageCase, f: CaseFilter): boolean {
  if (f.show === 'failures' && c.status === 'pass') return false
  if (f.show === 'regressions' && !c.regressed) return false
  if (f.show === 'flaky' && !c.flaky) return false
  if (f.show === 'errored' && c.status !== 'error') return false
  if (f.tag && !c.tags.includes(f.tag)) return false
  const q = f.query
  return !q || c.id.toLowerCase().includes(q) || c.input.toLowerCase().includes(q) || (c.output ?? '').toLowerCase().includes(q)
}

/** The choices of the cases table's "Show" filter, each with its count. */
export function caseShowOptions(suite: Pick<PageGolden, 'cases' | 'summary'>): Array<[string, string]> {
  return [
    ['all', `all (${fmtInt(suite.cases.length)})`],
    ['failures', `failures (${fmtInt(suite.summary.failed)})`],
    ['regressions', `regressions (${fmtInt(suite.summary.regressed)})`],
    ['flaky', `flaky (${fmtInt(suite.summary.flaky)})`],
    ['errored', `errored (${fmtInt(suite.summary.errored)})`],
  ]
}

// ---------------------------------------------------------------- mutation section

/** The mutants a check let pass, of how many, and its errors. */
export function mutantsPassedText(c: PageMutation['checks'][number]): string {
  return `${fmtInt(c.mutants - c.rejected)} of ${fmtInt(c.mutants)}${c.errors > 0 ? ` (${plural(c.errors, 'error')})` : ''}`
}

/** The settings line of a mutation run: seed, operators, and the gate's minimum score. */
export function mutationMeta(m: Pick<PageMutation, 'seed' | 'operators' | 'minScore'>): string {
  return `seed ${m.seed} · operators ${m.operators.join(', ')}${m.minScore !== null ? ` · minScore ${fmtScore(m.minScore)}` : ''}`
}

/** The checks a mutation run skipped, with why (none: no line). */
export function mutationSkippedText(skipped: PageMutation['skipped']): string | null {
  return skipped.length > 0 ? `Skipped: ${skipped.map((s) => `${s.check} (${s.reason})`).join('; ')}.` : null
}

/** The suite a page address names (`#suite=<key>`, URI-encoded); empty when it names none. */
export function suiteKeyOfHash(hash: string): string {
  return decodeURIComponent(/^#suite=(.*)$/.exec(hash)?.[1] ?? '')
}
