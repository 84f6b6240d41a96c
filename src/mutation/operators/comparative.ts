/**
 * `comparative`: swaps one comparative, bound or direction for its opposite (`at least` ↔ `at most`,
 * `before` ↔ `after`, `more` ↔ `less`, `within 30 days` → `after 30 days`, `over $50` → `under $50`,
 * `western` → `eastern`). One swap per mutant; every other word stays.
 *
 * Hand-written: the pairs are a closed list of English words, which a table matches exactly.
 *
 * @module
 */
import type { MutationContext, MutationOperator } from '../types.js'
import { type Candidate, finish, hasAnswer, matchCase, matchesOf, splice, wordsPattern } from './shared.js'

/** Opposites; each pair works both ways unless listed in ONE_WAY. Multi-word entries win over their parts. */
const PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['at least', 'at most'],
  ['no later than', 'no earlier than'],
  ['or more', 'or less'],
  ['more than', 'less than'],
  ['up to', 'at least'],
  ['before', 'after'],
  ['more', 'less'],
  ['fewer', 'more'],
  ['minimum', 'maximum'],
  ['earliest', 'latest'],
  ['earlier', 'later'],
  ['higher', 'lower'],
  ['highest', 'lowest'],
  ['above', 'below'],
  ['increase', 'decrease'],
  ['increases', 'decreases'],
  ['increased', 'decreased'],
  ['first', 'last'],
  ['longer', 'shorter'],
  ['longest', 'shortest'],
  ['faster', 'slower'],
  ['fastest', 'slowest'],
  ['larger', 'smaller'],
  ['largest', 'smallest'],
  ['bigger', 'smaller'],
  ['biggest', 'smallest'],
  ['cheaper', 'more expensive'],
  ['cheapest', 'most expensive'],
  ['better', 'worse'],
  ['best', 'worst'],
  ['inside', 'outside'],
  ['include', 'exclude'],
  ['includes', 'excludes'],
  ['included', 'excluded'],
  ['east', 'west'],
  ['eastern', 'western'],
  ['north', 'south'],
  ['northern', 'southern'],
  ['always', 'sometimes'],
  ['all', 'some'],
  ['every', 'some'],
]
/** Pairs that only go one way (the reverse would read badly or is listed with another opposite). */
const ONE_WAY = new Set(['fewer', 'up to', 'bigger', 'biggest', 'always', 'all', 'every', 'more expensive', 'most expensive'])
const SWAP = new Map<string, string>()
for (const [a, b] of PAIRS) {
  if (!SWAP.has(a)) SWAP.set(a, b)
  if (!ONE_WAY.has(a) && !SWAP.has(b)) SWAP.set(b, a)
}
const SWAP_RE = wordsPattern(SWAP.keys())
/** Bounds that only read as bounds before an amount: `within 30 days` → `after 30 days`, `over $50` → `under $50`. */
const BOUND_RE = /(?<![\p{L}\p{N}])(within|over|under|until)(?=\s+(?:[$€£]?\d|a |an |one |two |three |the first ))/giu
const BOUND_SWAP: Record<string, string> = { within: 'after', over: 'under', under: 'over', until: 'after' }

function comparativeCandidates({ source }: MutationContext): Candidate[] {
  const text = source.text
  const found: Array<{ index: number; from: string; to: string }> = []
  for (const m of matchesOf(text, SWAP_RE)) {
    // `no longer` is a negation (the negation operator's), not a comparison.
    if (/\bno\s+$/i.test(text.slice(0, m.index ?? 0)) && /^longer$/i.test(m[0])) continue
    found.push({ index: m.index ?? 0, from: m[0], to: SWAP.get(m[0].toLowerCase()) as string })
  }
  for (const m of matchesOf(text, BOUND_RE)) found.push({ index: m.index ?? 0, from: m[0], to: BOUND_SWAP[m[0].toLowerCase()] as string })
  return found
    .sort((a, b) => a.index - b.index)
    .map(({ index, from, to }) => {
      const replaced = matchCase(from, to)
      return { text: splice(text, index, index + from.length, replaced), change: `${from} → ${replaced}` }
    })
}

/** `comparative`: one comparative or bound swapped (`at least` ↔ `at most`, `before` ↔ `after`, `within` → `after`). */
export const comparativeOperator: MutationOperator = {
  name: 'comparative',
  description: 'Swaps one comparative or bound: at least ↔ at most, before ↔ after, more ↔ less, within 30 days → after 30 days.',
  mutate: (context) => (hasAnswer(context) ? finish('comparative', context, comparativeCandidates(context)) : []),
}
