import { describeValue, isCheck, readCheckReturn, referencesOf, type Check, type CheckContext } from './_engine.js'
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

const CASE_KEYS = ['id', 'input', 'expected', 'acceptable', 'context', 'relevant', 'keywords', 'criteria', 'metadata', 'retrieved']

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
  if (caseFields !== undefined && (caseFields === null || typeof caseFields !== 'object' || Array.isArray(caseFields))) {
    usageError(this, sig, `the case must be an object, got ${describeValue(caseFields)}`, 'Pass { input?, expected?, context?, ... }.')
  }
  const fields = (caseFields ?? {}) as CheckCaseFields
  const unknown = Object.keys(fields).filter((k) => !CASE_KEYS.includes(k))
  if (unknown.length > 0) usageError(this, sig, `unknown case field ${unknown.map((k) => `"${k}"`).join(', ')}`, `Valid fields are: ${CASE_KEYS.join(', ')}.`)
  const { retrieved, ...rest } = fields
  const docs = typeof rest.context === 'string' ? [rest.context] : rest.context
  const theCase = { id: 'expect', input: '', ...rest, ...(docs ? { context: docs } : {}) } as Parameters<Check['run']>[1]
  const context: CheckContext = {
    key: c.name,
    inputText: typeof theCase.input === 'string' ? theCase.input : (JSON.stringify(theCase.input) ?? String(theCase.input)),
    references: referencesOf(theCase),
    ...(docs ? { context: docs } : {}),
    ...(retrieved ? { retrieved } : {}),
    options: c.options,
  }
  let value: unknown
  try {
    value = await c.run(received, theCase, context)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    usageError(
      this,
      sig,
      `check "${c.name}" threw: ${reason.replace(/^\[expect-llm\] /, '')}`,
      'Fix the check, or catch the error in its run function and return a score.',
      Error as ErrorConstructor,
    )
  }
  let verdict: { score: number; reason?: string }
  try {
    verdict = readCheckReturn(c.name, value)
  } catch (error) {
    usageError(
      this,
      sig,
      (error as Error).message.replace(/^\[expect-llm\] Failed to run check "[^"]*": (it )?/, `check "${c.name}" `).replace(/\. Return a number.*$/, ''),
      'Return a number from 0 to 1, or { score, reason? }.',
    )
  }
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
