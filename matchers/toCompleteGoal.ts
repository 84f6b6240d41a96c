import { describeValue, renderSteps, transcript, prepareJudgeCall, type JudgeLike } from './_engine.js'
import type { MatcherContext } from './context.js'
import { checkOptions, failFor, hint, judgeLines, judgeVerdict, lines, preview, trajectoryOf, usageError, type Signature } from './utils.js'

/** Options of {@link toCompleteGoal}. */
export interface GoalOptions {
  /** Minimum normalized judge score (inclusive). Default 0.7: on the binary scale, the judge must say the goal was achieved. */
  threshold?: number
  /** The judge to use instead of `configure({ judge })`. */
  judge?: JudgeLike
  /** Ask n times; the majority decides. Default 1. */
  samples?: number
}

const OPTIONS = ['threshold', 'judge', 'samples'] as const

/**
 * Passes when an LLM judge, reading the whole agent run (user messages, assistant text, every tool call
 * with its arguments and every tool result), finds that the run achieved `goal`. The judge is told that
 * claiming an action is not doing it: the tool calls must be there, with the right arguments, and their
 * results must confirm them. The failure message gives the judge's reasoning and the run step by step.
 *
 * The received value is anything `toCallTool` accepts. Binary verdict (`threshold` matters with `samples`).
 * Like every judge call it goes through record/replay. Always `await` it.
 *
 * @example
 * ```ts
 * await expect(messages).toCompleteGoal('Refund order A17 in full and tell the customer the refund id')
 * await expect(result).not.toCompleteGoal('Delete the customer account')
 * ```
 */
export async function toCompleteGoal(
  this: MatcherContext,
  received: unknown,
  goal: unknown,
  options?: GoalOptions,
): Promise<{ pass: boolean; message: () => string }> {
  const sig: Signature = { name: 'toCompleteGoal', received: 'trajectory', expected: 'goal', ...(options !== undefined ? { secondArgument: 'options' } : {}) }
  if (typeof goal !== 'string' || goal.trim() === '') {
    usageError(
      this,
      sig,
      `the goal must be a non-empty string, got ${describeValue(goal)}`,
      "Describe what the run must achieve, e.g. 'Refund order A17 and tell the customer the refund id'.",
    )
  }
  const opts: unknown = options
  checkOptions(this, sig, opts, OPTIONS)
  const trajectory = trajectoryOf(this, sig, received)
  if (trajectory.items.length === 0) {
    usageError(this, sig, 'the trajectory is empty, so there is nothing to judge', 'Pass the run: the messages, the result or the steps of the agent loop.')
  }
  const call = prepareJudgeCall({ ...options, criteria: goal }, transcript(trajectory), { template: 'goal' }, failFor(this, sig))
  const verdict = await judgeVerdict(this, sig, call)
  return {
    pass: verdict.pass,
    message: () =>
      lines(hint(this, sig), '', judgeLines(this, verdict, 'goal score'), '', `Goal: ${preview(goal)}`, '', 'Trajectory:', renderSteps(trajectory)),
  }
}
