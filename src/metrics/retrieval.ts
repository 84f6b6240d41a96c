/**
 * Retrieval metrics for one query: hit, precision@k, recall@k, reciprocal rank, nDCG@k, and a check
 * for relevant documents that made the top k only by a lucky tie-break.
 *
 * Hand-written: the metrics are a few lines each, and the lucky-tie check (the point of `toRetrieve`)
 * exists in no IR library.
 *
 * @module
 */
import { describeValue, formatMessage } from '../errors.js'

/** A retrieved document: its id, or its id and retrieval score (higher = more similar). */
export type RetrievedItem = string | { readonly id: string; readonly score?: number | undefined }

/** Options of {@link retrievalScores}. */
export interface RetrievalOptions {
  /** Cut-off: only the first `k` items of the ranking count. A positive integer; default: all retrieved items. */
  k?: number | undefined
  /** A relevant item in the top k whose score is not above `minScore` (score <= minScore) is flagged as lucky. */
  minScore?: number | undefined
}

/** Where one relevant id ended up. */
export interface RetrievalRank {
  /** The relevant id. */
  id: string
  /** 1-based rank of its first occurrence in the (score-sorted) ranking, or `null` if it was not retrieved. */
  rank: number | null
  /** The score of that occurrence, when the items have scores. */
  score?: number
  /** Whether it is inside the top k only by luck (see {@link retrievalScores}). Always false outside the top k. */
  lucky: boolean
  /** Why it does not count as a clean hit: not retrieved, ranked below k, tied at the cut-off, or under `minScore`. */
  reason?: string
}

/** The result of {@link retrievalScores}. Every number is in [0, 1]. */
export interface RetrievalScores {
  /** At least one relevant id is in the top k and is not lucky. */
  hit: boolean
  /** Distinct relevant ids in the top k, divided by k. */
  precision: number
  /** Distinct relevant ids in the top k, divided by the number of distinct relevant ids. */
  recall: number
  /** 1 / rank of the first relevant item in the top k; 0 when there is none. */
  mrr: number
  /** Binary-relevance nDCG@k. */
  ndcg: number
  /** Some relevant id in the top k is lucky (tied with an irrelevant item at the cut-off, or not above `minScore`). */
  luckyTie: boolean
  /** One entry per distinct relevant id, in the order given. */
  ranks: RetrievalRank[]
  /** The cut-off used. */
  k: number
}

const ACTION = 'compute retrieval scores'

function fail(reason: string, fix: string): never {
  throw new TypeError(formatMessage(`Failed to ${ACTION}: ${reason}. ${fix}`))
}

/** A retrieved item read: its id and score (`undefined` without scores). */
export interface Ranked {
  id: string
  score: number | undefined
}

function readItem(item: unknown, index: number): Ranked {
  if (typeof item === 'string') return { id: item, score: undefined }
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    fail(
      `retrieved item ${index} must be an id string or an object { id, score? }, got ${describeValue(item)}`,
      'Map your retriever results to ids (or { id, score }) first.',
    )
  }
  const { id, score } = item as { id?: unknown; score?: unknown }
  if (typeof id !== 'string') {
    fail(`retrieved item ${index} has an id that is not a string: ${describeValue(id)}`, 'Give every item a string id.')
  }
  if (score !== undefined && !Number.isFinite(score)) {
    fail(
      `retrieved item ${index} ("${id}") has a score that is not a finite number: ${describeValue(score)}`,
      'Leave the score out, or pass a finite number (higher = more similar).',
    )
  }
  return { id, score: score as number | undefined }
}

