// "Did you mean" for misspelled option and field names. The edit distance comes from fastest-levenshtein
// (Myers' bit-parallel algorithm); this file only decides which candidate is close enough to suggest.
import { distance } from 'fastest-levenshtein'

/**
 * The candidate that `name` is most likely a misspelling of, or `undefined` when none is close:
 * the same name in another case (`baseUrl` → `baseURL`), a candidate that starts with it (`ignoreBody` →
 * `ignoreBodyFields`), or one at most two edits away (one edit for names of up to three characters).
 *
 * @example
 * ```ts
 * closestName('host', ['mode', 'hosts']) // 'hosts'
 * closestName('inptu', ['id', 'input'])  // 'input'
 * closestName('colour', ['mode'])        // undefined
 * ```
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase()
  const sameCase = candidates.find((c) => c.toLowerCase() === lower)
  if (sameCase !== undefined) return sameCase
  const limit = name.length <= 3 ? 1 : 2
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of candidates) {
    const d = distance(lower, candidate.toLowerCase())
    if (d <= limit && d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  if (best !== undefined) return best
  return name.length >= 4 ? candidates.find((c) => c.toLowerCase().startsWith(lower)) : undefined
}

/**
 * ` (did you mean "hosts"?)` for a close candidate, else `''`; `prefix` is put before the suggestion
 * (`replay.` gives `"replay.hosts"`).
 *
 * @example
 * ```ts
 * `unknown option "host"${didYouMean('host', ['hosts'], 'replay.')}` // 'unknown option "host" (did you mean "replay.hosts"?)'
 * ```
 */
export function didYouMean(name: string, candidates: readonly string[], prefix = ''): string {
  const match = closestName(name, candidates)
  return match === undefined ? '' : ` (did you mean "${prefix}${match}"?)`
}
