import { describe, expect, test } from 'vitest'
import { generateMutants, mutationOperators, resolveOperators } from '../../src/mutation/generate.js'
import type { MutationOperator } from '../../src/mutation/types.js'
import { source, supportBotSources } from './helpers.js'

const sources = [
  source('You can ask for a refund within 30 days of delivery.', 'refund', 'How long do I have to ask for a refund?'),
  source('Shipping is free on orders over $50.', 'shipping', 'How much is shipping?'),
]

describe('generateMutants', () => {
  test('returns the mutants of every source by id, in the order of the sources and then of the operators', () => {
    const out = generateMutants(sources, { operators: ['negation', 'number'] })
    expect([...out.keys()]).toEqual(['refund', 'shipping'])
    expect(out.get('refund')).toEqual([
      { operator: 'negation', text: 'You cannot ask for a refund within 30 days of delivery.', change: 'can → cannot' },
      {
        operator: 'number',
        text: expect.stringMatching(/^You can ask for a refund within (60|15|300) days of delivery\.$/),
        change: expect.stringMatching(/^30 → /),
      },
    ])
    expect(out.get('shipping')?.map((m) => m.operator)).toEqual(['negation', 'number'])
  })

  test('runs every built-in operator by default', () => {
    const used = new Set([...generateMutants(supportBotSources()).values()].flat().map((m) => m.operator))
    expect([...used].sort()).toEqual(mutationOperators.map((o) => o.name).sort())
  })

  test('is deterministic: the same seed gives the same mutants', () => {
    const a = generateMutants(supportBotSources(), { seed: 7 })
    const b = generateMutants(supportBotSources(), { seed: 7 })
    expect([...b.entries()]).toEqual([...a.entries()])
  })

  test('another seed may choose other mutants where the operators choose at random', () => {
    const a = JSON.stringify([...generateMutants(supportBotSources(), { seed: 1 }).entries()])
    const changed = [2, 3, 4, 5].some((seed) => JSON.stringify([...generateMutants(supportBotSources(), { seed }).entries()]) !== a)
    expect(changed).toBe(true)
  })

  test("an operator's mutants depend on the seed, the case and the operator only, not on the other operators or cases", () => {
    const alone = generateMutants(supportBotSources(), { seed: 3, operators: ['number'] })
    const withOthers = generateMutants(supportBotSources().reverse(), { seed: 3, operators: ['negation', 'number'] })
    for (const [id, mutants] of alone) expect(withOthers.get(id)?.filter((m) => m.operator === 'number')).toEqual(mutants)
  })

  test('drops what a user operator returns that is no real mutant: the source, a whitespace, case or punctuation change, a duplicate', () => {
    const sloppy: MutationOperator = {
      name: 'sloppy',
      description: 'Returns bad mutants too.',
      mutate: ({ source: s }) => [
        { operator: 'sloppy', text: s.text, change: 'nothing' },
        { operator: 'sloppy', text: `  ${s.text.toUpperCase().replace(/\./g, '!')}  `, change: 'case' },
        { operator: 'sloppy', text: '', change: 'empty' },
        { operator: 'sloppy', text: `${s.text} Maybe.`, change: '+ Maybe' },
        { operator: 'sloppy', text: `${s.text} maybe!`, change: '+ maybe (again)' },
      ],
    }
    expect(generateMutants([sources[0]!], { operators: [sloppy] }).get('refund')).toEqual([
      { operator: 'sloppy', text: 'You can ask for a refund within 30 days of delivery. Maybe.', change: '+ Maybe' },
    ])
  })

  test("runs the user's own operators alongside built-in names, and names their mutants after them", () => {
    const hedge: MutationOperator = {
      name: 'hedge',
      description: 'Adds a hedge.',
      mutate: ({ source: s }) => [{ operator: 'whatever', text: `I think ${s.text.charAt(0).toLowerCase()}${s.text.slice(1)}`, change: '+ I think' }],
    }
    const out = generateMutants(sources, { operators: ['negation', hedge] }).get('shipping')
    expect(out).toEqual([
      { operator: 'negation', text: 'Shipping is not free on orders over $50.', change: 'is → is not' },
      { operator: 'hedge', text: 'I think shipping is free on orders over $50.', change: '+ I think' },
    ])
  })

  test('the same mutant from two operators is kept once, from the first', () => {
    const copy: MutationOperator = { name: 'copy', description: 'Negates too.', mutate: (c) => mutationOperators.find((o) => o.name === 'negation')!.mutate(c) }
    expect(
      generateMutants([sources[1]!], { operators: ['negation', copy] })
        .get('shipping')
        ?.map((m) => m.operator),
    ).toEqual(['negation'])
  })

  test('an unknown operator name fails with a did-you-mean and the list', () => {
    expect(() => generateMutants(sources, { operators: ['negaton'] })).toThrowErrorMatchingInlineSnapshot(
      `[TypeError: [expect-llm] Failed to generate the mutants: unknown mutation operator "negaton" (did you mean "negation"?). The built-in operators are: number, unit, negation, comparative, swap-entity, drop-clause, add-claim, other-answer, refusal, confident-answer.]`,
    )
    expect(() => generateMutants(sources, { operators: ['paraphrase'] })).toThrow(
      /unknown mutation operator "paraphrase"\. The built-in operators are: number, /,
    )
  })

  test('bad operators, options and sources fail with the library error', () => {
    expect(() => generateMutants(sources, { operators: 'negation' as never })).toThrowErrorMatchingInlineSnapshot(
      `[TypeError: [expect-llm] Failed to generate the mutants: "operators" must be an array of operator names or objects, got a string ("negation"). Pass for example { operators: ['negation', 'number'] }.]`,
    )
    expect(() => generateMutants(sources, { operators: [{ name: 'x' } as never] })).toThrowErrorMatchingInlineSnapshot(
      `[TypeError: [expect-llm] Failed to generate the mutants: each operator must be a built-in operator's name or an object with "name" and "mutate", got an object. Pass names (number, unit, negation, ...) or { name, description, mutate(context) } objects.]`,
    )
    expect(() => generateMutants(sources, { operators: [{ name: '', description: '', mutate: () => [] }] })).toThrowErrorMatchingInlineSnapshot(
      `[TypeError: [expect-llm] Failed to generate the mutants: a mutation operator needs a non-empty "name", got a string (""). Give it a unique kebab-case name, e.g. { name: 'hedge', ... }.]`,
    )
    expect(() => generateMutants(sources, { operators: ['negation', 'negation'] })).toThrowErrorMatchingInlineSnapshot(
      `[TypeError: [expect-llm] Failed to generate the mutants: the mutation operator "negation" is listed twice. List each operator once; give your own operators names of their own.]`,
    )
    expect(() => generateMutants(sources, { seed: Number.NaN })).toThrowErrorMatchingInlineSnapshot(
      `[TypeError: [expect-llm] Failed to generate the mutants: "seed" must be a finite number, got a number (NaN). Pass for example { seed: 1 }.]`,
    )
    expect(() => generateMutants([sources[0]!, sources[0]!])).toThrowErrorMatchingInlineSnapshot(
      `[TypeError: [expect-llm] Failed to generate the mutants: two sources have the id "refund". Give every case a unique id.]`,
    )
    expect(() => generateMutants([{ id: 'a', text: 3 } as never])).toThrowErrorMatchingInlineSnapshot(
      `[TypeError: [expect-llm] Failed to generate the mutants: source 0 must be { id: string, text: string, input: string, unanswerable: boolean }, got an object. Pass one source per case.]`,
    )
    const broken: MutationOperator = { name: 'broken', description: '', mutate: () => [{ text: 'x' }] as never }
    expect(() => generateMutants(sources, { operators: [broken] })).toThrowErrorMatchingInlineSnapshot(
      `[TypeError: [expect-llm] Failed to generate the mutants: the mutation operator "broken" returned an object, not a mutant. Return an array of { operator, text, change } objects (an empty array when the operator does not apply).]`,
    )
    const notArray: MutationOperator = { name: 'not-array', description: '', mutate: () => null as never }
    expect(() => generateMutants(sources, { operators: [notArray] })).toThrowErrorMatchingInlineSnapshot(
      `[TypeError: [expect-llm] Failed to generate the mutants: the mutation operator "not-array" returned null. Return an array of mutants (empty when it does not apply).]`,
    )
  })

  test('resolveOperators: every built-in operator when omitted, else the listed ones in order', () => {
    expect(resolveOperators(undefined)).toEqual([...mutationOperators])
    expect(resolveOperators(['unit', 'number']).map((o) => o.name)).toEqual(['unit', 'number'])
  })
})

describe('mutationOperators', () => {
  test('each has a unique kebab-case name, a one-line description and a mutate function', () => {
    const names = mutationOperators.map((o) => o.name)
    expect(new Set(names).size).toBe(names.length)
    for (const o of mutationOperators) {
      expect(o.name).toMatch(/^[a-z]+(-[a-z]+)*$/)
      expect(o.description).toMatch(/^[A-Z].{10,150}\.$/)
      expect(o.description).not.toContain('\n')
      expect(typeof o.mutate).toBe('function')
    }
  })

  test('is frozen: adding an operator means passing it in operators', () => {
    expect(Object.isFrozen(mutationOperators)).toBe(true)
  })
})
