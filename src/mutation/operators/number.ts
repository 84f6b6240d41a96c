/**
 * Numbers and units: `number` changes one quantity (`30 days` → `60 days`, `$4.99` → `$9.98`, `15%` →
 * `30%`, `two` → `four`), `unit` changes the unit of one quantity (`30 days` → `30 weeks`, `48 hours` →
 * `48 days`, `5 km` → `5 miles`). Each mutant changes one place and keeps every other character.
 *
 * @module
 */
import type { MutationContext, MutationOperator } from '../types.js'
import { type Candidate, choose, finish, hasAnswer, matchCase, matchesOf, splice, wordsPattern } from './shared.js'

/** A number in digits, with an optional currency sign before and percent sign after: `$1,500.00`, `30`, `15 %`. */
const NUMBER = /(?<![\p{L}\p{N}.,:/-])([$€£¥]\s?)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\p{L}\p{N}]|[.,:/-]\d)(\s?%)?/gu

/** A time of day: `23:40`. */
const TIME = /(?<![\p{L}\p{N}:.])([01]?\d|2[0-3]):([0-5]\d)(?![\p{L}\p{N}]|:\d)/gu

const NUMBER_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'] as const
/** `two` → `four`: twice the number when it has a word, else one more. */
const WORD_CHANGE: Record<string, string> = Object.fromEntries(
  NUMBER_WORDS.map((w, i) => [w, NUMBER_WORDS[2 * (i + 1) - 1] ?? NUMBER_WORDS[i + 1] ?? 'twenty']),
)
// `twice` but not `once`, which is more often a conjunction (`once an order has shipped`).
WORD_CHANGE.twice = 'three times'
const NUMBER_WORD = wordsPattern(Object.keys(WORD_CHANGE))

/** Another value for `n`: twice, half (when whole), or ten times, chosen by the seed; years move by one. */
function otherValue(
  n: number,
  decimals: number,
  percent: boolean,
  random: () => number,
  avoid: ReadonlySet<number>,
  range: [number, number],
): number | undefined {
  if (n === 0) return 1
  if (decimals === 0 && n >= 1900 && n <= 2100) return random() < 0.5 ? n - 1 : n + 1
  if (percent && n <= 100) return n * 2 <= 100 ? n * 2 : n / 2
  const options = [n * 2]
  if (decimals > 0 || (n % 2 === 0 && n >= 2)) options.push(n / 2)
  if (n < 100) options.push(n * 10)
  if (range[0] !== Number.NEGATIVE_INFINITY || range[1] !== Number.POSITIVE_INFINITY) options.push(n + 1, n - 1)
  // Not another number of the text (`5 to 10` → `10 to 10` reads as a typo, not a wrong answer).
  // In a range (`5 to 10`) the low end stays below the high end: `70 to 14` reads as a typo.
  const fresh = options.filter((v) => !avoid.has(v) && v > range[0] && v < range[1])
  return fresh.length > 0 ? choose(fresh, random) : undefined
}

function formatLike(value: number, digits: string, decimals: string | undefined): string {
  const places = decimals ? decimals.length - 1 : 0
  const fixed = value.toFixed(places)
  if (!digits.includes(',')) return fixed
  const [whole, fraction] = fixed.split('.') as [string, string | undefined]
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return fraction === undefined ? grouped : `${grouped}.${fraction}`
}

function numberCandidates({ source, random }: MutationContext): Candidate[] {
  const text = source.text
  const out: Candidate[] = []
  const present = new Set(matchesOf(text, NUMBER).map((m) => Number((m[2] ?? '').replace(/,/g, '') + (m[3] ?? ''))))
  for (const m of matchesOf(text, NUMBER)) {
    const [whole, currency = '', digits = '', decimals, percent = ''] = m
    const value = Number(digits.replace(/,/g, '') + (decimals ?? ''))
    if (!Number.isFinite(value)) continue
    const index = m.index ?? 0
    const before = text.slice(0, index).match(/(\d+(?:\.\d+)?)\s*(?:to|-|–)\s*$/)
    const after = text.slice(index + whole.length).match(/^\s*(?:to|-|–)\s*[$€£]?(\d+(?:\.\d+)?)/)
    const range: [number, number] = [before ? Number(before[1]) : Number.NEGATIVE_INFINITY, after ? Number(after[1]) : Number.POSITIVE_INFINITY]
    const next = otherValue(value, decimals ? decimals.length - 1 : 0, percent !== '', random, present, range)
    if (next === undefined || next < 0) continue
    const replaced = `${currency}${formatLike(next, digits, decimals)}${percent}`
    out.push({ text: splice(text, index, index + whole.length, replaced), change: `${whole.trim()} → ${replaced.trim()}` })
  }
  for (const m of matchesOf(text, TIME)) {
    const [whole, hours = '', minutes = ''] = m
    const replaced = `${String((Number(hours) + 1 + Math.floor(random() * 3)) % 24).padStart(hours.length, '0')}:${minutes}`
    const index = m.index ?? 0
    out.push({ text: splice(text, index, index + whole.length, replaced), change: `${whole} → ${replaced}` })
  }
  for (const m of matchesOf(text, NUMBER_WORD)) {
    const word = m[0]
    const replaced = matchCase(word, WORD_CHANGE[word.toLowerCase()] as string)
    const index = m.index ?? 0
    out.push({ text: splice(text, index, index + word.length, replaced), change: `${word} → ${replaced}` })
  }
  return out.sort((a, b) => firstDifference(text, a.text) - firstDifference(text, b.text))
}

