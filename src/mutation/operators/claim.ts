/**
 * `add-claim`: keeps the whole answer and adds a claim that nothing in the case supports, made from the
 * dataset's own vocabulary so that it sounds like the domain: a clause of a related case (the cases that
 * share the most words with this one), with its numbers changed when it has any, so that the claim is
 * not even true of the other case. `Standard shipping costs $4.99.` → `Standard shipping costs $4.99.
 * Express shipping takes 2 to 2 business days.` A lexical check sees every expected word (and more).
 *
 * @module
 */
import type { MutationContext, MutationOperator } from '../types.js'
import { numberOperator } from './number.js'
import { type Candidate, capitalize, finish, hasAnswer, otherAnswers, overlap, q, sentences, surfaceKey, words } from './shared.js'

/** The first clause of each sentence of a text (up to a `;` or `, but`), 3 to 16 words. */
function clausesOf(text: string): string[] {
  return sentences(text)
    .map((s) => s.text.split(/\s*;\s*|,\s+but\s+/)[0]?.replace(/[.!?,:]+$/, '') ?? '')
    .filter((c) => {
      const n = words(c).length
      return n >= 3 && n <= 16
    })
}

function claimCandidates(context: MutationContext): Candidate[] {
  const { source, random } = context
  const text = source.text.trim()
  const joined = /[.!?]$/.test(text) ? text : `${text}.`
  const related = otherAnswers(context)
    .map((s, i) => ({ s, score: overlap(source.text, s.text) + overlap(source.input, s.input) / 2, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, 5)
  const out: Candidate[] = []
  for (const { s } of related) {
    for (const clause of clausesOf(s.text)) {
      if (surfaceKey(text).includes(surfaceKey(clause))) continue
      // A number in the claim is changed (with this operator's random), so no case supports it.
      const clauseSource = { ...s, text: clause }
      const changed = numberOperator.mutate({ source: clauseSource, dataset: [clauseSource], random })[0]?.text ?? clause
      const claim = `${capitalize(changed)}.`
      out.push({ text: `${joined} ${claim}`, change: `+ ${q(claim, 60)}` })
      break
    }
  }
  return out
}

/** `add-claim`: the answer kept whole, plus a claim from the dataset's vocabulary that nothing supports. */
export const claimOperator: MutationOperator = {
  name: 'add-claim',
  description: 'Adds an unsupported claim built from a related case: a clause of it, its numbers changed.',
  mutate: (context) => (hasAnswer(context) ? finish('add-claim', context, claimCandidates(context), 2) : []),
}
