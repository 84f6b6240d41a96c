import {
  checkContext,
  DEFAULT_FAITHFULNESS_THRESHOLD,
  directInput,
  faithfulnessCheck,
  type Claim,
  type JudgeData,
  type JudgeLike,
  planCheck,
  runDirectAsync,
} from './_engine.js'
import type { MatcherContext } from './context.js'
import {
  checkOptions,
  checkReceivedString,
  contextLine,
  failFor,
  fmt,
  hint,
  isUsageError,
  judgeLines,
  lines,
  modelError,
  preview,
  type Signature,
} from './utils.js'

/** Options of {@link toBeFaithfulTo}. */
export interface FaithfulnessOptions {
  /** The question the output answers, shown to the judge. */
  input?: string
  /** Minimum share of supported claims (inclusive). Default 1: every claim must be supported. */
  threshold?: number
  /** The judge to use instead of `configure({ judge })`. */
  judge?: JudgeLike
  /** Ask n times, or ask each judge of a list once (a panel); the majority decides. Default 1. */
  samples?: number | JudgeLike[]
}

const OPTIONS = ['input', 'threshold', 'judge', 'samples'] as const

function claimList(title: string, claims: Claim[]): string[] {
  if (claims.length === 0) return []
  return [`${title} (${claims.length}):`, ...claims.map((c) => `  - ${preview(c.claim, 200)}${c.reason ? ` (${c.reason.replace(/\s+/g, ' ').trim()})` : ''}`)]
}

/**
 * Passes when every factual claim of the received text is supported by `context` (no hallucination):
 * an LLM judge splits the output into atomic claims and checks each against the context, and the score
 * is the share of supported claims (1 when the output makes no claim). The failure message lists the
 * unsupported claims. `threshold` (default 1) lowers the bar. Always `await` it.
 *
 * @example
 * ```ts
 * await expect(answer).toBeFaithfulTo(retrievedDocs)
 * await expect(answer).toBeFaithfulTo('Refunds are accepted within 30 days of purchase.', { input: question })
 * ```
 */
export async function toBeFaithfulTo(
  this: MatcherContext,
  received: unknown,
  context: unknown,
  options?: FaithfulnessOptions,
): Promise<{ pass: boolean; message: () => string }> {
  const sig: Signature = { name: 'toBeFaithfulTo', expected: 'context', ...(options !== undefined ? { secondArgument: 'options' } : {}) }
  checkReceivedString(this, sig, received)
  const opts: unknown = options
  checkOptions(this, sig, opts, OPTIONS)
  const docs = checkContext(context, failFor(this, sig))
  // The faithfulness check runs it: the context and the input are the case's, the rest its options.
  const { input, ...faithfulnessOptions } = options ?? {}
  const threshold = (options?.threshold ?? DEFAULT_FAITHFULNESS_THRESHOLD) as number
  const plan = planCheck(faithfulnessCheck, faithfulnessOptions, threshold, failFor(this, sig))
  let data: JudgeData
  try {
    ;({ data } = await runDirectAsync<JudgeData>(plan, directInput(received, { context, inputText: input })))
  } catch (error) {
    if (isUsageError(error)) throw error
    return modelError(this, sig, error)
  }
  const { verdict } = data
  const claims = verdict.claims ?? []
  const unsupported = claims.filter((c) => !c.supported)
  const supported = claims.filter((c) => c.supported)
  return {
    pass: verdict.pass,
    message: () =>
      lines(
        hint(this, sig),
        '',
        judgeLines(this, verdict, 'share of supported claims'),
        claims.length > 0
          ? `Claims: ${supported.length} of ${claims.length} supported`
          : `Claims: the judge listed none (score ${fmt(verdict.score)} as given)`,
        '',
        this.isNot ? claimList('Supported claims', supported) : claimList('Unsupported claims', unsupported),
        contextLine(docs),
        `Output:  ${preview(received)}`,
      ),
  }
}
