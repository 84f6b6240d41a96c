import { type Check, describeValue, isCheck, scoreUserCheck, USER_CHECK_CASE_KEYS, userCheckCase } from './_engine.js'
import type { MatcherContext } from './context.js'
import { checkReceivedString, checkThreshold, hint, lines, preview, scoreLines, usageError, type Signature } from './utils.js'

/** The case a check sees under {@link toPassCheck}: any golden case field (`input`, `expected`, `context`...). */
export interface CheckCaseFields {
  id?: string
  input?: unknown
  expected?: unknown
  acceptable?: string[]
  context?: string | string[]
  relevant?: string[]
  keywords?: string[]
  criteria?: string
  metadata?: Record<string, unknown>
  /** What the retrieval returned, given to the check as `context.retrieved`. */
  retrieved?: Array<string | { id: string; score?: number }>
}

/** Checks the case argument: an object of known golden case fields (or nothing). */
function checkCaseFields(ctx: MatcherContext, sig: Signature, caseFields: unknown): asserts caseFields is CheckCaseFields | undefined {
  if (caseFields !== undefined && (caseFields === null || typeof caseFields !== 'object' || Array.isArray(caseFields))) {
    usageError(ctx, sig, `the case must be an object, got ${describeValue(caseFields)}`, 'Pass { input?, expected?, context?, ... }.')
  }
  const unknown = Object.keys(caseFields ?? {}).filter((k) => !USER_CHECK_CASE_KEYS.includes(k))
  if (unknown.length > 0) {
    usageError(ctx, sig, `unknown case field ${unknown.map((k) => `"${k}"`).join(', ')}`, `Valid fields are: ${USER_CHECK_CASE_KEYS.join(', ')}.`)
  }
}

/**
 * Passes when a check made by `defineCheck` scores the received text at least `threshold` (inclusive;
 * default: the check's own threshold). The third argument gives the check a case (`{ input, expected,
 * context, ... }`), as a golden suite would. The failure message shows the score and the check's reason.
 * Always `await` it (a check may be async). A check whose `run` throws, or returns no score in [0, 1],
 * fails the test with that error under `.not` too.
 *
 * @example
 * ```ts
 * const concise = defineCheck({ name: 'concise', threshold: 1, run: (output, c) => (output.length < 2 * String(c.expected).length ? 1 : 0) })
 * await expect(answer).toPassCheck(concise, undefined, { expected: 'Refunds take 30 days.' })
 * await expect(answer).toPassCheck(politeness, 0.8)
 * await expect(rant).not.toPassCheck(politeness, 0.5)
 * ```
 */
export async function toPassCheck(
  this: MatcherContext,
  received: unknown,
  check: unknown,
  threshold?: unknown,
  caseFields?: unknown,
): Promise<{ pass: boolean; message: () => string }> {
  const sig: Signature = { name: 'toPassCheck', expected: 'check', ...(threshold !== undefined ? { secondArgument: 'threshold' } : {}) }
  checkReceivedString(this, sig, received)
  if (!isCheck(check))
    usageError(
      this,
      sig,
      `the check must be made by defineCheck(), got ${describeValue(check)}`,
      "Pass defineCheck({ name, run }) (import { defineCheck } from 'expect-llm').",
    )
  const c = check as Check
  const min = threshold === undefined ? c.threshold : threshold
  if (min === null) usageError(this, sig, `check "${c.name}" has no threshold`, `Pass one: toPassCheck(${c.name}, 0.8), or give the check { threshold }.`)
  checkThreshold(this, sig, min)
  checkCaseFields(this, sig, caseFields)
  const { c: theCase, context } = userCheckCase(c, { ...caseFields })
  const scored = await scoreUserCheck(c, received, theCase, context)
  if ('problem' in scored) return usageError(this, sig, scored.problem, scored.fix, scored.kind)
  const { verdict } = scored
  const pass = verdict.score >= min
  return {
    pass,
    message: () =>
      lines(
        hint(this, sig),
        '',
        scoreLines(this, c.name, verdict.score, min),
        verdict.reason ? ['', `Reason: ${verdict.reason}`] : undefined,
        '',
        `Output: ${preview(received)}`,
      ),
  }
}
