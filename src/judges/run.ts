/**
 * Preparing and running a judge call: spec validation (before any model call), template rendering,
 * samples with majority vote, the concurrency limit and the ledger. Shared by the matchers and
 * `calibrateJudge`.
 *
 * @module
 */
import { describeValue, isWholeNumber } from '../errors.js'
import type { Fail } from '../errors.js'
import { recordModelUsage } from '../ledger.js'
import { limitModelCall } from '../limit.js'
import { checkJudgeResult, resolveJudge } from './resolve.js'
import { JudgeReplyError } from './parse.js'
import { BUILT_IN_TEMPLATES, checkTemplate, missingForBuiltIn, renderCustom, renderPrompt, type TemplateFields } from './templates.js'
import {
  DEFAULT_JUDGE_THRESHOLD,
  type BuiltInTemplate,
  type Claim,
  type Judge,
  type JudgeLike,
  type JudgeRequest,
  type JudgeResult,
  type JudgeScale,
  type JudgeSpec,
} from './types.js'

/** The keys of {@link JudgeSpec}. */
export const JUDGE_SPEC_KEYS = [
  'criteria',
  'reference',
  'input',
  'context',
  'scale',
  'threshold',
  'template',
  'judge',
  'samples',
  'verbatim',
  'lenient',
] as const
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
  if (typeof v !== 'string' || v.trim() === '')
    fail(`"${key}" must be a non-empty string, got ${describeValue(v)}`, `Pass the ${key} as text, or leave it out.`)
  return v
}

/** Checks a context argument: a non-empty string or a non-empty array of non-empty strings. */
export function checkContext(value: unknown, fail: Fail, what = 'context'): string[] {
  if (typeof value === 'string' && value.trim() !== '') return [value]
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && v.trim() !== '')) return value as string[]
  const got = Array.isArray(value)
    ? value.length === 0
      ? 'an empty array'
      : `an array containing ${describeValue(value.find((v) => typeof v !== 'string' || v.trim() === ''))}`
    : describeValue(value)
  return fail(
    `the ${what} must be a non-empty string or an array of non-empty strings, got ${got}`,
    `Pass the ${what} documents as text, e.g. ['Refunds are accepted within 30 days.'].`,
  )
}

/**
 * Validates a {@link JudgeSpec} and renders its prompt for `output`. Every problem (unknown key,
 * wrong type, threshold outside [0, 1], unknown template placeholder, a placeholder without a value,
 * a built-in template without what it needs) is reported through `fail` before any model call, in the
 * order of the steps below.
 */
export function prepareJudgeCall(specInput: unknown, output: string, defaults: SpecDefaults, fail: Fail): PreparedJudgeCall {
  const spec = checkSpecObject(specInput, fail)
  const fields = templateFields(spec, output, fail)
  const scale = checkScale(spec.scale ?? defaults.scale ?? 'binary', spec.scale, fail)
  const threshold = checkThreshold(spec.threshold ?? defaults.threshold ?? DEFAULT_JUDGE_THRESHOLD, fail)
  const samples = checkSamples(spec.samples ?? 1, spec.judge !== undefined, fail)
  const template = chooseTemplate(spec.template, defaults, fields, fail)
  const builtIn = checkTemplateFields(template, fields, fail)
  const verbatim = checkVerbatim(spec, template, builtIn, fail)
  const judges = Array.isArray(samples)
    ? samples.map((like, i) => resolveJudge(like as JudgeLike, (reason, fix) => fail(`samples[${i}]: ${reason}`, fix)))
    : Array.from({ length: samples }, () => resolveJudge(spec.judge as JudgeSpec['judge'], fail))
  const request = judgeRequest(template, builtIn, scale, fields, verbatim)
  const panel = Array.isArray(samples)
  return {
    judge: judges[0] as Judge,
    judges,
    panel,
    template: request.template,
    scale,
    threshold,
    samples: judges.length,
    request,
    lenient: spec.lenient === true,
  }
}

/**
 * The spec as a record, or `fail` when it is not an object or has a key that is not a {@link JudgeSpec} option.
 *
 * @example
 * ```ts
 * checkSpecObject({ criteria: 'polite' }, failWith('judge')) // { criteria: 'polite' }
 * ```
 */
