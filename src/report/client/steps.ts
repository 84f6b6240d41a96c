/**
 * Pure steps of the report page's script (`app.ts`): what it computes from the page data before it
 * draws, kept apart from the DOM so that they are unit-tested in Node. No DOM, no imports but types.
 *
 * @module
 */

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
