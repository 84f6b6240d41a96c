import { describe, expect, test } from 'vitest'
import { numberOperator, unitOperator } from '../../src/mutation/operators/number.js'
import { mutate, texts } from './helpers.js'

describe('number', () => {
  test('changes one number at a time and keeps every other character', () => {
    const ms = mutate(numberOperator, 'Refunds take 5 to 10 business days.')
    expect(ms.length).toBe(2)
    for (const m of ms) {
      expect(m.operator).toBe('number')
      expect(m.text).toMatch(/^Refunds take \d+ to \d+ business days\.$/)
    }
    expect(ms[0]?.text).not.toContain('take 5 ')
    expect(ms[0]?.text).toContain('to 10 business')
    expect(ms[1]?.text).toContain('take 5 to ')
    expect(ms[1]?.text).not.toContain(' 10 business')
  })

  test('says what changed', () => {
    const [m] = mutate(numberOperator, 'You can ask for a refund within 30 days.')
    expect(m?.change).toMatch(/^30 → (60|15|300)$/)
    expect(m?.text).toBe(`You can ask for a refund within ${m?.change.split(' → ')[1]} days.`)
  })

  test('keeps the currency, the decimals and the thousands separators of money', () => {
    const [a] = mutate(numberOperator, 'Standard shipping costs $4.99.')
    expect(a?.text).toMatch(/^Standard shipping costs \$(9\.98|2\.50|49\.90)\.$/)
    const [b] = mutate(numberOperator, 'The fee is €1,500 per year.')
    expect(b?.text).toMatch(/^The fee is €(3,000|750|15,000) per year\.$/)
  })

  test('keeps a percentage at or under 100%', () => {
    expect(texts(mutate(numberOperator, 'Members save 15% on every order.'))).toEqual(['Members save 30% on every order.'])
    expect(texts(mutate(numberOperator, 'Members save 80 % on every order.'))).toEqual(['Members save 40 % on every order.'])
  })

  test('moves a year by one and a time of day by an hour or more', () => {
    expect(mutate(numberOperator, 'The policy changed in 2024.')[0]?.text).toMatch(/^The policy changed in 202[35]\.$/)
    expect(mutate(numberOperator, 'The last train leaves at 23:40.')[0]?.text).toMatch(/^The last train leaves at 0[0-2]:40\.$/)
  })

  test('changes number words, but not "once" (a conjunction more often than a number)', () => {
    expect(texts(mutate(numberOperator, 'Sign in with one of your backup codes.'))).toEqual(['Sign in with two of your backup codes.'])
    expect(mutate(numberOperator, 'Once an order has shipped it can no longer be cancelled.')).toEqual([])
  })

  test('never makes a range end equal to the other (5 to 10 → 10 to 10)', () => {
    for (let seed = 1; seed <= 20; seed++) expect(mutate(numberOperator, 'It takes 5 to 10 days.', [], seed)[0]?.text).not.toContain('10 to 10')
  })

  test('leaves version numbers, identifiers and text without numbers alone', () => {
    expect(mutate(numberOperator, 'Upgrade to version 2.10.1 first.')).toEqual([])
    expect(mutate(numberOperator, 'Our H2O bottles and COVID-19 kits ship free.')).toEqual([])
    expect(mutate(numberOperator, 'Click the link we email you.')).toEqual([])
  })

  test('skips unanswerable cases', () => {
    const s = { id: 'x', text: 'We have 3 stores.', input: 'How many stores?', unanswerable: true }
    expect(numberOperator.mutate({ source: s, dataset: [s], random: Math.random })).toEqual([])
  })
})

describe('unit', () => {
  test('moves a time unit after a number to the next one, keeping "business"', () => {
    expect(mutate(unitOperator, 'You can ask for a refund within 30 days.')).toEqual([
      { operator: 'unit', text: 'You can ask for a refund within 30 weeks.', change: 'days → weeks' },
    ])
    expect(texts(mutate(unitOperator, 'Express takes 1 to 2 business days.'))).toEqual(['Express takes 1 to 2 business weeks.'])
    expect(texts(mutate(unitOperator, 'Send a photo within 48 hours.'))).toEqual(['Send a photo within 48 days.'])
    expect(texts(mutate(unitOperator, 'We keep invoices for 7 years.'))).toEqual(['We keep invoices for 7 months.'])
    expect(texts(mutate(unitOperator, 'It takes a day.'))).toEqual(['It takes a week.'])
  })

  test('changes units of distance, weight and temperature, frequencies and currencies', () => {
    expect(texts(mutate(unitOperator, 'The trail is 5 km long.'))).toEqual(['The trail is 5 m long.'])
    expect(texts(mutate(unitOperator, 'Take 500 mg twice a day.'))).toEqual(['Take 500 g twice a day.', 'Take 500 mg twice a week.'])
    expect(texts(mutate(unitOperator, 'Bake at 180°C.'))).toEqual(['Bake at 180°F.'])
    expect(texts(mutate(unitOperator, 'You can pay in monthly installments.'))).toEqual(['You can pay in yearly installments.'])
    expect(texts(mutate(unitOperator, 'Shipping costs $4.99.'))).toEqual(['Shipping costs €4.99.'])
  })

  test('does not read words as units when no amount comes before them', () => {
    expect(mutate(unitOperator, 'I am here every day and the m key is stuck.')).toEqual([])
    expect(mutate(unitOperator, 'Days are long in the summer.')).toEqual([])
  })
})
