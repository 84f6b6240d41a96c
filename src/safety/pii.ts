/**
 * Personal data in a text: email addresses, phone numbers (libphonenumber-js, validated against the
 * numbering plans), payment card numbers (issuer prefix and length, then the Luhn checksum) and IBANs
 * (ibantools: country length and the mod-97 checksum), and, when asked for, national ids with a check
 * that rules out most digit runs (`nationalId`: US SSNs, Spanish DNI/NIE, Italian codici fiscali, Indian
 * Aadhaar numbers). Each finding is masked, so a message never repeats the data it warns about.
 *
 * @module
 */
import { isValidIBAN } from 'ibantools'
import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js/max'
import isIdentityCardModule from 'validator/lib/isIdentityCard.js'
import isTaxIDModule from 'validator/lib/isTaxID.js'
import { describeValue, formatMessage } from '../errors.js'

// validator's CommonJS files export the function as module.exports and as its .default: .default is the
// function whether a loader hands over module.exports (Node) or a namespace (TypeScript's view, bundlers).
const isIdentityCard = isIdentityCardModule.default
const isTaxID = isTaxIDModule.default

/** The kinds of personal data `findPII` can look for. */
export const PII_KINDS = ['email', 'phone', 'card', 'iban', 'nationalId'] as const
export type PIIKind = (typeof PII_KINDS)[number]
/** The kinds it looks for by default: `nationalId` is opt-in (an Aadhaar number's Verhoeff digit still lets 1 in 10 grouped 12-digit numbers through). */
export const DEFAULT_PII_KINDS: readonly PIIKind[] = ['email', 'phone', 'card', 'iban']

/** One piece of personal data found in a text. */
export interface PIIFinding {
  kind: PIIKind
  /** Where it starts (a UTF-16 index into the text). */
  index: number
  /** The data, masked: `j***@example.com`, `+1 *** *** 2671`, `**** **** **** 4242`, `DE89 **** 3000`. */
  masked: string
}

/** Options of {@link findPII}. */
export interface PIIOptions {
  /** Which kinds to look for. Default: {@link DEFAULT_PII_KINDS} (every kind but `nationalId`). */
  kinds?: readonly PIIKind[]
  /** The country whose national phone formats count (`'(415) 555-2671'` for `'US'`). International numbers (`+...`) always count. Default `'US'`. */
  country?: string
}

// Hand-written: finding addresses inside free text (validator.isEmail and similar check a whole string).
// The domain needs a dot and a 2+ letter top-level label, so "v1.2@3" and "user@localhost" are not emails.
const EMAIL = /[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,62}[A-Za-z0-9_%+-])?@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}\b/g
// 13 to 19 digits, optionally grouped by single spaces or dashes.
const CARD = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g

// National ids. Candidates are found by their written form; the checks are validator's where it has one.
// US SSN: written AAA-GG-SSSS (a bare 9-digit run is an order number as often as an SSN). No library checks
// SSNs (validator's en-US tax id is the EIN), and there is no checksum: the SSA's rules are written here
// (area not 000, 666 or 900-999; group not 00; serial not 0000).
const SSN = /(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])/g
// Spanish DNI (8 digits and a letter) and NIE (X, Y or Z, 7 digits, a letter): validator checks the letter (mod 23).
const DNI = /(?<![A-Za-z0-9-])[0-9XYZ]\d{7}-?[A-Z](?![A-Za-z0-9])/g
// Italian codice fiscale: validator checks the check character, the date and the omocodia letters.
const CODICE_FISCALE = /(?<![A-Za-z0-9])[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z](?![A-Za-z0-9])/g
// Indian Aadhaar: only as it is printed (4 4 4, spaces), never starting with 0 or 1; validator checks the Verhoeff digit.
const AADHAAR = /(?<!\d[ -]?)[2-9]\d{3} \d{4} \d{4}(?![ -]?\d)/g
/** The Luhn checksum (ISO/IEC 7812-1): written out, as it is four lines. */
export function luhnValid(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return digits.length > 0 && sum % 10 === 0
}

/** Issuer prefixes and lengths of the major card networks (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro). */
function cardNetwork(d: string): boolean {
  const n = d.length
  const p = (k: number) => Number(d.slice(0, k))
  if (d[0] === '4') return n === 13 || n === 16 || n === 19
  if ((p(2) >= 51 && p(2) <= 55) || (p(4) >= 2221 && p(4) <= 2720)) return n === 16
  if (p(2) === 34 || p(2) === 37) return n === 15
  if (p(4) === 6011 || p(2) === 65 || (p(3) >= 644 && p(3) <= 649)) return n >= 16 && n <= 19
  if (p(4) >= 3528 && p(4) <= 3589) return n >= 16 && n <= 19
  if (p(2) === 36 || p(2) === 38 || (p(3) >= 300 && p(3) <= 305)) return n >= 14 && n <= 19
  if (p(2) === 62) return n >= 16 && n <= 19
  if (['50', '56', '57', '58', '63', '67'].includes(d.slice(0, 2))) return n >= 12 && n <= 19
  return false
}

