/**
 * The `refusal` check: unanswerable cases (`answerable: false`) must be refused, and answerable ones
 * (when `refusal` is listed) must not be. Phrase rules first; with `judge`, a judge decides what no rule
 * recognises.
 *
 * @module
 */
import { failWith } from '../judges/fail.js'
import { prepareJudgeCall, runJudge } from '../judges/run.js'
import type { JudgeLike } from '../judges/types.js'
import { detectRefusal } from '../refusal.js'
import { judgeDetail, result } from './shared.js'
import type { CheckDefinition } from './types.js'

export const refusal: CheckDefinition = {
  name: 'refusal',
  defaultThreshold: 1,
  optionKeys: ['judge', 'checkAnswerable'],
  shorthands: { noNumber: 'Pass { refusal: true } or an options object.' },
  appliesTo: (c, { options }) => c.answerable === false || options.checkAnswerable !== false,
  calledFor: (c) => c.answerable === false,
  async run({ output, c, inputText }, { key, threshold, options }) {
    const mustRefuse = c.answerable === false
    const match = detectRefusal(output)
    let refused = match.refused
    let detail = match.refused ? `refused (rule "${match.rule?.id}")` : 'no refusal phrase'
    const judgeOption = options.judge as boolean | JudgeLike | undefined
    if (!refused && judgeOption !== undefined && judgeOption !== false) {
      const spec: Record<string, unknown> = { input: inputText, ...(judgeOption === true ? {} : { judge: judgeOption }) }
      const verdict = await runJudge(prepareJudgeCall(spec, output, { template: 'refusal' }, failWith(`run the ${key} scorer`)))
      refused = verdict.pass
      detail = `judge: ${refused ? 'a refusal' : 'an answer'} (${judgeDetail(verdict)})`
    }
    const ok = refused === mustRefuse
    const why = mustRefuse ? `should refuse (answerable: false) but answered; ${detail}` : `refused an answerable question; ${detail}`
    return result(ok ? 1 : 0, threshold, ok ? undefined : why)
  },
}
