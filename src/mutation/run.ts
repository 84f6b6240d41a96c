/**
 * The mutation run of a golden suite (`describeGolden(..., { mutate })`, `expect-llm mutate <file>`): the
 * mutants of each case's reference (or of its refusal, for an unanswerable case) are scored by every check
 * of the suite as if they were the output, with no task call, and each check's mutation score is the share
 * of its mutants it rejects (fails). The report section lists the surviving mutants with the checks that
 * let each pass, and the operators each check is blind to.
 *
 * Model-backed checks call their model through the usual client, so on mutants they replay like any other
 * call: recordings are made with the usual record mode, and a replay miss is an error of that check.
 *
 * @module
 */
import { appendFileSync } from 'node:fs'
import { describeValue, formatMessage, isWholeNumber } from '../errors.js'
import { inputText, referencesOf, runScorers, scorersFor, type ScorerEnv, type ScorerPlan } from '../golden/scorers.js'
import { clip, fmtScore } from '../golden/format.js'
import type { GoldenCase } from '../golden/types.js'
import { generateMutants, resolveOperators } from './generate.js'
import type { MutateOptions, Mutant, MutationOperator, MutationSource } from './types.js'

/** The mutate option resolved: what the run does. */
export interface MutationSettings {
  seed: number
  operators: MutationOperator[]
  /** `null`: no gate. */
  minScore: number | null
  /** Where the option came from: the suite's `mutate` option, or the environment (`expect-llm mutate`). */
  source: 'option' | 'env'
}

/** One check over every mutant it scored. */
export interface MutationCheckReport {
  /** The scorer key (`keywords`, `judge:correctness`, a user check's key). */
  check: string
  /** Mutants the check scored (errors excluded). */
  mutants: number
  /** Mutants it failed. */
  rejected: number
  /** `rejected / mutants`; `null` when it scored none. */
  score: number | null
  /** Per operator: mutants scored and rejected. */
  byOperator: Record<string, { mutants: number; rejected: number }>
  /** Operators with at least one mutant scored by this check, none of which it rejected. */
  blindTo: string[]
  /** The check errored on these mutants (a replay miss, a model error): they are not in the score. */
  errors: Array<{ case: string; operator: string; text: string; error: string }>
  /** With `minScore`: whether the check meets it (`null` without a gate or without a score). */
  gate: boolean | null
}

/** One mutant that at least one check let pass. */
export interface MutationSurvivor {
  case: string
  operator: string
  change: string
  text: string
  /** The checks that let it pass (scored it at or above their threshold). */
  passedBy: string[]
  /** The checks that rejected it. */
  rejectedBy: string[]
  /** No check of the case rejected it (and none errored): the suite would have passed this wrong answer. */
  survivedSuite: boolean
}

/**
 * The `mutation` section of a golden JSON report (schema version 1; the section is optional and only
 * present when the suite ran with mutation on).
 */
export interface MutationReport {
  seed: number
  /** The operators that ran, by name. */
  operators: string[]
  minScore: number | null
  /** Cases with at least one mutant. */
  cases: number
  /** Mutants over all cases. */
  mutants: number
  /** Mutants per operator (over all cases). */
  byOperator: Record<string, number>
  /** Mutants that no check rejected. */
  survivedSuite: number
  /** Worst check first (lowest score; checks with no score last). */
  checks: MutationCheckReport[]
  /** Checks of the suite that do not run on mutants, with the reason. */
  skipped: Array<{ check: string; reason: string }>
  /** Mutants that at least one check let pass, suite survivors first. */
  survivors: MutationSurvivor[]
  /** Checks below `minScore` (the gate's failures). */
  weak: string[]
  /** The judge and embedding calls of the checks on mutants (not counted in the suite's usage and budget). */
  usage?: { calls: number; inputTokens: number; outputTokens: number; costUsd: number | null }
}

/** Environment switches read by the suite (set by `expect-llm mutate`). */
export const MUTATE_ENV = {
  on: 'EXPECT_LLM_MUTATE',
  seed: 'EXPECT_LLM_MUTATE_SEED',
  minScore: 'EXPECT_LLM_MUTATE_MIN_SCORE',
  out: 'EXPECT_LLM_MUTATE_OUT',
} as const

const setupError = (reason: string, fix: string): never => {
  throw new TypeError(formatMessage(`Failed to set up describeGolden: ${reason}. ${fix}`))
}

// An environment variable's text is read as a number; the error shows the text as given.
const fromEnv = (text: string) => (/^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text)

function checkSeed(value: unknown, where: string): number {
  if (!isWholeNumber(value))
    setupError(`${where} must be a whole number, got ${describeValue(value)}`, 'Pass for example { mutate: { seed: 7 } }, or --seed 7.')
  return value as number
}

