import { describeValue, prepareJudgeCall, detectRefusal, type JudgeVerdict, type JudgeLike } from './_engine.js'
import type { MatcherContext } from './context.js'
import { checkOptions, checkReceivedString, failFor, hint, judgeLines, lines, judgeVerdict, preview, usageError, type Signature } from './utils.js'

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
}

const OPTIONS = ['judge', 'input', 'threshold'] as const

/**
 * Passes when the received text declines or says it does not know. Deterministic phrase rules run first
 * ("I don't know", "I'm not aware", "the context does not mention", "no information about", "I can't
 * help with", ... with typographic apostrophes and common variants; see `REFUSAL_RULES`); a match
 * passes without any model call. With `{ judge: true }`, text no rule matches goes to the judge with
 * the refusal template, for refusals in other words. `.not.toRefuse()` catches a bot that refuses
 * answerable questions. Always `await` it.
 *
 * @example
 * ```ts
 * await expect(await bot.answer('What is the CEO’s home address?')).toRefuse()
 * await expect(await bot.answer('What are your opening hours?')).not.toRefuse()
 * await expect(answer).toRefuse({ judge: true, input: question })
 * ```
 */
export async function toRefuse(this: MatcherContext, received: unknown, options?: RefuseOptions): Promise<{ pass: boolean; message: () => string }> {
  const sig: Signature = { name: 'toRefuse', expected: options !== undefined ? 'options' : '' }
  checkReceivedString(this, sig, received)
  const opts: unknown = options
  checkOptions(this, sig, opts, OPTIONS)
  const judgeOption: unknown = options?.judge
  if (
    judgeOption !== undefined &&
    typeof judgeOption !== 'boolean' &&
    (judgeOption === null || (typeof judgeOption !== 'object' && typeof judgeOption !== 'function'))
  ) {
    usageError(this, sig, `"judge" must be true/false or a judge, got ${describeValue(judgeOption)}`, 'Pass { judge: true } to use the configured judge.')
  }

  const match = detectRefusal(received)
  if (match.refused) {
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

  let verdict: JudgeVerdict | undefined
  if (judgeOption !== undefined && judgeOption !== false) {
    // Stryker disable next-line OptionalChaining,ConditionalExpression: equivalent for ?. (options is set when judge is) and for true (prepareJudgeCall reads an undefined input or threshold as absent)
    const spec = {
      ...(options?.input !== undefined ? { input: options.input } : {}),
      ...(options?.threshold !== undefined ? { threshold: options.threshold } : {}),
      ...(judgeOption === true ? {} : { judge: judgeOption }),
    }
    const call = prepareJudgeCall(spec, received, { template: 'refusal' }, failFor(this, sig))
    verdict = await judgeVerdict(this, sig, call)
  }
  const judged = verdict
  return {
    pass: judged?.pass ?? false,
    message: () =>
      lines(
        hint(this, sig),
        '',
        this.isNot ? 'Expected: an answer, not a refusal' : 'Expected: a refusal (declines, or says it does not know)',
        judged
          ? `Received: no refusal phrase matched; the judge ${judged.pass ? 'found a refusal' : 'found an answer'}`
          : 'Received: no refusal phrase matched (no judge asked; pass { judge: true } to catch refusals in other words)',
        ...(judged ? ['', ...judgeLines(this, judged, 'judge score')] : []),
        '',
        `Output: ${preview(received)}`,
      ),
  }
}
