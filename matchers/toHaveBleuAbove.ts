import { bleuCheck, caseOnlyDifferences, directInput, nearestReference, runDirect, tokenize13a, type BleuDetails } from './_engine.js'
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
  tokenDiff,
  tokenList,
  type Signature,
} from './utils.js'

/** The 1- to 4-gram precisions: matches/total = precision, smoothed ones, and orders the output is too short for. */
function precisionList(details: BleuDetails): string[] {
  return details.precisions.map((p, i) => {
    const n = i + 1
    if (n > details.effectiveOrder) return `${n}-gram none (the output has ${details.sysLen} token${details.sysLen === 1 ? '' : 's'})`
    const ratio = `${details.counts[i] ?? 0}/${details.totals[i] ?? 0}`
    return details.counts[i] === 0 ? `${n}-gram ${ratio} (smoothed to ${fmt(p)})` : `${n}-gram ${ratio} = ${fmt(p)}`
  })
}

/**
 * Passes when the sentence BLEU of the received text against `reference` (or several references) is at
 * least `threshold` (inclusive). The score is sacrebleu's `sentence_bleu` with its defaults (13a tokenizer,
 * case-sensitive, exp smoothing, effective order) divided by 100, so it lies in [0, 1]. A failure shows the
 * 1- to 4-gram precisions, the brevity penalty and the tokens that differ from the nearest reference.
 *
 * @example
 * ```ts
 * expect(translation).toHaveBleuAbove('Le chat est sur le tapis.', 0.4)
 * expect(translation).toHaveBleuAbove(['The cat is on the mat.', 'There is a cat on the mat.'], 0.5)
 * expect(paraphrase).not.toHaveBleuAbove(original, 0.8)
 * ```
 */
export function toHaveBleuAbove(this: MatcherContext, received: unknown, reference: unknown, threshold: unknown): MatcherResult {
  const sig: Signature = { name: 'toHaveBleuAbove', expected: 'reference', secondArgument: 'threshold' }
  checkReceivedString(this, sig, received)
  checkStringOrStrings(this, sig, reference, 'reference')
  checkThreshold(this, sig, threshold)

  const plan = definitionPlan(this, sig, bleuCheck, undefined, threshold)
  const references = typeof reference === 'string' ? [reference] : reference
  const { data: details, pass } = runDirect<BleuDetails>(plan, directInput(received, { references }))

  return {
    pass,
    actual: received,
    expected: reference,
    message: () => {
      const precisions = precisionList(details)
      const closest = references.length > 1 ? 'the closest reference' : 'the reference'
      const penalty =
        details.bp < 1
          ? `${fmt(details.bp)} (the output is shorter: ${details.sysLen} tokens vs ${details.refLen} in ${closest})`
          : `1 (output ${details.sysLen} tokens, ${closest.slice(4)} ${details.refLen})`
      // Token differences against the reference that scores best on its own.
      const nearest = nearestReference(received, references)
      const nearestText = references[nearest] as string
      const { missing, extra } = tokenDiff(tokenize13a(received), tokenize13a(nearestText))
      const caseOnly = caseOnlyDifferences(missing, extra)
      return lines(
        hint(this, sig),
        '',
        scoreLines(this, 'BLEU', details.score, threshold),
        '',
        `n-gram precisions: ${precisions.join(', ')}`,
        `Brevity penalty:   ${penalty}`,
        '',
        tokenList('Reference tokens missing from the output', missing),
        tokenList('Output tokens not in the reference', extra),
        caseOnly.length > 0 ? `BLEU is case-sensitive: ${caseOnly.slice(0, 5).join(', ')} differ only in case.` : undefined,
        '',
        `Output:    ${preview(received)}`,
        references.length === 1
          ? `Reference: ${preview(nearestText)}`
          : `Reference: ${preview(nearestText)} (the nearest of ${references.length} references, #${nearest + 1})`,
      )
    },
  }
}
