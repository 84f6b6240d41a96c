/**
 * The `judge`, `relevance` and `faithfulness` checks: a model judge with a built-in or custom template.
 * Several named instances (`'judge:correctness'`, `'judge:coherence'`) each keep their own criteria,
 * threshold, mean and recordings.
 *
 * @module
 */
import { type JudgeVerdict, type PreparedJudgeCall, prepareJudgeCall, runJudge } from '../judges/run.js'
import { DEFAULT_FAITHFULNESS_THRESHOLD, DEFAULT_JUDGE_THRESHOLD } from '../judges/types.js'
import { judgeDetail, judgeResult, judgeSpec, quote, runFail, usageError } from './shared.js'
import type { CheckDefinition } from './types.js'

/** What a judge check keeps as `data`: the verdict, and the prepared call (its template and rendered request). */
export interface JudgeData {
  verdict: JudgeVerdict
  call: PreparedJudgeCall
}

export const judge: CheckDefinition = {
  name: 'judge',
  defaultThreshold: DEFAULT_JUDGE_THRESHOLD,
  optionKeys: ['criteria', 'scale', 'threshold', 'template', 'judge', 'samples', 'useReference', 'verbatim', 'lenient'],
  shorthands: { stringOption: 'criteria' },
  appliesTo: (c, { options }, refs) =>
    c.answerable !== false && (options.criteria !== undefined || c.criteria !== undefined || refs.length > 0 || options.template !== undefined),
  calledFor: (c) => c.criteria !== undefined && c.answerable !== false,
  async run(input, plan) {
    const { threshold, options } = plan
    const own = options.criteria
    // Criteria that are not text go to the judge call as they are, to be refused there.
    const criteria = typeof own === 'string' || own === undefined ? [own, input.c.criteria].filter((x): x is string => typeof x === 'string').join('\n') : own
    const spec = judgeSpec(options, threshold)
    if (criteria !== '' || own === '') spec.criteria = criteria
    if (options.useReference !== false && input.references.length > 0) spec.reference = input.references[0]
    if (input.c.input !== undefined) spec.input = input.inputText
    if (input.context) spec.context = input.context
    const call = prepareJudgeCall(spec, input.output, {}, runFail(plan))
    const r = judgeResult(await runJudge(call), threshold)
    const data: JudgeData = { verdict: r.data as JudgeVerdict, call }
    return { ...r, data }
  },
}

export const relevance: CheckDefinition = {
  name: 'relevance',
  defaultThreshold: DEFAULT_JUDGE_THRESHOLD,
  optionKeys: ['threshold', 'judge', 'samples', 'lenient'],
  appliesTo: (c) => c.answerable !== false,
  async run(input, plan) {
    const { threshold, options } = plan
    const spec: Record<string, unknown> = { ...judgeSpec(options, threshold), input: input.inputText }
    if (input.context) spec.context = input.context
    const call = prepareJudgeCall(spec, input.output, { template: 'relevance' }, runFail(plan))
    const r = judgeResult(await runJudge(call), threshold)
    return { ...r, data: { verdict: r.data as JudgeVerdict, call } satisfies JudgeData }
  },
}

export const faithfulness: CheckDefinition = {
  name: 'faithfulness',
  defaultThreshold: DEFAULT_FAITHFULNESS_THRESHOLD,
  optionKeys: ['threshold', 'judge', 'samples', 'lenient'],
  appliesTo: (c) => c.answerable !== false,
  async run(input, plan) {
    const { threshold, options } = plan
    if (!input.context) {
      usageError(`case "${input.c.id}" has no context to check faithfulness against`, 'Return { output, context } from the task, or give the case a "context".')
    }
    const spec: Record<string, unknown> = { ...judgeSpec(options, threshold), context: input.context }
    if (input.c.input !== undefined) spec.input = input.inputText
    if (threshold !== null) spec.threshold = threshold
    const defaults = { template: 'faithfulness', scale: '0-1', threshold: DEFAULT_FAITHFULNESS_THRESHOLD } as const
    const call = prepareJudgeCall(spec, input.output, defaults, runFail(plan))
    const verdict = await runJudge(call)
    const unsupported = (verdict.claims ?? []).filter((cl) => !cl.supported).map((cl) => quote(cl.claim, 50))
    const r = judgeResult(verdict, threshold, unsupported.length > 0 ? `unsupported: ${unsupported.join(', ')}` : judgeDetail(verdict))
    return { ...r, data: { verdict, call } satisfies JudgeData }
  },
}

/**
 * A judge spec given to a matcher (`toPassJudge`), split for the judge check: its case fields
 * (`reference`, `input`, `context`) as the case, everything else as the check's options, and its
 * threshold (default {@link DEFAULT_JUDGE_THRESHOLD}).
 */
export function judgeSpecParts(spec: Record<string, unknown>): {
  options: Record<string, unknown>
  threshold: number
  case: { references: string[]; inputText?: string; context?: unknown }
} {
  const { reference, input, context, ...options } = spec
  return {
    options,
    threshold: (spec.threshold ?? DEFAULT_JUDGE_THRESHOLD) as number,
    case: {
      references: reference !== undefined ? [reference as string] : [],
      ...(input !== undefined ? { inputText: input as string } : {}),
      ...(context !== undefined ? { context } : {}),
    },
  }
}
