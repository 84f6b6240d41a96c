/**
 * Declarative scorers by name. Each one calls the same `src` function its matcher wraps (ROUGE,
 * token F1, BLEU, edit similarity, SQuAD exact match and containment, keyword search, JSON schema
 * validation, length, embeddings + cosine, the judge templates, refusal rules, retrieval scores), so a
 * golden case and a hand-written `expect()` agree on every score.
 *
 * @module
 */
import { DEFAULT_SIMILARITY_THRESHOLD, type EmbedderLike } from '../embedders/types.js'
import { embedsPerCall } from '../embedders/batch.js'
import { resolveEmbedder } from '../embedders/resolve.js'
import type { Embedder } from '../embedders/types.js'
import { describeValue, formatMessage } from '../errors.js'
import { failWith } from '../errors.js'
import { prepareJudgeCall, runJudge, type JudgeVerdict } from '../judges/run.js'
import { DEFAULT_FAITHFULNESS_THRESHOLD, DEFAULT_JUDGE_THRESHOLD, type JudgeLike } from '../judges/types.js'
import { bleu } from '../metrics/bleu.js'
import { chrF, type ChrFOptions } from '../metrics/chrf.js'
import { terDetails, type TerOptions } from '../metrics/ter.js'
import { containsAnswer } from '../metrics/contains.js'
import { cosineSimilarity } from '../metrics/cosine.js'
import { editSimilarity } from '../metrics/edit.js'
import { findKeywords } from '../metrics/keywords.js'
import { measureLength } from '../metrics/length.js'
import { retrievalScores, type RetrievedItem } from '../metrics/retrieval.js'
import { rougeMulti, type RougeTokenizer, type RougeType } from '../metrics/rouge.js'
import { exactMatch, tokenF1 } from '../metrics/squad.js'
import { detectRefusal } from '../refusal.js'
import { extractJson, schemaLabel, validateSchema, type SchemaLike } from '../schema.js'
import type { GoldenCase, GoldenScorers, ScorerName, Threshold } from './types.js'

/** Every scorer name, in the order reports list them. */
export const SCORER_NAMES: readonly ScorerName[] = [
  'exact', 'contains', 'tokenF1', 'rougeL', 'rouge1', 'rouge2', 'bleu', 'chrF', 'ter', 'edit', 'keywords', 'schema', 'length',
  'semantic', 'judge', 'relevance', 'faithfulness', 'refusal', 'retrieval',
]

/** One scorer's verdict on one output. */
export interface ScoreResult {
  /** In [0, 1]. */
  score: number
  /** `null`: recorded only, never fails. */
  threshold: number | null
  pass: boolean
  /** Why, in a few words (missing keywords, the judge's reason, the rank of the relevant document...). */
  detail?: string
  /** A panel of judges (`samples` listing them): each judge's score and verdict. */
  judges?: Array<{ judge: string; score: number; pass: boolean }>
  /** A panel's agreement: the share of judges that agree with the majority verdict. */
  agreement?: number
}

/** A scorer with its options resolved. */
export interface ScorerPlan {
  name: ScorerName
  threshold: number | null
  options: Record<string, unknown>
  /** Listed by the user (as opposed to added because a case calls for it). */
  explicit: boolean
}

/** What a scorer sees. */
export interface ScoreInput {
  output: string
  c: GoldenCase
  /** Context documents: the task's, else the case's. */
  context?: string[]
  retrieved?: RetrievedItem[]
  /** The input as text (for judges). */
  inputText: string
}

/** Per-suite state shared by the scorers (embedding order, see {@link SemanticEmbeddings}). */
export interface ScorerEnv {
  semantic?: SemanticEmbeddings
}

const fail = failWith('set up the golden scorers')

function checkThreshold(name: string, value: unknown): number | null {
  if (value === null) return null
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || value > 1) {
    return fail(`the threshold of "${name}" must be a number from 0 to 1 or null, got ${describeValue(value)}`, `Pass for example { ${name}: 0.5 }, or null to record the score only.`)
  }
  return value
}

