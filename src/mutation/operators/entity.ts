/**
 * `swap-entity`: replaces a name in the answer with another name of the same kind found in the other
 * cases of the dataset, so the wrong answer talks about a real product, place or plan of the domain.
 * Two kinds of names are found:
 *
 * - proper names and labels: capitalised words inside a sentence (`the Orders page`, `Jupiter`, `VAT`)
 *   and quoted labels (`"Forgot password"`); a capitalised word that starts a sentence counts only when
 *   the dataset also writes it capitalised inside a sentence;
 * - variants of one thing: the modifier of a head word that the dataset uses with several modifiers
 *   (`standard shipping` / `express shipping`, `Orders page` / `sign-in page`).
 *
 * Hand-written rather than a named-entity tagger (compromise): the rules read the dataset itself, which
 * is where the names worth swapping come from (plan and page names that no general-purpose tagger knows),
 * and they cost nothing to load. Every occurrence of the swapped name changes, nothing else.
 *
 * @module
 */
import type { MutationContext, MutationOperator, MutationSource } from '../types.js'
import { type Candidate, choose, escapeRegExp, finish, hasAnswer, matchCase, matchesOf, perDataset, STOPWORDS, sentences } from './shared.js'

interface Name {
  text: string
  kind: 'quoted' | 'proper'
  /** Followed by a lower-case word: part of a compound (`Orders page`, `VAT number`), not a name on its own (`Jupiter`). */
  compound: boolean
}

