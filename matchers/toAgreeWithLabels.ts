import {
  type CalibrationDisagreement,
  type CalibrationResult,
  calibrationPasses,
  confusionLine,
  DEFAULT_MIN_AGREEMENT,
  DEFAULT_MIN_KAPPA,
  describeValue,
  runCalibration,
  undefinedKappaNote,
} from './_engine.js'
import type { MatcherContext } from './context.js'
import { checkOptions, failFor, fmt, hint, lines, modelError, percent, preview, usageError, type Signature } from './utils.js'

/** Options of {@link toAgreeWithLabels}. */
export interface AgreeWithLabelsOptions {
  /** Minimum share of cases where the judge's verdict equals the label (inclusive). Default 0.8. */
  minAgreement?: number
  /** Minimum Cohen's kappa (inclusive, -1 to 1). Default 0.6 ("substantial" agreement on the Landis & Koch scale). */
  minKappa?: number
}

const OPTIONS = ['minAgreement', 'minKappa'] as const

function disagreementList(title: string, cases: CalibrationDisagreement[], max = 10): string[] {
  if (cases.length === 0) return [`${title}: none`]
  const shown = cases
    .slice(0, max)
    .map((c) => `  #${c.index} score ${fmt(c.score)}: ${preview(c.output, 100)}${c.reason.trim() ? `; judge: ${preview(c.reason, 140)}` : ''}`)
  return [`${title} (${cases.length}):`, ...shown, ...(cases.length > max ? [`  … and ${cases.length - max} more`] : [])]
}

/** Checks a minimum: a number from `min` to `max` (NaN refused). */
function checkRange(ctx: MatcherContext, sig: Signature, value: unknown, name: string, [min, max]: [number, number], fix: string): asserts value is number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < min || value > max) {
    usageError(ctx, sig, `"${name}" must be a number from ${min} to ${max}, got ${typeof value === 'number' ? String(value) : describeValue(value)}`, fix)
  }
}

/**
 * Passes when a judge agrees with human PASS/FAIL labels: agreement at least `minAgreement` (default
 * 0.8) and Cohen's kappa at least `minKappa` (default 0.6). The received value is the judge: a `Judge`,
 * a function, judge settings, or a `JudgeSpec` (criteria, scale, threshold, template, judge, ...).
 * Each case is judged with the spec plus its own `input`, `reference`, `context` and `criteria`. The
 * failure message lists the false passes and false fails. Kappa is undefined when labels and judge all
 * give one and the same verdict; that fails, because such a set cannot show that the judge
 * discriminates (add cases with the other label). Always `await` it.
 *
 * @example
 * ```ts
 * await expect({ criteria: 'States the refund window correctly' }).toAgreeWithLabels([
 *   { output: 'You can ask for a refund within 30 days.', label: 'PASS' },
 *   { output: 'Wait 30 days before you can ask for a refund.', label: 'FAIL' },
 * ], { minAgreement: 0.9 })
 * ```
 */
export async function toAgreeWithLabels(
  this: MatcherContext,
  received: unknown,
  labelled: unknown,
  options?: AgreeWithLabelsOptions,
): Promise<{ pass: boolean; message: () => string }> {
  const sig: Signature = { name: 'toAgreeWithLabels', received: 'judge', expected: 'labelled', ...(options !== undefined ? { secondArgument: 'options' } : {}) }
  const opts: unknown = options
  checkOptions(this, sig, opts, OPTIONS)
  const minAgreement: unknown = options?.minAgreement ?? DEFAULT_MIN_AGREEMENT
  const minKappa: unknown = options?.minKappa ?? DEFAULT_MIN_KAPPA
  checkRange(this, sig, minAgreement, 'minAgreement', [0, 1], 'Pass a share such as 0.8.')
  checkRange(this, sig, minKappa, 'minKappa', [-1, 1], 'Pass a kappa such as 0.6.')
  if (received === null || (typeof received !== 'object' && typeof received !== 'function') || Array.isArray(received)) {
    usageError(
      this,
      sig,
      `the received value must be a judge or a judge spec, got ${describeValue(received)}`,
      'Pass a Judge, a function, judge settings or { criteria, judge } to expect().',
    )
  }

  let result: CalibrationResult
  try {
    result = await runCalibration(received, labelled, {}, failFor(this, sig))
  } catch (error) {
    if (error instanceof TypeError && error.message.startsWith(hint(this, sig))) throw error
    return modelError(this, sig, error)
  }
  const { kappa, agreement, n } = result
  return {
    pass: calibrationPasses(result, minAgreement, minKappa),
    message: () =>
      lines(
        hint(this, sig),
        '',
        `Expected: agreement ${this.isNot ? '<' : '>='} ${fmt(minAgreement)} ${this.isNot ? 'or' : 'and'} ` +
          `Cohen's kappa ${this.isNot ? '<' : '>='} ${fmt(minKappa)}`,
        `Received: agreement ${fmt(agreement)} (${result.truePass + result.trueFail} of ${n}, ${percent(agreement)}), ` +
          `Cohen's kappa ${kappa === null ? 'undefined' : fmt(kappa)}`,
        undefinedKappaNote(result),
        confusionLine(result),
        '',
        disagreementList('False passes (judge PASS, label FAIL)', result.falsePasses),
        disagreementList('False fails (judge FAIL, label PASS)', result.falseFails),
      ),
  }
}