function checkMinScore(value: unknown, where: string): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || value > 1)
    setupError(`${where} must be a number from 0 to 1, got ${describeValue(value)}`, 'Pass for example { mutate: { minScore: 0.8 } }, or --min-score 0.8.')
  return value as number
}

/**
 * Reads the `mutate` option and the environment of `expect-llm mutate` (`EXPECT_LLM_MUTATE=1`, with
 * `EXPECT_LLM_MUTATE_SEED` and `EXPECT_LLM_MUTATE_MIN_SCORE` over the option's `seed` and `minScore`).
 * `undefined`: no mutation run. `mutate: false` stays off even under the environment switch.
 *
 * @example
 * ```ts
 * resolveMutation({ seed: 3, minScore: 0.8 }, {}) // { seed: 3, operators: [...every built-in], minScore: 0.8, source: 'option' }
 * resolveMutation(undefined, { EXPECT_LLM_MUTATE: '1' }) // { seed: 1, ..., minScore: null, source: 'env' }
 * ```
 */
export function resolveMutation(option: unknown, env: Record<string, string | undefined> = process.env): MutationSettings | undefined {
  if (option === false) return undefined
  const envOn = env[MUTATE_ENV.on] === '1'
  if (option === undefined && !envOn) return undefined
  if (option !== undefined && option !== true && (option === null || typeof option !== 'object' || Array.isArray(option)))
    setupError(
      `"mutate" must be true, false or { seed?, operators?, minScore? }, got ${describeValue(option)}`,
      'Pass for example { mutate: { minScore: 0.8 } }.',
    )
  const o = (typeof option === 'object' ? option : {}) as MutateOptions
  const unknown = Object.keys(o).filter((k) => !['seed', 'operators', 'minScore'].includes(k))
  if (unknown.length > 0) setupError(`unknown mutate option ${unknown.map((k) => `"${k}"`).join(', ')}`, 'Valid options are: seed, operators, minScore.')
  let seed = o.seed === undefined ? 1 : checkSeed(o.seed, 'mutate.seed')
  let minScore = o.minScore === undefined ? null : checkMinScore(o.minScore, 'mutate.minScore')
  if (envOn && env[MUTATE_ENV.seed] !== undefined && env[MUTATE_ENV.seed] !== '') seed = checkSeed(fromEnv(env[MUTATE_ENV.seed] as string), MUTATE_ENV.seed)
  if (envOn && env[MUTATE_ENV.minScore] !== undefined && env[MUTATE_ENV.minScore] !== '')
    minScore = checkMinScore(fromEnv(env[MUTATE_ENV.minScore] as string), MUTATE_ENV.minScore)
  // The operators' errors (an unknown name, with a did-you-mean) come now, before any case runs.
  return { seed, operators: resolveOperators(o.operators as MutateOptions['operators']), minScore, source: option === undefined ? 'env' : 'option' }
}

/** Why a planned check does not run on mutants, or `undefined` when it does. */
export function skipReason(plan: ScorerPlan): string | undefined {
  if (plan.name === 'retrieval' && plan.check.name === 'retrieval') return 'it scores what retrieval returned, not the output'
  if (plan.threshold === null) return 'its threshold is null: it is recorded only and never fails an answer'
  return undefined
}

/** The correct answer of a case that its mutants are made from: its reference; `undefined` when it has none. */
export function mutationSource(c: GoldenCase): MutationSource | undefined {
  const unanswerable = c.answerable === false
  const text = referencesOf(c)[0]
  if (text === undefined && !unanswerable) return undefined
  return { id: c.id, text: text ?? '', input: inputText(c.input), unanswerable }
}

/**
 * The checks of the suite that score mutants, by key, in report order, and those that are skipped (with
 * the reason): what the `mutation` describe block lists, one test per check.
 */
export function mutationChecks(
  cases: readonly GoldenCase[],
  plans: readonly ScorerPlan[],
): { checks: string[]; skipped: Array<{ check: string; reason: string }> } {
  const checks: string[] = []
  const skipped: Array<{ check: string; reason: string }> = []
  for (const c of cases) {
    if (!mutationSource(c)) continue
    for (const plan of scorersFor(c, plans)) {
      if (checks.includes(plan.key) || skipped.some((s) => s.check === plan.key)) continue
      const reason = skipReason(plan)
      if (reason) skipped.push({ check: plan.key, reason })
      else checks.push(plan.key)
    }
  }
  return { checks, skipped }
}