/** Default thresholds for `true`. Lexical overlap scores have no threshold that fits every task: `true` records them only. */
const DEFAULT_THRESHOLD: Record<ScorerName, number | null> = {
  exact: 1,
  contains: 1,
  tokenF1: null,
  rougeL: null,
  rouge1: null,
  rouge2: null,
  bleu: null,
  chrF: null,
  ter: null,
  edit: null,
  keywords: 1,
  schema: 1,
  length: 1,
  semantic: DEFAULT_SIMILARITY_THRESHOLD,
  judge: DEFAULT_JUDGE_THRESHOLD,
  relevance: DEFAULT_JUDGE_THRESHOLD,
  faithfulness: DEFAULT_FAITHFULNESS_THRESHOLD,
  refusal: 1,
  retrieval: 1,
}

const OPTION_KEYS: Record<ScorerName, readonly string[]> = {
  exact: ['threshold'],
  contains: ['threshold'],
  tokenF1: ['threshold'],
  rougeL: ['threshold', 'stemmer', 'tokenizer', 'measure'],
  rouge1: ['threshold', 'stemmer', 'tokenizer', 'measure'],
  rouge2: ['threshold', 'stemmer', 'tokenizer', 'measure'],
  bleu: ['threshold'],
  chrF: ['threshold', 'charOrder', 'wordOrder', 'beta', 'lowercase', 'whitespace', 'epsSmoothing'],
  ter: ['threshold', 'maxTer', 'normalized', 'noPunct', 'asianSupport', 'caseSensitive'],
  edit: ['threshold'],
  keywords: ['threshold'],
  schema: ['schema', 'threshold'],
  length: ['maxWords', 'maxChars', 'factor'],
  semantic: ['threshold', 'embedder'],
  judge: ['criteria', 'scale', 'threshold', 'template', 'judge', 'samples', 'useReference'],
  relevance: ['threshold', 'judge', 'samples'],
  faithfulness: ['threshold', 'judge', 'samples'],
  refusal: ['judge', 'checkAnswerable'],
  retrieval: ['k', 'minScore', 'metric', 'threshold'],
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
    if (!(SCORER_NAMES as readonly string[]).includes(key)) {
      fail(`unknown scorer "${key}"`, `Valid scorers are: ${SCORER_NAMES.join(', ')}.`)
    }
    const name = key as ScorerName
    if (raw === undefined || raw === false) continue
    let options: Record<string, unknown> = {}
    let threshold: number | null = DEFAULT_THRESHOLD[name]
    if (raw === true) {
      // defaults
    } else if (typeof raw === 'number' || raw === null) {
      if (name === 'length' || name === 'refusal' || name === 'schema') fail(`"${name}" takes options, not a number`, name === 'length' ? 'Pass { length: { maxWords: 50 } }.' : `Pass { ${name}: true } or an options object.`)
      threshold = checkThreshold(name, raw)
    } else if (typeof raw === 'string') {
      if (name !== 'judge') fail(`"${name}" does not take a string`, `Pass a threshold or an options object.`)
      options = { criteria: raw }
    } else if (typeof raw === 'object') {
      if (name === 'schema' && !('schema' in raw)) {
        options = { schema: raw }
      } else {
        options = { ...(raw as Record<string, unknown>) }
        const unknown = Object.keys(options).filter((k) => options[k] !== undefined && !OPTION_KEYS[name].includes(k))
        if (unknown.length > 0) fail(`unknown option ${unknown.map((k) => `"${k}"`).join(', ')} of the "${name}" scorer`, `Valid options are: ${OPTION_KEYS[name].join(', ')}.`)
        if ('threshold' in options && options.threshold !== undefined) threshold = checkThreshold(name, options.threshold)
        if (name === 'ter' && options.maxTer !== undefined) {
          if (options.threshold !== undefined) fail('the "ter" scorer takes threshold or maxTer, not both', 'Pass { maxTer: 0.3 } (TER at most 0.3) or { threshold: 0.7 } (1 - TER at least 0.7).')
          const max = checkThreshold('ter.maxTer', options.maxTer)
          threshold = max === null ? null : 1 - max
        }
      }
    } else {
      fail(`the "${name}" scorer must be true, a threshold or an options object, got ${describeValue(raw)}`, `Pass for example { ${name}: true }.`)
    }
    if (name === 'retrieval' && !(typeof raw === 'object' && raw !== null && 'threshold' in raw)) {
      const metric = options.metric ?? 'hit'
      threshold = metric === 'hit' ? 1 : 0.5
    }
    if (name === 'length' && options.maxWords === undefined && options.maxChars === undefined && options.factor === undefined) {
      fail('the "length" scorer has no limit', 'Pass { maxWords }, { maxChars } or { factor } (at most factor × the expected answer\'s words).')
    }
    plans.push({ name, threshold, options, explicit: true })
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

/** Text of an input for judges and previews: strings as is, objects as compact JSON. */
export function inputText(input: unknown): string {
  return typeof input === 'string' ? input : (JSON.stringify(input) ?? String(input))
}

/**
 * The scorers that run on one case: the listed ones that apply (a reference scorer needs a reference;
 * `refusal` with answerable cases checks that they are *not* refused), plus the ones the case calls for:
 * `refusal` for `answerable: false`, `keywords` for `keywords`, `retrieval` for `relevant`, `judge`
 * for `criteria`.
 */
export function scorersFor(c: GoldenCase, plans: readonly ScorerPlan[]): ScorerPlan[] {
  const byName = new Map(plans.map((p) => [p.name, p]))
  const out: ScorerPlan[] = []
  const refs = referencesOf(c)
  const unanswerable = c.answerable === false
  for (const plan of plans) {
    switch (plan.name) {
      case 'exact':
      case 'contains':
      case 'tokenF1':
      case 'rougeL':
      case 'rouge1':
      case 'rouge2':
      case 'bleu':
      case 'chrF':
      case 'ter':
      case 'edit':
      case 'semantic':
        if (refs.length > 0 && !unanswerable) out.push(plan)
        break
      case 'keywords':
        if (c.keywords && !unanswerable) out.push(plan)
        break
      case 'retrieval':
        if (c.relevant) out.push(plan)
        break
      case 'length':
        if (plan.options.factor === undefined || refs.length > 0) out.push(plan)
        break
      case 'judge':
        if (!unanswerable && (plan.options.criteria !== undefined || c.criteria !== undefined || refs.length > 0 || plan.options.template !== undefined)) out.push(plan)
        break
      case 'refusal':
        if (unanswerable || plan.options.checkAnswerable !== false) out.push(plan)
        break
      case 'relevance':
      case 'faithfulness':
        if (!unanswerable) out.push(plan)
        break
      default:
        out.push(plan)
    }
  }
  const add = (name: ScorerName, options: Record<string, unknown> = {}) => {
    if (!byName.has(name)) out.push({ name, threshold: DEFAULT_THRESHOLD[name], options, explicit: false })
  }
  if (unanswerable) add('refusal')
  if (c.keywords && !unanswerable) add('keywords')
  if (c.relevant) add('retrieval')
  if (c.criteria && !unanswerable) add('judge')
  return out.sort((a, b) => SCORER_NAMES.indexOf(a.name) - SCORER_NAMES.indexOf(b.name))
}

function result(score: number, threshold: number | null, detail?: string, pass?: boolean): ScoreResult {
  const r: ScoreResult = { score, threshold, pass: pass ?? (threshold === null || score >= threshold) }
  if (detail) r.detail = detail
  return r
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(3).replace(/0+$/, '').replace(/\.$/, ''))
const quote = (s: string, max = 60) => JSON.stringify(s.length > max ? `${s.slice(0, max - 1)}…` : s)

const CHRF_OPTIONS = ['charOrder', 'wordOrder', 'beta', 'lowercase', 'whitespace', 'epsSmoothing']
const TER_OPTIONS = ['normalized', 'noPunct', 'asianSupport', 'caseSensitive']

/** The metric options among a scorer's options. */
function pick(options: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of keys) if (options[key] !== undefined) out[key] = options[key]
  return out
}

