/**
 * Preparing and running a judge call: spec validation (before any model call), template rendering,
 * samples with majority vote, the concurrency limit and the ledger. Shared by the matchers and
 * `calibrateJudge`.
 *
 * @module
 */
import { describeValue } from '../errors.js'
import type { Fail } from './fail.js'
import { recordModelUsage } from '../ledger.js'
import { limitModelCall } from '../limit.js'
import { checkJudgeResult, resolveJudge } from './resolve.js'
import { JudgeReplyError } from './parse.js'
import { BUILT_IN_TEMPLATES, checkTemplate, missingForBuiltIn, renderCustom, renderPrompt, type TemplateFields } from './templates.js'
import { DEFAULT_JUDGE_THRESHOLD, type BuiltInTemplate, type Claim, type Judge, type JudgeLike, type JudgeRequest, type JudgeResult, type JudgeScale, type JudgeSpec } from './types.js'

/** The keys of {@link JudgeSpec}. */
export const JUDGE_SPEC_KEYS = ['criteria', 'reference', 'input', 'context', 'scale', 'threshold', 'template', 'judge', 'samples', 'verbatim', 'lenient'] as const
export const SCALES: readonly JudgeScale[] = ['binary', '1-5', '0-5', '0-1']
/** Upper bound on `samples`, against an accidental `samples: 1000`. */
export const MAX_SAMPLES = 25


/** A judge call ready to run: everything checked, prompt rendered. */
export interface PreparedJudgeCall {
  /** The judge (the first of a panel). */
  judge: Judge
  /** The judge of each sample, in order: the same judge `samples` times, or the panel's judges. */
  judges: Judge[]
  /** `true` when `samples` listed the judges (a panel), so that verdicts name each one. */
  panel: boolean
  template: BuiltInTemplate | 'custom'
  scale: JudgeScale
  threshold: number
  samples: number
  request: Omit<JudgeRequest, 'sample'>
  /** A reply with no score scores the bottom of the scale instead of failing (`lenient`). */
  lenient?: boolean
}

/** Defaults a matcher applies to the spec. */
export interface SpecDefaults {
  template?: BuiltInTemplate
  scale?: JudgeScale
  threshold?: number
}

function optionalString(spec: Record<string, unknown>, key: string, fail: Fail): string | undefined {
  const v = spec[key]
  if (v === undefined) return undefined
  if (typeof v !== 'string' || v.trim() === '') fail(`"${key}" must be a non-empty string, got ${describeValue(v)}`, `Pass the ${key} as text, or leave it out.`)
  return v
}

/** Checks a context argument: a non-empty string or a non-empty array of non-empty strings. */
export function checkContext(value: unknown, fail: Fail, what = 'context'): string[] {
  if (typeof value === 'string' && value.trim() !== '') return [value]
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && v.trim() !== '')) return value as string[]
  const got = Array.isArray(value) ? (value.length === 0 ? 'an empty array' : `an array containing ${describeValue(value.find((v) => typeof v !== 'string' || v.trim() === ''))}`) : describeValue(value)
  return fail(`the ${what} must be a non-empty string or an array of non-empty strings, got ${got}`, `Pass the ${what} documents as text, e.g. ['Refunds are accepted within 30 days.'].`)
}

/**
 * Validates a {@link JudgeSpec} and renders its prompt for `output`. Every problem (unknown key,
 * wrong type, threshold outside [0, 1], unknown template placeholder, a placeholder without a value,
 * a built-in template without what it needs) is reported through `fail` before any model call.
 */
