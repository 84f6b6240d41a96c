/**
 * Helpers shared by the built-in mutation operators: word-bounded matching, splicing a change into the
 * source (so every other character stays as it was), case matching, and the rules every mutant obeys
 * (not the source, not a whitespace, case or punctuation change of it, no duplicates).
 *
 * The operators are hand-written rules over the text rather than an NLP library: they only need to find
 * a few closed word classes (auxiliaries, bounds, units, numbers) and capitalised or quoted names, which
 * regular expressions do exactly and in microseconds, with no dependency to load. See
 * docs/mutation-operators.md for what each rule misses.
 *
 * @module
 */
import type { Mutant, MutationContext, MutationSource } from '../types.js'

/** The most mutants one operator makes from one source (picked with the seeded random when it has more). */
export const MAX_MUTANTS_PER_OPERATOR = 3

/** A character of a word: a Unicode letter or number. */
const WORD = '[\\p{L}\\p{N}]'
/** A regular expression matching one of `alternatives` as whole words (longest first), case-insensitive, global. */
export function wordsPattern(alternatives: Iterable<string>): RegExp {
  const sorted = [...new Set(alternatives)].sort((a, b) => b.length - a.length).map(escapeRegExp)
  return new RegExp(`(?<!${WORD})(?:${sorted.join('|')})(?!${WORD})`, 'giu')
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The text with `[start, end)` replaced. */
export function splice(text: string, start: number, end: number, replacement: string): string {
  return text.slice(0, start) + replacement + text.slice(end)
}

/** `replacement` written in the case of `original`: `Can` gives `Cannot`, `CAN` gives `CANNOT`. */
export function matchCase(original: string, replacement: string): string {
  if (replacement === '') return replacement
  const letters = original.replace(/[^\p{L}]/gu, '')
  if (letters.length > 1 && letters === letters.toUpperCase() && letters !== letters.toLowerCase()) return replacement.toUpperCase()
  const first = original.match(/\p{L}/u)?.[0]
  if (first !== undefined && first === first.toUpperCase() && first !== first.toLowerCase()) {
    return replacement.charAt(0).toUpperCase() + replacement.slice(1)
  }
  return replacement
}

export const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
export const uncapitalize = (s: string) => (/^\p{Lu}\p{Ll}/u.test(s) && !/^I\b/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s)

/**
 * What is left of a text once case, whitespace, punctuation and invisible format characters are ignored:
 * two texts with the same key differ only by those. Symbols stay (`$4.99` → `€4.99` is a real change).
 */
export function surfaceKey(text: string): string {
  return text.toLowerCase().replace(/[\s\p{P}\p{Cf}]+/gu, '')
}

/** A text cleaned after words were removed: single spaces, no space before punctuation, no doubled commas. */
export function tidy(text: string): string {
  return text
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/ +([,.;:!?])/g, '$1')
    .replace(/([,;:])(?:\s*[,;:])+/g, '$1')
    .replace(/^[\s,;:]+/, '')
    .replace(/[,;:]\s*([.!?])/g, '$1')
    .trim()
}

/** Lower-case words of a text (letters, digits, apostrophes inside words). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu) ?? []
}

/** Words that carry little meaning, left out of overlaps and key-content scores. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then so of to in on at by for with from as is are was were be been being it its this that these ' +
    'those there here i you he she we they me my your our their his her them us do does did can could will would should ' +
    'may might must have has had not no yes what which who whom how when where why all any some each every more most ' +
    'also just only very too than up out about into over after before under again further once own same such both few'
  ).split(' '),
)

/** Content words of a text (words minus stop words). */
export const contentWords = (text: string) => words(text).filter((w) => !STOPWORDS.has(w))

const contentSets = new Map<string, ReadonlySet<string>>()
/** The content words of a text as a set, remembered (a dataset's texts are compared with each other many times). */
function contentSet(text: string): ReadonlySet<string> {
  let set = contentSets.get(text)
  if (!set) {
    if (contentSets.size > 20_000) contentSets.clear()
    set = new Set(contentWords(text))
    contentSets.set(text, set)
  }
  return set
}

