// Mutation score of each built-in lexical check (issue 14): how many of the built-in operators' wrong
// answers each check rejects when it compares them with the correct reference.
//
// Two corpora: the reference corpus (the distinct non-empty references of fixtures/reference/
// metrics-public.jsonl of 3 to 80 words: answers on cooking, astronomy, timetables, release notes and leaflets) and the
// support-bot golden set (examples/support-bot, with its keywords and 5 unanswerable cases). Each
// reference is mutated with every built-in operator (seed 1); each check runs through its src/checks
// definition (plan, appliesTo, run) with the mutant as the output and the original reference as the
// reference, and a mutant is rejected when the check fails it. A check that fails the reference itself
// on a case is not scored on that case (it would "reject" everything). Thresholds: the check's default
// where it has one (exact, contains, keywords, refusal: 1); the similarity checks record only by default
// (threshold null: they reject nothing), so they are scored at 0.5 and 0.8, the range the README's
// examples use; length at { factor: 1.5 } (at most 1.5 × the reference's words).
//
// The numbers are pinned by test/mutation/bench.test.ts: an operator change that moves them is a reviewed
// change (update the snapshot there).
import type { CheckOutcome, ScorerPlan } from '../src/checks/index.js'
import { createScorerEnv, planScorers, referencesOf } from '../src/checks/plan.js'
import type { GoldenCase } from '../src/golden/types.js'
import { generateMutants, mutationOperators } from '../src/mutation/generate.js'
import type { Mutant, MutationSource } from '../src/mutation/types.js'
import { referenceSources, supportBotCases } from '../test/mutation/helpers.js'
import { printTable } from './harness.js'

/** The checks scored, by key (`check@threshold` for the similarity checks), with their `scorers` value. */
export const BENCH_SCORERS: Readonly<Record<string, unknown>> = {
  exact: true,
  contains: true,
  keywords: true,
  refusal: true,
  'length:1.5x': { factor: 1.5 },
  ...Object.fromEntries(['tokenF1', 'rougeL', 'bleu', 'chrF', 'ter', 'edit'].flatMap((name) => [0.5, 0.8].map((t) => [`${name}@${t}`, t]))),
}

/** A scorer key of the bench as a `scorers` key: `rougeL@0.5` → `rougeL:0.5`, a named instance of rougeL. */
const scorerKey = (key: string) => key.replace('@', ':')

export interface CorpusScores {
  corpus: string
  cases: number
  mutants: number
  /** Mutants per operator. */
  perOperator: Record<string, number>
  /** By check key: rejected / scored, overall and per operator; `scored` 0 when the check does not apply. */
  checks: Record<string, { rejected: number; scored: number; byOperator: Record<string, { rejected: number; scored: number }> }>
}

