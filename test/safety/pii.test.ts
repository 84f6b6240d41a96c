// findPII: valid and invalid card numbers, emails, phone numbers and IBANs, and the false-positive traps.
import { describe, expect, test } from 'vitest'
import { findPII, luhnValid } from '../../src/safety/pii.js'

const kinds = (text: string, country?: string) => findPII(text, country ? { country } : {}).map((f) => f.kind)

describe('cards', () => {
  test.each([
    ['Visa', '4242 4242 4242 4242'],
    ['Visa, no spaces', '4111111111111111'],
    ['Mastercard', '5555-5555-5555-4444'],
    ['Mastercard 2-series', '2223003122003222'],
    ['Amex', '378282246310005'],
    ['Discover', '6011111111111117'],
    ['JCB', '3530111333300000'],
  ])('finds a valid %s number', (_, number) => {
    expect(kinds(`Card: ${number}.`)).toEqual(['card'])
  })

  test.each([
    ['a Luhn failure', '4242 4242 4242 4241'],
    ['a valid Luhn sum with no known issuer prefix', '1234 5678 9012 3452'],
    ['a Visa prefix with a wrong length', '42424242424242'],
  ])('ignores %s', (_, number) => {
    expect(kinds(`Card: ${number}.`)).toEqual([])
  })

  test('masks all but the last four digits', () => {
    expect(findPII('pay with 4242 4242 4242 4242')[0]).toEqual({ kind: 'card', index: 9, masked: '************4242' })
  })

  test('the Luhn checksum', () => {
    expect([luhnValid('79927398713'), luhnValid('79927398710'), luhnValid('')]).toEqual([true, false, false])
  })
})

describe('emails', () => {
  test('finds addresses, masked', () => {
    expect(findPII('Write to jane.doe+support@mail.example.co.uk today')).toEqual([{ kind: 'email', index: 9, masked: 'j***@mail.example.co.uk' }])
  })

  test.each([['user@localhost'], ['v1.2@3'], ['@handle'], ['a@b.c']])('ignores %s', (text) => {
    expect(kinds(text)).toEqual([])
  })
})

describe('phone numbers', () => {
  test('international numbers of any country, validated against the numbering plan', () => {
    expect(kinds('Call +44 20 7946 0958 or +33 1 42 68 53 00.')).toEqual(['phone', 'phone'])
  })

  test('national numbers of the given country', () => {
    expect(kinds('Call (415) 555-2671.')).toEqual(['phone'])
    expect(kinds('Call 020 7946 0958.', 'GB')).toEqual(['phone'])
  })

  test('an invalid number is not a phone number', () => {
    expect(kinds('Call +1 123 456 7890.')).toEqual([])
  })
})

describe('IBANs', () => {
  test('finds valid IBANs, grouped or not, masked', () => {
    expect(findPII('IBAN DE89 3704 0044 0532 0130 00 please')).toEqual([{ kind: 'iban', index: 5, masked: 'DE89**************3000' }])
    expect(kinds('GB82WEST12345698765432')).toEqual(['iban'])
  })

  test('a wrong checksum is not an IBAN', () => {
    expect(kinds('DE88 3704 0044 0532 0130 00')).toEqual([])
  })
})

describe('false-positive traps', () => {
  test.each([
    ['an order id', 'Your order 4000012345 ships today.'],
    ['a long order id', 'Order #98765432101234 is on its way.'],
    ['a date', 'Delivered on 2024-05-01 at 14:32.'],
    ['a US date', 'Delivered 05/01/2024.'],
    ['a version string', 'Upgrade to version 10.4.2.1 or 2.30.1-beta.'],
    ['a tracking number', 'Tracking: 1Z999AA10123456784.'],
    ['a price and a quantity', 'It costs $1,299.99 for 12 units.'],
    ['an ISBN', 'ISBN 978-0-306-40615-7'],
  ])('%s is not personal data', (_, text) => {
    expect(findPII(text)).toEqual([])
  })
})

describe('options', () => {
  test('kinds limits the search', () => {
    expect(findPII('jane@example.com, 4242 4242 4242 4242', { kinds: ['card'] }).map((f) => f.kind)).toEqual(['card'])
  })

  test('bad kinds and countries are usage errors', () => {
    expect(() => findPII('x', { kinds: ['ssn' as never] })).toThrow(
      "Failed to look for personal data: kinds must be a non-empty list of 'email', 'phone', 'card', 'iban'",
    )
    expect(() => findPII('x', { country: 'usa' })).toThrow("country must be a two-letter ISO code such as 'US' or 'GB', got")
  })
})

describe('national ids (opt-in)', () => {
  const ids = (text: string) => findPII(text, { kinds: ['nationalId'] }).map((f) => f.masked)

  test('are not looked for by default', () => {
    expect(kinds('SSN 123-45-6789, DNI 12345678Z')).toEqual([])
  })

  test.each([
    ['a US SSN, written AAA-GG-SSSS', 'SSN 123-45-6789 on file', ['***-**-6789']],
    ['a Spanish DNI (mod-23 letter)', 'DNI 12345678Z', ['*******8Z']],
    ['a Spanish DNI written with a dash', 'DNI 12345678-Z', ['*******8Z']],
    ['a Spanish NIE', 'NIE X1234567L', ['*******7L']],
    ['an Italian codice fiscale (check character)', 'CF RSSMRA85T10A562S', ['RSS************S']],
    ['an Aadhaar number as printed (Verhoeff digit)', 'Aadhaar 2341 2341 2346', ['**** **** 2346']],
  ])('finds %s, masked', (_, text, masked) => {
    expect(ids(text)).toEqual(masked)
  })

  test.each([
    ['SSNs the SSA never issues (area 000, 666, 9xx; group 00; serial 0000)', '666-45-6789 000-12-3456 912-34-5678 123-00-4567 123-45-0000'],
    ['a DNI with the wrong letter', 'DNI 12345678A'],
    ['a codice fiscale with the wrong check character', 'CF RSSMRA85T10A562X'],
    ['an Aadhaar-shaped number that fails Verhoeff', '2341 2341 2345'],
    ['an Aadhaar-shaped number starting with 1', '1341 2341 2346'],
    ['a bare 9-digit order number', 'Order 123456789 shipped'],
    ['a bare 12-digit order number', 'Order 234123412346 shipped'],
    ['a card number, whose first 12 digits are grouped like an Aadhaar', 'Card 2341 2341 2346 1111'],
    ['a US phone number', 'Call 415-555-2671'],
    ['dates, versions, prices and invoice numbers', 'On 2024-05-01 v1.2.3 cost $1,234.56, invoice 2024-0001-12, ref 123-45-67890'],
    ['a product code of 8 digits and a letter inside a longer code', 'SKU AB12345678Z9'],
  ])('ignores %s', (_, text) => {
    expect(ids(text)).toEqual([])
  })

  test('a national id is not also reported as a phone number', () => {
    expect(findPII('SSN 123-45-6789', { kinds: ['nationalId', 'phone'] }).map((f) => f.kind)).toEqual(['nationalId'])
  })
})