export function prepareJudgeCall(specInput: unknown, output: string, defaults: SpecDefaults, fail: Fail): PreparedJudgeCall {
  if (specInput === null || typeof specInput !== 'object' || Array.isArray(specInput)) {
    fail(`the judge spec must be an object, got ${describeValue(specInput)}`, `Pass criteria as a string, or an object with any of: ${JUDGE_SPEC_KEYS.join(', ')}.`)
  }
  const spec = specInput as Record<string, unknown>
  const unknown = Object.keys(spec).filter((k) => spec[k] !== undefined && !(JUDGE_SPEC_KEYS as readonly string[]).includes(k))
  if (unknown.length > 0) fail(`unknown option ${unknown.map((k) => `"${k}"`).join(', ')}`, `Valid options are: ${JUDGE_SPEC_KEYS.join(', ')}.`)

  const fields: TemplateFields = { output }
  const criteria = optionalString(spec, 'criteria', fail)
  const reference = optionalString(spec, 'reference', fail)
  const input = optionalString(spec, 'input', fail)
  if (criteria !== undefined) fields.criteria = criteria
  if (reference !== undefined) fields.reference = reference
  if (input !== undefined) fields.input = input
  if (spec.context !== undefined) fields.context = checkContext(spec.context, fail)

  const scale = (spec.scale ?? defaults.scale ?? 'binary') as JudgeScale
  if (!SCALES.includes(scale)) fail(`"scale" must be one of ${SCALES.map((s) => `'${s}'`).join(', ')}, got ${describeValue(spec.scale)}`, `Pass for example { scale: '1-5' }.`)

  const threshold = spec.threshold ?? defaults.threshold ?? DEFAULT_JUDGE_THRESHOLD
  if (typeof threshold !== 'number' || Number.isNaN(threshold) || threshold < 0 || threshold > 1) {
    fail(`the threshold must be a number from 0 to 1, got ${typeof threshold === 'number' ? String(threshold) : describeValue(threshold)}`, 'Pass a fraction of the scale such as 0.7 (scores are normalized to [0, 1]).')
  }

  const samples = spec.samples ?? 1
  const panel = Array.isArray(samples)
  if (panel) {
    if (samples.length < 1 || samples.length > MAX_SAMPLES) fail(`"samples" must list 1 to ${MAX_SAMPLES} judges, got ${samples.length}`, 'Pass for example { samples: [openAIJudgeSettings, { model: anthropic(\'claude-haiku-4-5\') }] } (an odd number avoids ties).')
    if (spec.judge !== undefined) fail('"judge" and a list of judges in "samples" cannot be combined', 'List every judge in samples, or pass one judge with samples: n.')
  } else if (typeof samples !== 'number' || !Number.isInteger(samples) || samples < 1 || samples > MAX_SAMPLES) {
    fail(`"samples" must be a whole number from 1 to ${MAX_SAMPLES} or a list of judges, got ${typeof samples === 'number' ? String(samples) : describeValue(samples)}`, 'Pass for example { samples: 3 } (an odd number avoids ties).')
  }

  let template: BuiltInTemplate | string
  if (spec.template !== undefined) {
    if (typeof spec.template !== 'string' || spec.template.trim() === '') fail(`"template" must be a built-in template name or a template string, got ${describeValue(spec.template)}`, `Pass one of ${BUILT_IN_TEMPLATES.map((t) => `'${t}'`).join(', ')}, or a text with {output}.`)
    template = spec.template
  } else if (defaults.template !== undefined) {
    template = defaults.template
  } else if (reference !== undefined) {
    template = 'correctness'
  } else if (criteria !== undefined) {
    template = 'rubric'
  } else {
    return fail('the judge needs criteria or a reference answer', "Pass the criteria as a string, or { reference: 'the expected answer' }, or a custom { template }.")
  }

  const builtIn = (BUILT_IN_TEMPLATES as readonly string[]).includes(template)
  for (const flag of ['verbatim', 'lenient'] as const) {
    if (spec[flag] !== undefined && typeof spec[flag] !== 'boolean') fail(`"${flag}" must be true or false, got ${describeValue(spec[flag])}`, `Pass { ${flag}: true }.`)
  }
  const verbatim = spec.verbatim === true
  if (verbatim && builtIn) fail(`"verbatim" sends a custom template as written, but "${template}" is a built-in template`, 'Pass your own template text with {output} (and {input}, {context}, ...), or leave verbatim out.')
  if (builtIn) {
    const missing = missingForBuiltIn(template as BuiltInTemplate, fields)
    if (missing !== undefined) fail(`the '${template}' template needs { ${missing} }, which is missing`, `Pass { ${missing} } in the judge spec.`)
  } else {
    const problem = checkTemplate(template, fields)
    if (problem) fail(problem.reason, problem.fix)
  }

  const judges = panel
    ? (samples as unknown[]).map((like, i) => resolveJudge(like as JudgeLike, (reason, fix) => fail(`samples[${i}]: ${reason}`, fix)))
    : Array.from({ length: samples as number }, () => resolveJudge(spec.judge as JudgeSpec['judge'], fail))
  const judge = judges[0] as Judge

  const request: Omit<JudgeRequest, 'sample'> = {
    prompt: verbatim ? renderCustom(template, fields) : renderPrompt(template, scale, fields),
    template: builtIn ? (template as BuiltInTemplate) : 'custom',
    scale,
    output,
    ...(fields.input !== undefined ? { input: fields.input } : {}),
    ...(fields.reference !== undefined ? { reference: fields.reference } : {}),
    ...(fields.context !== undefined ? { context: fields.context } : {}),
    ...(fields.criteria !== undefined ? { criteria: fields.criteria } : {}),
    ...(verbatim ? { verbatim } : {}),
  }
  return { judge, judges, panel, template: request.template, scale, threshold: threshold as number, samples: judges.length, request, lenient: spec.lenient === true }
}

