import { directInput, runDirect, tokenF1Check, type TokenF1Details } from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import {
  checkReceivedString,
  checkStringOrStrings,
  checkThreshold,
  definitionPlan,
  fmt,
  hint,
  lines,
  preview,
  scoreLines,
  tokenList,
  type Signature,
} from './utils.js'

/**
 * Passes when the SQuAD v1.1 token F1 of the received text against `reference` is at least `threshold`
 * (inclusive: identical answers pass at 1). Both texts are normalized first (lower case, ASCII punctuation
 * deleted, the articles a/an/the dropped) and compared as bags of words. With several acceptable
 * references, the best one counts. A failure names that reference and lists the normalized tokens missing
 * from the output and the extra ones.
 *
 * @example
 * ```ts
 * expect('The Eiffel Tower').toHaveTokenF1Above('Eiffel Tower', 1)
 * expect(answer).toHaveTokenF1Above(['Gustave Eiffel', 'Eiffel'], 0.5)
 * expect(answer).not.toHaveTokenF1Above(wrongAnswer, 0.3)
 * ```
 */
export function toHaveTokenF1Above(this: MatcherContext, received: unknown, reference: unknown, threshold: unknown): MatcherResult {
  const sig: Signature = { name: 'toHaveTokenF1Above', expected: 'reference', secondArgument: 'threshold' }
  checkReceivedString(this, sig, received)
  checkStringOrStrings(this, sig, reference, 'reference')
  checkThreshold(this, sig, threshold)

  const plan = definitionPlan(this, sig, tokenF1Check, undefined, threshold)
  const references = typeof reference === 'string' ? [reference] : reference
  const { data: details, pass } = runDirect<TokenF1Details>(plan, directInput(received, { references }))

  return {
    pass,
    actual: received,
    expected: reference,
    message: () => {
      const count = typeof reference === 'string' ? 1 : reference.length
      return lines(
        hint(this, sig),
        '',
        scoreLines(this, 'token F1', details.f1, threshold, `(precision ${fmt(details.precision)}, recall ${fmt(details.recall)})`),
        '',
        details.referenceTokens.length === 0 ? 'The reference normalizes to no tokens, so token F1 is 0 for any output.' : undefined,
        tokenList('Reference tokens missing from the output', details.missing),
        tokenList('Output tokens not in the reference', details.extra),
        '',
        `Output:    ${preview(received)}`,
        count === 1
          ? `Reference: ${preview(details.bestReference)}`
          : `Reference: ${preview(details.bestReference)} (the best of ${count} references, #${details.bestReferenceIndex + 1})`,
      )
    },
  }
}
