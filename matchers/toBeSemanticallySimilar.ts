import { DEFAULT_SIMILARITY_THRESHOLD, directInput, type EmbedderLike, runDirectAsync, type SemanticData, semanticCheck } from './_engine.js'
import type { MatcherContext } from './context.js'
import {
  checkReceivedString,
  checkStringOrStrings,
  checkThreshold,
  definitionPlan,
  fmt,
  hint,
  isUsageError,
  lines,
  modelError,
  preview,
  scoreLines,
  type Signature,
} from './utils.js'

/** Options of {@link toBeSemanticallySimilar}. */
export interface SemanticSimilarityOptions {
  /** Minimum cosine similarity (inclusive). Default `DEFAULT_SIMILARITY_THRESHOLD` (0.8). */
  threshold?: number
  /** The embedder to use instead of `configure({ embedder })`. */
  embedder?: EmbedderLike
}

/**
 * Passes when the cosine similarity between the embeddings of the received text and `expected` is at
 * least `threshold` (inclusive, default 0.8 for `text-embedding-3-small`, see
 * `DEFAULT_SIMILARITY_THRESHOLD`). With a list, the best match counts. Texts are embedded by
 * `embedder`, else `configure({ embedder })`, else OpenAI `text-embedding-3-small`; each distinct text
 * is embedded once per run, and concurrent assertions share one request. Always `await` it.
 *
 * @example
 * ```ts
 * await expect(answer).toBeSemanticallySimilar('You can ask for a refund within 30 days.')
 * await expect(answer).toBeSemanticallySimilar(['Refunds within 30 days', 'A 30-day refund window'], { threshold: 0.85 })
 * ```
 */
export async function toBeSemanticallySimilar(
  this: MatcherContext,
  received: unknown,
  expected: unknown,
  options?: SemanticSimilarityOptions,
): Promise<{ pass: boolean; message: () => string }> {
  const sig: Signature = { name: 'toBeSemanticallySimilar', expected: 'expected', ...(options !== undefined ? { secondArgument: 'options' } : {}) }
  checkReceivedString(this, sig, received)
  checkStringOrStrings(this, sig, expected, 'expected text')
  const threshold: unknown = (options as { threshold?: unknown } | undefined)?.threshold ?? DEFAULT_SIMILARITY_THRESHOLD
  // Stryker disable next-line ArrayDeclaration: equivalent, a positional name that is no option of the check removes none
  const plan = definitionPlan(this, sig, semanticCheck, options, null, [])
  checkThreshold(this, sig, threshold)
  plan.threshold = threshold
  const candidates = typeof expected === 'string' ? [expected] : expected

  let outcome: Awaited<ReturnType<typeof runDirectAsync<SemanticData>>>
  try {
    outcome = await runDirectAsync<SemanticData>(plan, directInput(received, { references: candidates }))
  } catch (error) {
    if (isUsageError(error)) throw error
    return modelError(this, sig, error)
  }
  const { scores, best } = outcome.data
  const score = scores[best] as number
  const embedder = { name: outcome.data.embedder }
  return {
    pass: outcome.pass,
    message: () =>
      lines(
        hint(this, sig),
        '',
        scoreLines(this, 'cosine similarity', score, threshold, `(${embedder.name ?? 'embedder'})`),
        candidates.length > 1 ? `Scores: ${scores.map(fmt).join(', ')} (best: expected[${best}])` : undefined,
        '',
        candidates.length > 1 ? `Closest expected: ${preview(candidates[best] as string)}` : `Expected: ${preview(candidates[best] as string)}`,
        candidates.length > 1 ? `Output:           ${preview(received)}` : `Output:   ${preview(received)}`,
      ),
  }
}
