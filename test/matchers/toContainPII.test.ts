import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toContainPII.js'
import { failureMessage } from '../helpers/failure-message.js'

expect.extend(matcher)

describe('.toContainPII', () => {
  test('passes when the output holds personal data', () => {
    expect('Reach me at jane@example.com.').toContainPII()
  })

  test('.not passes on a clean output, order ids and dates included', () => {
    expect('Order 4000012345 shipped on 2024-05-01.').not.toContainPII()
  })

  test('.not fails, listing each finding masked and without printing the output', () => {
    expect(failureMessage(() => expect('Card 4242 4242 4242 4242, mail jane@example.com').not.toContainPII())).toMatchInlineSnapshot(`
      "expect(output).not.toContainPII()

      Expected: no personal data (email, phone, card, iban)
      Received: card ************4242, email j***@example.com

      Output: (not shown: it holds personal data)"
    `)
  })

  test('fails when no personal data is there', () => {
    expect(failureMessage(() => expect('All good.').toContainPII({ kinds: ['email'] }))).toMatchInlineSnapshot(`
      "expect(output).toContainPII(options)

      Expected: personal data (email)
      Received: none

      Output: "All good.""
    `)
  })

  test('kinds narrows the search', () => {
    expect('Card 4242 4242 4242 4242').not.toContainPII({ kinds: ['email'] })
  })

  test.each([
    [42, undefined, 'the received value must be a string, got a number (42)'],
    ['x', { kinds: [] }, "kinds must be a non-empty list of 'email', 'phone', 'card', 'iban', 'nationalId', got an array (length 0)"],
    ['x', { country: 'usa' }, "country must be a two-letter ISO code such as 'US' or 'GB'"],
    ['x', { kind: ['email'] }, 'unknown option "kind"'],
  ])('rejects wrong input %#, also under .not', (received, options, error) => {
    expect(() => expect(received).toContainPII(options as never)).toThrow(error)
    expect(() => expect(received).not.toContainPII(options as never)).toThrow(error)
  })
})

describe('toContainPII national ids', () => {
  test('kinds: nationalId finds checksummed ids, masked in the message', () => {
    expect('My DNI is 12345678Z.').toContainPII({ kinds: ['nationalId'] })
    expect('Order 123456789, shipped 2024-05-01.').not.toContainPII({ kinds: ['nationalId'] })
    expect(failureMessage(() => expect('SSN 123-45-6789, CF RSSMRA85T10A562S.').not.toContainPII({ kinds: ['nationalId'] }))).toMatchInlineSnapshot(`
      "expect(output).not.toContainPII(options)

      Expected: no personal data (nationalId)
      Received: nationalId ***-**-6789, nationalId RSS************S

      Output: (not shown: it holds personal data)"
    `)
  })

  test('national ids are opt-in: the default kinds leave them out', () => {
    expect('My DNI is 12345678Z.').not.toContainPII()
  })
})