const QUOTED = /["“]([^"”\n]{2,40})["”]/gu
const PROPER = /(?<![\p{L}\p{N}'’-])\p{Lu}[\p{L}\p{N}'’&-]*(?:\s\p{Lu}[\p{L}\p{N}'’&-]*)*/gu
const NOT_NAMES = new Set(['I', "I'm", 'I’m', "I'll", "I've", "I'd", 'OK'])

/** The offsets where sentences start (and where a quote opens), where a capital says nothing. */
function sentenceStarts(text: string): Set<number> {
  const starts = new Set(sentences(text).map((s) => s.start))
  for (const m of text.matchAll(/["“(]\s*/g)) starts.add((m.index ?? 0) + m[0].length)
  return starts
}

/** The capitalised words that the texts write capitalised inside a sentence. */
function capitalisedInside(texts: readonly string[]): Set<string> {
  const out = new Set<string>()
  for (const text of texts) {
    const starts = sentenceStarts(text)
    for (const m of text.matchAll(/(?<![\p{L}\p{N}'’-])\p{Lu}[\p{L}\p{N}'’&-]*/gu)) if (!starts.has(m.index ?? 0)) out.add(m[0])
  }
  return out
}

/** The names of one text: quoted labels, then capitalised runs (a sentence-initial word only when `inside` has it). */
function namesOf(text: string, inside: ReadonlySet<string>): Name[] {
  const out: Name[] = []
  const quotedSpans: Array<[number, number]> = []
  for (const m of matchesOf(text, QUOTED)) {
    out.push({ text: m[1] as string, kind: 'quoted', compound: false })
    quotedSpans.push([m.index ?? 0, (m.index ?? 0) + m[0].length])
  }
  const starts = sentenceStarts(text)
  for (const m of matchesOf(text, PROPER)) {
    const index = m.index ?? 0
    if (quotedSpans.some(([s, e]) => index >= s && index < e)) continue
    let parts = m[0].split(' ')
    if (starts.has(index) && !inside.has(parts[0] as string)) parts = parts.slice(1)
    const name = parts.join(' ').replace(/['’]s$/, '')
    if (name === '' || NOT_NAMES.has(name) || STOPWORDS.has(name.toLowerCase())) continue
    const after = text.slice(index + m[0].length)
    out.push({ text: name, kind: 'proper', compound: /^ \p{Ll}/u.test(after) })
  }
  return out
}

/** Words with inner hyphens and apostrophes kept, with their offsets. */
function tokens(text: string): Array<{ word: string; index: number }> {
  return [...text.matchAll(/[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu)].map((m) => ({ word: m[0], index: m.index ?? 0 }))
}

const isModifier = (w: string) => !STOPWORDS.has(w) && !/\d/.test(w) && w.length > 2
/** Words that are no head of a name (`refund within` is not a kind of `within`). */
const NOT_HEADS = new Set(
  [
    'within after before until during without through across off back again then instead already still never always',
    'about above below under between among per via while',
  ]
    .join(' ')
    .split(' '),
)
/** Consecutive words of a text: only a single space between them (no punctuation). */
function pairs(text: string): Array<[{ word: string; index: number }, { word: string; index: number }]> {
  const t = tokens(text)
  const out: Array<[{ word: string; index: number }, { word: string; index: number }]> = []
  for (let i = 0; i + 1 < t.length; i++) {
    const a = t[i] as { word: string; index: number }
    const b = t[i + 1] as { word: string; index: number }
    if (text.slice(a.index + a.word.length, b.index) === ' ') out.push([a, b])
  }
  return out
}
const isHead = (w: string) => !STOPWORDS.has(w) && !NOT_HEADS.has(w) && !/\d/.test(w) && w.length > 2

/** Head word → the modifiers the dataset puts before it (lower case), from texts and inputs. */
function modifiersByHead(dataset: readonly MutationSource[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  for (const s of dataset) {
    for (const text of [s.text, s.input]) {
      for (const [a, b] of pairs(text)) {
        const mod = a.word.toLowerCase()
        const head = b.word.toLowerCase()
        if (!isModifier(mod) || !isHead(head)) continue
        let set = out.get(head)
        if (!set) out.set(head, (set = new Set()))
        set.add(mod)
      }
    }
  }
  return out
}

function entityCandidates({ source, dataset, random }: MutationContext): Candidate[] {
  const text = source.text
  const lower = text.toLowerCase()
  const others = dataset.filter((s) => s.id !== source.id)
  const inside = perDataset('entity:inside', dataset, () => capitalisedInside([...dataset.map((s) => s.text), ...dataset.map((s) => s.input)]))
  const names = perDataset('entity:names', dataset, () => new Map(dataset.map((s) => [s.id, namesOf(s.text, inside)])))
  const out: Candidate[] = []

  // Proper names and labels: swapped with a name of another case (same kind first) that this text lacks.
  const pool: Name[] = []
  const pooled = new Set<string>()
  for (const s of others) {
    for (const n of names.get(s.id) ?? []) {
      if (pooled.has(n.text) || lower.includes(n.text.toLowerCase())) continue
      pooled.add(n.text)
      pool.push(n)
    }
  }
  const own = namesOf(text, inside).filter((n, i, all) => all.findIndex((x) => x.text === n.text) === i)
  for (const name of own) {
    if (pool.length === 0) continue
    // The closest kind of name first: same kind, same use (a name on its own or in a compound), same length.
    const length = name.text.split(' ').length
    const tiers = [
      pool.filter((p) => p.kind === name.kind && p.compound === name.compound && p.text.split(' ').length === length),
      pool.filter((p) => p.kind === name.kind && p.compound === name.compound),
      pool.filter((p) => p.kind === name.kind),
      pool,
    ]
    const other = choose(tiers.find((t) => t.length > 0) as Name[], random)
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name.text)}(?![\\p{L}\\p{N}])`, 'gu')
    out.push({ text: text.replace(pattern, other.text), change: `${name.text} → ${other.text}` })
  }

  // Variants: `standard shipping` → `express shipping` when the dataset has both modifiers of `shipping`.
  const heads = perDataset('entity:heads', dataset, () => modifiersByHead(dataset))
  for (const [mod, next] of pairs(text)) {
    const head = next.word.toLowerCase()
    const modLower = mod.word.toLowerCase()
    if (!isModifier(modLower) || own.some((n) => n.text.includes(mod.word))) continue
    const alternatives = [...(heads.get(head) ?? [])].filter((m) => m !== modLower && !lower.includes(`${m} ${head}`))
    if (alternatives.length === 0) continue
    const replacement = matchCase(mod.word, choose(alternatives.sort(), random))
    out.push({
      text: text.slice(0, mod.index) + replacement + text.slice(mod.index + mod.word.length),
      change: `${mod.word} ${next.word} → ${replacement} ${next.word}`,
    })
  }
  return out
}

/** `swap-entity`: a name swapped for another name of the dataset (`Orders page` → `sign-in page`, `Jupiter` → `Mars`). */
export const entityOperator: MutationOperator = {
  name: 'swap-entity',
  description: 'Swaps a name for another one found in the dataset: Jupiter → Mars, standard shipping → express shipping.',
  mutate: (context) => (hasAnswer(context) ? finish('swap-entity', context, entityCandidates(context)) : []),
}