export function checkSpecObject(specInput: unknown, fail: Fail): Record<string, unknown> {
  if (specInput === null || typeof specInput !== 'object' || Array.isArray(specInput)) {
    fail(
      `the judge spec must be an object, got ${describeValue(specInput)}`,
      `Pass criteria as a string, or an object with any of: ${JUDGE_SPEC_KEYS.join(', ')}.`,
    )
  }
  const spec = specInput as Record<string, unknown>
  const unknown = Object.keys(spec).filter((k) => spec[k] !== undefined && !(JUDGE_SPEC_KEYS as readonly string[]).includes(k))
  if (unknown.length > 0) fail(`unknown option ${unknown.map((k) => `"${k}"`).join(', ')}`, `Valid options are: ${JUDGE_SPEC_KEYS.join(', ')}.`)
  return spec
}

/**
 * The template fields of a spec: the output, and the criteria, reference, input and context it gives
 * (each checked: non-empty text; context as text or a list of texts).
 *
 * @example
 * ```ts
 * templateFields({ reference: 'Paris' }, 'Lyon', fail) // { output: 'Lyon', reference: 'Paris' }
 * ```
 */
export function templateFields(spec: Record<string, unknown>, output: string, fail: Fail): TemplateFields {
  const fields: TemplateFields = { output }
  const criteria = optionalString(spec, 'criteria', fail)
  const reference = optionalString(spec, 'reference', fail)
  const input = optionalString(spec, 'input', fail)
  if (criteria !== undefined) fields.criteria = criteria
  if (reference !== undefined) fields.reference = reference
  if (input !== undefined) fields.input = input
  if (spec.context !== undefined) fields.context = checkContext(spec.context, fail)
  return fields
}

/** The scale, or `fail` naming the value the user gave (`given`). */
export function checkScale(scale: unknown, given: unknown, fail: Fail): JudgeScale {
  if (!SCALES.includes(scale as JudgeScale))
    fail(`"scale" must be one of ${SCALES.map((s) => `'${s}'`).join(', ')}, got ${describeValue(given)}`, `Pass for example { scale: '1-5' }.`)
  return scale as JudgeScale
}

/** The threshold, a number in [0, 1], or `fail`. */
export function checkThreshold(threshold: unknown, fail: Fail): number {
  if (typeof threshold !== 'number' || Number.isNaN(threshold) || threshold < 0 || threshold > 1) {
    const got = typeof threshold === 'number' ? String(threshold) : describeValue(threshold)
    fail(`the threshold must be a number from 0 to 1, got ${got}`, 'Pass a fraction of the scale such as 0.7 (scores are normalized to [0, 1]).')
  }
  return threshold as number
}

/**
 * `samples`: a count from 1 to {@link MAX_SAMPLES}, or a list of 1 to {@link MAX_SAMPLES} judges (a panel,
 * which cannot be combined with `judge`).
 *
 * @example
 * ```ts
 * checkSamples(3, false, fail) // 3
 * ```
 */
export function checkSamples(samples: unknown, withJudge: boolean, fail: Fail): number | unknown[] {
  if (Array.isArray(samples)) {
    if (samples.length < 1 || samples.length > MAX_SAMPLES) {
      const example = "Pass for example { samples: [openAIJudgeSettings, { model: anthropic('claude-haiku-4-5') }] } (an odd number avoids ties)."
      fail(`"samples" must list 1 to ${MAX_SAMPLES} judges, got ${samples.length}`, example)
    }
    if (withJudge) fail('"judge" and a list of judges in "samples" cannot be combined', 'List every judge in samples, or pass one judge with samples: n.')
    return samples
  }
  if (!isWholeNumber(samples) || samples < 1 || samples > MAX_SAMPLES) {
    const got = typeof samples === 'number' ? String(samples) : describeValue(samples)
    fail(
      `"samples" must be a whole number from 1 to ${MAX_SAMPLES} or a list of judges, got ${got}`,
      'Pass for example { samples: 3 } (an odd number avoids ties).',
    )
  }
  return samples as number
}

/**
 * The template: the spec's, the matcher's default, `correctness` with a reference, `rubric` with
 * criteria; `fail` when there is none of them.
 *
 * @example
 * ```ts
 * chooseTemplate(undefined, {}, { output: 'x', reference: 'y' }, fail) // 'correctness'
 * ```
 */
export function chooseTemplate(given: unknown, defaults: SpecDefaults, fields: TemplateFields, fail: Fail): string {
  if (given !== undefined) {
    if (typeof given !== 'string' || given.trim() === '') {
      const names = BUILT_IN_TEMPLATES.map((t) => `'${t}'`).join(', ')
      fail(`"template" must be a built-in template name or a template string, got ${describeValue(given)}`, `Pass one of ${names}, or a text with {output}.`)
    }
    return given as string
  }
  if (defaults.template !== undefined) return defaults.template
  if (fields.reference !== undefined) return 'correctness'
  if (fields.criteria !== undefined) return 'rubric'
  return fail(
    'the judge needs criteria or a reference answer',
    "Pass the criteria as a string, or { reference: 'the expected answer' }, or a custom { template }.",
  )
}

