/**
 * `drop-clause`: removes the clause or phrase that carries the answer (`You can ask for a refund within 30
 * days of delivery.` → `You can ask for a refund.`), so the mutant is true-sounding but incomplete.
 *
 * A sentence is cut at punctuation, conjunctions (`and`, `but`, `because`, `if`, ...) and bounding
 * prepositions (`within`, `after`, `for`, `at`, ...); each piece after the first (and each sentence of a
 * text with several) is a candidate, scored by how much it says: numbers, names and the words that are rare
 * in the dataset (inverse document frequency). The mutants drop the highest-scoring pieces, key first.
 * Hand-written: the cut points are a closed list of English words, and the score needs the dataset, which
 * no general-purpose parser knows.
 *
 * @module
 */
import type { MutationContext, MutationOperator } from '../types.js'
import { type Candidate, contentWords, finish, hasAnswer, MAX_MUTANTS_PER_OPERATOR, perDataset, q, sentences, tidy, words } from './shared.js'

const CONJUNCTIONS = ['and', 'but', 'or', 'because', 'so', 'then', 'while', 'which', 'unless', 'although', 'if', 'when', 'once', 'where', 'since']
const PREPOSITIONS = ['within', 'after', 'before', 'until', 'for', 'from', 'at', 'on', 'in', 'with', 'by', 'to', 'without', 'during', 'except']
const CLAUSE_CUT = new RegExp(`\\s*[,;:—–]\\s*|\\s+-\\s+|\\s+(?=(?:${CONJUNCTIONS.join('|')})\\s)`, 'giu')
// Not inside a range (`5 to 10`).
const PHRASE_CUT = new RegExp(`(?<!\\d)\\s+(?=(?:${PREPOSITIONS.join('|')})\\s)`, 'giu')
/** A conjunction left at the start of a clause once the clause before it is gone: `; or VAT number` → `; VAT number`. */
const DANGLING = /(^|[;:.!?]\s+)(?:and|or|but|then|so)\s+/giu

interface Piece {
  start: number
  end: number
}

/** Pieces of `text` between the cut points (offsets into `text`, the separators left out). */
function cut(text: string, start: number, end: number, pattern: RegExp): Piece[] {
  const out: Piece[] = []
  const part = text.slice(start, end)
  let from = 0
  for (const m of part.matchAll(pattern)) {
    const i = m.index ?? 0
    if (i > from) out.push({ start: start + from, end: start + i })
    from = i + m[0].length
  }
  if (from < part.length) out.push({ start: start + from, end })
  return out
}

/** Pieces of fewer than two words joined to the next one (`not | when you place the order` is one piece). */
function joinShort(text: string, pieces: Piece[]): Piece[] {
  const out: Piece[] = []
  let pending: number | undefined
  for (const p of pieces) {
    const start = pending ?? p.start
    if (words(text.slice(start, p.end)).length < 2 && p !== pieces.at(-1)) {
      pending = start
      continue
    }
    out.push({ start, end: p.end })
    pending = undefined
  }
  return out
}

function clauseCandidates({ source, dataset }: MutationContext): Candidate[] {
  const text = source.text
  // Inverse document frequency of each word over the dataset's texts.
  const df = perDataset('clause:df', dataset, () => {
    const counts = new Map<string, number>()
    for (const s of dataset) for (const w of new Set(words(s.text))) counts.set(w, (counts.get(w) ?? 0) + 1)
    return counts
  })
  const idf = (w: string) => Math.log((dataset.length + 1) / ((df.get(w) ?? 0) + 0.5))
  const score = (piece: string) =>
    contentWords(piece).reduce((sum, w) => sum + idf(w), 0) +
    2 * (piece.match(/\d+(?:[.,]\d+)*/g)?.length ?? 0) +
    1.5 * (piece.slice(1).match(/(?<![.!?]\s)\b\p{Lu}\p{Ll}+/gu)?.length ?? 0)
  const total = words(text).length
  const scored: Array<{ text: string; change: string; score: number }> = []
  const tryDrop = (start: number, end: number) => {
    const dropped = text.slice(start, end)
    let rest = tidy(text.slice(0, start) + text.slice(end))
    if ((rest.match(DANGLING) ?? []).length > (text.match(DANGLING) ?? []).length) rest = rest.replace(DANGLING, '$1')
    const left = words(rest).length
    if (left < 3 || left < 0.4 * total) return
    scored.push({ text: rest.replace(/^\p{Ll}/u, (c) => c.toUpperCase()), change: `- ${q(dropped)}`, score: score(dropped) })
  }
  const all = sentences(text)
  for (const s of all) {
    if (all.length > 1) tryDrop(s.start, s.end)
    const body = s.text.replace(/[.!?]+$/, '')
    const bodyEnd = s.start + body.length
    const clauses = joinShort(text, cut(text, s.start, bodyEnd, CLAUSE_CUT))
    for (const clause of clauses.slice(1)) tryDrop(clause.start, clause.end)
    for (const clause of clauses) {
      const phrases = cut(text, clause.start, clause.end, PHRASE_CUT)
      // A phrase right after the clause's first word is part of the verb (`Sign in with ...`): not a cut.
      const [p0, p1] = phrases
      if (p0 && p1 && words(text.slice(p0.start, p0.end)).length < 2) phrases.splice(0, 2, { start: p0.start, end: p1.end })
      for (const phrase of phrases.slice(1)) {
        // Leave at least two words of the clause (`..., not when you place the order` does not become `..., not.`).
        if (words(text.slice(clause.start, phrase.start)).length + words(text.slice(phrase.end, clause.end)).length < 2) continue
        tryDrop(phrase.start, phrase.end)
        // The phrase together with the rest of its clause: `within 48 hours and we will send ...` stays whole above.
        if (phrase.end < clause.end) tryDrop(phrase.start, clause.end)
      }
    }
  }
  // Key first: the pieces that say the most; ties keep text order.
  return scored
    .map((c, i) => ({ ...c, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, MAX_MUTANTS_PER_OPERATOR * 2)
    .map(({ text: t, change }) => ({ text: t, change }))
}

/** `drop-clause`: the clause or phrase that carries the answer removed (`... a refund within 30 days.` → `... a refund.`). */
export const clauseOperator: MutationOperator = {
  name: 'drop-clause',
  description: 'Drops the clause or phrase that carries the answer: ask for a refund within 30 days → ask for a refund.',
  mutate: (context) => {
    if (!hasAnswer(context)) return []
    // The key pieces, not a random sample of them: keep the top ones after the rules drop duplicates.
    const ranked = clauseCandidates(context)
    return finish('drop-clause', context, ranked, Number.POSITIVE_INFINITY).slice(0, MAX_MUTANTS_PER_OPERATOR)
  },
}
