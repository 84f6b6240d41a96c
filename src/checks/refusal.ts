/**
 * The `refusal` check: unanswerable cases (`answerable: false`) must be refused, and answerable ones
 * (when `refusal` is listed) must not be. Phrase rules first; with `judge`, a judge decides what no rule
 * recognises, and with `judgeFirst` it decides even when a rule matched. `toRefuse` runs this check on
 * a case that must be refused.
 *
 * @module
 */
import { describeValue } from '../errors.js'
import { prepareJudgeCall, runJudge, type JudgeVerdict } from '../judges/run.js'
import type { JudgeLike } from '../judges/types.js'
import { detectRefusal, type RefusalMatch } from '../refusal.js'
import { judgeDetail, result, runFail } from './shared.js'
import type { CheckDefinition } from './types.js'

/** What the refusal check keeps as `data`: the phrase rule's match, the judge's verdict (when asked), and the decision. */
export interface RefusalData {
  match: RefusalMatch
  verdict?: JudgeVerdict
  refused: boolean
}

export const refusal: CheckDefinition = {
  name: 'refusal',
  defaultThreshold: 1,
  // threshold: the judge's (a normalized judge score; the check's own score is 0 or 1).
  optionKeys: ['judge', 'threshold', 'judgeFirst', 'checkAnswerable'],
  resolve({ threshold, options }, _raw, { fail, prefix }) {
    const judge = options.judge
    if (judge !== undefined && typeof judge !== 'boolean' && (judge === null || (typeof judge !== 'object' && typeof judge !== 'function')))
      fail(`"${prefix}judge" must be true/false or a judge, got ${describeValue(judge)}`, 'Pass { judge: true } to use the configured judge.')
    if (options.judgeFirst !== undefined && typeof options.judgeFirst !== 'boolean')
      fail(`${prefix}judgeFirst must be true or false, got ${describeValue(options.judgeFirst)}`, 'Pass { judge: true, judgeFirst: true }.')
    if (options.judgeFirst === true && (judge === undefined || judge === false))
      fail(`${prefix}judgeFirst needs a judge`, 'Pass { judge: true, judgeFirst: true } (the configured judge) or { judge: <a judge>, judgeFirst: true }.')
    return threshold
  },
  shorthands: { noNumber: 'Pass { refusal: true } or an options object.' },
  appliesTo: (c, { options }) => c.answerable === false || options.checkAnswerable !== false,
  calledFor: (c) => c.answerable === false,
  async run({ output, c, inputText }, plan) {
    const { threshold, options } = plan
    const mustRefuse = c.answerable === false
    const match = detectRefusal(output)
    let refused = match.refused
    let verdict: JudgeVerdict | undefined
    let detail = match.refused ? `refused (rule "${match.rule?.id}")` : 'no refusal phrase'
    const judgeOption = options.judge as boolean | JudgeLike | undefined
    // judgeFirst: the judge decides even when a phrase rule matched ("No, the context does not mention
    // PayPal" starts like a refusal but answers the question).
    if ((!refused || options.judgeFirst === true) && judgeOption !== undefined && judgeOption !== false) {
      const spec: Record<string, unknown> = {
        ...(c.input !== undefined ? { input: inputText } : {}),
        ...(options.threshold !== undefined ? { threshold: options.threshold } : {}),
        ...(judgeOption === true ? {} : { judge: judgeOption }),
      }
      verdict = await runJudge(prepareJudgeCall(spec, output, { template: 'refusal' }, runFail(plan)))
      refused = verdict.pass
      detail = `judge: ${refused ? 'a refusal' : 'an answer'}${match.refused ? ` (over rule "${match.rule?.id}")` : ''} (${judgeDetail(verdict)})`
    }
    const ok = refused === mustRefuse
    const why = mustRefuse ? `should refuse (answerable: false) but answered; ${detail}` : `refused an answerable question; ${detail}`
    const data: RefusalData = { match, refused, ...(verdict ? { verdict } : {}) }
    return result(ok ? 1 : 0, threshold, ok ? undefined : why, undefined, data)
  },
}
