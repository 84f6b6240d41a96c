/**
 * Judge calibration: run a judge on cases labelled PASS/FAIL by people and measure how far to trust it.
 *
 * @module
 */
import { describeValue } from './errors.js'
import { failWith, type Fail } from './errors.js'
import { prepareJudgeCall, runJudge, type JudgeVerdict } from './judges/run.js'
import type { JudgeLike, JudgeSpec } from './judges/types.js'

/** A human label. */
export type CalibrationLabel = 'PASS' | 'FAIL'

/** One labelled case: the output to judge, what the judge is shown with it, and the human verdict. */
export interface CalibrationCase {
  output: string
  input?: string
  reference?: string
  context?: string | string[]
  /** Criteria for this case (overrides the spec's). */
  criteria?: string
  label: CalibrationLabel
}

/** A case the judge got wrong, with its position in the input and what the judge said. */
export type CalibrationDisagreement = CalibrationCase & { index: number; score: number; reason: string }

/** The outcome of {@link calibrateJudge}. */
export interface CalibrationResult {
  n: number
  /** Share of cases where the judge's verdict equals the label. */
  agreement: number
  /**
   * Cohen's kappa between judge and labels: (p_o - p_e) / (1 - p_e), computed exactly from the 2×2
   * counts. 1 = perfect, 0 = no better than chance given each side's PASS rate, < 0 = worse. `null`
   * when undefined: judge and labels both use a single, identical verdict for every case (p_e = 1).
   */
  kappa: number | null
  /** Judge PASS, label PASS. */
  truePass: number
  /** Judge FAIL, label FAIL. */
  trueFail: number
  /** Judge PASS, label FAIL: the judge let these through. */
  falsePasses: CalibrationDisagreement[]
  /** Judge FAIL, label PASS. */
  falseFails: CalibrationDisagreement[]
  /** Every case's judge verdict, in input order. */
  verdicts: JudgeVerdict[]
}

/**
 * Cohen's kappa for two raters and two categories, from the confusion counts, with exact integer
 * arithmetic: κ = 2(a·d − b·c) / ((a+b)(b+d) + (a+c)(c+d)), where a = both PASS, d = both FAIL,
 * b = judge PASS / label FAIL, c = judge FAIL / label PASS. Returns `null` when the denominator is 0
 * (both raters gave one and the same verdict to every case: agreement is total but chance agreement
 * is too, so kappa is undefined).
 *
 * @example
 * ```ts
 * cohensKappa({ truePass: 20, falsePass: 10, falseFail: 5, trueFail: 15 }) // 0.4
 * ```
 */
export function cohensKappa(counts: { truePass: number; falsePass: number; falseFail: number; trueFail: number }): number | null {
  const { truePass: a, falsePass: b, falseFail: c, trueFail: d } = counts
  const denominator = (a + b) * (b + d) + (a + c) * (c + d)
  if (denominator === 0) return null
  return (2 * (a * d - b * c)) / denominator
}

/** Default minimum agreement of `toAgreeWithLabels`. */
export const DEFAULT_MIN_AGREEMENT = 0.8
/**
 * Default minimum Cohen's kappa of `toAgreeWithLabels`: 0.6, the lower bound of "substantial" agreement
 * (Landis & Koch, 1977). Raw agreement alone flatters a judge on unbalanced sets (a judge that passes
 * everything agrees 90% with a set that is 90% PASS, with kappa 0), so both must hold.
 */
export const DEFAULT_MIN_KAPPA = 0.6

const CASE_KEYS = ['output', 'input', 'reference', 'context', 'criteria', 'label'] as const

/** Checks the labelled cases; shared with `toAgreeWithLabels`. */
export function checkCases(cases: unknown, fail: Fail): CalibrationCase[] {
  if (!Array.isArray(cases) || cases.length === 0) {
    return fail(
      `the labelled cases must be a non-empty array, got ${Array.isArray(cases) ? 'an empty array' : describeValue(cases)}`,
      "Pass cases such as [{ output: 'Refunds within 30 days.', label: 'PASS' }].",
    )
  }
  cases.forEach((c: unknown, i) => {
    if (c === null || typeof c !== 'object' || Array.isArray(c))
      fail(`case ${i} must be an object, got ${describeValue(c)}`, "Pass { output, label: 'PASS' | 'FAIL' } for every case.")
    const o = c as Record<string, unknown>
    const unknown = Object.keys(o).filter((k) => !(CASE_KEYS as readonly string[]).includes(k))
    if (unknown.length > 0) fail(`case ${i} has unknown field ${unknown.map((k) => `"${k}"`).join(', ')}`, `A case has: ${CASE_KEYS.join(', ')}.`)
    if (typeof o.output !== 'string')
      fail(`case ${i} has no output string (got ${describeValue(o.output)})`, 'Give every case the model output to judge as { output }.')
    if (o.label !== 'PASS' && o.label !== 'FAIL') fail(`case ${i} has label ${describeValue(o.label)}`, "Label every case 'PASS' or 'FAIL' (upper case).")
  })
  return cases as CalibrationCase[]
}

