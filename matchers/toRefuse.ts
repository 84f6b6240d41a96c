import { directInput, type JudgeLike, planCheck, type RefusalData, refusalCheck, runDirectAsync } from './_engine.js'
import type { MatcherContext } from './context.js'
import { checkOptions, checkReceivedString, failFor, hint, isUsageError, judgeLines, lines, modelError, preview, type Signature } from './utils.js'

/** Options of {@link toRefuse}. */
export interface RefuseOptions {
  /**
   * Ask a judge when no phrase rule matches, to catch refusals in other words: `true` for the configured
   * judge, or a judge (settings, `Judge` or function). Default `false`: phrase rules only, no model call.
   */
  judge?: boolean | JudgeLike
  /** The question, shown to the judge. */
  input?: string
  /** Minimum normalized judge score (inclusive). Default 0.7. */
  threshold?: number
  /**
   * Ask the judge even when a phrase rule matched: "No, the context does not mention PayPal" starts like a
   * refusal but answers the question when the judge says so. Needs `judge`. Default `false`.
   */
  judgeFirst?: boolean
}

const OPTIONS = ['judge', 'input', 'threshold', 'judgeFirst'] as const

/**
 * Passes when the received text declines or says it does not know. Deterministic phrase rules run first
 * ("I don't know", "I'm not aware", "the context does not mention", "no information about", "I can't
 * help with", ... with typographic apostrophes and common variants; see `REFUSAL_RULES`); a match
 * passes without any model call. With `{ judge: true }`, text no rule matches goes to the judge with
 * the refusal template, for refusals in other words; with `{ judge: true, judgeFirst: true }` the judge
 * decides even when a rule matched ("No, the context does not mention PayPal" can be an answer). It runs
 * the `refusal` check of golden suites on a case that must be refused. `.not.toRefuse()` catches a bot
 * that refuses answerable questions. Always `await` it.
 *
 * @example
 * ```ts
 * await expect(await bot.answer('What is the CEO’s home address?')).toRefuse()
 * await expect(await bot.answer('What are your opening hours?')).not.toRefuse()
 * await expect(answer).toRefuse({ judge: true, input: question })
 * await expect('No, the context does not mention PayPal, only cards.').not.toRefuse({ judge: true, judgeFirst: true, input: question })
 * ```
 */
export async function toRefuse(this: MatcherContext, received: unknown, options?: RefuseOptions): Promise<{ pass: boolean; message: () => string }> {
  const sig: Signature = { name: 'toRefuse', expected: options !== undefined ? 'options' : '' }
  checkReceivedString(this, sig, received)
  // Every option but the question (the case's input) is the refusal check's, validated by its definition.
  checkOptions(this, sig, options as unknown, OPTIONS)
  const { input, ...refusalOptions } = options ?? {}
  const plan = planCheck(refusalCheck, refusalOptions, refusalCheck.defaultThreshold, failFor(this, sig))
  let outcome: Awaited<ReturnType<typeof runDirectAsync<RefusalData>>>
  try {
    // The verdict is data.refused; the check's score (refused as the case's `answerable` asks) is not read here.
    outcome = await runDirectAsync<RefusalData>(plan, directInput(received, { inputText: input }))
  } catch (error) {
    if (isUsageError(error)) throw error
    modelError(this, sig, error)
  }
  const { match, verdict } = outcome.data
  if (match.refused && !verdict) {
    return {
      pass: true,
      message: () =>
        lines(
          hint(this, sig),
          '',
          'Expected: an answer, not a refusal',
          // Stryker disable next-line OptionalChaining: equivalent, a refusal always comes with its rule
          `Received: a refusal (rule "${match.rule?.id}": ${match.rule?.description}; matched ${JSON.stringify(match.phrase)})`,
          '',
          `Output: ${preview(received)}`,
        ),
    }
  }

  const judged = verdict
  const found = judged?.pass ? 'found a refusal' : 'found an answer'
  const ruleId = match.rule?.id
  const received_ = judged
    ? match.refused
      ? `Received: refusal rule "${ruleId}" matched ${JSON.stringify(match.phrase)}; asked first, the judge ${found}`
      : `Received: no refusal phrase matched; the judge ${found}`
    : 'Received: no refusal phrase matched (no judge asked; pass { judge: true } to catch refusals in other words)'
  return {
    pass: outcome.data.refused,
    message: () =>
      lines(
        hint(this, sig),
        '',
        this.isNot ? 'Expected: an answer, not a refusal' : 'Expected: a refusal (declines, or says it does not know)',
        received_,
        ...(judged ? ['', ...judgeLines(this, judged, 'judge score')] : []),
        '',
        `Output: ${preview(received)}`,
      ),
  }
}
