import { runTer, TER_OPTIONS, terTokenize, type TerOptions } from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import {
  checkOptions,
  checkReceivedString,
  checkStringOrStrings,
  checkThreshold,
  fmt,
  hint,
  lines,
  preview,
  tokenDiff,
  tokenList,
  type Signature,
} from './utils.js'

/** Options of `toHaveTerBelow`: sacrebleu's `TER` options. */
export type TerMatcherOptions = TerOptions

/**
 * Passes when the TER (translation edit rate) of the received text against `reference` (or the best of
 * several) is at most `threshold` (inclusive: identical texts pass at 0). The score is sacrebleu 2.6.0's
 * `sentence_ter` divided by 100: the fewest word edits (insertions, deletions, substitutions, and shifts
 * of word blocks, each counting 1) per reference word, case-insensitive by default. Lower is better;
 * the threshold is a fraction from 0 to 1. A failure shows the edits, the reference length and the words
 * that differ.
 *
 * @example
 * ```ts
 * expect(translation).toHaveTerBelow('The cat is on the mat.', 0.2)
 * expect(translation).toHaveTerBelow(['The cat is on the mat.', 'There is a cat on the mat.'], 0.3, { normalized: true })
 * expect(unrelated).not.toHaveTerBelow(reference, 0.5)
 * ```
 */
export function toHaveTerBelow(this: MatcherContext, received: unknown, reference: unknown, threshold: unknown, options?: unknown): MatcherResult {
  const sig: Signature = { name: 'toHaveTerBelow', expected: 'reference', secondArgument: 'threshold' }
  checkReceivedString(this, sig, received)
  checkStringOrStrings(this, sig, reference, 'reference')
  checkThreshold(this, sig, threshold)
  checkOptions(this, sig, options, TER_OPTIONS)

  const terOptions = options as TerOptions | undefined
  // The check's score is 1 - TER (floored at 0); the matcher's verdict is on the TER itself.
  const details = runTer(received, reference, options ?? {}, null).data
  const pass = details.score <= threshold

  return {
    pass,
    actual: received,
    expected: reference,
    message: () => {
      const references = typeof reference === 'string' ? [reference] : reference
      const best = references[details.bestReferenceIndex] as string
      const { missing, extra } = tokenDiff(terTokenize(received, terOptions), terTokenize(best, terOptions))
      const label = 'TER'
      return lines(
        hint(this, sig),
        '',
        `Expected ${label}: ${this.isNot ? '> ' : '<= '}${this.utils.printExpected(threshold)}`,
        `Received ${label}: ${' '.repeat(this.isNot ? 2 : 3)}${this.utils.printReceived(Number(fmt(details.score)))} ` +
          `(${details.edits} edit${details.edits === 1 ? '' : 's'} over ${fmt(details.referenceLength)} reference words)`,
        '',
        tokenList('Reference words missing from the output', missing),
        tokenList('Output words not in the reference', extra),
        '',
        `Output:    ${preview(received)}`,
        references.length === 1
          ? `Reference: ${preview(best)}`
          : `Reference: ${preview(best)} (the closest of ${references.length} references, #${details.bestReferenceIndex + 1})`,
      )
    },
  }
}