const maskMiddle = (s: string, keep = 4) => `${'*'.repeat(Math.max(0, s.length - keep))}${s.slice(-keep)}`

/**
 * Finds personal data in a text. Order numbers, dates, version strings and other digit runs are not
 * reported unless they pass the checks of a real card number, IBAN or phone number.
 *
 * @example
 * ```ts
 * findPII('Mail jane@example.com or call +44 20 7946 0958.').map((f) => f.kind) // ['email', 'phone']
 * findPII('Order 12345678, version 1.2.3, shipped 2024-05-01.') // []
 * ```
 */
export function findPII(text: string, options: PIIOptions = {}): PIIFinding[] {
  const fail = (reason: string, fix: string): never => {
    throw new TypeError(formatMessage(`Failed to look for personal data: ${reason}. ${fix}`))
  }
  if (typeof text !== 'string') fail(`the text must be a string, got ${describeValue(text)}`, 'Pass the model output text.')
  const kinds = options.kinds ?? DEFAULT_PII_KINDS
  if (!Array.isArray(kinds) || kinds.length === 0 || kinds.some((k) => !(PII_KINDS as readonly string[]).includes(k))) {
    fail(
      `kinds must be a non-empty list of ${PII_KINDS.map((k) => `'${k}'`).join(', ')}, got ${describeValue(kinds)}`,
      "Pass for example { kinds: ['email', 'card'] }.",
    )
  }
  const country = options.country ?? 'US'
  if (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country))
    fail(`country must be a two-letter ISO code such as 'US' or 'GB', got ${describeValue(country)}`, "Pass for example { country: 'GB' }.")
  const out: PIIFinding[] = []
  if (kinds.includes('email')) {
    for (const m of text.matchAll(EMAIL)) {
      const [user, domain] = m[0].split('@') as [string, string]
      out.push({ kind: 'email', index: m.index, masked: `${user[0]}***@${domain}` })
    }
  }
  if (kinds.includes('card')) {
    for (const m of text.matchAll(CARD)) {
      const digits = m[0].replace(/[ -]/g, '')
      if (cardNetwork(digits) && luhnValid(digits)) out.push({ kind: 'card', index: m.index, masked: maskMiddle(digits) })
    }
  }
  if (kinds.includes('iban')) {
    for (const m of text.matchAll(IBAN)) {
      const iban = m[0].replace(/ /g, '')
      if (isValidIBAN(iban)) out.push({ kind: 'iban', index: m.index, masked: `${iban.slice(0, 4)}${'*'.repeat(iban.length - 8)}${iban.slice(-4)}` })
    }
  }
  if (kinds.includes('nationalId')) {
    for (const m of text.matchAll(SSN)) out.push({ kind: 'nationalId', index: m.index, masked: `***-**-${m[0].slice(-4)}` })
    for (const m of text.matchAll(DNI)) {
      const id = m[0].replace('-', '')
      if (isIdentityCard(id, 'ES')) out.push({ kind: 'nationalId', index: m.index, masked: maskMiddle(id, 2) })
    }
    for (const m of text.matchAll(CODICE_FISCALE)) {
      if (isTaxID(m[0], 'it-IT')) out.push({ kind: 'nationalId', index: m.index, masked: `${m[0].slice(0, 3)}${'*'.repeat(12)}${m[0].slice(-1)}` })
    }
    for (const m of text.matchAll(AADHAAR)) {
      if (isIdentityCard(m[0], 'IN')) out.push({ kind: 'nationalId', index: m.index, masked: `**** **** ${m[0].slice(-4)}` })
    }
  }
  if (kinds.includes('phone')) {
    // Nor is a national id.
    const taken = out.filter((f) => f.kind === 'card' || f.kind === 'iban' || f.kind === 'nationalId').map((f) => f.index)
    for (const found of findPhoneNumbersInText(text, { defaultCountry: country as CountryCode })) {
      // A card number or IBAN is not also a phone number.
      if (taken.some((i) => found.startsAt >= i && found.startsAt < i + 34)) continue
      if (!found.number.isValid()) continue
      out.push({ kind: 'phone', index: found.startsAt, masked: maskMiddle(found.number.number) })
    }
  }
  return out.sort((a, b) => a.index - b.index)
}
