import {
  checkSpecObject,
  describeValue,
  directInput,
  type JudgeData,
  judgeCheck,
  judgeSpecParts,
  type JudgeSpec,
  planCheck,
  runDirectAsync,
} from './_engine.js'
import type { MatcherContext } from './context.js'
import { checkReceivedString, failFor, hint, isUsageError, judgeLines, lines, modelError, preview, usageError, type Signature } from './utils.js'

/** The judge spec of the arguments: criteria text (with any options), or a spec object (options override it). */
function readSpec(ctx: MatcherContext, sig: Signature, criteriaOrSpec: unknown, options: unknown): Record<string, unknown> {
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) {
    usageError(ctx, sig, `the options must be an object, got ${describeValue(options)}`, 'Pass judge options such as { threshold: 0.8, samples: 3 }.')
  }
  if (typeof criteriaOrSpec === 'string') {
    if (criteriaOrSpec.trim() === '')
      usageError(ctx, sig, 'the criteria are an empty string', 'Describe what the output must do, e.g. "Answers the question politely".')
    return { ...(options as object | undefined), criteria: criteriaOrSpec }
  }
  if (criteriaOrSpec !== null && typeof criteriaOrSpec === 'object' && !Array.isArray(criteriaOrSpec)) {
    return { ...(criteriaOrSpec as JudgeSpec), ...(options as object | undefined) }
  }
  return usageError(
    ctx,
    sig,
    `the criteria must be a string or a judge spec object, got ${describeValue(criteriaOrSpec)}`,
    "Pass criteria such as 'Answers politely', or { reference, criteria, scale, threshold }.",
  )
}

/**
 * Passes when an LLM judge scores the received text at least `threshold` (inclusive, default 0.7 on the
 * normalized [0, 1] score) against `criteria`, a reference answer, or a custom template.
 *
 * - `toPassJudge('criteria')` uses the rubric template; `{ reference }` uses the correctness template
 *   (same facts as the reference, nothing contradicting it), with any `criteria` added to it.
 * - `scale`: `'binary'` (default, PASS = 1 / FAIL = 0), `'1-5'`, `'0-5'` or `'0-1'`.
 * - `template`: a built-in name, or your own text with `{output}` and any of `{input} {reference}
 *   {context} {criteria}`; every placeholder is checked before the judge is called.
 * - `samples: n` asks n times; the majority verdict decides (a tie fails) and the message reports the
 *   agreement rate, so a flaky judge shows up.
 * - The judge is `judge` if given, else `configure({ judge })`, else the OpenAI judge (`OPENAI_API_KEY`).
 *
 * A judge reply with no readable score, or a failed model call (401, 404, 429 after retries), fails the
 * assertion with the raw reply or the server's error, under `.not` too. Always `await` it.
 *
 * @example
 * ```ts
 * await expect(answer).toPassJudge('Says refunds can be requested within 30 days and is polite')
 * await expect(answer).toPassJudge({ reference: 'You can ask for a refund within 30 days.', input: question })
 * await expect(answer).toPassJudge({ criteria: 'Helpfulness', scale: '1-5', threshold: 0.75, samples: 3 })
 * ```
 */
export async function toPassJudge(
  this: MatcherContext,
  received: unknown,
  criteriaOrSpec: unknown,
  options?: unknown,
): Promise<{ pass: boolean; message: () => string }> {
  const sig: Signature = {
    name: 'toPassJudge',
    expected: typeof criteriaOrSpec === 'string' ? 'criteria' : 'spec',
    ...(options !== undefined ? { secondArgument: 'options' } : {}),
  }
  checkReceivedString(this, sig, received)
  const spec = readSpec(this, sig, criteriaOrSpec, options)
  // The judge check runs the spec: its keys checked here (as the judge call would), the case's fields
  // (reference, input, context) given as the case, the rest as the check's options.
  checkSpecObject(spec, failFor(this, sig))
  const parts = judgeSpecParts(spec)
  const plan = planCheck(judgeCheck, parts.options, parts.threshold, failFor(this, sig))
  let data: JudgeData
  try {
    ;({ data } = await runDirectAsync<JudgeData>(plan, directInput(received, parts.case)))
  } catch (error) {
    if (isUsageError(error)) throw error
    return modelError(this, sig, error)
  }
  const { verdict, call } = data
  const { criteria, reference, input } = call.request
  return {
    pass: verdict.pass,
    message: () =>
      lines(
        hint(this, sig),
        '',
        judgeLines(this, verdict),
        '',
        `Template:  ${call.template}`,
        input !== undefined ? `Input:     ${preview(input)}` : undefined,
        criteria !== undefined ? `Criteria:  ${preview(criteria)}` : undefined,
        reference !== undefined ? `Reference: ${preview(reference)}` : undefined,
        `Output:    ${preview(received)}`,
      ),
  }
}