/**
 * Scores one retrieval result against the ids that should have been retrieved.
 *
 * **Ranking.** When the items carry scores, they are sorted by score, highest first; items with equal
 * scores keep their given order (stable sort). Without scores the given order is the ranking. Either
 * every item has a score or none has (a mix throws, because the rank of the unscored items would be a
 * guess). An id retrieved more than once counts at its first (best) position; later copies occupy
 * their slots but add nothing, so no value exceeds 1. Duplicate ids in `relevant` count once.
 *
 * **Metrics** over the top `k` positions (`k` defaults to the number of retrieved items, at least 1;
 * if fewer than `k` items were retrieved, the missing positions count as irrelevant):
 * - `precision` = distinct relevant ids in the top k / k;
 * - `recall` = distinct relevant ids in the top k / distinct relevant ids;
 * - `mrr` = 1 / rank of the first relevant id in the top k, else 0;
 * - `ndcg` = DCG / IDCG with binary gains, DCG = Σ 1/log2(rank + 1) over the first occurrences of
 *   relevant ids in the top k, IDCG the same for min(k, distinct relevant ids) relevant items ranked first.
 *
 * These count every relevant item in the top k, lucky or not; `hit` and `luckyTie` tell them apart.
 *
 * **Lucky.** A relevant id R whose first occurrence is in the top k is *lucky* when either
 * 1. `minScore` is set and R's score is not above it (`score <= minScore`), or
 * 2. R is in the top k only because of how equal scores were ordered: R's score equals the score of
 *    the k-th item, and the irrelevant items (ids not in `relevant`) ranked below k with that same
 *    score are at least as many as R's occurrences in the top k. Then some ordering of the tied items,
 *    equally consistent with the scores, swaps every copy of R for an irrelevant item and pushes R out.
 *    Ties with other relevant items are not lucky: swapping them keeps a relevant item in the top k.
 *
 * Without scores there are no ties, so nothing is lucky (and `minScore` throws: it needs scores).
 * `hit` is true when at least one relevant id in the top k is not lucky; `luckyTie` is true when at
 * least one relevant id in the top k is lucky.
 *
 * Throws a `TypeError` for: a non-array `retrieved`; an item that is neither a string nor
 * `{ id: string, score?: finite number }`; scores on some items but not others; an empty or
 * non-string `relevant` list (nothing to check); `k` that is not a positive integer; `minScore` that is
 * not a finite number, or `minScore` on items without scores.
 *
 * @param retrieved - the retriever's results, best first (or with scores, in any order).
 * @param relevant - the ids that should be retrieved.
 *
 * @example
 * ```ts
 * retrievalScores(['d3', 'd1', 'd7'], ['d1'], { k: 2 })
 * // { hit: true, precision: 0.5, recall: 1, mrr: 0.5, ndcg: 0.6309..., luckyTie: false, k: 2, ranks: [{ id: 'd1', rank: 2, lucky: false }] }
 *
 * retrievalScores(
 *   [{ id: 'faq', score: 0.9 }, { id: 'refunds', score: 0.71 }, { id: 'shipping', score: 0.71 }],
 *   ['refunds'],
 *   { k: 2 },
 * ).luckyTie // true: 'shipping' has the same score and could have taken the second place
 * ```
 */
export function retrievalScores(retrieved: readonly RetrievedItem[], relevant: readonly string[], options: RetrievalOptions = {}): RetrievalScores {
  const { items, hasScores } = readRetrieved(retrieved)
  readRelevant(relevant)
  const { k, minScore } = readRetrievalOptions(options, items.length, hasScores)
  // Stable sort: equal scores keep their given order.
  const ranking = hasScores ? [...items].sort((a, b) => (b.score as number) - (a.score as number)) : items
  const relevantIds = [...new Set(relevant)]
  const relevantSet = new Set(relevantIds)
  const walk = walkRanking(ranking, relevantSet, k)
  // The irrelevant items below the cut-off that share the k-th item's score. Without scores both are
  // undefined (so every irrelevant item below k is listed), but rankOf only looks at a scored item.
  const cutoffScore = ranking[k - 1]?.score
  const tiedIrrelevantOutside = ranking.slice(k).filter((item) => item.score === cutoffScore && !relevantSet.has(item.id))
  const ranks = relevantIds.map((id) => rankOf(id, { ranking, k, minScore, cutoffScore, tiedIrrelevantOutside, walk }))
  const clamp = (x: number): number => Math.min(1, Math.max(0, x))
  return {
    hit: ranks.some((r) => r.rank !== null && r.rank <= k && !r.lucky),
    precision: clamp(walk.found / k),
    recall: clamp(walk.found / relevantSet.size),
    mrr: walk.firstHitRank === 0 ? 0 : 1 / walk.firstHitRank,
    ndcg: clamp(walk.dcg / idealDcg(k, relevantSet.size)),
    luckyTie: ranks.some((r) => r.lucky),
    ranks,
    k,
  }
}

/** Reads the retrieved items; throws on a non-array, a malformed item, or scores on some items only. */
export function readRetrieved(retrieved: readonly RetrievedItem[]): { items: Ranked[]; hasScores: boolean } {
  if (!Array.isArray(retrieved)) {
    fail(`the retrieved results must be an array, got ${describeValue(retrieved)}`, 'Pass the ids (or { id, score } objects) the retriever returned.')
  }
  const items = retrieved.map((item, i) => readItem(item, i))
  const scored = items.filter((item) => item.score !== undefined).length
  if (scored > 0 && scored < items.length) {
    const missing = items.findIndex((item) => item.score === undefined)
    fail(
      `${scored} of ${items.length} retrieved items have a score but item ${missing} ("${(items[missing] as Ranked).id}") has none, ` +
        'so the ranking is ambiguous',
      'Give every item a score, or none (then the given order is the ranking).',
    )
  }
  return { items, hasScores: scored > 0 }
}

