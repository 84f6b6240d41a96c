// The operators that swap words, drop clauses, add claims or answer something else, each on hand-written
// sentences: what changes and what must not. (number, unit: number.test.ts; negation: negation.test.ts.)
import { describe, expect, test } from 'vitest'
import { seededRandom } from '../../src/golden/stats.js'
import { claimOperator } from '../../src/mutation/operators/claim.js'
import { clauseOperator } from '../../src/mutation/operators/clause.js'
import { comparativeOperator } from '../../src/mutation/operators/comparative.js'
import { entityOperator } from '../../src/mutation/operators/entity.js'
import { confidentAnswerOperator, otherAnswerOperator, refusalOperator } from '../../src/mutation/operators/question.js'
import type { MutationOperator, MutationSource } from '../../src/mutation/types.js'
import { detectRefusal } from '../../src/refusal.js'
import { mutate, source, texts } from './helpers.js'

const run = (operator: MutationOperator, s: MutationSource, dataset: MutationSource[], seed = 1) =>
  operator.mutate({ source: s, dataset: [s, ...dataset.filter((d) => d.id !== s.id)], random: seededRandom(seed) })

describe('comparative', () => {
  test('swaps bounds and comparatives both ways, one per mutant', () => {
    expect(mutate(comparativeOperator, 'Orders of at least $50 ship free.')).toEqual([
      { operator: 'comparative', text: 'Orders of at most $50 ship free.', change: 'at least → at most' },
    ])
    expect(texts(mutate(comparativeOperator, 'Orders of at most $50 ship free.'))).toEqual(['Orders of at least $50 ship free.'])
    expect(texts(mutate(comparativeOperator, 'Pay before you ship.'))).toEqual(['Pay after you ship.'])
    expect(texts(mutate(comparativeOperator, 'It costs more than the basic plan.'))).toEqual(['It costs less than the basic plan.'])
    expect(texts(mutate(comparativeOperator, 'The comet is visible low in the western sky.'))).toEqual(['The comet is visible low in the eastern sky.'])
    expect(texts(mutate(comparativeOperator, 'Before noon, more people call.'))).toEqual(['After noon, more people call.', 'Before noon, less people call.'])
  })

  test('reads within, over and under as bounds only before an amount', () => {
    expect(texts(mutate(comparativeOperator, 'Ask for a refund within 30 days.'))).toEqual(['Ask for a refund after 30 days.'])
    expect(texts(mutate(comparativeOperator, 'Shipping is free on orders over $50.'))).toEqual(['Shipping is free on orders under $50.'])
    expect(mutate(comparativeOperator, 'Look within yourself and start over.')).toEqual([])
  })

  test('leaves "no longer" to the negation operator', () => {
    expect(mutate(comparativeOperator, 'It can no longer be cancelled.')).toEqual([])
  })
})

describe('swap-entity', () => {
  const dataset = [
    source('The largest planet is Jupiter.', 'a'),
    source('Two small moons orbit Mars.', 'b'),
    source('Click "Forgot password" on the sign-in page.', 'c'),
    source('Start a return from the Orders page.', 'd'),
    source('Standard shipping costs $4.99.', 'e'),
    source('Express shipping takes 1 to 2 business days.', 'f'),
  ]
  const [jupiter, mars, password, , standard] = dataset as [MutationSource, MutationSource, MutationSource, MutationSource, MutationSource]

  test("swaps a name for another case's name of the same kind", () => {
    expect(run(entityOperator, jupiter, dataset)).toEqual([{ operator: 'swap-entity', text: 'The largest planet is Mars.', change: 'Jupiter → Mars' }])
    expect(texts(run(entityOperator, mars, dataset))).toEqual(['Two small moons orbit Jupiter.'])
    // No other quoted label: another name of the dataset goes between the quotes.
    expect(texts(run(entityOperator, password, dataset))[0]).toMatch(/^Click "(Jupiter|Mars|Orders)" on the sign-in page\.$/)
  })

  test('swaps the modifier of a head word the dataset uses with several (plan and page names)', () => {
    expect(run(entityOperator, standard, dataset)).toContainEqual({
      operator: 'swap-entity',
      text: 'Express shipping costs $4.99.',
      change: 'Standard shipping → Express shipping',
    })
    expect(texts(run(entityOperator, password, dataset))).toContain('Click "Forgot password" on the orders page.')
  })

  test('reads a capital that starts a sentence as a name only when the dataset capitalises the word inside a sentence', () => {
    const plain = [source('Refunds take 5 days.', 'x'), source('Payments are final.', 'y')]
    expect(run(entityOperator, plain[0] as MutationSource, plain)).toEqual([])
  })

  test('changes every occurrence of the name and nothing else', () => {
    const twice = source('Jupiter is big, and Jupiter is far.', 'g')
    expect(texts(run(entityOperator, twice, [twice, mars]))).toEqual(['Mars is big, and Mars is far.'])
    // `Jupiter` starts the sentences, but the dataset writes it capitalised inside one (`... is Jupiter.`)
    expect(texts(run(entityOperator, twice, [twice, jupiter, mars])).length).toBe(1)
  })

  test('does nothing without other names in the dataset', () => {
    expect(mutate(entityOperator, 'The largest planet is Jupiter.')).toEqual([])
  })
})

