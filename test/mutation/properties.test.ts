// The rules every built-in operator obeys, checked over the reference corpus (fixtures/reference), the
// support-bot golden set and generated sentences: no mutant equals its source or differs from it only by
// whitespace, case or punctuation; no duplicates; `change` says what changed; local operators keep most words;
// refusals are refusals by the library's own rules and confident answers are not.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { seededRandom } from '../../src/golden/stats.js'
import { generateMutants, mutationOperators } from '../../src/mutation/generate.js'
import type { Mutant, MutationOperator, MutationSource } from '../../src/mutation/types.js'
import { detectRefusal } from '../../src/refusal.js'
import { referenceSources, supportBotSources } from './helpers.js'

// Written here rather than imported, so the test does not share the code it checks.
const bare = (s: string) => s.toLowerCase().replace(/(?:[\s\p{P}]|\p{Cf})+/gu, '')
const wordsOf = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
/** Operators that edit the answer in place (as opposed to replacing it). */
const LOCAL = ['number', 'unit', 'negation', 'comparative', 'swap-entity', 'drop-clause', 'add-claim']

function violations(operator: MutationOperator, source: MutationSource, dataset: MutationSource[], mutants: Mutant[]): string[] {
  const out: string[] = []
  const seen = new Set<string>()
  for (const m of mutants) {
    const where = `${operator.name} on ${JSON.stringify(source.text.slice(0, 50))}: ${JSON.stringify(m.text.slice(0, 80))}`
    if (m.operator !== operator.name) out.push(`${where}: operator is "${m.operator}"`)
    if (m.text === source.text) out.push(`${where}: equals the source`)
    else if (bare(m.text) === bare(source.text)) out.push(`${where}: only whitespace, case or punctuation changed`)
    if (seen.has(bare(m.text))) out.push(`${where}: duplicate`)
    seen.add(bare(m.text))
    if (typeof m.change !== 'string' || m.change.trim() === '') out.push(`${where}: no change description`)
    const swap = m.change.match(/^(.+?) → (.+)$/)
    if (swap && ['number', 'unit', 'negation', 'comparative', 'swap-entity'].includes(operator.name)) {
      const [, from = '', to = ''] = swap
      if (!source.text.toLowerCase().includes(from.toLowerCase())) out.push(`${where}: change "${m.change}" names "${from}", not in the source`)
      if (to !== '(removed)' && !m.text.toLowerCase().includes(to.toLowerCase())) out.push(`${where}: change "${m.change}" names "${to}", not in the mutant`)
    }
    const words = wordsOf(source.text)
    // Local operators keep most words (a text of a few words may lose most of them to one change).
    if (LOCAL.includes(operator.name) && words.length >= 5) {
      const kept = new Set(wordsOf(m.text))
      const share = words.filter((w) => kept.has(w)).length / words.length
      if (share < 0.4) out.push(`${where}: keeps only ${Math.round(share * 100)}% of the words`)
    }
    if (operator.name === 'refusal' && !detectRefusal(m.text).refused) out.push(`${where}: not a refusal by the library's own rules`)
    if (operator.name === 'confident-answer' && detectRefusal(m.text).refused) out.push(`${where}: still a refusal`)
  }
  if (source.unanswerable && operator.name !== 'confident-answer' && mutants.length > 0) out.push(`${operator.name} mutated unanswerable ${source.id}`)
  if (!source.unanswerable && operator.name === 'confident-answer' && mutants.length > 0) out.push(`confident-answer mutated answerable ${source.id}`)
  return out
}

function checkAll(dataset: MutationSource[], seeds: number[]): string[] {
  const out: string[] = []
  for (const seed of seeds) {
    for (const operator of mutationOperators) {
      for (const source of dataset) {
        const mutants = operator.mutate({ source, dataset, random: seededRandom(seed * 7919 + source.id.length) })
        out.push(...violations(operator, source, dataset, mutants))
      }
    }
  }
  return out
}

describe('every built-in operator obeys the rules', () => {
  test('on the reference corpus (fixtures/reference), over several seeds', () => {
    expect(checkAll(referenceSources(), [1, 2])).toEqual([])
  }, 30_000)

  test('on the support-bot golden set, over several seeds', () => {
    expect(checkAll(supportBotSources(), [1, 2, 3, 4, 5])).toEqual([])
  }, 30_000)

  test('on generated sentences made of words the operators look for', () => {
    const vocabulary = [
      'you',
      'can',
      'cannot',
      'is',
      'not',
      'are',
      'will',
      'never',
      'no',
      'longer',
      'at',
      'least',
      'most',
      'before',
      'after',
      'within',
      'more',
      'less',
      'than',
      '30',
      'days',
      '$4.99',
      '15%',
      'two',
      'hours',
      'and',
      'but',
      'the',
      'Orders',
      'page',
      'refund',
      'shipping',
      'express',
      'standard',
      '"Forgot password"',
      'Canada',
      'for',
      'of',
      'delivery',
      ',',
      '.',
      'No.',
      'Yes,',
    ]
    const sentence = fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 18 }).map((ws) => ws.join(' '))
    const dataset = fc.array(fc.record({ text: sentence, input: sentence, unanswerable: fc.boolean() }), { minLength: 1, maxLength: 4 })
    fc.assert(
      fc.property(dataset, fc.integer(), (rows, seed) => {
        const sources = rows.map((r, i) => ({ id: `c${i}`, ...r }))
        expect(checkAll(sources, [seed])).toEqual([])
      }),
      { numRuns: 150 },
    )
  }, 30_000)

  test('on arbitrary text, no operator throws and every mutant is a real change', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 }), { minLength: 1, maxLength: 3 }), fc.boolean(), (texts, unanswerable) => {
        const sources = texts.map((text, i) => ({ id: `c${i}`, text, input: text, unanswerable }))
        for (const [id, mutants] of generateMutants(sources)) {
          const source = sources.find((s) => s.id === id) as MutationSource
          for (const m of mutants) expect(bare(m.text)).not.toBe(bare(source.text))
        }
      }),
      { numRuns: 200 },
    )
  }, 30_000)
})

describe('generateMutants over the support-bot golden set', () => {
  test('every answerable case gets mutants, every unanswerable one a confident answer, none twice', () => {
    const sources = supportBotSources()
    const out = generateMutants(sources)
    for (const s of sources) {
      const mutants = out.get(s.id) ?? []
      expect(mutants.length, s.id).toBeGreaterThan(s.unanswerable ? 0 : 3)
      if (s.unanswerable) expect(new Set(mutants.map((m) => m.operator))).toEqual(new Set(['confident-answer']))
      expect(new Set(mutants.map((m) => bare(m.text))).size, s.id).toBe(mutants.length)
    }
  })
})
