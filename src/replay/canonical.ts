/**
 * Canonical JSON: object keys sorted recursively, `undefined` dropped, array order kept. Two bodies that
 * differ only in key order give the same canonical text, so they share a fixture key.
 */

/** Returns a deep copy of `value` with object keys sorted recursively and `undefined` members dropped. */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sortKeysDeep(v)))
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k]
      if (v !== undefined) out[k] = sortKeysDeep(v)
    }
    return out
  }
  return value
}

/** Serializes `value` as canonical JSON (sorted keys, no whitespace). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeysDeep(value))
}
