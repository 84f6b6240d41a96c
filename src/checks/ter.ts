/**
 * The `ter` check: 1 - sacrebleu TER / 100, floored at 0, so that higher is better as for every other
 * check (thresholds, baselines, comparisons); `maxTer` sets the threshold as a TER.
 *
 * @module
 */
import { terDetails, type TerDetails, type TerOptions } from '../metrics/ter.js'
import { checkThreshold, fail, fmt, hasReference, pick, result } from './shared.js'
import type { CheckDefinition, CheckOutcome } from './types.js'

/** sacrebleu's `TER` options. */
export const TER_OPTIONS = ['normalized', 'noPunct', 'asianSupport', 'caseSensitive'] as const

/** TER of `output` against `references`: the score is 1 - TER; `data` has the TER, edits and the best reference. */
export function runTer(
  output: string,
  references: string | readonly string[],
  options: Record<string, unknown>,
  threshold: number | null,
): CheckOutcome<TerDetails> & { data: TerDetails } {
  const d = terDetails(output, references, pick(options, TER_OPTIONS) as TerOptions)
  const detail = `TER ${fmt(Number(d.score.toFixed(4)))} (${d.edits} edit${d.edits === 1 ? '' : 's'} over ${fmt(d.referenceLength)} reference words)`
  return { ...result(Math.max(0, 1 - d.score), threshold, detail), data: d }
}

export const ter: CheckDefinition = {
  name: 'ter',
  defaultThreshold: null,
  optionKeys: ['threshold', 'maxTer', ...TER_OPTIONS],
  appliesTo: hasReference,
  resolve({ threshold, options }) {
    if (options.maxTer === undefined) return threshold
    if (options.threshold !== undefined)
      fail('the "ter" scorer takes threshold or maxTer, not both', 'Pass { maxTer: 0.3 } (TER at most 0.3) or { threshold: 0.7 } (1 - TER at least 0.7).')
    const max = checkThreshold('ter.maxTer', options.maxTer)
    return max === null ? null : 1 - max
  },
  run: ({ output, references }, { threshold, options }) => runTer(output, references, options, threshold),
}
