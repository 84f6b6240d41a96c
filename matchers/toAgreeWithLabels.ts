import { DEFAULT_MIN_AGREEMENT, DEFAULT_MIN_KAPPA, runCalibration, describeValue, type CalibrationDisagreement } from './_engine.js'
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
  if (typeof minAgreement !== 'number' || Number.isNaN(minAgreement) || minAgreement < 0 || minAgreement > 1) {
    usageError(
      this,
      sig,
      `"minAgreement" must be a number from 0 to 1, got ${typeof minAgreement === 'number' ? String(minAgreement) : describeValue(minAgreement)}`,
      'Pass a share such as 0.8.',
    )
  }
  if (typeof minKappa !== 'number' || Number.isNaN(minKappa) || minKappa < -1 || minKappa > 1) {
    usageError(
      this,
      sig,
      `"minKappa" must be a number from -1 to 1, got ${typeof minKappa === 'number' ? String(minKappa) : describeValue(minKappa)}`,
      'Pass a kappa such as 0.6.',
    )
  }
  if (received === undefined || received === null || (typeof received !== 'object' && typeof received !== 'function') || Array.isArray(received)) {
    usageError(
      this,
      sig,
      `the received value must be a judge or a judge spec, got ${describeValue(received)}`,
      'Pass a Judge, a function, judge settings or { criteria, judge } to expect().',
    )
  }

  let result
  try {
    result = await runCalibration(received, labelled, {}, failFor(this, sig))
  } catch (error) {
    if (error instanceof TypeError && error.message.startsWith(hint(this, sig))) throw error
    return modelError(this, sig, error)
  }
  const { kappa, agreement, n } = result
  const pass = agreement >= minAgreement && kappa !== null && kappa >= minKappa
  const agreeing = result.truePass + result.trueFail
  return {
    pass,
    message: () =>
      lines(
        hint(this, sig),
        '',
        `Expected: agreement ${this.isNot ? '<' : '>='} ${fmt(minAgreement)} ${this.isNot ? 'or' : 'and'} ` +
          `Cohen's kappa ${this.isNot ? '<' : '>='} ${fmt(minKappa)}`,
        `Received: agreement ${fmt(agreement)} (${agreeing} of ${n}, ${percent(agreement)}), Cohen's kappa ${kappa === null ? 'undefined' : fmt(kappa)}`,
        kappa === null
          ? `Kappa is undefined: every label and every verdict is ${result.truePass > 0 ? 'PASS' : 'FAIL'}, ` +
              'so the set cannot show that the judge tells PASS from FAIL. Add cases with the other label.'
          : undefined,
        `Confusion: judge PASS/label PASS ${result.truePass}, judge FAIL/label FAIL ${result.trueFail}, ` +
          `false passes ${result.falsePasses.length}, false fails ${result.falseFails.length}`,
        '',
        disagreementList('False passes (judge PASS, label FAIL)', result.falsePasses),
        disagreementList('False fails (judge FAIL, label PASS)', result.falseFails),
      ),
  }
}