const firstDifference = (a: string, b: string) => {
  let i = 0
  while (i < a.length && a[i] === b[i]) i++
  return i
}

/** Units after a number: each goes to the next of its ladder (the last one back to the one before). */
const UNIT_LADDERS: ReadonlyArray<ReadonlyArray<readonly [string, string]>> = [
  [
    ['second', 'seconds'],
    ['minute', 'minutes'],
    ['hour', 'hours'],
    ['day', 'days'],
    ['week', 'weeks'],
    ['month', 'months'],
    ['year', 'years'],
  ],
  [
    ['mm', 'mm'],
    ['cm', 'cm'],
    ['m', 'm'],
    ['km', 'km'],
  ],
  [
    ['km', 'km'],
    ['mile', 'miles'],
  ],
  [
    ['mg', 'mg'],
    ['g', 'g'],
    ['kg', 'kg'],
  ],
  [
    ['ml', 'ml'],
    ['litre', 'litres'],
  ],
  [
    ['KB', 'KB'],
    ['MB', 'MB'],
    ['GB', 'GB'],
    ['TB', 'TB'],
  ],
  [
    ['°C', '°C'],
    ['°F', '°F'],
  ],
  [
    ['daily', 'daily'],
    ['weekly', 'weekly'],
    ['monthly', 'monthly'],
    ['yearly', 'yearly'],
  ],
]
/** Each unit form → the form that replaces it (singular stays singular). */
const UNIT_CHANGE = new Map<string, string>()
for (const ladder of UNIT_LADDERS) {
  ladder.forEach(([one, many], i) => {
    const next = ladder[i + 1] ?? ladder[i - 1]
    if (!next) return
    if (!UNIT_CHANGE.has(one.toLowerCase())) UNIT_CHANGE.set(one.toLowerCase(), next[0])
    if (!UNIT_CHANGE.has(many.toLowerCase())) UNIT_CHANGE.set(many.toLowerCase(), next[1])
  })
}
const AMOUNT = `(?:\\d[\\d,.]*\\s?|(?<![\\p{L}\\p{N}])(?:${Object.keys(WORD_CHANGE).join('|')}|a|an|several|few)\\s)`
/** A number, optional qualifiers (`5 business days`, `30 calendar days`, `2 full weeks`), then the unit. */
const UNIT = new RegExp(
  `(?<=${AMOUNT}(?:(?:business|calendar|working|full|more|extra|additional)\\s)?)(${[...UNIT_CHANGE.keys()]
    .sort((a, b) => b.length - a.length)
    .map((u) => u.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')})(?![\\p{L}\\p{N}])`,
  'giu',
)
/** Frequencies stand alone: `monthly installments`, `billed yearly`. */
const FREQUENCY = wordsPattern(['daily', 'weekly', 'monthly', 'yearly'])
/** Currency signs before an amount. */
const CURRENCY = /[$€£](?=\s?\d)/g
const CURRENCY_CHANGE: Record<string, string> = { $: '€', '€': '$', '£': '€' }

function unitCandidates({ source }: MutationContext): Candidate[] {
  const text = source.text
  const out: Candidate[] = []
  const seen = new Set<number>()
  const add = (index: number, found: string, replacement: string) => {
    if (seen.has(index)) return
    seen.add(index)
    out.push({ text: splice(text, index, index + found.length, replacement), change: `${found} → ${replacement}` })
  }
  for (const m of matchesOf(text, UNIT)) {
    const found = m[0]
    const next = UNIT_CHANGE.get(found.toLowerCase())
    if (next) add(m.index ?? 0, found, /^[a-z]/.test(next) ? matchCase(found, next) : next)
  }
  for (const m of matchesOf(text, FREQUENCY)) add(m.index ?? 0, m[0], matchCase(m[0], UNIT_CHANGE.get(m[0].toLowerCase()) as string))
  for (const m of matchesOf(text, CURRENCY)) add(m.index ?? 0, m[0], CURRENCY_CHANGE[m[0]] as string)
  return out.sort((a, b) => firstDifference(text, a.text) - firstDifference(text, b.text))
}

/** `number`: one quantity changed (`30 days` → `60 days`, `$4.99` → `$9.98`, `15%` → `30%`, `two` → `four`). */
export const numberOperator: MutationOperator = {
  name: 'number',
  description: 'Changes one number: 30 → 60, $4.99 → $9.98, 15% → 30%, two → four.',
  mutate: (context) => (hasAnswer(context) ? finish('number', context, numberCandidates(context)) : []),
}

/** `unit`: the unit of one quantity changed (`30 days` → `30 weeks`, `5 km` → `5 miles`, `$` → `€`). */
export const unitOperator: MutationOperator = {
  name: 'unit',
  description: 'Changes the unit of one quantity: 30 days → 30 weeks, 48 hours → 48 days, 5 km → 5 miles, $10 → €10.',
  mutate: (context) => (hasAnswer(context) ? finish('unit', context, unitCandidates(context)) : []),
}