function bestOf(refs: string[], score: (ref: string) => number): { score: number; ref: string } {
  let best = { score: -1, ref: refs[0] as string }
  for (const ref of refs) {
    const s = score(ref)
    if (s > best.score) best = { score: s, ref }
  }
  return best
}

function judgeDetail(v: JudgeVerdict): string {
  const reason = v.reason.replace(/\s+/g, ' ').trim()
  const agree = v.panel && v.panel.length > 1
    ? ` (judges: ${v.panel.map((p) => `${p.judge} ${fmt(p.score)}`).join(', ')}; agreement ${Math.round(v.agreement * 100)}%)`
    : v.results.length > 1 ? ` (${v.passes}/${v.results.length} samples passed)` : ''
  return `${reason.length > 160 ? `${reason.slice(0, 159)}…` : reason}${agree}`
}

/** A judge scorer's result, with each judge's vote when a panel judged. */
function judgeResult(v: JudgeVerdict, threshold: number | null, detail = judgeDetail(v)): ScoreResult {
  const r = result(v.score, threshold, detail, threshold === null ? true : v.pass)
  if (v.panel && v.panel.length > 1) {
    r.judges = v.panel.map((p) => ({ judge: p.judge, score: p.score, pass: p.pass }))
    r.agreement = v.agreement
  }
  return r
}

