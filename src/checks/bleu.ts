/** The `bleu` check: sacrebleu sentence BLEU / 100 against the references. @module */
import { bleu as sentenceBleu, bleuDetails } from '../metrics/bleu.js'
import { hasReference, result } from './shared.js'
import type { CheckDefinition } from './types.js'

export const bleu: CheckDefinition = {
  name: 'bleu',
  defaultThreshold: null,
  optionKeys: ['threshold'],
  appliesTo: hasReference,
  run({ output, references }, { threshold }) {
    // The details (n-gram precisions, brevity penalty) are the matcher's message.
    const d = bleuDetails(output, references)
    return result(d.score, threshold, undefined, undefined, d)
  },
}

/**
 * The index of the reference that scores best on its own (the first of equal ones), against which a
 * message shows the token differences. One reference is the nearest without scoring it.
 */
export function nearestReference(output: string, references: readonly string[]): number {
  let nearest = 0
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent when also run for one reference, which is then the nearest
  if (references.length > 1) {
    let best = -1
    references.forEach((ref, i) => {
      const score = sentenceBleu(output, ref)
      if (score > best) [best, nearest] = [score, i]
    })
  }
  return nearest
}

/**
 * The missing tokens that an extra token equals but for case (`"Paris" vs "paris"`), each once, in the
 * order of `missing`: BLEU is case-sensitive, and a message says so.
 */
export function caseOnlyDifferences(missing: readonly string[], extra: readonly string[]): string[] {
  const lowerExtra = new Map(extra.map((token) => [token.toLowerCase(), token]))
  return [...new Set(missing)].flatMap((token) => {
    const other = lowerExtra.get(token.toLowerCase())
    return other === undefined ? [] : [`${JSON.stringify(token)} vs ${JSON.stringify(other)}`]
  })
}
