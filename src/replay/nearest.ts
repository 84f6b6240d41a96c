/**
 * Choosing the recording a miss is compared with: among recordings of the same method and path, prefer
 * the test file's own folder, then the same origin, the same model, the same client (SDK), and then the
 * smallest text distance; ties go to the file name, never to recency.
 * @packageDocumentation
 */
import { distance } from 'fastest-levenshtein'
import { diffMaterial, type KeyDifference } from './diff.js'
import { modelOf } from './key.js'
import type { Fixture, KeyMaterial } from './types.js'

/** A recording considered for the miss diff. */
export interface NearestCandidate {
  file: string
  fixture: Fixture
  /** `true` when it lives in the folder of the test file that missed. */
  sameFolder: boolean
}

/** The chosen recording and its differences from the request. */
export interface Nearest {
  file: string
  diffs: KeyDifference[]
}

/**
 * The client family of a user agent: `OpenAI/JS 7.59.0` → `openai`, `ai/7.0.1 ...` and `ai-sdk-openai/4.0.1 ...`
 * → `ai-sdk`, `langchainjs-openai/1.0.0 ...` → `langchain`, `Anthropic/JS 1.14.0` → `anthropic`.
 */
export function clientFamily(userAgent: string | null | undefined): string | null {
  // split always gives at least one part ("" for an empty string).
  const first = (userAgent ?? '').trim().split(/[/\s]/)[0]!.toLowerCase()
  if (!first) return null
  if (first === 'ai' || first.startsWith('ai-sdk')) return 'ai-sdk'
  if (first.startsWith('langchain')) return 'langchain'
  return first
}

/**
 * How far apart the two sides of a difference are, for ranking: 50 per item of a changed array length, the edit
 * distance of two strings, otherwise the JSON lengths of both sides added up (an absent side counts 0).
 */
export function valueDistance(d: KeyDifference): number {
  if (d.lengthChange) {
    const count = (v: unknown): number => Number.parseInt(String(v), 10) || 0
    return Math.abs(count(d.recorded) - count(d.actual)) * 50
  }
  if (typeof d.recorded === 'string' && typeof d.actual === 'string') return distance(d.recorded, d.actual)
  // JSON.stringify gives undefined for the absent marker (a symbol) and for undefined.
  const size = (v: unknown): number => JSON.stringify(v)?.length ?? 0
  return size(d.recorded) + size(d.actual)
}

/**
 * Picks the recording nearest to `actual` among `candidates` (already filtered to the same method and
 * path): by folder, origin, model, client family, then total text distance, then file name.
 */
export function chooseNearest(actual: KeyMaterial, actualClient: string | null, candidates: readonly NearestCandidate[]): Nearest | undefined {
  const model = modelOf(actual)
  let best: { rank: number[]; file: string; diffs: KeyDifference[] } | undefined
  for (const c of candidates) {
    const diffs = diffMaterial(c.fixture.key, actual)
    const rank = [
      c.sameFolder ? 0 : 1,
      c.fixture.key.origin === actual.origin ? 0 : 1,
      modelOf(c.fixture.key) === model ? 0 : 1,
      clientFamily(c.fixture.meta.sdkUserAgent) === actualClient ? 0 : 1,
      diffs.reduce((sum, d) => sum + valueDistance(d), 0),
    ]
    if (!best || before(rank, c.file, best.rank, best.file)) best = { rank, file: c.file, diffs }
  }
  return best ? { file: best.file, diffs: best.diffs } : undefined
}

/** Whether rank `a` of `aFile` goes strictly before rank `b` of `bFile`: the first rank that differs decides, then the file name. */
function before(a: number[], aFile: string, b: number[], bFile: string): boolean {
  const i = a.findIndex((v, j) => v !== b[j])
  if (i === -1) return aFile < bFile
  // Stryker disable next-line EqualityOperator: equivalent, a[i] and b[i] differ (findIndex found them unequal), so < and <= agree
  return a[i]! < b[i]!
}
