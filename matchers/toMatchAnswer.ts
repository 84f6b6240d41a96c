import { directInput, exactCheck, normalizeAnswer, runDirect, tokenF1Details } from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import {
  checkAnswersNormalize,
  checkReceivedString,
  checkStringOrStrings,
  definitionPlan,
  fmt,
  hint,
  lines,
  preview,
  tokenList,
  type Signature,
} from './utils.js'

/**
 * Passes when the received text equals the expected answer, or any of several acceptable answers, after
 * SQuAD v1.1 normalization: lower case, ASCII punctuation deleted, the articles a/an/the dropped, whitespace
 * collapsed. So `'The Eiffel Tower.'` matches `'eiffel tower'`, but `'Eiffel Tower, Paris'` does not
 * (use {@link toContainAnswer} for an answer inside a sentence). A failure shows both normalized texts and
 * the tokens that differ from the nearest acceptable answer (highest token F1).
 *
 * An expected answer that normalizes to nothing (`'The'`, `'A'`, `'?!'`) is a usage error.
 *
 * @example
 * ```ts
 * expect('The Eiffel Tower.').toMatchAnswer('Eiffel Tower')
 * expect(answer).toMatchAnswer(['1889', 'in 1889', '31 March 1889'])
 * expect(answer).not.toMatchAnswer('I don\'t know')
 * ```
 */
export function toMatchAnswer(this: MatcherContext, received: unknown, expected: unknown): MatcherResult {
  const sig: Signature = { name: 'toMatchAnswer', expected: 'expected' }
  checkReceivedString(this, sig, received)
  checkStringOrStrings(this, sig, expected, 'expected answer')
  checkAnswersNormalize(this, sig, expected)

  // The check's threshold is 1: an exact match of one acceptable answer, after normalization.
  const plan = definitionPlan(this, sig, exactCheck, undefined, exactCheck.defaultThreshold)
  const { pass } = runDirect(plan, directInput(received, { references: typeof expected === 'string' ? [expected] : expected }))

  return {
    pass,
    actual: received,
    expected,
    message: () => {
      const answers = typeof expected === 'string' ? [expected] : expected
      const normalized = normalizeAnswer(received)
      const several = answers.length > 1
      if (pass) {
        // Stryker disable next-line StringLiteral: equivalent, a passing answer is always found
        const matched = answers.find((answer) => normalizeAnswer(answer) === normalized) ?? ''
        return lines(
          hint(this, sig),
          '',
          `Expected (normalized): not ${several ? `any of ${answers.length} acceptable answers` : preview(normalizeAnswer(matched))}`,
          `Received (normalized):     ${preview(normalized)}`,
          several ? `Matches the acceptable answer ${preview(matched)}` : undefined,
          '',
          `Output: ${preview(received)}`,
        )
      }
      const nearest = tokenF1Details(received, expected)
      const reordered = nearest.missing.length === 0 && nearest.extra.length === 0
      return lines(
        hint(this, sig),
        '',
        `Expected (normalized): ${preview(normalizeAnswer(nearest.bestReference))}${several ? ` (the nearest of ${answers.length} acceptable answers)` : ''}`,
        `Received (normalized): ${preview(normalized)} (token F1 ${fmt(nearest.f1)})`,
        '',
        reordered
          ? 'Same tokens in a different order: exact match compares the normalized texts.'
          : [tokenList('Answer tokens missing from the output', nearest.missing), tokenList('Output tokens not in the answer', nearest.extra)],
        '',
        `Output: ${preview(received)}`,
        several ? `Acceptable answers: ${answers.map((a) => preview(a, 60)).join(', ')}` : undefined,
      )
    },
  }
}
