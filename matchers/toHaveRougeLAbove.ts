import { directInput, rougeLCheck, rougeTokenize, runDirect, type RougeData } from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import {
  definitionPlan,
  checkReceivedString,
  checkString,
  checkThreshold,
  fmt,
  hint,
  lines,
  preview,
  scoreLines,
  tokenDiff,
  tokenList,
  type Signature,
} from './utils.js'

/** Options of {@link toHaveRougeLAbove}. */
export interface RougeLMatcherOptions {
  /** `'rougeL'` (default): one LCS over the whole text. `'rougeLsum'`: summary-level LCS, one sentence per line. */
  variant?: 'rougeL' | 'rougeLsum'
  /** Which number to compare: the F-measure (default), precision (against the output) or recall (against the reference). */
  measure?: 'f' | 'precision' | 'recall'
  /** Porter-stem tokens longer than 3 characters, as rouge-score's `use_stemmer=True`. Default `false`. */
  stemmer?: boolean
  /** `'unicode'` (default) keeps letters and digits of every script; `'rouge-score'` reproduces Google's rouge-score exactly. */
  tokenizer?: 'unicode' | 'rouge-score'
}

const MEASURE_LABEL = { f: 'F-measure', precision: 'precision', recall: 'recall' } as const

/**
 * Passes when the ROUGE-L score of the received text against `reference` is at least `threshold`
 * (inclusive: identical texts pass at 1). Compares the F-measure unless `measure` says otherwise.
 *
 * @example
 * ```ts
 * expect(summary).toHaveRougeLAbove('The meeting moved to Friday at 10am.', 0.5)
 * expect(bulletSummary).toHaveRougeLAbove(referenceBullets, 0.6, { variant: 'rougeLsum', stemmer: true })
 * expect(answer).not.toHaveRougeLAbove(leakedSystemPrompt, 0.8, { measure: 'recall' })
 * ```
 */
export function toHaveRougeLAbove(
  this: MatcherContext,
  received: unknown,
  reference: unknown,
  threshold: unknown,
  options?: RougeLMatcherOptions,
): MatcherResult {
  const sig: Signature = { name: 'toHaveRougeLAbove', expected: 'reference', secondArgument: 'threshold' }
  checkReceivedString(this, sig, received)
  checkString(this, sig, reference, 'reference')
  checkThreshold(this, sig, threshold)
  const plan = definitionPlan(this, sig, rougeLCheck, options, threshold)

  const variant = options?.variant ?? 'rougeL'
  const measure = options?.measure ?? 'f'
  const tokenOptions = { stemmer: options?.stemmer ?? false, tokenizer: options?.tokenizer ?? 'unicode' } as const
  const { data: score, score: value } = runDirect<RougeData>(plan, directInput(received, { references: [reference] }))
  const pass = value >= threshold

  return {
    pass,
    actual: received,
    expected: reference,
    message: () => {
      const { missing, extra } = tokenDiff(rougeTokenize(received, tokenOptions), rougeTokenize(reference, tokenOptions))
      const label = `${variant === 'rougeL' ? 'ROUGE-L' : 'ROUGE-Lsum'} ${MEASURE_LABEL[measure]}`
      return lines(
        hint(this, sig),
        '',
        scoreLines(this, label, value, threshold, `(precision ${fmt(score.precision)}, recall ${fmt(score.recall)}, F ${fmt(score.f)})`),
        '',
        tokenList('Reference tokens missing from the output', missing),
        tokenList('Output tokens not in the reference', extra),
        !pass &&
          missing.length === 0 &&
          extra.length === 0 && [
            'Both texts have the same tokens in a different order: ROUGE-L counts only the longest common subsequence.',
            variant === 'rougeL'
              ? "If sentences may come in any order, put one per line and use { variant: 'rougeLsum' }."
              : 'rougeLsum matches each reference line against every output line; check the line breaks.',
          ],
        '',
        `Output:    ${preview(received)}`,
        `Reference: ${preview(reference)}`,
      )
    },
  }
}