/** What {@link runMutation} needs of the suite. */
export interface MutationRunInput {
  cases: readonly GoldenCase[]
  plans: readonly ScorerPlan[]
  /** The suite's check state (embeddings), shared with its cases. */
  env: ScorerEnv
  settings: MutationSettings
  /** The suite's concurrency limit: each mutant's checks run through it. */
  limit: <T>(fn: () => Promise<T>) => Promise<T>
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * Scores every mutant of every case with the case's checks and builds the report section. Never throws
 * for a check's error: it is recorded on the check (and fails the check's test).
 *
 * @example
 * ```ts
 * const report = await runMutation({ cases, plans: planScorers({ keywords: true }), env: {}, settings, limit: createLimiter(1) })
 * report.checks[0] // { check: 'keywords', mutants: 20, rejected: 6, score: 0.3, blindTo: ['negation'], ... }
 * ```
 */
export async function runMutation({ cases, plans, env, settings, limit }: MutationRunInput): Promise<MutationReport> {
  const sources = cases.map(mutationSource).filter((s): s is MutationSource => s !== undefined)
  const byId = generateMutants(sources, { seed: settings.seed, operators: settings.operators })
  const generated = sources.map((source) => ({ source, mutants: byId.get(source.id) ?? [] }))
  const byCase = new Map(cases.map((c) => [c.id, c]))
  const { checks: keys, skipped } = mutationChecks(cases, plans)
  const checks = new Map<string, MutationCheckReport>(
    keys.map((k) => [k, { check: k, mutants: 0, rejected: 0, score: null, byOperator: {}, blindTo: [], errors: [], gate: null }]),
  )
  const byOperator: Record<string, number> = {}
  const jobs: Array<Promise<MutationSurvivor & { errored: boolean }>> = []
  for (const { source, mutants } of generated) {
    const c = byCase.get(source.id) as GoldenCase
    const casePlans = scorersFor(c, plans).filter((p) => checks.has(p.key) || (p.check.after && !skipReason(p)))
    for (const mutant of mutants) {
      byOperator[mutant.operator] = (byOperator[mutant.operator] ?? 0) + 1
      jobs.push(limit(() => scoreMutant(c, mutant, casePlans, env, checks)))
    }
  }
  const scored = await Promise.all(jobs)
  for (const check of checks.values()) {
    check.score = check.mutants > 0 ? check.rejected / check.mutants : null
    check.blindTo = Object.entries(check.byOperator)
      .filter(([, o]) => o.mutants > 0 && o.rejected === 0)
      .map(([name]) => name)
    check.gate = settings.minScore === null || check.score === null ? null : check.score >= settings.minScore
  }
  const list = [...checks.values()].sort((a, b) => (a.score ?? 2) - (b.score ?? 2) || keys.indexOf(a.check) - keys.indexOf(b.check))
  const survivors = scored
    .filter((m) => m.passedBy.length > 0)
    .map(({ errored: _e, ...m }) => m)
    .sort((a, b) => Number(b.survivedSuite) - Number(a.survivedSuite))
  return {
    seed: settings.seed,
    operators: settings.operators.map((o) => o.name),
    minScore: settings.minScore,
    cases: generated.filter((g) => g.mutants.length > 0).length,
    mutants: scored.length,
    byOperator,
    survivedSuite: survivors.filter((s) => s.survivedSuite).length,
    checks: list,
    skipped,
    survivors,
    weak: list.filter((c) => c.gate === false).map((c) => c.check),
  }
}

