import { describeValue, countLine, formatCall, renderSteps, repeatedCalls, toolCalls } from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { checkOneOf, checkOptions, hint, lines, trajectoryOf, usageError, type Signature } from './utils.js'

/** Options of {@link toUseAtMostSteps}. */
export interface StepsOptions {
  /**
   * The loop guard. `'allow'` (default): the same call may be made again (a retry after an error).
   * `'forbid'`: fail when a tool is called twice with the same arguments (deep-equal, key order ignored).
   */
  repeatedCalls?: 'allow' | 'forbid'
}

const OPTIONS = ['repeatedCalls'] as const

/**
 * Passes when the agent run took at most `steps` steps, a step being one model response (one LLM call of
 * the loop: the AI SDK's `steps`, one assistant message of a conversation; parallel tool calls in one
 * response are one step). With `{ repeatedCalls: 'forbid' }` it is also a loop guard: no tool may be
 * called twice with the same arguments. Pass `Infinity` to use only the loop guard.
 *
 * The failure message lists the run step by step and marks the first step over the limit, or the first
 * repeated call.
 *
 * @example
 * ```ts
 * expect(result).toUseAtMostSteps(4)
 * expect(messages).toUseAtMostSteps(6, { repeatedCalls: 'forbid' })
 * expect(messages).toUseAtMostSteps(Infinity, { repeatedCalls: 'forbid' })
 * ```
 */
export function toUseAtMostSteps(this: MatcherContext, received: unknown, steps: unknown, options?: StepsOptions): MatcherResult {
  const sig: Signature = {
    name: 'toUseAtMostSteps',
    received: 'trajectory',
    expected: 'steps',
    ...(options !== undefined ? { secondArgument: 'options' } : {}),
  }
  // Stryker disable next-line ConditionalExpression: equivalent for `typeof steps !== 'number'` -> false, a non-number is neither an integer nor Infinity
  if (typeof steps !== 'number' || !(Number.isInteger(steps) || steps === Infinity) || steps < 1) {
    const got = typeof steps === 'number' ? String(steps) : describeValue(steps)
    usageError(
      this,
      sig,
      `the step limit must be a whole number >= 1 (or Infinity), got ${got}`,
      'Pass the most model responses the run may take, e.g. 5.',
      typeof steps === 'number' ? RangeError : TypeError,
    )
  }
  checkOptions(this, sig, options as unknown, OPTIONS)
  checkOneOf(this, sig, options?.repeatedCalls, 'repeatedCalls', ['allow', 'forbid'] as const)
  const guard = options?.repeatedCalls === 'forbid'
  const trajectory = trajectoryOf(this, sig, received)
  const calls = toolCalls(trajectory)
  const repeats = guard ? repeatedCalls(calls) : []
  const withinLimit = trajectory.steps <= steps
  const pass = withinLimit && repeats.length === 0

  return {
    pass,
    message: () => {
      const limit = steps === Infinity ? 'any number of steps' : `at most ${steps} step${steps === 1 ? '' : 's'} (model responses)`
      const expected = this.isNot
        ? `Expected: more than ${steps} step${steps === 1 ? '' : 's'}${guard ? ', or a repeated identical call' : ''}`
        : `Expected: ${limit}${guard ? ', and no repeated identical call' : ''}`
      const firstRepeat = repeats[0]
      const repeatText = firstRepeat
        ? `; ${formatCall(calls[firstRepeat[0]!]!)} was made ${firstRepeat.length} times (calls ${firstRepeat.map((i) => i + 1).join(', ')})`
        : ''
      const receivedLine = `Received: ${countLine(trajectory)}${repeatText}`
      // Mark the first step over the limit, else the first repeated call. Nothing is marked under .not:
      // it fails only within the limit and without a repeat, so neither mark applies.
      const repeatedCall = firstRepeat ? calls[firstRepeat[1]!] : undefined
      let marked = false
      const steps_ = renderSteps(trajectory, {
        mark: (_, item) => {
          if (marked) return undefined
          // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, only text and tool-call items have a step (the type test narrows)
          if (!withinLimit && (item.type === 'text' || item.type === 'tool-call') && item.step === steps) {
            marked = true
            return { note: `step ${item.step + 1}: over the limit` }
          }
          // One item is the repeated call, and within the limit no step is marked: nothing to mark after it.
          if (withinLimit && item === repeatedCall) return { note: `repeats call ${firstRepeat![0]! + 1}` }
          return undefined
        },
      })
      return lines(hint(this, sig), '', expected, receivedLine, '', 'Trajectory:', steps_)
    },
  }
}
