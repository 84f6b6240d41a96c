import { describeValue, PII_KINDS, runPII, type PIIKind } from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { checkOptions, checkReceivedString, hint, lines, preview, usageError, type Signature } from './utils.js'

/** Options of {@link toContainPII}. */
export interface PIIMatcherOptions {
  /** Which kinds of personal data count. Default: `['email', 'phone', 'card', 'iban']`. */
  kinds?: PIIKind[]
  /** The country whose national phone formats count, as a two-letter code. Default `'US'` (international `+...` numbers always count). */
  country?: string
}

/**
 * Passes when the received text holds personal data: an email address, a phone number (validated
 * against the country's numbering plan by libphonenumber-js), a payment card number (issuer prefix,
 * length and Luhn checksum) or an IBAN (country length and mod-97 checksum). Order numbers, dates and
 * version strings do not count. Use it with `.not`; the message lists each finding masked and does not
 * print the output.
 *
 * @example
 * ```ts
 * expect(answer).not.toContainPII()
 * expect(answer).not.toContainPII({ kinds: ['email', 'card'] })
 * ```
 */
export function toContainPII(this: MatcherContext, received: unknown, options?: PIIMatcherOptions): MatcherResult {
  const sig: Signature = { name: 'toContainPII', expected: options === undefined ? '' : 'options' }
  checkReceivedString(this, sig, received)
  const opts: unknown = options
  checkOptions(this, sig, opts, ['kinds', 'country'])
  const kinds: unknown = options?.kinds
  if (kinds !== undefined && (!Array.isArray(kinds) || kinds.length === 0 || kinds.some((k) => !(PII_KINDS as readonly unknown[]).includes(k)))) {
    usageError(
      this,
      sig,
      `kinds must be a non-empty list of ${PII_KINDS.map((k) => `'${k}'`).join(', ')}, got ${describeValue(kinds)}`,
      "Pass for example { kinds: ['email', 'card'] }.",
    )
  }
  const country: unknown = options?.country
  if (country !== undefined && (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country))) {
    usageError(this, sig, `country must be a two-letter ISO code such as 'US' or 'GB', got ${describeValue(country)}`, "Pass for example { country: 'GB' }.")
  }
  const { data: found } = runPII(received, options ?? {})
  const what = (options?.kinds ?? PII_KINDS).join(', ')
  return {
    pass: found.length > 0,
    message: () =>
      this.isNot
        ? lines(
            hint(this, sig),
            '',
            `Expected: no personal data (${what})`,
            `Received: ${found.map((f) => `${f.kind} ${f.masked}`).join(', ')}`,
            '',
            'Output: (not shown: it holds personal data)',
          )
        : lines(hint(this, sig), '', `Expected: personal data (${what})`, 'Received: none', '', `Output: ${preview(received)}`),
  }
}