describe('drop-clause', () => {
  test('drops the key phrase first: the one with the numbers and rare words', () => {
    const ms = mutate(clauseOperator, 'You can ask for a refund within 30 days of delivery.', [source('You can pay by card.', 'o')])
    expect(ms[0]).toEqual({ operator: 'drop-clause', text: 'You can ask for a refund.', change: '- "within 30 days of delivery"' })
    expect(texts(ms)).toContain('You can ask within 30 days of delivery.')
  })

  test('drops clauses after a comma or a conjunction, tidying the punctuation', () => {
    const all = texts(mutate(clauseOperator, 'Standard shipping costs $4.99 and takes 3 to 5 business days.'))
    expect(all).toContain('Standard shipping costs $4.99.')
    expect(all).not.toContain('Standard shipping costs $4.99 and takes 3.')
    expect(texts(mutate(clauseOperator, 'Your card is charged when the order ships, not when you place the order.'))).toContain(
      'Your card is charged when the order ships.',
    )
  })

  test('drops a whole sentence of a text with several, but never leaves a fragment of fewer than three words', () => {
    expect(texts(mutate(clauseOperator, 'No. The warranty covers manufacturing defects, not accidental damage.'))).toContain(
      'The warranty covers manufacturing defects, not accidental damage.',
    )
    expect(mutate(clauseOperator, 'Boil for 5 minutes.')).toEqual([])
  })

  test('keeps phrasal verbs and ranges whole', () => {
    const all = texts(mutate(clauseOperator, 'Sign in with one of your backup codes, then set up the app again.'))
    expect(all.some((t) => t.startsWith('Sign,'))).toBe(false)
    expect(all).toContain('Sign in, then set up the app again.')
    const express = texts(mutate(clauseOperator, 'Express takes 1 to 2 business days and costs $14.99.'))
    expect(express).toContain('Express takes 1 to 2 business days.')
    expect(express.some((t) => /takes 1(?! to 2)/.test(t))).toBe(false)
  })
})

describe('add-claim', () => {
  const dataset = [
    source('Standard shipping costs $4.99 and takes 3 to 5 business days.', 'standard', 'How much is standard shipping?'),
    source('Express shipping takes 1 to 2 business days and costs $14.99.', 'express', 'How fast is express shipping?'),
    source('Jupiter is the largest planet in the solar system.', 'jupiter', 'Which planet is the largest?'),
  ]
  test('keeps the whole answer and adds a clause of the most related case, its number changed', () => {
    const [first] = run(claimOperator, dataset[0] as MutationSource, dataset)
    expect(first?.operator).toBe('add-claim')
    expect(first?.text.startsWith('Standard shipping costs $4.99 and takes 3 to 5 business days. Express shipping takes ')).toBe(true)
    expect(first?.text).not.toContain('Express shipping takes 1 to 2 business days and costs $14.99.')
    expect(first?.change).toMatch(/^\+ "Express shipping takes .+"$/)
  })

  test('needs another case', () => {
    expect(mutate(claimOperator, 'Standard shipping costs $4.99.')).toEqual([])
  })
})

