/**
 * The pure steps that explain a retrieval verdict (what `toRetrieve`'s failure message shows): the ranking
 * the scores were computed on, why a hit in the top k was lucky, and the retrieved list around the cut-off.
 * Every step reads what {@link retrievalScores} returned; none computes a score.
 *
 * @module
 */
import type { RetrievalRank, RetrievalScores, RetrievedItem } from './retrieval.js'

/** How many items after the cut-off the retrieved list shows (to show ties just outside the top k). */
export const SHOWN_AFTER_K = 3

/** The prefix of the retrieval metrics' input errors, which a matcher restates as its usage error. */
export const RETRIEVAL_ERROR_PREFIX = '[expect-llm] Failed to compute retrieval scores: '

function itemId(item: RetrievedItem): string {
  return typeof item === 'string' ? item : item.id
}

function itemScore(item: RetrievedItem): number | undefined {
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, a string's .score is undefined too
  return typeof item === 'string' ? undefined : item.score
}

/** The ranking the scores were computed on: by score, highest first (stable), or as given without scores. */
export function rankRetrieved(retrieved: readonly RetrievedItem[]): RetrievedItem[] {
  // Equivalent mutants: the engine refuses a list with some scores missing, and sorting unscored items (NaN
  // comparisons) keeps their order.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,MethodExpression: equivalent (see above)
  const scored = retrieved.length > 0 && retrieved.every((item) => itemScore(item) !== undefined)
  return scored ? [...retrieved].sort((a, b) => (itemScore(b) as number) - (itemScore(a) as number)) : [...retrieved]
}

/** The score of the last item in the top k, when items lie past the cut-off (`undefined` without scores). */
export function cutOffScore(ranked: readonly RetrievedItem[], k: number): number | undefined {
  // Stryker disable next-line EqualityOperator: equivalent, at length k nothing lies outside the top k to tie with
  return ranked.length > k ? itemScore(ranked[k - 1] as RetrievedItem) : undefined
}

/** One relevant id's line: `"a": rank 2, score 0.9: hit` (or outside the top k, lucky, not retrieved). */
export function rankLine(rank: RetrievalRank, k: number): string {
  if (rank.rank === null) return `  ${JSON.stringify(rank.id)}: not retrieved`
  const where = `rank ${rank.rank}${rank.score !== undefined ? `, score ${rank.score}` : ''}`
  // Stryker disable next-line StringLiteral: equivalent, the engine gives every lucky rank a reason
  const verdict = rank.rank > k ? `outside the top ${k}` : rank.lucky ? `LUCKY, does not count: ${rank.reason ?? ''}` : 'hit'
  return `  ${JSON.stringify(rank.id)}: ${where}: ${verdict}`
}

/**
 * Why the lucky hits do not count: a tie at the cut-off with an irrelevant item past it, and/or a score not
 * above `minScore`. Empty when no hit is lucky.
 */
export function luckCauses(scores: RetrievalScores, ranked: readonly RetrievedItem[], relevant: ReadonlySet<string>, minScore: number | undefined): string[] {
  const { k } = scores
  const cutOff = cutOffScore(ranked, k)
  const lucky = scores.ranks.filter((r) => r.lucky)
  // Stryker disable next-line ConditionalExpression: equivalent when true, an unscored list has no lucky hits for the tie to explain
  const tiedOutside = cutOff !== undefined && ranked.slice(k).some((item) => itemScore(item) === cutOff && !relevant.has(itemId(item)))
  // Stryker disable next-line LogicalOperator,ConditionalExpression: equivalent for the undefined checks, a comparison with undefined is false
  const belowMin = (r: RetrievalRank) => minScore !== undefined && r.score !== undefined && r.score <= minScore
  return [
    lucky.some((r) => !belowMin(r) || (r.score === cutOff && tiedOutside)) ? 'a tie at the cut-off' : undefined,
    // Equivalent mutant: lucky hits are all under minScore or one above it at rank k (a hit under it would
    // rank lower), and causes are read only when some are lucky.
    // Stryker disable next-line MethodExpression: equivalent (see above)
    lucky.some(belowMin) ? `a score not above minScore ${String(minScore)}` : undefined,
  ].filter((cause) => cause !== undefined)
}

/**
 * The first `k + SHOWN_AFTER_K` items of the ranking, one line each: rank, id, score and marks (relevant,
 * the cut-off, an item past the cut-off that ties with it).
 */
export function retrievedRows(ranked: readonly RetrievedItem[], k: number, relevant: ReadonlySet<string>): string[] {
  const cutOff = cutOffScore(ranked, k)
  return ranked.slice(0, k + SHOWN_AFTER_K).map((item, i) => {
    const score = itemScore(item)
    const tiesCutOff = i + 1 > k && score !== undefined && score === cutOff
    const marks = [
      relevant.has(itemId(item)) ? 'relevant' : undefined,
      i + 1 === k && ranked.length > k ? 'cut-off' : undefined,
      tiesCutOff ? 'ties with the cut-off' : undefined,
    ].filter(Boolean)
    const scored = score !== undefined ? ` ${score}` : ''
    return `  ${String(i + 1).padStart(2)}. ${JSON.stringify(itemId(item))}${scored}${marks.length > 0 ? ` (${marks.join(', ')})` : ''}`
  })
}

/**
 * An input error of the retrieval metrics as a matcher's usage error: its reason and its fix sentence, or
 * `undefined` for any other error (rethrown as it is).
 */
export function retrievalInputError(error: unknown): { reason: string; fix: string } | undefined {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, the engine throws only TypeErrors with this prefix
  if (!(error instanceof TypeError && error.message.startsWith(RETRIEVAL_ERROR_PREFIX))) return undefined
  const text = error.message.slice(RETRIEVAL_ERROR_PREFIX.length)
  const split = text.search(/\. (?=[A-Z])/)
  // Every engine message ends with a fix sentence that starts with a capital, so split is never -1:
  // Stryker disable next-line ConditionalExpression,EqualityOperator,UnaryOperator,Regex,StringLiteral,MethodExpression: equivalent, see above
  if (split === -1) return { reason: text.replace(/\.$/, ''), fix: 'Pass ids, or { id, score } objects.' }
  return { reason: text.slice(0, split), fix: text.slice(split + 2) }
}
