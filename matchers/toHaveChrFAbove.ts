import { CHRF_OPTIONS, runChrF, type ChrFOptions } from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { checkOptions, checkReceivedString, checkStringOrStrings, checkThreshold, fmt, hint, lines, preview, scoreLines, type Signature } from './utils.js'

/** Options of `toHaveChrFAbove`: sacrebleu's `CHRF` options (`{ wordOrder: 2 }` is chrF++). */
export type ChrFMatcherOptions = ChrFOptions

/**
 * Passes when the chrF of the received text against `reference` (or the best of several) is at least
 * `threshold` (inclusive). The score is sacrebleu 2.6.0's `sentence_chrf` divided by 100, so it lies in
 * [0, 1]: the F-score (recall weighted by beta = 2) of character n-grams of orders 1 to 6, whitespace
 * removed, case-sensitive. Pass sacrebleu's options as the third argument (`{ wordOrder: 2 }` for
 * chrF++). A failure shows the character (and word) n-gram precision and recall per order.
 *
 * @example
 * ```ts
 * expect(translation).toHaveChrFAbove('Die Katze sitzt auf der Matte.', 0.6)
 * expect(translation).toHaveChrFAbove(['Le chat est sur le tapis.', 'Un chat est sur le tapis.'], 0.5, { wordOrder: 2 })
 * expect(paraphrase).not.toHaveChrFAbove(original, 0.9)
 * ```
 */
export function toHaveChrFAbove(this: MatcherContext, received: unknown, reference: unknown, threshold: unknown, options?: unknown): MatcherResult {
  const sig: Signature = { name: 'toHaveChrFAbove', expected: 'reference', secondArgument: 'threshold' }
  checkReceivedString(this, sig, received)
  checkStringOrStrings(this, sig, reference, 'reference')
  checkThreshold(this, sig, threshold)
  checkOptions(this, sig, options, CHRF_OPTIONS)

  const { data: details, pass } = runChrF(received, reference, options ?? {}, threshold)

  return {
    pass,
    actual: received,
    expected: reference,
    message: () => {
      const references = typeof reference === 'string' ? [reference] : reference
      const ratio = (a: number, b: number) => (b === 0 ? '-' : fmt(a / b))
      const orders = details.statistics.map(
        (s) => `${s.kind === 'char' ? 'c' : 'w'}${s.n} P ${ratio(s.matches, s.candidate)} R ${ratio(s.matches, s.reference)}`,
      )
      const best = details.bestReferenceIndex
      return lines(
        hint(this, sig),
        '',
        scoreLines(this, details.name, details.score, threshold),
        '',
        `n-gram precision (P) and recall (R) per order: ${orders.join(', ')}`,
        '',
        `Output:    ${preview(received)}`,
        references.length === 1
          ? `Reference: ${preview(references[0] as string)}`
          : `Reference: ${preview(references[best] as string)} (the best of ${references.length} references, #${best + 1})`,
      )
    },
  }
}
