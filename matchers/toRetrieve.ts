import {
  describeValue,
  directInput,
  luckCauses,
  rankLine,
  rankRetrieved,
  retrievalCheck,
  retrievalInputError,
  type RetrievalScores,
  type RetrievedItem,
  retrievedRows,
  runDirect,
} from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { checkStringArray, definitionPlan, fmt, hint, lines, usageError, type Signature } from './utils.js'

/** Options of {@link toRetrieve}. */
export interface RetrieveOptions {
  /** Cut-off: a relevant id must be within the first `k` results. Default: every retrieved item. */
  k?: number
  /** With scored items: a relevant item whose score is not above `minScore` does not count as a hit. */
  minScore?: number
}

/** The `Received:` line: the clean hits under `.not`, else why no hit counts (the lucky hits' causes). */
function receivedLine(isNot: boolean, scores: RetrievalScores, causes: readonly string[]): string {
  if (isNot) {
    const hits = scores.ranks.filter((r) => r.rank !== null && r.rank <= scores.k && !r.lucky)
    return `a hit: ${hits.map((r) => `${JSON.stringify(r.id)} at rank ${r.rank}`).join(', ')}`
  }
  const lucky = scores.ranks.filter((r) => r.lucky)
  if (scores.hit || lucky.length === 0) return `no relevant id in the top ${scores.k}`
  const one = lucky.length === 1
  return `${one ? 'only a lucky hit' : 'only lucky hits'} (${causes.join('; ')}), which ${one ? 'does' : 'do'} not count`
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
    // Stryker disable next-line StringLiteral: equivalent, the retrieval check reads the retrieved list, never the output
    const input = directInput('', { retrieved: received as RetrievedItem[], fields: { relevant: relevantIds } })
    ;({ data: scores, pass } = runDirect<RetrievalScores>(plan, input))
  } catch (error) {
    // The engine checks each item; restate its message as this matcher's usage error.
    const restated = retrievalInputError(error)
    if (restated) usageError(this, sig, restated.reason, restated.fix)
    throw error
  }

  return {
    pass,
    message: () => {
      const { k } = scores
      const ranked = rankRetrieved(received as RetrievedItem[])
      const relevant = new Set(relevantIds)
      const shown = retrievedRows(ranked, k, relevant)
      return lines(
        hint(this, sig),
        '',
        `Expected: ${this.isNot ? 'no' : 'a'} relevant id in the top ${k}${this.isNot ? ' (lucky ones aside)' : ', not there by luck'}`,
        `Received: ${receivedLine(this.isNot, scores, luckCauses(scores, ranked, relevant, options?.minScore))}`,
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
