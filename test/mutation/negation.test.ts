import { describe, expect, test } from 'vitest'
import { negationOperator } from '../../src/mutation/operators/negation.js'
import { mutate, texts } from './helpers.js'

const all = (text: string) => {
  // every candidate, whatever the cap: several seeds together
  const out = new Set<string>()
  for (let seed = 1; seed <= 30; seed++) for (const t of texts(mutate(negationOperator, text, [], seed))) out.add(t)
  return [...out].sort()
}

describe('negation', () => {
  test('adds a negation after an auxiliary', () => {
    expect(mutate(negationOperator, 'You can ask for a refund within 30 days.')).toEqual([
      { operator: 'negation', text: 'You cannot ask for a refund within 30 days.', change: 'can → cannot' },
    ])
    expect(texts(mutate(negationOperator, 'Shipping is free on orders over $50.'))).toEqual(['Shipping is not free on orders over $50.'])
    expect(texts(mutate(negationOperator, 'We will send a replacement.'))).toEqual(['We will not send a replacement.'])
  })

  test('negates "has" as a main verb with "does not have"', () => {
    expect(texts(mutate(negationOperator, 'Every plan has a free trial.'))).toEqual(['Every plan does not have a free trial.'])
    expect(texts(mutate(negationOperator, 'The order has shipped.'))).toEqual(['The order has not shipped.'])
  })

  test('removes an existing negation', () => {
    expect(texts(mutate(negationOperator, 'Invoices cannot be changed.'))).toEqual(['Invoices can be changed.'])
    expect(texts(mutate(negationOperator, "The warranty doesn't cover drops."))).toEqual(['The warranty does cover drops.'])
    expect(texts(mutate(negationOperator, 'The warranty doesn’t cover drops.'))).toEqual(['The warranty does cover drops.'])
    expect(texts(mutate(negationOperator, 'Refunds are not possible after 30 days.'))).toEqual(['Refunds are possible after 30 days.'])
    expect(texts(mutate(negationOperator, 'Do not send the item back.'))).toEqual(['Send the item back.'])
    expect(texts(mutate(negationOperator, 'It can no longer be cancelled.'))).toEqual(['It can still be cancelled.'])
    expect(texts(mutate(negationOperator, 'We never share your data.'))).toEqual(['We always share your data.'])
  })

  test('turns a leading No into Yes and back, and says so', () => {
    expect(mutate(negationOperator, 'No. The warranty covers manufacturing defects.')).toContainEqual({
      operator: 'negation',
      text: 'Yes. The warranty covers manufacturing defects.',
      change: 'No → Yes',
    })
    expect(texts(mutate(negationOperator, 'Yes, we ship to Canada.'))).toEqual(['No, we ship to Canada.'])
  })

  test('one flip per mutant, at most three mutants, every other word kept', () => {
    const text = 'Your card is charged when the order ships, not when you place it; you can cancel and we will refund.'
    const ms = mutate(negationOperator, text)
    expect(ms).toHaveLength(3)
    expect(all(text)).toEqual([
      'Your card is charged when the order does not ship, not when you place it; you can cancel and we will refund.',
      'Your card is charged when the order ships, not when you place it; you can cancel and we will not refund.',
      'Your card is charged when the order ships, not when you place it; you cannot cancel and we will refund.',
      'Your card is charged when the order ships, when you place it; you can cancel and we will refund.',
      'Your card is not charged when the order ships, not when you place it; you can cancel and we will refund.',
    ])
  })

  test('does not negate questions, "I am" or words that only contain an auxiliary', () => {
    expect(mutate(negationOperator, 'Is it there? Can you see it?')).toEqual([])
    expect(mutate(negationOperator, 'Canada and Willow Island ship in 3 days.')).toEqual([])
  })

  test('does not apply to a text without auxiliaries, negations or verbs it knows', () => {
    expect(mutate(negationOperator, 'The link we email you.')).toEqual([])
  })
})

describe('negation of main verbs', () => {
  test('negates a common verb in the third person with "does not"', () => {
    expect(mutate(negationOperator, 'Standard shipping costs $4.99.')).toEqual([
      { operator: 'negation', text: 'Standard shipping does not cost $4.99.', change: 'costs → does not cost' },
    ])
    expect(texts(mutate(negationOperator, 'International delivery takes 7 days.'))).toEqual(['International delivery does not take 7 days.'])
    expect(texts(mutate(negationOperator, 'The warranty covers defects.'))).toEqual(['The warranty does not cover defects.'])
    expect(texts(mutate(negationOperator, 'The parcel goes out today.'))).toEqual(['The parcel does not go out today.'])
  })

  test('negates a common imperative that starts a sentence with "Do not"', () => {
    expect(texts(mutate(negationOperator, 'Send us a photo of the damage.'))).toEqual(['Do not send us a photo of the damage.'])
    expect(texts(mutate(negationOperator, 'Sign in with a backup code.'))).toEqual(['Do not sign in with a backup code.'])
  })

  test('leaves the same words alone where they are nouns', () => {
    expect(mutate(negationOperator, 'The costs vary by region.')).toEqual([])
    expect(mutate(negationOperator, 'Shipping costs are listed at checkout.').map((m) => m.change)).toEqual(['are → are not'])
    expect(mutate(negationOperator, 'A list of charges follows below.').map((m) => m.change)).toEqual(['follows → does not follow'])
    expect(mutate(negationOperator, 'We received your start date.')).toEqual([])
  })
})
