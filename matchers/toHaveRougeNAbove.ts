import { directInput, rougeNCheck, rougeTokenize, runDirect, type RougeData } from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import {
  checkInteger,
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

/** Options of {@link toHaveRougeNAbove}. */
export interface RougeNMatcherOptions {
  /** Which number to compare: the F-measure (default), precision (against the output) or recall (against the reference). */
  measure?: 'f' | 'precision' | 'recall'
  /** Porter-stem tokens longer than 3 characters, as rouge-score's `use_stemmer=True`. Default `false`. */
  stemmer?: boolean
  /** `'unicode'` (default) keeps letters and digits of every script; `'rouge-score'` reproduces Google's rouge-score exactly. */
  tokenizer?: 'unicode' | 'rouge-score'
}

const MEASURE_LABEL = { f: 'F-measure', precision: 'precision', recall: 'recall' } as const

/** The n-grams of a token list, each joined with a space (tokens never contain whitespace). */
function ngrams(tokens: readonly string[], n: number): string[] {
  // Stryker disable next-line ArrayDeclaration: equivalent, both n-gram lists would start with the same entry, which the diff cancels
  const out: string[] = []
  for (let i = 0; i + n <= tokens.length; i++) out.push(tokens.slice(i, i + n).join(' '))
  return out
}

/**
 * Passes when the ROUGE-N score of the received text against `reference` is at least `threshold`
 * (inclusive: identical texts pass at 1). `n` is the n-gram size: 1 for ROUGE-1 (word overlap), 2 for
 * ROUGE-2 (word-pair overlap), any positive integer. Compares the F-measure unless `measure` says otherwise.
 * A failure lists the reference n-grams missing from the output and the output n-grams not in the reference.
 *
 * @example
 * ```ts
 * expect(summary).toHaveRougeNAbove('The meeting moved to Friday at 10am.', 1, 0.6)
 * expect(summary).toHaveRougeNAbove(referenceSummary, 2, 0.3, { stemmer: true })
 * expect(answer).not.toHaveRougeNAbove(leakedSystemPrompt, 2, 0.5, { measure: 'recall' })
 * ```
 */
export function toHaveRougeNAbove(
  this: MatcherContext,
  received: unknown,
  reference: unknown,
  n: unknown,
  threshold: unknown,
  options?: RougeNMatcherOptions,
): MatcherResult {
  const sig: Signature = { name: 'toHaveRougeNAbove', expected: 'reference', secondArgument: 'n, threshold' }
  checkReceivedString(this, sig, received)
  checkString(this, sig, reference, 'reference')
  checkInteger(this, sig, n, 'n (the n-gram size)', 1)
  checkThreshold(this, sig, threshold)
  const plan = definitionPlan(this, sig, rougeNCheck(n), options, threshold)

  const measure = options?.measure ?? 'f'
  const tokenOptions = { stemmer: options?.stemmer ?? false, tokenizer: options?.tokenizer ?? 'unicode' } as const
  const { data: score, score: value } = runDirect<RougeData>(plan, directInput(received, { references: [reference] }))
  const pass = value >= threshold

  return {
    pass,
    actual: received,
    expected: reference,
    message: () => {
      const outputTokens = rougeTokenize(received, tokenOptions)
      const referenceTokens = rougeTokenize(reference, tokenOptions)
      const { missing, extra } = tokenDiff(ngrams(outputTokens, n), ngrams(referenceTokens, n))
      const gram = n === 2 ? 'bigram' : n === 3 ? 'trigram' : `${n}-gram`
      const unit = n === 1 ? 'tokens' : `${gram}s`
      const tooShort = [
        outputTokens.length < n ? `The output has ${outputTokens.length} token${outputTokens.length === 1 ? '' : 's'}, too few for a ${gram}.` : undefined,
        referenceTokens.length < n
          ? `The reference has ${referenceTokens.length} token${referenceTokens.length === 1 ? '' : 's'}, too few for a ${gram}.`
          : undefined,
      ].filter((line) => line !== undefined)
      return lines(
        hint(this, sig),
        '',
        scoreLines(
          this,
          `ROUGE-${n} ${MEASURE_LABEL[measure]}`,
          value,
          threshold,
          `(precision ${fmt(score.precision)}, recall ${fmt(score.recall)}, F ${fmt(score.f)})`,
        ),
        '',
        tooShort,
        tokenList(`Reference ${unit} missing from the output`, missing),
        tokenList(`Output ${unit} not in the reference`, extra),
        '',
        `Output:    ${preview(received)}`,
        `Reference: ${preview(reference)}`,
      )
    },
  }
}
