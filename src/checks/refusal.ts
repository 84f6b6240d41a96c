/**
 * The `refusal` check: unanswerable cases (`answerable: false`) must be refused, and answerable ones
 * (when `refusal` is listed) must not be. Phrase rules first; with `judge`, a judge decides what no rule
 * recognises.
 *
 * @module
 */
import { failWith } from '../errors.js'
import { prepareJudgeCall, runJudge } from '../judges/run.js'
import type { JudgeLike } from '../judges/types.js'
import { detectRefusal } from '../refusal.js'
import { describeValue } from '../errors.js'
import { fail, judgeDetail, result } from './shared.js'
import type { CheckDefinition } from './types.js'

export const refusal: CheckDefinition = {
  name: 'refusal',
  defaultThreshold: 1,
  optionKeys: ['judge', 'checkAnswerable', 'judgeFirst'],
  resolve({ key, threshold, options }) {
    if (options.judgeFirst !== undefined && typeof options.judgeFirst !== 'boolean')
      fail(`${key}.judgeFirst must be true or false, got ${describeValue(options.judgeFirst)}`, 'Pass { judge: true, judgeFirst: true }.')
    if (options.judgeFirst === true && (options.judge === undefined || options.judge === false))
      fail(`${key}.judgeFirst needs a judge`, 'Pass { judge: true, judgeFirst: true } (the configured judge) or { judge: <a judge>, judgeFirst: true }.')
    return threshold
  },
  shorthands: { noNumber: 'Pass { refusal: true } or an options object.' },
  appliesTo: (c, { options }) => c.answerable === false || options.checkAnswerable !== false,
  calledFor: (c) => c.answerable === false,
  async run({ output, c, inputText }, { key, threshold, options }) {
    const mustRefuse = c.answerable === false
    const match = detectRefusal(output)
    let refused = match.refused
    let detail = match.refused ? `refused (rule "${match.rule?.id}")` : 'no refusal phrase'
    const judgeOption = options.judge as boolean | JudgeLike | undefined
    // judgeFirst: the judge decides even when a phrase rule matched ("No, the context does not mention
    // PayPal" starts like a refusal but answers the question).
    if ((!refused || options.judgeFirst === true) && judgeOption !== undefined && judgeOption !== false) {
      const spec: Record<string, unknown> = { input: inputText, ...(judgeOption === true ? {} : { judge: judgeOption }) }
      const verdict = await runJudge(prepareJudgeCall(spec, output, { template: 'refusal' }, failWith(`run the ${key} scorer`)))
      refused = verdict.pass
      detail = `judge: ${refused ? 'a refusal' : 'an answer'}${match.refused ? ` (over rule "${match.rule?.id}")` : ''} (${judgeDetail(verdict)})`
    }
    const ok = refused === mustRefuse
    const why = mustRefuse ? `should refuse (answerable: false) but answered; ${detail}` : `refused an answerable question; ${detail}`
    return result(ok ? 1 : 0, threshold, ok ? undefined : why)
  },
}
