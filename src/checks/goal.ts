/**
 * The `goal` check: the `toCompleteGoal` judge (the built-in `goal` template) over the agent run a task
 * returned, its user message(s), text, tool calls and tool results, against the case's `criteria` (and
 * the `criteria` option). Replayed like every judge call.
 *
 * @module
 */
import { transcript } from '../agents/format.js'
import type { Trajectory } from '../agents/types.js'
import { failWith } from '../errors.js'
import { prepareJudgeCall, runJudge } from '../judges/run.js'
import { DEFAULT_JUDGE_THRESHOLD } from '../judges/types.js'
import { judgeResult, judgeSpec } from './shared.js'
import type { CheckDefinition, CheckInput } from './types.js'

/** The run the judge reads: the task's trajectory with the user's request first (from the case when the trajectory has none). */
function runOf(input: CheckInput): Trajectory {
  const t: Trajectory = input.trajectory ?? { source: 'plain', items: input.output ? [{ type: 'text', text: input.output, step: 0 }] : [], steps: 1 }
  if (t.items[0]?.type === 'user') return t
  return { ...t, items: [{ type: 'user', text: input.inputText }, ...t.items] }
}

export const goal: CheckDefinition = {
  name: 'goal',
  defaultThreshold: DEFAULT_JUDGE_THRESHOLD,
  optionKeys: ['criteria', 'threshold', 'judge', 'samples', 'lenient'],
  shorthands: { stringOption: 'criteria' },
  // A case's criteria are the goal when `goal` is listed: the generic `judge` is then not added for them.
  supersedes: ['judge'],
  appliesTo: (c, { options }) => options.criteria !== undefined || c.criteria !== undefined,
  async run(input, { key, threshold, options }) {
    const criteria = [options.criteria, input.c.criteria].filter((x): x is string => typeof x === 'string').join('\n')
    const spec = { ...judgeSpec(options, threshold), criteria }
    const call = prepareJudgeCall(spec, transcript(runOf(input)), { template: 'goal' }, failWith(`run the ${key} scorer`))
    return judgeResult(await runJudge(call), threshold)
  },
}
