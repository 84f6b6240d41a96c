/**
 * Planning and running the checks of a golden suite: the `scorers` option read into one plan per key
 * (built-in checks by name, named instances `'<check>:<label>'`, user checks from `defineCheck`), the
 * checks that apply to a case, and one check run on one output.
 *
 * @module
 */
import { describeValue } from '../errors.js'
import type { GoldenCase, GoldenScorers } from '../golden/types.js'
import { isCheck, userCheckDefinition } from './define.js'
import { BUILTIN_CHECKS, builtinCheck } from './index.js'
import { checkThreshold, fail } from './shared.js'
import type { CheckEnv, CheckInput, CheckOutcome, CheckResult, ScorerPlan } from './types.js'

/** Every built-in check name that `scorers` accepts as a key, in report order. */
export const BUILTIN_NAMES: readonly string[] = BUILTIN_CHECKS.map((c) => c.name)

/** The built-in check a key names: `'judge'` for `'judge'` and `'judge:correctness'`. */
export function baseName(key: string): string {
  const i = key.indexOf(':')
  return i === -1 ? key : key.slice(0, i)
}

function planBuiltin(key: string, raw: unknown): ScorerPlan | undefined {
  const name = baseName(key)
  const check = builtinCheck(name)
  if (!check) {
    return fail(
      `unknown scorer "${key}"`,
      `Valid scorers are: ${BUILTIN_NAMES.join(', ')}, a named instance such as "judge:correctness", or a check from defineCheck().`,
    )
  }
  if (raw === undefined || raw === false) return undefined
  const s = check.shorthands ?? {}
  let options: Record<string, unknown> = {}
  let threshold = check.defaultThreshold
  if (raw === true) {
    // defaults
  } else if (typeof raw === 'number' || raw === null) {
    if (s.noNumber) fail(`"${key}" takes options, not a number`, s.noNumber)
    threshold = checkThreshold(key, raw)
  } else if (typeof raw === 'string') {
    if (!s.stringOption) fail(`"${key}" does not take a string`, 'Pass a threshold or an options object.')
    options = { [s.stringOption as string]: raw }
  } else if (typeof raw === 'object') {
    const bare = s.bareObject?.(raw)
    if (bare) {
      options = bare
    } else {
      options = { ...(raw as Record<string, unknown>) }
      const unknown = Object.keys(options).filter((k) => options[k] !== undefined && !check.optionKeys.includes(k))
      if (unknown.length > 0)
        fail(`unknown option ${unknown.map((k) => `"${k}"`).join(', ')} of the "${key}" scorer`, `Valid options are: ${check.optionKeys.join(', ')}.`)
      if ('threshold' in options && options.threshold !== undefined) threshold = checkThreshold(key, options.threshold)
    }
  } else {
    fail(`the "${key}" scorer must be true, a threshold or an options object, got ${describeValue(raw)}`, `Pass for example { ${key}: true }.`)
  }
  if (check.resolve) threshold = check.resolve({ key, threshold, options }, raw)
  return { key, name, threshold, options, explicit: true, check }
}

/**
 * Resolves the `scorers` option: checks names, thresholds and option keys (before any case runs) and
 * returns one plan per listed scorer.
 */
export function planScorers(scorers: GoldenScorers | undefined): ScorerPlan[] {
  if (scorers === undefined) return []
  if (scorers === null || typeof scorers !== 'object' || Array.isArray(scorers)) {
    fail(`"scorers" must be an object, got ${describeValue(scorers)}`, 'Pass for example { rougeL: 0.3, semantic: 0.8 }.')
  }
  const plans: ScorerPlan[] = []
  for (const [key, raw] of Object.entries(scorers)) {
    if (isCheck(raw)) {
      plans.push({ key, name: raw.name, threshold: raw.threshold, options: { ...raw.options }, explicit: true, check: userCheckDefinition(raw) })
      continue
    }
    const plan = planBuiltin(key, raw)
    if (plan) plans.push(plan)
  }
  const keys = new Set(plans.map((p) => p.key))
  for (const plan of plans.filter((p) => p.check.after)) {
    for (const part of Object.keys(plan.options.weights as object)) {
      if (!keys.has(part) || plans.find((p) => p.key === part)?.check.after) {
        fail(
          `${plan.key}.weights names "${part}", which is not another scorer of the suite`,
          `Weight the keys listed in "scorers": ${[...keys].filter((k) => k !== plan.key).join(', ') || '(none)'}.`,
        )
      }
    }
  }
  return plans
}

/** The string references of a case: `expected` (when a string) and `acceptable`. */
export function referencesOf(c: GoldenCase): string[] {
  const refs: string[] = []
  if (typeof c.expected === 'string' && c.expected.trim() !== '') refs.push(c.expected)
  if (c.acceptable) refs.push(...c.acceptable)
  return refs
}

/** Report order of a key: built-in checks in their order (instances after their check), then user checks as listed. */
export function keyRank(key: string, plans: readonly ScorerPlan[]): number {
  const listed = plans.findIndex((p) => p.key === key)
  const plan = plans[listed]
  const builtin = BUILTIN_NAMES.indexOf(baseName(key))
  const user = plan ? plan.check !== builtinCheck(plan.name) : builtin === -1
  if (user) return 1000 * BUILTIN_NAMES.length + (listed === -1 ? 999 : listed)
  return builtin * 1000 + (key === baseName(key) ? 0 : 1 + Math.max(0, listed))
}

/** Sorts scorer keys in report order. */
export function sortKeys(keys: Iterable<string>, plans: readonly ScorerPlan[]): string[] {
  return [...new Set(keys)].sort((a, b) => keyRank(a, plans) - keyRank(b, plans) || (a < b ? -1 : a > b ? 1 : 0))
}

/**
 * The scorers that run on one case: the listed ones that apply (a reference scorer needs a reference;
 * `refusal` with answerable cases checks that they are *not* refused), plus the ones the case calls for:
 * `refusal` for `answerable: false`, `keywords` for `keywords`, `retrieval` for `relevant`, `judge`
 * for `criteria` (unless `scorers` lists that check, under its name or a named instance).
 */
export function scorersFor(c: GoldenCase, plans: readonly ScorerPlan[]): ScorerPlan[] {
  const refs = referencesOf(c)
  const out = plans.filter((plan) => plan.check.appliesTo === undefined || plan.check.appliesTo(c, plan, refs))
  for (const check of BUILTIN_CHECKS) {
    if (!check.calledFor?.(c) || plans.some((p) => p.check === check || p.check.supersedes?.includes(check.name))) continue
    out.push({ key: check.name, name: check.name, threshold: check.defaultThreshold, options: {}, explicit: false, check })
  }
  return out.sort((a, b) => keyRank(a.key, plans) - keyRank(b.key, plans))
}

/** Creates the per-suite state of the checks (embeddings). */
export function createScorerEnv(plans: readonly ScorerPlan[], cases: () => readonly GoldenCase[]): CheckEnv {
  const env: CheckEnv = {}
  for (const plan of plans) plan.check.setup?.(plan, cases, env)
  return env
}

/** Runs one check on one output, without its `data`. Model errors and usage errors throw. */
export async function runCheck(plan: ScorerPlan, input: CheckInput, env: CheckEnv): Promise<CheckResult | undefined> {
  const outcome: CheckOutcome | undefined = await plan.check.run(input, plan, env)
  if (outcome === undefined) return undefined
  const { data: _data, ...rest } = outcome
  return rest
}