function judgeSpec(options: Record<string, unknown>, threshold: number | null): Record<string, unknown> {
  const spec: Record<string, unknown> = {}
  for (const k of ['judge', 'samples', 'scale', 'template']) if (options[k] !== undefined) spec[k] = options[k]
  // The judge decides pass/fail on its own threshold; null (record only) still needs one for the verdict.
  spec.threshold = threshold ?? DEFAULT_JUDGE_THRESHOLD
  return spec
}

/**
 * Embeddings for the `semantic` scorer in an order that does not depend on timing, so that recordings
 * replay: the references of all cases are embedded first, together (sorted, deduplicated), and then
 * each output on its own, one at a time. Concurrent cases would otherwise be merged into batches that
 * differ from run to run, and a replayed batch must be the same request as the recorded one.
 */
export class SemanticEmbeddings {
  private warm: Promise<void> | undefined
  private queue: Promise<unknown> = Promise.resolve()
  constructor(
    private readonly embedder: Embedder,
    private readonly references: () => string[],
  ) {}

  /** Embeds `[output, ...refs]`: refs from the shared warm-up, the output alone. */
  async embed(output: string, refs: string[]): Promise<{ output: number[]; refs: number[][] }> {
    // The warm-up only fills the cache; an embedder that sends one request per call (under record/replay)
    // has none to fill, and its per-case requests are deterministic already.
    this.warm ??= (async () => {
      const all = [...new Set(this.references())].sort()
      if (all.length > 0 && !embedsPerCall(this.embedder)) await this.embedder.embed(all)
    })()
    await this.warm
    const run = this.queue.then(() => this.embedder.embed([output, ...refs]))
    this.queue = run.catch(() => undefined)
    const [out, ...rest] = await run
    return { output: out as number[], refs: rest }
  }
}

/** Creates the per-suite state of the scorers. */
export function createScorerEnv(plans: readonly ScorerPlan[], cases: () => readonly GoldenCase[]): ScorerEnv {
  const semantic = plans.find((p) => p.name === 'semantic')
  if (!semantic) return {}
  const embedder = resolveEmbedder(semantic.options.embedder as EmbedderLike | undefined, fail)
  return {
    semantic: new SemanticEmbeddings(embedder, () => cases().filter((c) => c.answerable !== false).flatMap((c) => referencesOf(c))),
  }
}

function usageError(reason: string, fix: string): never {
  throw new TypeError(formatMessage(`Failed to score the golden case: ${reason}. ${fix}`))
}

