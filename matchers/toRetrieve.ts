import { describeValue, directInput, retrievalCheck, type RetrievalScores, type RetrievedItem, runDirect } from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { checkStringArray, definitionPlan, fmt, hint, lines, usageError, type Signature } from './utils.js'

/** Options of {@link toRetrieve}. */
export interface RetrieveOptions {
  /** Cut-off: a relevant id must be within the first `k` results. Default: every retrieved item. */
  k?: number
  /** With scored items: a relevant item whose score is not above `minScore` does not count as a hit. */
  minScore?: number
}

/** How many items after the cut-off the message lists (to show ties just outside the top k). */
const SHOWN_AFTER_K = 3
const PREFIX = '[expect-llm] Failed to compute retrieval scores: '

function itemId(item: RetrievedItem): string {
  return typeof item === 'string' ? item : item.id
}

function itemScore(item: RetrievedItem): number | undefined {
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, a string's .score is undefined too
  return typeof item === 'string' ? undefined : item.score
}

/** The ranking the scores were computed on: by score, highest first (stable), or as given without scores. */
function ranking(retrieved: readonly RetrievedItem[]): RetrievedItem[] {
  // Equivalent mutants: the engine refuses a list with some scores missing, and sorting unscored items (NaN
  // comparisons) keeps their order.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,MethodExpression: equivalent (see above)
  const scored = retrieved.length > 0 && retrieved.every((item) => itemScore(item) !== undefined)
  return scored ? [...retrieved].sort((a, b) => (itemScore(b) as number) - (itemScore(a) as number)) : [...retrieved]
}

function rankLine(rank: RetrievalScores['ranks'][number], k: number): string {
  if (rank.rank === null) return `  ${JSON.stringify(rank.id)}: not retrieved`
  const where = `rank ${rank.rank}${rank.score !== undefined ? `, score ${rank.score}` : ''}`
  // Stryker disable next-line StringLiteral: equivalent, the engine gives every lucky rank a reason
  const verdict = rank.rank > k ? `outside the top ${k}` : rank.lucky ? `LUCKY, does not count: ${rank.reason ?? ''}` : 'hit'
  return `  ${JSON.stringify(rank.id)}: ${where}: ${verdict}`
}

/**
 * Passes when at least one relevant id is retrieved within the top `k` (default: anywhere in the list),
 * and that hit is not luck: with scored results, a relevant item that is in the top k only because it ties
 * at the cut-off with an irrelevant item (the order of equal scores decided it), or whose score is not above
 * `minScore`, does not count. The received value is the retrieved list, best first: ids, or
 * `{ id, score }` objects in any order (they are ranked by score). A failure shows the rank and score of
 * each relevant id, precision@k, recall@k and MRR, and says plainly when a hit was lucky.
 *
 * @example
 * ```ts
 * expect(await search('how do refunds work')).toRetrieve(['refund-policy'], { k: 3 })
 * expect(hits.map((h) => ({ id: h.docId, score: h.similarity }))).toRetrieve(['refund-policy'], { k: 3, minScore: 0.75 })
 * expect(await search('shipping to Mars')).not.toRetrieve(['shipping-policy'], { k: 5 })
 * ```
 */