/** Runs every bench check on every mutant of the corpus. */
export async function scoreCorpus(corpus: string, cases: readonly GoldenCase[], seed = 1): Promise<CorpusScores> {
  const sources: MutationSource[] = cases.map((c) => ({
    id: c.id as string,
    text: typeof c.expected === 'string' ? c.expected : '',
    input: typeof c.input === 'string' ? c.input : '',
    unanswerable: c.answerable === false,
  }))
  const mutants = generateMutants(sources, { seed })
  const plans = planScorers(Object.fromEntries(Object.entries(BENCH_SCORERS).map(([k, v]) => [scorerKey(k), v])) as never)
  const env = createScorerEnv(plans, () => cases)
  const out: CorpusScores = { corpus, cases: cases.length, mutants: 0, perOperator: {}, checks: {} }
  for (const name of mutationOperators.map((o) => o.name)) out.perOperator[name] = 0
  const run = async (plan: ScorerPlan, c: GoldenCase, output: string): Promise<CheckOutcome | undefined> =>
    plan.check.run({ output, c, references: referencesOf(c), inputText: typeof c.input === 'string' ? c.input : '' }, plan, env)
  for (const key of Object.keys(BENCH_SCORERS)) out.checks[key] = { rejected: 0, scored: 0, byOperator: {} }
  for (const c of cases) {
    const list: Mutant[] = mutants.get(c.id as string) ?? []
    out.mutants += list.length
    for (const m of list) out.perOperator[m.operator] = (out.perOperator[m.operator] ?? 0) + 1
    const reference = typeof c.expected === 'string' ? c.expected : "I'm sorry, but I don't know."
    for (const key of Object.keys(BENCH_SCORERS)) {
      const plan = plans.find((p) => p.key === scorerKey(key)) as ScorerPlan
      if (plan.check.appliesTo && !plan.check.appliesTo(c, plan, referencesOf(c))) continue
      // Scored only where the check passes the correct answer (for an unanswerable case: a refusal).
      const itself = await run(plan, c, reference).catch(() => undefined)
      if (!itself?.pass) continue
      const row = out.checks[key] as CorpusScores['checks'][string]
      for (const m of list) {
        const result = await run(plan, c, m.text)
        if (!result) continue
        const rejected = !result.pass
        row.scored++
        if (rejected) row.rejected++
        const op = (row.byOperator[m.operator] ??= { rejected: 0, scored: 0 })
        op.scored++
        if (rejected) op.rejected++
      }
    }
  }
  return out
}

/**
 * The reference corpus as golden cases (no input, no keywords): the references of 3 to 80 words, i.e.
 * answers (not the one-token tokenizer edge cases, nor the four 300-word documents of the `long` group).
 */
export function referenceCases(): GoldenCase[] {
  return referenceSources()
    .filter((s) => {
      const n = (s.text.match(/[\p{L}\p{N}]+/gu) ?? []).length
      return n >= 3 && n <= 80
    })
    .map((s) => ({ id: s.id, input: s.input, expected: s.text }))
}

/** Both corpora, scored. */
export async function benchScores(): Promise<CorpusScores[]> {
  return [await scoreCorpus('reference corpus', referenceCases()), await scoreCorpus('support-bot', supportBotCases())]
}

const ratio = (r: { rejected: number; scored: number } | undefined) => (r && r.scored > 0 ? (r.rejected / r.scored).toFixed(2) : '-')

/** The compact summary the unit test pins: per corpus, each check's mutation score to 3 decimals. */
export function summary(scores: readonly CorpusScores[]): Record<string, Record<string, string>> {
  return Object.fromEntries(
    scores.map((s) => [
      `${s.corpus} (${s.cases} cases, ${s.mutants} mutants)`,
      Object.fromEntries(Object.entries(s.checks).map(([k, r]) => [k, r.scored > 0 ? `${(r.rejected / r.scored).toFixed(3)} of ${r.scored}` : 'n/a'])),
    ]),
  )
}

export async function run(): Promise<void> {
  const short: Record<string, string> = {
    number: 'num',
    unit: 'unit',
    negation: 'neg',
    comparative: 'cmp',
    'swap-entity': 'ent',
    'drop-clause': 'drop',
    'add-claim': 'claim',
    'other-answer': 'other',
    refusal: 'refuse',
    'confident-answer': 'conf',
  }
  for (const s of await benchScores()) {
    const counts = Object.entries(s.perOperator)
      .map(([op, n]) => `${short[op] ?? op} ${n}`)
      .join(', ')
    const rows = Object.entries(s.checks).map(([key, r]) => {
      const row: Record<string, string> = { check: key, score: ratio(r), scored: String(r.scored) }
      for (const op of mutationOperators.map((o) => o.name)) row[short[op] ?? op] = ratio(r.byOperator[op])
      return row
    })
    printTable(`Mutation score (share of mutants rejected) on the ${s.corpus}: ${s.cases} cases, ${s.mutants} mutants (${counts}); seed 1`, rows)
  }
  console.log('\n"-": the check does not apply to these cases or no mutant of that operator was scored.')
}
