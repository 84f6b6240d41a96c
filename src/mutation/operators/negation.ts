/**
 * `negation`: flips the polarity of one statement. Adds a negation after an auxiliary (`can` → `cannot`,
 * `is` → `is not`, `has` → `does not have`), removes one (`cannot` → `can`, `doesn't` → `does`, `Do not
 * send` → `Send`, `no longer` → `still`, `never` → `always`, `without` → `with`), or turns a leading
 * `No.` into `Yes.` and back. Every other word stays: the mutant is the classic keyword-check trap
 * ("refunds within 30 days" vs "refunds are not possible within 30 days").
 *
 * Main verbs without an auxiliary are negated from two lists: common verbs in the third person
 * (`Shipping takes 3 days` → `Shipping does not take 3 days`) and common imperatives that start a sentence
 * (`Send us a photo` → `Do not send us a photo`).
 *
 * Hand-written rules rather than compromise (the well-kept English tagger), measured on the 15 answers
 * of the support-bot golden set: compromise 14.x takes 2.2 s to import and 2.8 s to negate them (these
 * rules: a few ms with no dependency), and besides the main verbs these lists cover it makes mistakes a
 * wrong answer must not have (`Click did not "Forget password"`, `Does not Sign in with ...`). Auxiliaries,
 * negators and the common support verbs are closed lists that a table matches exactly.
 *
 * @module
 */
import type { MutationContext, MutationOperator } from '../types.js'
import { type Candidate, finish, hasAnswer, matchCase, matchesOf, splice } from './shared.js'

const APOSTROPHE = "['’]"
/** Contracted negations and what removing the negation gives. */
const CONTRACTED: Record<string, string> = {
  "can't": 'can',
  "won't": 'will',
  "isn't": 'is',
  "aren't": 'are',
  "wasn't": 'was',
  "weren't": 'were',
  "doesn't": 'does',
  "don't": 'do',
  "didn't": 'did',
  "couldn't": 'could',
  "shouldn't": 'should',
  "wouldn't": 'would',
  "hasn't": 'has',
  "haven't": 'have',
  "hadn't": 'had',
  "mustn't": 'must',
}
const AUXILIARIES = ['can', 'could', 'will', 'would', 'should', 'must', 'may', 'might', 'is', 'are', 'was', 'were', 'has', 'have', 'had', 'does', 'do', 'did']
/** After these words `has`/`have`/`had` is the main verb (`has a`, `have to`): negated with `does not have`. */
const MAIN_HAVE_NEXT = new Set([
  'a',
  'an',
  'the',
  'to',
  'no',
  'any',
  'some',
  'one',
  'your',
  'our',
  'their',
  'his',
  'her',
  'its',
  'my',
  'this',
  'that',
  'these',
  'those',
])
const HAVE_NEGATED: Record<string, string> = { has: 'does not have', have: 'do not have', had: 'did not have' }
/** Words after an auxiliary that make it a question or already negative: no negation is added there. */
const SKIP_NEXT = new Set(['not', 'never', 'no', 'nothing', 'i', 'you', 'we', 'they', 'he', 'she', 'it', 'there'])