export function toRetrieve(this: MatcherContext, received: unknown, relevantIds: unknown, options?: RetrieveOptions): MatcherResult {
  const sig: Signature = { name: 'toRetrieve', received: 'retrieved', expected: 'relevantIds', ...(options !== undefined ? { secondArgument: 'options' } : {}) }
  if (!Array.isArray(received)) {
    usageError(
      this,
      sig,
      `the received value must be the retrieved list (an array of ids or { id, score? } objects), got ${describeValue(received)}`,
      'Pass the retriever results to expect(), mapped to ids or { id, score }.',
    )
  }
  checkStringArray(this, sig, relevantIds, 'relevant ids', "['refund-policy']")
  // k and minScore are the retrieval check's options (a clean hit is its default metric), validated there.
  const plan = definitionPlan(this, sig, retrievalCheck, options, null, ['metric', 'threshold'])

  let scores: RetrievalScores
  let pass: boolean
  try {
    const input = directInput('', { retrieved: received as RetrievedItem[], fields: { relevant: relevantIds } })
    ;({ data: scores, pass } = runDirect<RetrievalScores>(plan, input))
  } catch (error) {
    // The engine checks each item; restate its message as this matcher's usage error.
    // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, the engine throws only TypeErrors with this prefix
    if (error instanceof TypeError && error.message.startsWith(PREFIX)) {
      const text = error.message.slice(PREFIX.length)
      const split = text.search(/\. (?=[A-Z])/)
      // Every engine message ends with a fix sentence that starts with a capital, so split is never -1:
      // Stryker disable next-line ConditionalExpression,EqualityOperator,UnaryOperator,Regex,StringLiteral,MethodExpression: equivalent, see above
      usageError(
        this,
        sig,
        split === -1 ? text.replace(/\.$/, '') : text.slice(0, split),
        split === -1 ? 'Pass ids, or { id, score } objects.' : text.slice(split + 2),
      )
    }
    throw error
  }

  return {
    pass,
    message: () => {
      const { k } = scores
      const ranked = ranking(received as RetrievedItem[])
      // Stryker disable next-line EqualityOperator: equivalent, at length k nothing lies outside the top k to tie with
      const cutOffScore = ranked.length > k ? itemScore(ranked[k - 1] as RetrievedItem) : undefined
      const lucky = scores.ranks.filter((r) => r.lucky)
      const relevant = new Set(relevantIds)
      // Stryker disable next-line ConditionalExpression: equivalent when true, an unscored list has no lucky hits for the tie to explain
      const tiedOutside = cutOffScore !== undefined && ranked.slice(k).some((item) => itemScore(item) === cutOffScore && !relevant.has(itemId(item)))
      const minScore = options?.minScore
      // Stryker disable next-line LogicalOperator,ConditionalExpression: equivalent for the undefined checks, a comparison with undefined is false
      const belowMin = (r: (typeof lucky)[number]) => minScore !== undefined && r.score !== undefined && r.score <= minScore
      const causes = [
        lucky.some((r) => !belowMin(r) || (r.score === cutOffScore && tiedOutside)) ? 'a tie at the cut-off' : undefined,
        // Equivalent mutant: lucky hits are all under minScore or one above it at rank k (a hit under it would
        // rank lower), and causes are read only when some are lucky.
        // Stryker disable next-line MethodExpression: equivalent (see above)
        lucky.some(belowMin) ? `a score not above minScore ${String(minScore)}` : undefined,
      ].filter((cause) => cause !== undefined)
      const luckyOnly = !scores.hit && lucky.length > 0
      const shown = ranked.slice(0, k + SHOWN_AFTER_K).map((item, i) => {
        const score = itemScore(item)
        const tiesCutOff = i + 1 > k && score !== undefined && score === cutOffScore
        const marks = [
          relevant.has(itemId(item)) ? 'relevant' : undefined,
          i + 1 === k && ranked.length > k ? 'cut-off' : undefined,
          tiesCutOff ? 'ties with the cut-off' : undefined,
        ].filter(Boolean)
        const scored = score !== undefined ? ` ${score}` : ''
        return `  ${String(i + 1).padStart(2)}. ${JSON.stringify(itemId(item))}${scored}${marks.length > 0 ? ` (${marks.join(', ')})` : ''}`
      })
      const received_ = this.isNot
        ? `a hit: ${scores.ranks
            .filter((r) => r.rank !== null && r.rank <= k && !r.lucky)
            .map((r) => `${JSON.stringify(r.id)} at rank ${r.rank}`)
            .join(', ')}`
        : luckyOnly
          ? `${lucky.length === 1 ? 'only a lucky hit' : 'only lucky hits'} (${causes.join('; ')}), which ${lucky.length === 1 ? 'does' : 'do'} not count`
          : `no relevant id in the top ${k}`
      return lines(
        hint(this, sig),
        '',
        `Expected: ${this.isNot ? 'no' : 'a'} relevant id in the top ${k}${this.isNot ? ' (lucky ones aside)' : ', not there by luck'}`,
        `Received: ${received_}`,
        '',
        'Relevant ids:',
        scores.ranks.map((rank) => rankLine(rank, k)),
        '',
        `precision@${k} ${fmt(scores.precision)}, recall@${k} ${fmt(scores.recall)}, MRR ${fmt(scores.mrr)}`,
        '',
        ranked.length === 0
          ? 'Retrieved: nothing (an empty list)'
          : `Retrieved (${ranked.length}${ranked.length > shown.length ? `, first ${shown.length} shown` : ''}):`,
        shown,
      )
    },
  }
}