/**
 * A value computed once per dataset (and key) and remembered while the dataset lives: `generateMutants`
 * passes the same dataset array to every operator and case.
 */
export function perDataset<T>(key: string, dataset: readonly MutationSource[], compute: () => T): T {
  let entry = datasetCache.get(dataset)
  if (!entry) datasetCache.set(dataset, (entry = new Map()))
  if (!entry.has(key)) entry.set(key, compute())
  return entry.get(key) as T
}
const datasetCache = new WeakMap<readonly MutationSource[], Map<string, unknown>>()

/** Jaccard overlap of the content words of two texts, in [0, 1]. */
export function overlap(a: string, b: string): number {
  const x = contentSet(a)
  const y = contentSet(b)
  if (x.size === 0 || y.size === 0) return 0
  let both = 0
  for (const w of x) if (y.has(w)) both++
  return both / (x.size + y.size - both)
}

/** Quotes a piece of text for a `change` line, shortened. */
export function q(s: string, max = 48): string {
  const one = s.replace(/\s+/g, ' ').trim()
  return `"${one.length > max ? `${one.slice(0, max - 1)}…` : one}"`
}

/** The other cases of the dataset that have an answer to borrow: answerable, with a text, not the source. */
export function otherAnswers(context: MutationContext): MutationSource[] {
  const self = context.source
  return context.dataset.filter((s) => s.id !== self.id && !s.unanswerable && s.text.trim() !== '' && surfaceKey(s.text) !== surfaceKey(self.text))
}

/** A candidate before the rules: its text and what changed. */
export interface Candidate {
  text: string
  change: string
}

/**
 * The mutants of one operator from its candidates: drops those that are no real change of the source and
 * duplicates (same surface key), then keeps at most `max`, picked with the seeded random and listed in
 * the order the operator found them.
 */
export function finish(operator: string, context: MutationContext, candidates: readonly Candidate[], max = MAX_MUTANTS_PER_OPERATOR): Mutant[] {
  const seen = new Set<string>([surfaceKey(context.source.text)])
  const kept: Candidate[] = []
  for (const c of candidates) {
    const text = c.text.trim()
    const key = surfaceKey(text)
    if (text === '' || seen.has(key)) continue
    seen.add(key)
    kept.push({ text, change: c.change })
  }
  return sample(kept, max, context.random).map((c) => ({ operator, text: c.text, change: c.change }))
}

/** Up to `n` items, chosen with `random` without replacement, in their original order. */
export function sample<T>(items: readonly T[], n: number, random: () => number): T[] {
  if (items.length <= n) return [...items]
  const indexes = items.map((_, i) => i)
  for (let i = indexes.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[indexes[i], indexes[j]] = [indexes[j] as number, indexes[i] as number]
  }
  return indexes
    .slice(0, n)
    .sort((a, b) => a - b)
    .map((i) => items[i] as T)
}

/** One item chosen with `random`. */
export function choose<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T
}

/** Every match of a global pattern, with its index. */
export function matchesOf(text: string, pattern: RegExp): RegExpExecArray[] {
  pattern.lastIndex = 0
  return [...text.matchAll(pattern)]
}

/** Sentences of a text, with their offsets (split after `.`, `!`, `?` followed by a space or the end, and at line breaks). */
export function sentences(text: string): Array<{ text: string; start: number; end: number }> {
  const out: Array<{ text: string; start: number; end: number }> = []
  const push = (from: number, to: number) => {
    const raw = text.slice(from, to)
    const lead = raw.length - raw.trimStart().length
    const s = raw.trim()
    if (s !== '') out.push({ text: s, start: from + lead, end: from + lead + s.length })
  }
  let start = 0
  for (const m of text.matchAll(/[.!?]+(?=\s|$)|\n/g)) {
    const index = m.index ?? 0
    push(start, m[0] === '\n' ? index : index + m[0].length)
    start = index + m[0].length
  }
  push(start, text.length)
  return out
}

/** Whether the source has a text to mutate (answerable operators skip unanswerable cases and empty texts). */
export const hasAnswer = (context: MutationContext) => !context.source.unanswerable && context.source.text.trim() !== ''
