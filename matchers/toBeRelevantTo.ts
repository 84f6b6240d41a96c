import { DEFAULT_JUDGE_THRESHOLD, describeValue, directInput, type JudgeData, type JudgeLike, planCheck, relevanceCheck, runDirectAsync } from './_engine.js'
import type { MatcherContext } from './context.js'
import {
  checkOptions,
  checkReceivedString,
  contextLine,
  failFor,
  hint,
  isUsageError,
  judgeLines,
  lines,
  modelError,
  preview,
  usageError,
  type Signature,
} from './utils.js'

/** Options of {@link toBeRelevantTo}. */
export interface RelevanceOptions {
  /** The retrieved context the answer should be in line with. */
  context?: string | string[]
  /** Minimum normalized judge score (inclusive). Default 0.7: on the binary scale, the judge must say relevant. */
  threshold?: number
  /** The judge to use instead of `configure({ judge })`. */
  judge?: JudgeLike
  /** Ask n times, or ask each judge of a list once (a panel); the majority decides. Default 1. */
  samples?: number | JudgeLike[]
}

const OPTIONS = ['context', 'threshold', 'judge', 'samples'] as const

/**
 * Passes when an LLM judge finds that the received answer addresses `query` (and, with `context`, is in
 * line with the retrieved context), like Spring AI's RelevancyEvaluator. A refusal, a change of subject
 * or a generic answer is not relevant. Binary verdict; `threshold` matters with `samples`. Always
 * `await` it.
 *
 * @example
 * ```ts
 * await expect(answer).toBeRelevantTo('How long do I have to ask for a refund?', { context: retrievedDocs })
 * await expect(offTopic).not.toBeRelevantTo('How long do I have to ask for a refund?')
 * ```
 */
export async function toBeRelevantTo(
  this: MatcherContext,
  received: unknown,
  query: unknown,
  options?: RelevanceOptions,
): Promise<{ pass: boolean; message: () => string }> {
  const sig: Signature = { name: 'toBeRelevantTo', expected: 'query', ...(options !== undefined ? { secondArgument: 'options' } : {}) }
  checkReceivedString(this, sig, received)
  if (typeof query !== 'string' || query.trim() === '') {
    usageError(this, sig, `the query must be a non-empty string, got ${describeValue(query)}`, 'Pass the question the answer should address.')
  }
  const opts: unknown = options
  checkOptions(this, sig, opts, OPTIONS)
  // The relevance check runs it: the query is the case's input, the context its context, the rest its options.
  const { context, ...relevanceOptions } = options ?? {}
  const plan = planCheck(relevanceCheck, relevanceOptions, (options?.threshold ?? DEFAULT_JUDGE_THRESHOLD) as number, failFor(this, sig))
  let data: JudgeData
  try {
    ;({ data } = await runDirectAsync<JudgeData>(plan, directInput(received, { inputText: query, context })))
  } catch (error) {
    if (isUsageError(error)) throw error
    return modelError(this, sig, error)
  }
  const { verdict, call } = data
  return {
    pass: verdict.pass,
    message: () =>
      lines(
        hint(this, sig),
        '',
        judgeLines(this, verdict, 'relevance'),
        '',
        `Query:   ${preview(query)}`,
        call.request.context !== undefined ? contextLine(call.request.context) : undefined,
        `Output:  ${preview(received)}`,
      ),
  }
}
