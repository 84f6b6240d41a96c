/**
 * Pure steps of the report page's script (`app.ts`): what it computes from the page data before it
 * draws, kept apart from the DOM so that they are unit-tested in Node. No DOM, no imports but types.
 *
 * @module
 */
import type { PageCompare } from '../page-types.js'

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
