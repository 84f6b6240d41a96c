/**
 * The small text formatters of the console summaries (scores, durations, one-line clips, error blocks):
 * a leaf module, so that the golden report and the mutation summary can both use them without importing
 * each other.
 *
 * @module
 */

/** Shortens text for one line of a CI log: newlines shown as ⏎, the middle cut with an ellipsis. */
export function clip(value: unknown, max: number): string {
  const text = (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))).replace(/\r?\n/g, '⏎').replace(/\s+/g, ' ').trim()
  const chars = Array.from(text)
  if (chars.length <= max) return text
  const head = Math.ceil((max - 1) * 0.7)
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (max - 1 - head)).join('')}`
}

/**
 * An error message for the console summary, labelled and indented, never cut in the middle: each error
 * starts on its own line, its lines follow under it (up to 12; a longer message, such as a replay miss
 * with its diff, ends with a pointer to the JSON report), and only a line over 400 characters is cut, at its end.
 */
export function messageLines(label: string, message: string, maxLines = 12): string[] {
  const head = `      ${label}: `
  const indent = ' '.repeat(head.length)
  const all = message.replace(/\r\n/g, '\n').replace(/\s+$/, '').split('\n')
  const shown = all.slice(0, maxLines).map((line, i) => `${i === 0 ? head : indent}${line.length > 400 ? `${line.slice(0, 399)}…` : line}`)
  if (all.length > maxLines) shown.push(`${indent}… ${all.length - maxLines} more line${all.length - maxLines === 1 ? '' : 's'}: see the JSON report`)
  return shown
}

/** A score with 2 decimals, or `1`/`0` exactly. */
export function fmtScore(n: number): string {
  return n === 1 ? '1' : n === 0 ? '0' : n.toFixed(2)
}

export function fmtMs(n: number | null): string {
  if (n === null) return 'n/a'
  return n >= 10_000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n).toLocaleString('en-US')} ms`
}
