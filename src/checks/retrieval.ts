/**
 * The `retrieval` check: the case's `relevant` ids against what the task retrieved, at cut-off `k`.
 * The score is one metric (a clean hit by default; precision, recall, F1, MRR or nDCG at k); a lucky tie
 * at the cut-off never passes. Several instances (`'retrieval:recall'`, `'retrieval:mrr'`) score several
 * metrics in one suite; the report adds the dataset-level micro averages of precision, recall and F1.
 *
 * @module
 */
import { describeValue, isFiniteNumber, isWholeNumber } from '../errors.js'
import { retrievalScores } from '../metrics/retrieval.js'
import { result, usageError } from './shared.js'
import type { CheckDefinition } from './types.js'

/** The metrics a retrieval check can score. */
export const RETRIEVAL_METRICS = ['hit', 'precision', 'recall', 'f1', 'mrr', 'ndcg'] as const

/** What a retrieval check keeps of each case, for the dataset-level (micro) averages. */
export interface RetrievalData {
  /** Distinct relevant ids in the top k. */
  found: number
  /** The cut-off. */
  k: number
  /** Distinct relevant ids. */
  relevant: number
}

export const retrieval: CheckDefinition = {
  name: 'retrieval',
  defaultThreshold: 1,
  optionKeys: ['k', 'minScore', 'metric', 'threshold'],
  resolve({ threshold, options }, raw, { fail, prefix }) {
    const metric = options.metric ?? 'hit'
    if (!(RETRIEVAL_METRICS as readonly unknown[]).includes(metric)) {
      fail(
        `${prefix}metric must be one of ${RETRIEVAL_METRICS.map((m) => `'${m}'`).join(', ')}, got ${describeValue(metric)}`,
        "Pass for example { metric: 'recall', k: 5 }.",
      )
    }
    const { k, minScore } = options
    const got = (v: unknown) => (typeof v === 'number' ? String(v) : describeValue(v))
    if (k !== undefined && (!isWholeNumber(k) || k < 1))
      fail(`${prefix}k must be an integer >= 1, got ${got(k)}`, 'Pass a whole number such as 1.', typeof k === 'number' ? RangeError : TypeError)
    if (minScore !== undefined && !isFiniteNumber(minScore))
      fail(`${prefix}minScore must be a finite number, got ${got(minScore)}`, 'Pass the lowest score that still counts, such as 0.75, or leave it out.')
    if (typeof raw === 'object' && raw !== null && 'threshold' in raw) return threshold
    return metric === 'hit' ? 1 : 0.5
  },
  appliesTo: (c) => c.relevant !== undefined,
  calledFor: (c) => c.relevant !== undefined,
  run({ c, retrieved }, { threshold, options }) {
    if (!retrieved) {
      usageError(
        `case "${c.id}" lists relevant documents but the task returned no retrieved items`,
        'Return { output, retrieved: [...ids or { id, score }] } from the task.',
      )
    }
    const k = options.k as number | undefined
    const minScore = options.minScore as number | undefined
    const r = retrievalScores(retrieved, c.relevant ?? [], { ...(k !== undefined ? { k } : {}), ...(minScore !== undefined ? { minScore } : {}) })
    const metric = (options.metric as (typeof RETRIEVAL_METRICS)[number] | undefined) ?? 'hit'
    const f1 = r.precision + r.recall === 0 ? 0 : (2 * r.precision * r.recall) / (r.precision + r.recall)
    const score = metric === 'hit' ? (r.hit ? 1 : 0) : metric === 'f1' ? f1 : r[metric]
    const ranks = r.ranks.map((rk) => `${rk.id}: ${rk.rank === null ? 'not retrieved' : `rank ${rk.rank}${rk.lucky ? ' (lucky tie)' : ''}`}`).join(', ')
    // A lucky tie never passes, whatever the metric says.
    const pass = threshold === null ? true : score >= threshold && !(r.luckyTie && !r.hit)
    const counts: RetrievalData = { found: Math.round(r.recall * r.ranks.length), k: r.k, relevant: r.ranks.length }
    return { ...result(score, threshold, `${ranks}${r.luckyTie ? '; lucky tie at the cut-off' : ''} (k=${r.k})`, pass, r), retrieval: counts }
  },
}
