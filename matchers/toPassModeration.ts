import { checkModerationOptions, moderate, type ModerationOptions } from './_engine.js'
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
  const opts = checkModerationOptions(options, failFor(this, sig))
  let verdict: Awaited<ReturnType<typeof moderate>>
  try {
    verdict = await moderate(received, opts)
  } catch (error) {
    modelError(this, sig, error)
  }
  const rule = opts.threshold !== undefined ? `no category at or above ${opts.threshold}` : 'not flagged'
  return {
    pass: !verdict.flagged,
    message: () =>
      lines(
        hint(this, sig),
        '',
        `Expected: ${this.isNot ? 'flagged' : rule}${opts.categories ? ` (${opts.categories.join(', ')})` : ''}`,
        `Received: ${verdict.flagged ? `flagged: ${verdict.failed.map((f) => `${f.category} ${fmt(f.score)}`).join(', ')}` : `not flagged (highest score ${fmt(verdict.maxScore)})`} by ${verdict.model}`,
        '',
        `Output: ${preview(received)}`,
      ),
  }
}
