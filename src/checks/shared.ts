/**
 * Helpers shared by the built-in check definitions: the result shape, score formatting, the judge
 * options and details.
 *
 * @module
 */
import { describeValue, formatMessage } from '../errors.js'
import { failWith } from '../errors.js'
import type { JudgeVerdict } from '../judges/run.js'
import { DEFAULT_JUDGE_THRESHOLD } from '../judges/types.js'
import type { CheckOutcome, OptionErrors } from './types.js'

/** The planning errors: `Failed to set up the golden scorers: ...`. */
export const fail = failWith('set up the golden scorers')

/** A threshold from 0 to 1, or `null`. */
export function checkThreshold(name: string, value: unknown): number | null {
  if (value === null) return null
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || value > 1) {
    return fail(
      `the threshold of "${name}" must be a number from 0 to 1 or null, got ${describeValue(value)}`,
      `Pass for example { ${name}: 0.5 }, or null to record the score only.`,
    )
  }
  return value
}

/** A verdict: passes at or above the threshold unless `pass` says otherwise. */
export function result<D = unknown>(score: number, threshold: number | null, detail?: string, pass?: boolean, data?: D): CheckOutcome<D> {
  const r: CheckOutcome<D> = { score, threshold, pass: pass ?? (threshold === null || score >= threshold) }
  if (detail) r.detail = detail
  if (data !== undefined) r.data = data
  return r
}

export const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(3).replace(/0+$/, '').replace(/\.$/, ''))
export const quote = (s: string, max = 60) => JSON.stringify(s.length > max ? `${s.slice(0, max - 1)}…` : s)

/** The metric options among a check's options. */
export function pick(options: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of keys) if (options[key] !== undefined) out[key] = options[key]
  return out
}

/** The best score over several references. */
export function bestOf(refs: readonly string[], score: (ref: string) => number): { score: number; ref: string } {
  let best = { score: -1, ref: refs[0] as string }
  for (const ref of refs) {
    const s = score(ref)
    if (s > best.score) best = { score: s, ref }
  }
  return best
}

/** How a check that prepares a judge call fails on its spec: the plan's way (a matcher's), else a run error of the scorer. */
export function runFail(plan: { key: string; errors?: OptionErrors }): (reason: string, fix: string) => never {
  return plan.errors?.fail ?? failWith(`run the ${plan.key} scorer`)
}

/** A usage error while scoring a case. */
export function usageError(reason: string, fix: string): never {
  throw new TypeError(formatMessage(`Failed to score the golden case: ${reason}. ${fix}`))
}

/** The reason of a judge, one line, with the panel's or the samples' votes. */
export function judgeDetail(v: JudgeVerdict): string {
  const reason = v.reason.replace(/\s+/g, ' ').trim()
  const agree =
    v.panel && v.panel.length > 1
      ? ` (judges: ${v.panel.map((p) => `${p.judge} ${fmt(p.score)}`).join(', ')}; agreement ${Math.round(v.agreement * 100)}%)`
      : v.results.length > 1
        ? ` (${v.passes}/${v.results.length} samples passed)`
        : ''
  return `${reason.length > 160 ? `${reason.slice(0, 159)}…` : reason}${agree}`
}

/** A judge check's result, with each judge's vote when a panel judged. */
export function judgeResult(v: JudgeVerdict, threshold: number | null, detail = judgeDetail(v)): CheckOutcome<JudgeVerdict> {
  const r = result(v.score, threshold, detail, threshold === null ? true : v.pass, v)
  if (v.panel && v.panel.length > 1) {
    r.judges = v.panel.map((p) => ({ judge: p.judge, score: p.score, pass: p.pass }))
    r.agreement = v.agreement
  }
  return r
}

/** The judge options of a check, as a judge spec. */
export function judgeSpec(options: Record<string, unknown>, threshold: number | null): Record<string, unknown> {
  const spec: Record<string, unknown> = {}
  for (const k of ['judge', 'samples', 'scale', 'template', 'verbatim', 'lenient']) if (options[k] !== undefined) spec[k] = options[k]
  // The judge decides pass/fail on its own threshold; null (record only) still needs one for the verdict.
  spec.threshold = threshold ?? DEFAULT_JUDGE_THRESHOLD
  return spec
}

/** Reference checks score answerable cases that have a reference. */
export const hasReference = (c: { answerable?: boolean }, _plan: unknown, refs: readonly string[]) => refs.length > 0 && c.answerable !== false

/** Fails unless `value` is undefined or one of `allowed` (`measure must be one of 'f', 'precision', 'recall', ...`). */
export function checkChoice(how: OptionErrors, name: string, value: unknown, allowed: readonly string[]): void {
  if (value === undefined || allowed.includes(value as string)) return
  const list = allowed.map((a) => `'${a}'`).join(', ')
  how.fail(`${how.prefix}${name} must be one of ${list}, got ${describeValue(value)}`, `Pass one of ${list}.`)
}

/** Fails unless `value` is undefined or a boolean (`stemmer must be a boolean, ...`). */
export function checkBoolean(how: OptionErrors, name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean')
    how.fail(`${how.prefix}${name} must be a boolean, got ${describeValue(value)}`, `Pass ${name}: true or false.`)
}