async function scoreMutant(
  c: GoldenCase,
  mutant: Mutant,
  plans: readonly ScorerPlan[],
  env: ScorerEnv,
  checks: Map<string, MutationCheckReport>,
): Promise<MutationSurvivor & { errored: boolean }> {
  const input = { output: mutant.text, c, inputText: inputText(c.input), ...(c.context ? { context: c.context } : {}) }
  const settled = await runScorers(plans, input, env)
  const passedBy: string[] = []
  const rejectedBy: string[] = []
  let errored = false
  for (const s of settled) {
    const check = checks.get(s.key)
    if (!check) continue
    if (s.error !== undefined) {
      errored = true
      check.errors.push({ case: c.id, operator: mutant.operator, text: mutant.text, error: message(s.error) })
      continue
    }
    if (!s.result) continue
    const op = (check.byOperator[mutant.operator] ??= { mutants: 0, rejected: 0 })
    check.mutants++
    op.mutants++
    if (s.result.pass) passedBy.push(s.key)
    else {
      check.rejected++
      op.rejected++
      rejectedBy.push(s.key)
    }
  }
  return {
    case: c.id,
    operator: mutant.operator,
    change: mutant.change,
    text: mutant.text,
    passedBy,
    rejectedBy,
    survivedSuite: rejectedBy.length === 0 && !errored && passedBy.length > 0,
    errored,
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/**
 * One line per check, worst first: "keywords let 14 of 20 mutants pass (negation 5 of 5, ...)".
 *
 * @example
 * ```ts
 * checkLine(report.checks[0]) // 'keywords let 14 of 20 mutants pass (score 0.30; negation 5 of 5, number 6 of 9); blind to negation'
 * ```
 */
export function checkLine(check: MutationCheckReport): string {
  if (check.score === null) return `${check.check}: no mutant scored${check.errors.length > 0 ? ` (${plural(check.errors.length, 'error')})` : ''}`
  const passed = check.mutants - check.rejected
  const ops = Object.entries(check.byOperator)
    .filter(([, o]) => o.mutants > o.rejected)
    .sort((a, b) => b[1].mutants - b[1].rejected - (a[1].mutants - a[1].rejected))
    .map(([name, o]) => `${name} ${o.mutants - o.rejected} of ${o.mutants}`)
  const parts = [
    `${check.check} let ${passed} of ${plural(check.mutants, 'mutant')} pass (score ${fmtScore(check.score)}${ops.length > 0 ? `; ${ops.join(', ')}` : ''})`,
  ]
  if (check.blindTo.length > 0) parts.push(`blind to ${check.blindTo.join(', ')}`)
  if (check.errors.length > 0) parts.push(`${plural(check.errors.length, 'error')}`)
  return parts.join('; ')
}

/** The console summary's mutation section. */
export function formatMutationSummary(report: MutationReport, maxSurvivors = 15): string[] {
  const { usage } = report
  const gate = report.minScore !== null ? `, gate ${fmtScore(report.minScore)}` : ''
  const calls =
    usage && usage.calls > 0 ? `, ${plural(usage.calls, 'model call')} (${usage.costUsd === null ? 'cost unknown' : `$${usage.costUsd.toFixed(4)}`})` : ''
  const counts = `${plural(report.mutants, 'mutant')} of ${plural(report.cases, 'case')}, ${report.operators.length} operators`
  const out = ['', `  mutation (seed ${report.seed}): ${counts}${gate}${calls}`]
  for (const check of report.checks) {
    const mark = check.gate === false || check.errors.length > 0 ? '✗' : check.gate === true ? '✓' : '·'
    out.push(`  ${mark} ${checkLine(check)}`)
  }
  for (const s of report.skipped) out.push(`  - ${s.check} skipped: ${s.reason}`)
  const survivors = report.survivors
  if (survivors.length > 0) {
    out.push(`  surviving mutants (${report.survivedSuite} passed every check of their case):`)
    for (const s of survivors.slice(0, maxSurvivors))
      out.push(`    ${s.survivedSuite ? '!' : ' '} ${s.case} [${s.operator}: ${clip(s.change, 40)}] ${clip(s.text, 90)}  passed by ${s.passedBy.join(', ')}`)
    if (survivors.length > maxSurvivors) out.push(`    … ${survivors.length - maxSurvivors} more: see the JSON report`)
  }
  return out
}

/** The failure of one check's mutation test: its errors, or its score under the gate; `undefined` when it passes. */
export function mutationCheckFailure(report: MutationReport, key: string): string | undefined {
  const check = report.checks.find((c) => c.check === key)
  if (!check) return undefined
  const lines: string[] = []
  if (check.errors.length > 0) {
    lines.push(formatMessage(`Failed to score the mutants with ${key}: ${plural(check.errors.length, 'check run')} failed.`))
    for (const e of check.errors.slice(0, 5)) lines.push(`  ${e.case} [${e.operator}] ${clip(e.text, 80)}\n    ${e.error.replace(/\n/g, '\n    ')}`)
    if (check.errors.length > 5) lines.push(`  … ${check.errors.length - 5} more`)
  }
  if (check.gate === false && check.score !== null && report.minScore !== null) {
    lines.push(formatMessage(`Mutation score of ${key} is ${fmtScore(check.score)}, below minScore ${fmtScore(report.minScore)}: ${checkLine(check)}.`))
    const let_ = report.survivors.filter((s) => s.passedBy.includes(key)).slice(0, 5)
    for (const s of let_) lines.push(`  ${s.case} [${s.operator}: ${clip(s.change, 40)}] ${clip(s.text, 100)}`)
    lines.push('  Strengthen the check (a judge against the reference, a higher threshold), or lower mutate.minScore.')
  }
  return lines.length > 0 ? lines.join('\n') : undefined
}

/** Appends one suite's section to the file of `expect-llm mutate` (`EXPECT_LLM_MUTATE_OUT`), one JSON line per suite. */
export function writeMutationOut(suite: string, file: string | null, report: MutationReport, env: Record<string, string | undefined> = process.env): void {
  const out = env[MUTATE_ENV.out]
  if (!out) return
  appendFileSync(out, `${JSON.stringify({ suite, file, mutation: report })}\n`)
}