/** Runs one scorer on one output. Model errors and usage errors throw. */
export async function runScorer(plan: ScorerPlan, input: ScoreInput, env: ScorerEnv): Promise<ScoreResult> {
  const { output, c } = input
  const { threshold, options } = plan
  const refs = referencesOf(c)
  switch (plan.name) {
    case 'exact': {
      const s = exactMatch(output, refs)
      return result(s, threshold, s === 1 ? undefined : `no acceptable answer matches after normalization (expected ${quote(refs[0] as string)})`)
    }
    case 'contains': {
      const r = containsAnswer(output, refs)
      return result(r.contained ? 1 : 0, threshold, r.contained ? undefined : `the output does not contain ${quote(refs[0] as string)}`)
    }
    case 'tokenF1':
      return result(tokenF1(output, refs), threshold)
    case 'rougeL':
    case 'rouge1':
    case 'rouge2': {
      // Several references (expected + acceptable): rouge-score's score_multi, so the reference with the
      // best F-measure gives every measure (precision and recall of one reference, not the best of each).
      const measure = (options.measure as 'f' | 'precision' | 'recall' | undefined) ?? 'f'
      const type = plan.name as RougeType
      const best = rougeMulti(output, refs, { types: [type], stemmer: options.stemmer === true, ...(options.tokenizer ? { tokenizer: options.tokenizer as RougeTokenizer } : {}) })[type]
      return result(best?.[measure] ?? 0, threshold)
    }
    case 'bleu':
      return result(bleu(output, refs), threshold)
    case 'chrF':
      return result(chrF(output, refs, pick(options, CHRF_OPTIONS) as ChrFOptions), threshold)
    case 'ter': {
      // Higher is better for every check (thresholds, baselines, comparisons), so the score is 1 - TER,
      // floored at 0; `maxTer` sets the threshold as a TER.
      const d = terDetails(output, refs, pick(options, TER_OPTIONS) as TerOptions)
      const detail = `TER ${fmt(Number(d.score.toFixed(4)))} (${d.edits} edit${d.edits === 1 ? '' : 's'} over ${fmt(d.referenceLength)} reference words)`
      return result(Math.max(0, 1 - d.score), threshold, detail)
    }
    case 'edit':
      return result(bestOf(refs, (ref) => editSimilarity(output, ref)).score, threshold)
    case 'keywords': {
      const words = c.keywords ?? []
      const { found, missing } = findKeywords(output, words)
      return result(found.length / words.length, threshold, missing.length > 0 ? `missing ${missing.map((w) => quote(w, 30)).join(', ')}` : undefined)
    }
    case 'schema': {
      const schema = options.schema as SchemaLike
      const extracted = extractJson(output)
      if (!extracted.ok) return result(0, threshold, `no JSON: ${extracted.reason}`)
      const v = validateSchema(extracted.value, schema)
      return result(v.ok ? 1 : 0, threshold, v.ok ? undefined : `${schemaLabel(schema)}: ${v.issues.slice(0, 3).map((i) => `${i.path || '/'} ${i.message}`).join('; ')}`)
    }
    case 'length': {
      const { words, chars } = measureLength(output)
      const over: string[] = []
      if (typeof options.maxWords === 'number' && words > options.maxWords) over.push(`${words} words > ${options.maxWords}`)
      if (typeof options.maxChars === 'number' && chars > options.maxChars) over.push(`${chars} characters > ${options.maxChars}`)
      if (typeof options.factor === 'number') {
        const refWords = measureLength(refs[0] as string).words
        const max = options.factor * refWords
        if (words > max) over.push(`${words} words > ${fmt(options.factor)} × the expected ${refWords}`)
      }
      return result(over.length === 0 ? 1 : 0, threshold, over.join(', ') || undefined)
    }
    case 'semantic': {
      if (!env.semantic) throw new Error('semantic scorer without embeddings')
      const { output: vo, refs: vr } = await env.semantic.embed(output, refs)
      const scores = vr.map((v) => cosineSimilarity(vo, v))
      const best = Math.max(...scores)
      return result(Math.min(1, Math.max(0, best)), threshold)
    }
    case 'judge': {
      const criteria = [options.criteria, c.criteria].filter((x): x is string => typeof x === 'string').join('\n')
      const spec = judgeSpec(options, threshold)
      if (criteria) spec.criteria = criteria
      if (options.useReference !== false && refs.length > 0) spec.reference = refs[0]
      spec.input = input.inputText
      if (input.context) spec.context = input.context
      const call = prepareJudgeCall(spec, output, {}, failWith('run the judge scorer'))
      return judgeResult(await runJudge(call), threshold)
    }
    case 'relevance': {
      const spec: Record<string, unknown> = { ...judgeSpec(options, threshold), input: input.inputText }
      if (input.context) spec.context = input.context
      const call = prepareJudgeCall(spec, output, { template: 'relevance' }, failWith('run the relevance scorer'))
      return judgeResult(await runJudge(call), threshold)
    }
    case 'faithfulness': {
      if (!input.context) {
        usageError(`case "${c.id}" has no context to check faithfulness against`, 'Return { output, context } from the task, or give the case a "context".')
      }
      const spec: Record<string, unknown> = { ...judgeSpec(options, threshold), input: input.inputText, context: input.context }
      if (threshold !== null) spec.threshold = threshold
      const call = prepareJudgeCall(spec, output, { template: 'faithfulness', scale: '0-1', threshold: DEFAULT_FAITHFULNESS_THRESHOLD }, failWith('run the faithfulness scorer'))
      const verdict = await runJudge(call)
      const unsupported = (verdict.claims ?? []).filter((cl) => !cl.supported).map((cl) => quote(cl.claim, 50))
      return judgeResult(verdict, threshold, unsupported.length > 0 ? `unsupported: ${unsupported.join(', ')}` : judgeDetail(verdict))
    }
    case 'refusal': {
      const mustRefuse = c.answerable === false
      const match = detectRefusal(output)
      let refused = match.refused
      let detail = match.refused ? `refused (rule "${match.rule?.id}")` : 'no refusal phrase'
      const judgeOption = options.judge as boolean | JudgeLike | undefined
      if (!refused && judgeOption !== undefined && judgeOption !== false) {
        const spec: Record<string, unknown> = { input: input.inputText, ...(judgeOption === true ? {} : { judge: judgeOption }) }
        const verdict = await runJudge(prepareJudgeCall(spec, output, { template: 'refusal' }, failWith('run the refusal scorer')))
        refused = verdict.pass
        detail = `judge: ${refused ? 'a refusal' : 'an answer'} (${judgeDetail(verdict)})`
      }
      const ok = refused === mustRefuse
      return result(ok ? 1 : 0, threshold, ok ? undefined : mustRefuse ? `should refuse (answerable: false) but answered; ${detail}` : `refused an answerable question; ${detail}`)
    }
    case 'retrieval': {
      if (!input.retrieved) {
        usageError(`case "${c.id}" lists relevant documents but the task returned no retrieved items`, 'Return { output, retrieved: [...ids or { id, score }] } from the task.')
      }
      const k = options.k as number | undefined
      const minScore = options.minScore as number | undefined
      const r = retrievalScores(input.retrieved, c.relevant ?? [], { ...(k !== undefined ? { k } : {}), ...(minScore !== undefined ? { minScore } : {}) })
      const metric = (options.metric as string | undefined) ?? 'hit'
      const score = metric === 'hit' ? (r.hit ? 1 : 0) : (r[metric as 'recall' | 'precision' | 'mrr' | 'ndcg'] as number)
      const ranks = r.ranks.map((rk) => `${rk.id}: ${rk.rank === null ? 'not retrieved' : `rank ${rk.rank}${rk.lucky ? ' (lucky tie)' : ''}`}`).join(', ')
      // A lucky tie never passes, whatever the metric says.
      const pass = threshold === null ? true : score >= threshold && !(r.luckyTie && !r.hit)
      return result(score, threshold, `${ranks}${r.luckyTie ? '; lucky tie at the cut-off' : ''} (k=${r.k})`, pass)
    }
  }
}

export type { Threshold }