/** Checks the relevant ids: a non-empty array of strings. */
export function readRelevant(relevant: readonly string[]): void {
  if (!Array.isArray(relevant)) {
    fail(`the relevant ids must be an array of strings, got ${describeValue(relevant)}`, 'Pass the ids that should be retrieved.')
  }
  if (relevant.length === 0) {
    fail('the relevant ids are empty, so there is nothing to check', 'Pass at least one id that should be retrieved.')
  }
  relevant.forEach((id: unknown, i) => {
    if (typeof id !== 'string') fail(`relevant id ${i} is not a string: ${describeValue(id)}`, 'Pass the relevant ids as strings.')
  })
}

/** Reads `k` (default: every item, at least 1) and `minScore` (needs scored items). */
export function readRetrievalOptions(options: RetrievalOptions, itemCount: number, hasScores: boolean): { k: number; minScore: number | undefined } {
  if (typeof options !== 'object' || options === null) {
    fail(`the options must be an object, got ${describeValue(options)}`, 'Pass { k?, minScore? }.')
  }
  const { k: requestedK, minScore } = options
  if (requestedK !== undefined && (!Number.isInteger(requestedK) || requestedK < 1)) {
    fail(`k must be a positive integer, got ${describeValue(requestedK)}`, 'Pass k >= 1, or leave it out to use every retrieved item.')
  }
  if (minScore !== undefined) {
    if (!Number.isFinite(minScore)) {
      fail(`minScore must be a finite number, got ${describeValue(minScore)}`, 'Pass a number such as 0.75, or leave it out.')
    }
    if (itemCount > 0 && !hasScores) {
      fail('minScore is set but the retrieved items have no scores', 'Pass items as { id, score } to check scores, or leave minScore out.')
    }
  }
  return { k: requestedK ?? Math.max(1, itemCount), minScore }
}

/** What one pass over the ranking gives: first ranks of relevant ids, occurrences in the top k, hits, DCG. */
export interface RankingWalk {
  firstRank: Map<string, number>
  occurrencesInTopK: Map<string, number>
  /** Distinct relevant ids in the top k. */
  found: number
  dcg: number
  /** Rank of the first relevant id in the top k; 0 when none. */
  firstHitRank: number
}

/** One pass over the ranking (best first): where each relevant id first appears, and the top-k counts. */
export function walkRanking(ranking: readonly Ranked[], relevantSet: ReadonlySet<string>, k: number): RankingWalk {
  const walk: RankingWalk = { firstRank: new Map(), occurrencesInTopK: new Map(), found: 0, dcg: 0, firstHitRank: 0 }
  ranking.forEach((item, index) => {
    const rank = index + 1
    if (rank <= k) walk.occurrencesInTopK.set(item.id, (walk.occurrencesInTopK.get(item.id) ?? 0) + 1)
    if (!relevantSet.has(item.id) || walk.firstRank.has(item.id)) return
    walk.firstRank.set(item.id, rank)
    if (rank <= k) {
      walk.found++
      walk.dcg += 1 / Math.log2(rank + 1)
      if (walk.firstHitRank === 0) walk.firstHitRank = rank
    }
  })
  return walk
}

/** The ideal DCG at k: min(k, relevant) relevant items ranked first, binary gains. */
export function idealDcg(k: number, relevantCount: number): number {
  let idcg = 0
  for (let rank = 1; rank <= Math.min(k, relevantCount); rank++) idcg += 1 / Math.log2(rank + 1)
  return idcg
}

/** What {@link rankOf} reads. */
interface RankContext {
  ranking: readonly Ranked[]
  k: number
  minScore: number | undefined
  cutoffScore: number | undefined
  tiedIrrelevantOutside: readonly Ranked[]
  walk: RankingWalk
}

/** A relevant id's rank, score and, in the top k, whether it is lucky (see {@link retrievalScores}) and why. */
function rankOf(id: string, ctx: RankContext): RetrievalRank {
  const { ranking, k, minScore, cutoffScore, tiedIrrelevantOutside, walk } = ctx
  const rank = walk.firstRank.get(id) ?? null
  if (rank === null) return { id, rank, lucky: false, reason: 'not retrieved' }
  const score = (ranking[rank - 1] as Ranked).score
  const entry: RetrievalRank = { id, rank, lucky: false }
  if (score !== undefined) entry.score = score
  if (rank > k) {
    entry.reason = `ranked ${rank}, outside the top ${k}`
    return entry
  }
  const reasons: string[] = []
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent for the undefined tests, comparing with undefined is false
  if (minScore !== undefined && score !== undefined && score <= minScore) {
    reasons.push(`its score ${String(score)} is not above minScore ${String(minScore)}`)
  }
  if (score !== undefined && score === cutoffScore && tiedIrrelevantOutside.length >= (walk.occurrencesInTopK.get(id) ?? 1)) {
    const other = tiedIrrelevantOutside[0] as Ranked
    reasons.push(`it ties at score ${String(score)} with irrelevant "${other.id}" ranked just outside the top ${k}, so it is in the top ${k} only by tie order`)
  }
  if (reasons.length > 0) {
    entry.lucky = true
    entry.reason = reasons.join('; ')
  }
  return entry
}