/** One judge of a panel, as the verdict reports it. */
export interface PanelVote {
  /** The judge's name (the model that answered, when known). */
  judge: string
  /** Its normalized score. */
  score: number
  /** Its score on the scale. */
  scaleValue: number
  /** Whether its score reached the threshold. */
  pass: boolean
}

/** The outcome of a judge call, over all samples. */
export interface JudgeVerdict {
  /** The majority verdict: more than half of the samples scored at least the threshold (a tie fails). */
  pass: boolean
  /** Mean normalized score over the samples. */
  score: number
  threshold: number
  scale: JudgeScale
  /** Every sample's result, in order. */
  results: JudgeResult[]
  /** Samples that passed. */
  passes: number
  /** Share of samples that agree with the majority verdict (1 when there is one sample). */
  agreement: number
  /** The reasoning of the first sample that agrees with the verdict. */
  reason: string
  /** Claims of that sample, for faithfulness. */
  claims?: Claim[]
  /** Notes from reading the replies (e.g. clamped scores). */
  notes: string[]
  /** The judge's name (model) for messages; a panel's names joined with " + ". */
  judgeName: string
  /** When `samples` listed the judges: each judge's vote, in order. */
  panel?: PanelVote[]
}

/**
 * Runs a prepared call: `samples` requests (each through the concurrency limit, usage recorded in the
 * ledger), then the majority verdict. Errors from the judge (model call failures, unreadable replies)
 * propagate unchanged.
 */
export async function runJudge(call: PreparedJudgeCall): Promise<JudgeVerdict> {
  const judges = call.judges
  const results = await Promise.all(
    judges.map(async (judge, sample) => {
      const name = judge.name ?? 'judge'
      const raw = await limitModelCall(() => judge.evaluate({ ...call.request, sample })).catch((error: unknown) => {
        // Lenient: a reply with no score in it scores the bottom of the scale, its text the reason.
        if (!call.lenient || !(error instanceof JudgeReplyError)) throw error
        const bottom = call.scale === '1-5' ? 1 : 0
        return { score: 0, scaleValue: bottom, reason: `no score in the reply (lenient: scored ${bottom}): ${error.raw.trim().slice(0, 300)}`, raw: error.raw } as JudgeResult
      })
      const result = checkJudgeResult(raw, JSON.stringify(name))
      if (call.template === 'faithfulness' && result.claims && result.claims.length > 0) {
        // The share of supported claims is the faithfulness score, whatever overall number the judge wrote.
        const share = result.claims.filter((c) => c.supported).length / result.claims.length
        result.score = share
        result.scaleValue = share
      }
      if (result.usage) recordModelUsage({ kind: 'judge', model: result.usage.model, inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens })
      return result
    }),
  )
  const passes = results.filter((r) => r.score >= call.threshold).length
  const pass = passes * 2 > results.length
  const agreeing = pass ? passes : results.length - passes
  const representative = results.find((r) => r.score >= call.threshold === pass) ?? results[0]
  const names = results.map((r, i) => r.model ?? judges[i]?.name ?? `judge ${i + 1}`)
  const verdict: JudgeVerdict = {
    pass,
    score: results.reduce((s, r) => s + r.score, 0) / results.length,
    threshold: call.threshold,
    scale: call.scale,
    results,
    passes,
    agreement: agreeing / results.length,
    reason: representative?.reason ?? '',
    notes: [...new Set(results.flatMap((r) => (r.note ? [r.note] : [])))],
    judgeName: call.panel ? [...new Set(names)].join(' + ') : (representative?.model ?? call.judge.name ?? 'judge'),
  }
  if (call.panel) verdict.panel = results.map((r, i) => ({ judge: names[i] as string, score: r.score, scaleValue: r.scaleValue, pass: r.score >= call.threshold }))
  if (representative?.claims) verdict.claims = representative.claims
  return verdict
}
