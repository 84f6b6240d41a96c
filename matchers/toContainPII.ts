import { DEFAULT_PII_KINDS, directInput, type PIIFinding, type PIIKind, piiCheck, runDirect } from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { checkReceivedString, definitionPlan, hint, lines, preview, type Signature } from './utils.js'

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
  // The kinds and the country are validated by the pii check; the matcher passes when it finds something.
  const plan = definitionPlan(this, sig, piiCheck, options, piiCheck.defaultThreshold)
  const { data: found } = runDirect<PIIFinding[]>(plan, directInput(received))
  const what = (options?.kinds ?? DEFAULT_PII_KINDS).join(', ')
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
