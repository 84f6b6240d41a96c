import { resolveEmbedder, DEFAULT_SIMILARITY_THRESHOLD, cosineSimilarity, type EmbedderLike } from './_engine.js'
import type { MatcherContext } from './context.js'
import {
  checkOptions,
  checkReceivedString,
  checkStringOrStrings,
  checkThreshold,
  failFor,
  fmt,
  hint,
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

const OPTIONS = ['threshold', 'embedder'] as const

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
  const opts: unknown = options
  checkOptions(this, sig, opts, OPTIONS)
  const threshold: unknown = options?.threshold ?? DEFAULT_SIMILARITY_THRESHOLD
  checkThreshold(this, sig, threshold)
  const embedder = resolveEmbedder(options?.embedder, failFor(this, sig))
  const candidates = typeof expected === 'string' ? [expected] : expected

  let scores: number[]
  try {
    const [output, ...refs] = await embedder.embed([received, ...candidates])
    scores = refs.map((ref) => cosineSimilarity(output as number[], ref))
  } catch (error) {
    return modelError(this, sig, error)
  }
  let best = 0
  scores.forEach((s, i) => {
    if (s > (scores[best] as number)) best = i
  })
  const score = scores[best] as number
  return {
    pass: score >= threshold,
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