/**
 * Runs a judge on every labelled case (through the concurrency limit) and compares its verdicts with
 * the labels: agreement, Cohen's kappa, and the false passes and false fails with the cases listed.
 * This is how to test a judge before trusting it in `toPassJudge`. Each case is judged with the spec
 * (criteria, scale, threshold, template, samples) plus the case's own input, reference, context and
 * criteria; a case with a reference uses the correctness template unless the spec names one.
 *
 * @param judge - a `Judge`, a function, judge settings, or a `JudgeSpec` (whose `judge` is used).
 * @param options - spec fields applied to every case (merged over a spec passed as `judge`).
 *
 * @example
 * ```ts
 * const result = await calibrateJudge({ criteria: 'States the refund window correctly' }, [
 *   { output: 'You can ask for a refund within 30 days.', label: 'PASS' },
 *   { output: 'Wait 30 days before you can ask for a refund.', label: 'FAIL' },
 * ])
 * result.agreement // 1
 * result.kappa     // 1
 * ```
 */
export function calibrateJudge(judge: JudgeLike | JudgeSpec, cases: CalibrationCase[], options: Omit<JudgeSpec, 'judge'> = {}): Promise<CalibrationResult> {
  return runCalibration(judge, cases, options, failWith('calibrate the judge'))
}

/** {@link calibrateJudge} with the usage-error reporter of the caller (the matcher puts its hint on top). */
export async function runCalibration(judge: unknown, cases: unknown, options: object, fail: Fail): Promise<CalibrationResult> {
  const spec = toSpec(judge, options, fail)
  const checked = checkCases(cases, fail)
  const calls = checked.map((c) => {
    const caseSpec: Record<string, unknown> = { ...spec }
    for (const key of ['input', 'reference', 'context', 'criteria'] as const) if (c[key] !== undefined) caseSpec[key] = c[key]
    return prepareJudgeCall(caseSpec, c.output, {}, fail)
  })
  const verdicts = await Promise.all(calls.map((call) => runJudge(call)))
  let truePass = 0
  let trueFail = 0
  const falsePasses: CalibrationDisagreement[] = []
  const falseFails: CalibrationDisagreement[] = []
  verdicts.forEach((v, index) => {
    const c = checked[index] as CalibrationCase
    const disagreement = (): CalibrationDisagreement => ({ ...c, index, score: v.score, reason: v.reason })
    if (v.pass && c.label === 'PASS') truePass++
    else if (!v.pass && c.label === 'FAIL') trueFail++
    else if (v.pass) falsePasses.push(disagreement())
    else falseFails.push(disagreement())
  })
  const n = checked.length
  return {
    n,
    agreement: (truePass + trueFail) / n,
    kappa: cohensKappa({ truePass, trueFail, falsePass: falsePasses.length, falseFail: falseFails.length }),
    truePass,
    trueFail,
    falsePasses,
    falseFails,
    verdicts,
  }
}

const SPEC_ONLY_KEYS = ['criteria', 'reference', 'input', 'context', 'scale', 'threshold', 'template', 'samples']

/** Reads the first argument: a `JudgeSpec` (has a spec-only key, or `judge`) or anything accepted as a judge. */
export function toSpec(judge: unknown, options: object, fail: Fail): Record<string, unknown> {
  if (judge !== null && typeof judge === 'object' && !Array.isArray(judge) && typeof (judge as { evaluate?: unknown }).evaluate !== 'function') {
    const keys = Object.keys(judge)
    if (keys.includes('judge') || keys.some((k) => SPEC_ONLY_KEYS.includes(k))) return { ...(judge as object), ...options }
  }
  if (judge === undefined || judge === null)
    return fail(`the judge is ${describeValue(judge)}`, 'Pass a Judge, a function, judge settings, or a JudgeSpec such as { criteria }.')
  return { ...options, judge }
}

/**
 * Whether a calibration meets both minimums (inclusive): agreement, and Cohen's kappa. An undefined kappa
 * (one and the same verdict everywhere) never meets it: such a set cannot show that the judge discriminates.
 */
export function calibrationPasses(result: Pick<CalibrationResult, 'agreement' | 'kappa'>, minAgreement: number, minKappa: number): boolean {
  return result.agreement >= minAgreement && result.kappa !== null && result.kappa >= minKappa
}

/** The confusion counts in one line: `Confusion: judge PASS/label PASS 3, judge FAIL/label FAIL 2, ...`. */
export function confusionLine(result: CalibrationResult): string {
  return (
    `Confusion: judge PASS/label PASS ${result.truePass}, judge FAIL/label FAIL ${result.trueFail}, ` +
    `false passes ${result.falsePasses.length}, false fails ${result.falseFails.length}`
  )
}

/** Why kappa is undefined, when it is (every label and every verdict the same), else `undefined`. */
export function undefinedKappaNote(result: CalibrationResult): string | undefined {
  if (result.kappa !== null) return undefined
  return (
    `Kappa is undefined: every label and every verdict is ${result.truePass > 0 ? 'PASS' : 'FAIL'}, ` +
    'so the set cannot show that the judge tells PASS from FAIL. Add cases with the other label.'
  )
}