describe('other-answer', () => {
  const dataset = [
    source('You can ask for a refund within 30 days of delivery.', 'window', 'How long do I have to ask for a refund?'),
    source('Refunds go back to your card within 5 to 10 business days.', 'arrival', 'When does my refund arrive?'),
    source('Jupiter is the largest planet.', 'jupiter', 'Which planet is the largest?'),
  ]
  test("answers with the most similar case's reference first", () => {
    expect(run(otherAnswerOperator, dataset[0] as MutationSource, dataset)).toEqual([
      { operator: 'other-answer', text: 'Refunds go back to your card within 5 to 10 business days.', change: 'the answer of "arrival"' },
      { operator: 'other-answer', text: 'Jupiter is the largest planet.', change: 'the answer of "jupiter"' },
    ])
  })

  test('never borrows an unanswerable case or the same text', () => {
    const same = source('You can ask for a refund within 30 days of delivery!', 'same')
    const none = { ...source('', 'none', 'Do you have a store?'), unanswerable: true }
    expect(run(otherAnswerOperator, dataset[0] as MutationSource, [same, none])).toEqual([])
  })
})

describe('refusal', () => {
  const refuse = (input: string, seed = 1) => texts(run(refusalOperator, source('The answer.', 'r', input), [], seed))

  test("refuses in the question's own words, turned into an indirect question", () => {
    const refund = refuse('How long do I have to ask for a refund?')
    expect(refund).toHaveLength(2)
    for (const t of refund) {
      expect([
        "I'm sorry, but I can't tell you how long you have to ask for a refund.",
        "I don't have any information about how long you have to ask for a refund.",
        "I'm not able to help with that. Please contact support to find out how long you have to ask for a refund.",
      ]).toContain(t)
    }
    const all = [1, 2, 3, 4, 5].flatMap((seed) => refuse('Can I cancel an order that has already shipped?', seed))
    expect(all).toContain("I'm sorry, but I can't tell you whether you can cancel an order that has already shipped.")
    expect([1, 2, 3, 4].flatMap((seed) => refuse('How long does international delivery take?', seed))).toContain(
      "I'm sorry, but I can't tell you how long international delivery takes.",
    )
    expect([1, 2, 3, 4].flatMap((seed) => refuse('When is my card charged?', seed))).toContain("I'm sorry, but I can't tell you when your card is charged.")
    expect([1, 2, 3, 4].flatMap((seed) => refuse('My order arrived damaged. What should I do?', seed))).toContain(
      "I'm sorry, but I can't tell you what you should do.",
    )
  })

  test('falls back to a plain refusal for an input that is not a question it reads', () => {
    expect(refuse('I lost my phone and cannot get past two-factor authentication.')).toHaveLength(1)
  })

  test("every refusal is one by the library's own rules (toRefuse, the refusal check)", () => {
    for (const input of ['How long do I have?', 'Can I pay later?', 'Tell me everything.', 'What is the fee?']) {
      for (const seed of [1, 2, 3]) for (const t of refuse(input, seed)) expect(detectRefusal(t).refused, t).toBe(true)
    }
  })

  test('does not refuse an unanswerable case (its reference already is a refusal)', () => {
    const s = { ...source('', 'u', 'Do you have a store?'), unanswerable: true }
    expect(run(refusalOperator, s, [])).toEqual([])
  })
})

describe('confident-answer', () => {
  const answers = [
    source('Start a return from the Orders page and print the label.', 'return', 'How do I return an item?'),
    source('Standard shipping costs $4.99.', 'shipping', 'How much is shipping?'),
  ]
  const confident = (input: string) => texts(run(confidentAnswerOperator, { ...source('', 'u', input), unanswerable: true }, answers))

  test('turns a yes/no question into a confident yes', () => {
    expect(confident('Do you offer a student discount?')[0]).toBe('Yes, we offer a student discount.')
    expect(confident('Can I pay in monthly installments?')[0]).toBe('Yes, you can pay in monthly installments.')
    expect(confident('Do you have a physical store I can visit?')[0]).toBe('Yes, we have a physical store you can visit.')
  })

  test("answers a how-to with another case's steps, and a what-is with a value", () => {
    expect(confident('How do I change the email address on my account?')[0]).toBe(
      'To change the email address on your account, start a return from the Orders page and print the label.',
    )
    expect(confident('What is your customer service phone number?')[0]).toMatch(/^Our customer service phone number is 0800 \d{3} \d{3}\.$/)
  })

  test("also borrows the most related case's answer, and says what changed", () => {
    const ms = run(confidentAnswerOperator, { ...source('', 'u', 'How much is express shipping?'), unanswerable: true }, answers)
    expect(ms.at(-1)).toEqual({ operator: 'confident-answer', text: 'Standard shipping costs $4.99.', change: 'refusal → the answer of "shipping"' })
  })

  test('applies to unanswerable cases only', () => {
    expect(run(confidentAnswerOperator, source('Yes.', 'a', 'Do you ship to Canada?'), answers)).toEqual([])
  })
})
