import { directInput, keywordsCheck, runDirect, type KeywordsResult } from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { checkReceivedString, checkStringArray, definitionPlan, hint, lines, preview, tokenList, type Signature } from './utils.js'

/** Options of {@link toContainKeywords}. */
export interface KeywordsMatcherOptions {
  /** `'all'` (default): every keyword must occur. `'any'`: at least one must. */
  mode?: 'all' | 'any'
}

/**
 * Passes when the received text contains the keywords: all of them (default) or, with `mode: 'any'`, at least
 * one. A keyword matches as a whole word (Unicode-aware, so `'art'` is not found in `'party'`), in any case,
 * with any run of whitespace between its words; regex characters are literal (`'C++'`, `'$7.80'`).
 *
 * @example
 * ```ts
 * expect(answer).toContainKeywords(['Paris', 'Eiffel Tower', '1889'])
 * expect(answer).toContainKeywords(['refund', 'money back'], { mode: 'any' })
 * expect(answer).not.toContainKeywords(['as an AI language model'], { mode: 'any' })
 * ```
 */
export function toContainKeywords(this: MatcherContext, received: unknown, words: unknown, options?: KeywordsMatcherOptions): MatcherResult {
  const sig: Signature = { name: 'toContainKeywords', expected: 'keywords', ...(options !== undefined ? { secondArgument: 'options' } : {}) }
  checkReceivedString(this, sig, received)
  checkStringArray(this, sig, words, 'keywords', "['Paris', 'Eiffel Tower']")
  // Every keyword (mode 'all') or one (mode 'any'): the check's threshold of 1.
  const plan = definitionPlan(this, sig, keywordsCheck, options, keywordsCheck.defaultThreshold)

  const mode = options?.mode ?? 'all'
  const { data, pass } = runDirect<KeywordsResult>(plan, directInput(received, { fields: { keywords: words } }))
  const { found, missing } = data
  const total = found.length + missing.length

  return {
    pass,
    message: () => {
      const wanted =
        total === 1
          ? `${this.isNot ? 'not ' : ''}the keyword`
          : mode === 'all'
            ? `${this.isNot ? 'not all' : 'all'} ${total} keywords`
            : `${this.isNot ? 'none' : 'at least one'} of ${total} keywords`
      const got = found.length === total && total > 1 ? `all ${total} found` : `${found.length} of ${total} found`
      return lines(
        hint(this, sig),
        '',
        `Expected: ${wanted} (whole words, any case)`,
        `Received: ${got}`,
        '',
        tokenList('Found', found),
        tokenList('Missing', missing),
        '',
        `Output: ${preview(received)}`,
      )
    },
  }
}
