/** The `chrF` check: sacrebleu chrF / 100 (chrF++ with `wordOrder: 2`) against the best reference. @module */
import { chrFDetails, type ChrFDetails, type ChrFOptions } from '../metrics/chrf.js'
import { hasReference, pick, result } from './shared.js'
import type { CheckDefinition, CheckOutcome } from './types.js'

/** sacrebleu's `CHRF` options. */
export const CHRF_OPTIONS = ['charOrder', 'wordOrder', 'beta', 'lowercase', 'whitespace', 'epsSmoothing'] as const

/** chrF of `output` against `references`, with the per-order statistics as `data`. */
export function runChrF(
  output: string,
  references: string | readonly string[],
  options: Record<string, unknown>,
  threshold: number | null,
): CheckOutcome<ChrFDetails> & { data: ChrFDetails } {
  const details = chrFDetails(output, references, pick(options, CHRF_OPTIONS) as ChrFOptions)
  return { ...result(details.score, threshold), data: details }
}

export const chrF: CheckDefinition = {
  name: 'chrF',
  defaultThreshold: null,
  optionKeys: ['threshold', ...CHRF_OPTIONS],
  appliesTo: hasReference,
  run: ({ output, references }, { threshold, options }) => runChrF(output, references, options, threshold),
}
