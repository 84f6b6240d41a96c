import { assertString, assertStringOrStrings, formatMessage } from '../errors.js'
import { squadTokens } from './squad.js'

/** The result of {@link containsAnswer}. */
export interface ContainsResult {
  /** Some acceptable answer occurs in the candidate as a contiguous run of normalized tokens. */
  contained: boolean
  /** The first acceptable answer (in the order given) that occurs, as given (not normalized). */
  matched?: string
  /** Where `matched` starts, as an index into `squadTokens(candidate)`. */
  tokenIndex?: number
}

/** Index of the first occurrence of `needle` as a contiguous run in `haystack`, or -1. */
export function indexOfTokens(haystack: readonly string[], needle: readonly string[]): number {
  // Stryker disable next-line ConditionalExpression: equivalent when false, the loop returns 0 for an empty needle too
  if (needle.length === 0) return 0
  // Stryker disable next-line ArithmeticOperator: equivalent, positions past the end compare undefined with a token and never match
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) continue outer
    }
    return i
  }
  return -1
}

/**
 * Whether an acceptable answer occurs in `candidate` after SQuAD v1.1 normalization (lower case, ASCII
 * punctuation deleted, the articles a/an/the dropped, whitespace collapsed): the answer's normalized tokens
 * must appear as a contiguous run of the candidate's normalized tokens. So `'Paris'` is contained in
 * `'The capital is Paris.'`, `'Eiffel Tower'` in `'the eiffel tower!'`, but `'art'` is not contained in
 * `'party'` (tokens are whole words) and `'New York'` is not contained in `'York, New'`.
 *
 * @param candidate - the model output.
 * @param expected - the answer, or a non-empty array of acceptable answers (any one suffices).
 * @throws RangeError when an expected answer normalizes to nothing (`'The'`, `'?!'`, `'A'`): it would be
 *   contained in every text, so it is refused rather than passing silently.
 *
 * @example
 * ```ts
 * containsAnswer('The capital is Paris.', 'paris')                  // { contained: true, matched: 'paris', tokenIndex: 2 }
 * containsAnswer('It opened in 1889.', ['1887', '1889'])            // { contained: true, matched: '1889', tokenIndex: 3 }
 * containsAnswer('We threw a party.', 'art')                        // { contained: false }
 * ```
 */
export function containsAnswer(candidate: string, expected: string | readonly string[]): ContainsResult {
  assertString(candidate, 'candidate', 'check the answer')
  assertStringOrStrings(expected, 'expected answer', 'check the answer')
  const answers = typeof expected === 'string' ? [expected] : expected
  const needles = answers.map((answer) => {
    const tokens = squadTokens(answer)
    if (tokens.length === 0) {
      throw new RangeError(
        formatMessage(
          `Failed to check the answer: the expected answer ${JSON.stringify(answer)} normalizes to nothing ` +
            `(SQuAD normalization drops case, ASCII punctuation and the articles a, an, the), so every text ` +
            `would contain it. Pass an answer with at least one other word or number.`,
        ),
      )
    }
    return tokens
  })
  const haystack = squadTokens(candidate)
  for (const [i, needle] of needles.entries()) {
    const tokenIndex = indexOfTokens(haystack, needle)
    if (tokenIndex !== -1) return { contained: true, matched: answers[i] as string, tokenIndex }
  }
  return { contained: false }
}
