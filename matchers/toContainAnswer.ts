import { containsCheck, directInput, normalizeAnswer, runDirect, squadTokens, type ContainsResult } from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { checkAnswersNormalize, checkReceivedString, checkStringOrStrings, definitionPlan, hint, lines, preview, type Signature } from './utils.js'

const MAX_ANSWERS = 10
const CONTEXT_TOKENS = 6

/** Why an answer is not in the output: which of its tokens are absent, or that they are not adjacent. */
function diagnose(answer: string, outputTokens: ReadonlySet<string>): string {
  const absent = [...new Set(squadTokens(answer))].filter((token) => !outputTokens.has(token))
  const label = preview(normalizeAnswer(answer), 60)
  if (absent.length > 0) return `  ${label}: missing ${absent.map((t) => JSON.stringify(t)).join(', ')}`
  return `  ${label}: every token occurs, but not together in this order`
}

/**
 * Passes when the expected answer, or any of several acceptable answers, occurs in the received text after
 * SQuAD v1.1 normalization (lower case, ASCII punctuation deleted, the articles a/an/the dropped): the
 * answer's normalized tokens must appear as one contiguous run of the output's normalized tokens. So
 * `'Paris'` is contained in `'The capital is Paris.'`, but `'art'` is not contained in `'party'`.
 * A failure says, for each acceptable answer, which of its tokens are missing from the output.
 *
 * An expected answer that normalizes to nothing (`'The'`, `'A'`, `'?!'`) is a usage error, because every
 * text would contain it.
 *
 * @example
 * ```ts
 * expect('It opened on 31 March 1889, in Paris.').toContainAnswer('1889')
 * expect(answer).toContainAnswer(['Gustave Eiffel', 'Eiffel'])
 * expect(answer).not.toContainAnswer('as an AI language model')
 * ```
 */
export function toContainAnswer(this: MatcherContext, received: unknown, expected: unknown): MatcherResult {
  const sig: Signature = { name: 'toContainAnswer', expected: 'expected' }
  checkReceivedString(this, sig, received)
  checkStringOrStrings(this, sig, expected, 'expected answer')
  checkAnswersNormalize(this, sig, expected)

  const plan = definitionPlan(this, sig, containsCheck, undefined, containsCheck.defaultThreshold)
  const references = typeof expected === 'string' ? [expected] : expected
  const { data: result, pass } = runDirect<ContainsResult>(plan, directInput(received, { references }))

  return {
    pass,
    actual: received,
    expected,
    message: () => {
      const answers = typeof expected === 'string' ? [expected] : expected
      const what =
        answers.length === 1 ? preview(normalizeAnswer(answers[0] as string)) : `${this.isNot ? 'any' : 'one'} of ${answers.length} acceptable answers`
      const outputTokens = squadTokens(received)
      const expectedLine = `Expected: the output ${this.isNot ? 'not ' : ''}to contain ${what} (normalized tokens, in order)`
      if (pass) {
        const start = result.tokenIndex ?? 0
        // Stryker disable next-line StringLiteral: equivalent, a found answer always has matched set
        const length = squadTokens(result.matched ?? '').length
        const before = outputTokens.slice(Math.max(0, start - CONTEXT_TOKENS), start)
        const after = outputTokens.slice(start + length, start + length + CONTEXT_TOKENS)
        const context = [
          start > CONTEXT_TOKENS ? '…' : '',
          [...before, `[${outputTokens.slice(start, start + length).join(' ')}]`, ...after].join(' '),
          start + length + CONTEXT_TOKENS < outputTokens.length ? '…' : '',
        ].join('')
        return lines(
          hint(this, sig),
          '',
          expectedLine,
          // Stryker disable next-line StringLiteral: equivalent, a found answer always has matched set
          `Received: found ${preview(result.matched ?? '', 60)} at ${JSON.stringify(context)}`,
          '',
          `Output: ${preview(received)}`,
        )
      }
      const present = new Set(outputTokens)
      const shown = answers.slice(0, MAX_ANSWERS).map((answer) => diagnose(answer, present))
      return lines(
        hint(this, sig),
        '',
        expectedLine,
        `Received: ${answers.length === 1 ? 'not found' : 'none found'}`,
        '',
        shown,
        answers.length > MAX_ANSWERS ? `  … and ${answers.length - MAX_ANSWERS} more` : undefined,
        '',
        `Output (normalized): ${preview(outputTokens.join(' '))}`,
        `Output:              ${preview(received)}`,
      )
    },
  }
}
