import { codePoints, directInput, editCheck, levenshteinDistance, runDirect } from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { checkReceivedString, checkString, checkThreshold, definitionPlan, hint, lines, preview, scoreLines, type Signature } from './utils.js'

/** The differing middle of two texts, after their common prefix and suffix (in code points). */
function difference(output: string, reference: string): { at: number; output: string; reference: string } | undefined {
  const a = codePoints(output)
  const b = codePoints(reference)
  let start = 0
  // Past the end of b, b[start] is undefined: no bound on b is needed.
  while (start < a.length && a[start] === b[start]) start++
  if (start === a.length && start === b.length) return undefined
  let end = 0
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++
  return { at: start + 1, output: a.slice(start, a.length - end).join(''), reference: b.slice(start, b.length - end).join('') }
}

/**
 * Passes when the edit similarity of the received text to `reference` is at least `threshold` (inclusive).
 * Edit similarity is 1 - Levenshtein distance / the longer length, counted in Unicode code points, with no
 * case folding or trimming: 1 for identical texts, 0 for texts with nothing in place. Suited to short
 * structured strings (ids, codes, names) more than to prose. A failure shows the distance, both lengths and
 * where the texts start to differ.
 *
 * @example
 * ```ts
 * expect(extractedSku).toHaveEditSimilarityAbove('AB-1234-X', 0.85)
 * expect(transcribedName).toHaveEditSimilarityAbove('Zoë Saldaña', 0.8)
 * expect(rewrite).not.toHaveEditSimilarityAbove(original, 0.95)
 * ```
 */
export function toHaveEditSimilarityAbove(this: MatcherContext, received: unknown, reference: unknown, threshold: unknown): MatcherResult {
  const sig: Signature = { name: 'toHaveEditSimilarityAbove', expected: 'reference', secondArgument: 'threshold' }
  checkReceivedString(this, sig, received)
  checkString(this, sig, reference, 'reference')
  checkThreshold(this, sig, threshold)

  const plan = definitionPlan(this, sig, editCheck, undefined, threshold)
  const { score: similarity, pass } = runDirect(plan, directInput(received, { references: [reference] }))

  return {
    pass,
    actual: received,
    expected: reference,
    message: () => {
      const distance = levenshteinDistance(received, reference)
      const outputLength = codePoints(received).length
      const referenceLength = codePoints(reference).length
      const longest = Math.max(outputLength, referenceLength)
      const diff = difference(received, reference)
      return lines(
        hint(this, sig),
        '',
        scoreLines(this, 'edit similarity', similarity, threshold, longest === 0 ? '(both texts are empty)' : `(1 - ${distance} / ${longest})`),
        '',
        `Levenshtein distance: ${distance} edit${distance === 1 ? '' : 's'} (output ${outputLength} code points, reference ${referenceLength})`,
        diff === undefined
          ? 'The texts are identical.'
          : `Differs from code point ${diff.at}: ${preview(diff.output, 60)} in the output, ` +
              `${preview(diff.reference, 60)} in the reference (common start and end left out)`,
        '',
        `Output:    ${preview(received)}`,
        `Reference: ${preview(reference)}`,
      )
    },
  }
}