/** Checks that the template has what it needs among `fields`; returns whether it is a built-in one. */
export function checkTemplateFields(template: string, fields: TemplateFields, fail: Fail): boolean {
  if ((BUILT_IN_TEMPLATES as readonly string[]).includes(template)) {
    const missing = missingForBuiltIn(template as BuiltInTemplate, fields)
    if (missing !== undefined) fail(`the '${template}' template needs { ${missing} }, which is missing`, `Pass { ${missing} } in the judge spec.`)
    return true
  }
  const problem = checkTemplate(template, fields)
  if (problem) fail(problem.reason, problem.fix)
  return false
}

/**
 * `verbatim` and `lenient` are booleans; `verbatim` (the template sent as written) needs a custom template.
 * Returns whether the template is sent verbatim.
 */
export function checkVerbatim(spec: Record<string, unknown>, template: string, builtIn: boolean, fail: Fail): boolean {
  for (const flag of ['verbatim', 'lenient'] as const) {
    if (spec[flag] !== undefined && typeof spec[flag] !== 'boolean')
      fail(`"${flag}" must be true or false, got ${describeValue(spec[flag])}`, `Pass { ${flag}: true }.`)
  }
  const verbatim = spec.verbatim === true
  if (verbatim && builtIn)
    fail(
      `"verbatim" sends a custom template as written, but "${template}" is a built-in template`,
      'Pass your own template text with {output} (and {input}, {context}, ...), or leave verbatim out.',
    )
  return verbatim
}

/** The request every sample sends: the rendered prompt and the fields it was rendered from. */
function judgeRequest(template: string, builtIn: boolean, scale: JudgeScale, fields: TemplateFields, verbatim: boolean): Omit<JudgeRequest, 'sample'> {
  return {
    prompt: verbatim ? renderCustom(template, fields) : renderPrompt(template, scale, fields),
    template: builtIn ? (template as BuiltInTemplate) : 'custom',
    scale,
    output: fields.output,
    ...(fields.input !== undefined ? { input: fields.input } : {}),
    ...(fields.reference !== undefined ? { reference: fields.reference } : {}),
    ...(fields.context !== undefined ? { context: fields.context } : {}),
    ...(fields.criteria !== undefined ? { criteria: fields.criteria } : {}),
    ...(verbatim ? { verbatim } : {}),
  }
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
        return {
          score: 0,
          scaleValue: bottom,
          reason: `no score in the reply (lenient: scored ${bottom}): ${error.raw.trim().slice(0, 300)}`,
          raw: error.raw,
        } as JudgeResult
      })
      const result = checkJudgeResult(raw, JSON.stringify(name))
      if (call.template === 'faithfulness' && result.claims && result.claims.length > 0) {
        // The share of supported claims is the faithfulness score, whatever overall number the judge wrote.
        const share = result.claims.filter((c) => c.supported).length / result.claims.length
        result.score = share
        result.scaleValue = share
      }
      if (result.usage)
        recordModelUsage({ kind: 'judge', model: result.usage.model, inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens })
      return result
    }),
  )
  const passes = results.filter((r) => r.score >= call.threshold).length
  const pass = passes * 2 > results.length
  const agreeing = pass ? passes : results.length - passes
  // Always found: the majority side (a tie is a fail) has at least one sample.
  const representative = results.find((r) => r.score >= call.threshold === pass) as JudgeResult
  // One result per judge, in order.
  const names = results.map((r, i) => r.model ?? (judges[i] as Judge).name ?? `judge ${i + 1}`)
  const verdict: JudgeVerdict = {
    pass,
    score: results.reduce((s, r) => s + r.score, 0) / results.length,
    threshold: call.threshold,
    scale: call.scale,
    results,
    passes,
    agreement: agreeing / results.length,
    reason: representative.reason,
    notes: [...new Set(results.flatMap((r) => (r.note ? [r.note] : [])))],
    judgeName: call.panel ? [...new Set(names)].join(' + ') : (representative.model ?? call.judge.name ?? 'judge'),
  }
  if (call.panel)
    verdict.panel = results.map((r, i) => ({ judge: names[i] as string, score: r.score, scaleValue: r.scaleValue, pass: r.score >= call.threshold }))
  if (representative.claims) verdict.claims = representative.claims
  return verdict
}
