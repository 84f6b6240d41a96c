// Ages of fixtures: `maxAge` (configure) and `--max-age` (fixtures verify) take the same values.

/**
 * Parses `30d`, `12h`, `90m`, `45s`, `2w`, `500ms` or a number of milliseconds. Returns `undefined` when invalid.
 *
 * @example
 * ```ts
 * parseAge('90d') // 7776000000
 * parseAge('soon') // undefined
 * ```
 */
export function parseAge(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?$/.exec(value.trim())
  if (!m) return undefined
  const n = Number(m[1])
  const unit = { ms: 1, s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3 }[(m[2] ?? 'ms') as 'ms']
  return n * unit
}

/** An age in the largest whole unit that reads well: `45m`, `12h`, `120d`. */
export function formatAge(ms: number): string {
  if (ms < 3600e3) return `${Math.max(0, Math.round(ms / 60e3))}m`
  if (ms < 86400e3) return `${Math.round(ms / 3600e3)}h`
  return `${Math.round(ms / 86400e3)}d`
}