const W = '[\\p{L}\\p{N}]'
const word = (alternatives: string) => new RegExp(`(?<!${W})(?:${alternatives})(?!${W})`, 'giu')
const CONTRACTED_RE = word(
  Object.keys(CONTRACTED)
    .map((k) => k.replace("'", APOSTROPHE))
    .join('|'),
)
const CANNOT_RE = word('cannot|can not')
const DO_NOT_START_RE = /(?<=^|[.!?]\s+|\n)(?:do not|don['’]t|never)\s+(?=\p{L})/giu
const AUX_NOT_RE = word(`(?:${AUXILIARIES.join('|')}) not`)
const SWAPS: Array<[RegExp, string]> = [
  [word('no longer'), 'still'],
  [word('never'), 'always'],
  [word('without'), 'with'],
  [word('nothing'), 'something'],
]
const NOT_RE = word('not')
/** Common verbs in the third person singular, negated with `does not` (`takes` → `does not take`). */
const THIRD_PERSON = (
  'takes costs goes covers ships arrives includes requires needs offers charges applies lasts expires starts gives accepts supports ' +
  'allows contains comes runs leaves sends gets pays keeps stays opens closes delivers varies depends adds removes replaces protects ' +
  'moves follows orbits reaches becomes'
).split(' ')
// After a word that is not a determiner or preposition (`the costs`, `of charges` are nouns), and not followed
// by a verb (`shipping costs are` is a noun too).
const NOT_BEFORE_VERB = 'the|a|an|your|our|my|their|his|her|its|this|that|these|those|free|no|all|any|some|of|for|in|on|with|and|or|extra|total'
const THIRD_PERSON_RE = new RegExp(
  `(?<=(?<![\\p{L}'’])(?!(?:${NOT_BEFORE_VERB})\\s)\\p{L}+,?\\s)(?:${THIRD_PERSON.join('|')})(?!${W})` +
    '(?!\\s+(?:are|is|was|were|will|can|could|may|might|must|should|would|have|has|had|do|does|did)\\b)',
  'giu',
)
const baseForm = (verb: string) => (/ies$/.test(verb) ? `${verb.slice(0, -3)}y` : /(?:ss|sh|ch|x|z|o)es$/.test(verb) ? verb.slice(0, -2) : verb.slice(0, -1))
/** Common imperatives that start a sentence, negated with `Do not` (`Send us a photo` → `Do not send us a photo`). */
const IMPERATIVES = (
  'start send click sign print pack drop contact call email go add open use select choose enter follow return keep make take check ' +
  'visit log reset update change cancel pay order remove delete install set turn press tap type bring put wait ask read try stir ' +
  'bake boil heat preheat mix pour serve store apply'
).split(' ')
const IMPERATIVE_RE = new RegExp(`(?<=^|[.!?]\\s+|\\n)(?:${IMPERATIVES.join('|')})(?=\\s)`, 'giu')
const YES_NO_RE = /(?<=^|[.!?]\s+|\n)(yes|no)(?=[.,!;]|\s*$)/giu
const AUX_RE = new RegExp(`(?<!${W}|['’])(${AUXILIARIES.join('|')})\\s+(${W}+)`, 'giu')

interface Edit {
  start: number
  end: number
  replacement: string
}

function negationCandidates({ source }: MutationContext): Candidate[] {
  const text = source.text
  const edits: Edit[] = []
  const taken: Array<[number, number]> = []
  const add = (start: number, end: number, replacement: string) => {
    if (taken.some(([s, e]) => start < e && end > s)) return
    taken.push([start, end])
    edits.push({ start, end, replacement })
  }
  // Removals first, so that `can not` is not also read as `can` to negate.
  for (const m of matchesOf(text, CONTRACTED_RE)) {
    const base = CONTRACTED[m[0].toLowerCase().replace('’', "'")] as string
    add(m.index ?? 0, (m.index ?? 0) + m[0].length, matchCase(m[0], base))
  }
  for (const m of matchesOf(text, CANNOT_RE)) add(m.index ?? 0, (m.index ?? 0) + m[0].length, matchCase(m[0], 'can'))
  for (const m of matchesOf(text, DO_NOT_START_RE)) {
    const start = m.index ?? 0
    const end = start + m[0].length
    // `Do not send` → `Send`: the next word takes the capital.
    const next = text.slice(end).match(/^\p{L}+/u)?.[0] ?? ''
    const upper = /^\p{Lu}/u.test(m[0])
    add(start, end + next.length, upper ? next.charAt(0).toUpperCase() + next.slice(1) : next)
  }
  for (const m of matchesOf(text, AUX_NOT_RE)) add(m.index ?? 0, (m.index ?? 0) + m[0].length, m[0].replace(/\s+not$/i, ''))
  for (const [re, replacement] of SWAPS) for (const m of matchesOf(text, re)) add(m.index ?? 0, (m.index ?? 0) + m[0].length, matchCase(m[0], replacement))
  for (const m of matchesOf(text, NOT_RE)) add(m.index ?? 0, (m.index ?? 0) + m[0].length + (text[(m.index ?? 0) + 3] === ' ' ? 1 : 0), '')
  for (const m of matchesOf(text, YES_NO_RE)) add(m.index ?? 0, (m.index ?? 0) + m[0].length, matchCase(m[0], m[0].toLowerCase() === 'yes' ? 'no' : 'yes'))
  // Then negations added after an auxiliary.
  for (const m of matchesOf(text, AUX_RE)) {
    const [, aux = '', next = ''] = m
    if (SKIP_NEXT.has(next.toLowerCase()) || /^n['’]?t$/i.test(next)) continue
    const start = m.index ?? 0
    const lower = aux.toLowerCase()
    const negated = lower === 'can' ? 'cannot' : HAVE_NEGATED[lower] && MAIN_HAVE_NEXT.has(next.toLowerCase()) ? HAVE_NEGATED[lower] : `${lower} not`
    add(start, start + aux.length, matchCase(aux, negated))
  }
  // Main verbs: the third person after a word (`Shipping takes` → `Shipping does not take`), imperatives.
  for (const m of matchesOf(text, THIRD_PERSON_RE)) add(m.index ?? 0, (m.index ?? 0) + m[0].length, `does not ${baseForm(m[0])}`)
  for (const m of matchesOf(text, IMPERATIVE_RE)) add(m.index ?? 0, (m.index ?? 0) + m[0].length, `${matchCase(m[0], 'do not')} ${m[0].toLowerCase()}`)
  return edits
    .sort((a, b) => a.start - b.start)
    .map((e) => {
      const before = text.slice(e.start, e.end)
      const mutated = splice(text, e.start, e.end, e.replacement).replace(/ {2,}/g, ' ')
      return { text: mutated, change: `${before.trim()} → ${e.replacement.trim() === '' ? '(removed)' : e.replacement.trim()}` }
    })
}

/** `negation`: one statement's polarity flipped (`can` → `cannot`, `is` → `is not`, `cannot` → `can`, `No.` → `Yes.`). */
export const negationOperator: MutationOperator = {
  name: 'negation',
  description: 'Flips one negation: can → cannot, is → is not, cannot → can, do not send → send, never → always, No. → Yes.',
  mutate: (context) => (hasAnswer(context) ? finish('negation', context, negationCandidates(context)) : []),
}
