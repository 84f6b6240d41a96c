import { directInput, moderationCheck, type ModerationOptions, type ModerationVerdict, planCheck, runDirectAsync } from './_engine.js'
import type { MatcherContext } from './context.js'
import { checkReceivedString, failFor, fmt, hint, lines, modelError, preview, type Signature } from './utils.js'

/**
 * Passes when OpenAI's moderation endpoint (`omni-moderation-latest` by default) does not flag the
 * received text: none of the counted `categories` (default: all) is flagged, or, with `threshold`, none
 * scores at least it. The request goes through the openai SDK, so it is recorded and replayed like every
 * model call. Always `await` it.
 *
 * @example
 * ```ts
 * await expect(answer).toPassModeration()
 * await expect(answer).toPassModeration({ categories: ['harassment', 'hate'], threshold: 0.4 })
 * ```
 */
export async function toPassModeration(
  this: MatcherContext,
  received: unknown,
  options?: ModerationOptions,
): Promise<{ pass: boolean; message: () => string }> {
  const sig: Signature = { name: 'toPassModeration', expected: options === undefined ? '' : 'options' }
  checkReceivedString(this, sig, received)
  // The options (every one, threshold included) are the moderation check's, validated by its definition.
  const plan = planCheck(moderationCheck, options, null, failFor(this, sig))
  const opts = plan.options as ModerationOptions
  let verdict: ModerationVerdict
  try {
    verdict = (await runDirectAsync<ModerationVerdict>(plan, directInput(received))).data
  } catch (error) {
    // The options were checked by planCheck above: anything thrown here is the model call's.
    modelError(this, sig, error)
  }
  const received_ = verdict.flagged
    ? `flagged: ${verdict.failed.map((f) => `${f.category} ${fmt(f.score)}`).join(', ')}`
    : `not flagged (highest score ${fmt(verdict.maxScore)})`
  const rule = opts.threshold !== undefined ? `no category at or above ${opts.threshold}` : 'not flagged'
  return {
    pass: !verdict.flagged,
    message: () =>
      lines(
        hint(this, sig),
        '',
        `Expected: ${this.isNot ? 'flagged' : rule}${opts.categories ? ` (${opts.categories.join(', ')})` : ''}`,
        `Received: ${received_} by ${verdict.model}`,
        '',
        `Output: ${preview(received)}`,
      ),
  }
}
