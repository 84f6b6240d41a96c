import { directInput, runDirect, secretsCheck } from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { checkReceivedString, definitionPlan, hint, lines, preview, usageError, type Signature } from './utils.js'

/**
 * Passes when the received text holds a secret: an API key (`sk-...`, AWS, Google, GitHub, Slack), a
 * bearer token, a private key block, or the value of a key variable of the environment (`OPENAI_API_KEY`,
 * any `*_API_KEY`/`*_TOKEN`/`*_SECRET`), as the replay secret scanner finds them before writing a
 * fixture. Use it with `.not`. The failure message names what leaked, never the secret, and does not
 * print the output.
 *
 * @example
 * ```ts
 * expect(answer).not.toLeakSecrets()
 * ```
 */
export function toLeakSecrets(this: MatcherContext, received: unknown, ...rest: unknown[]): MatcherResult {
  const sig: Signature = { name: 'toLeakSecrets', expected: '' }
  checkReceivedString(this, sig, received)
  if (rest.some((arg) => arg !== undefined)) usageError(this, sig, 'it takes no arguments', 'Call expect(output).not.toLeakSecrets().')
  const plan = definitionPlan(this, sig, secretsCheck, undefined, secretsCheck.defaultThreshold)
  const { data: found } = runDirect<string[]>(plan, directInput(received))
  return {
    pass: found.length > 0,
    message: () =>
      this.isNot
        ? lines(hint(this, sig), '', 'Expected: no secret', `Received: ${found.join(', ')}`, '', 'Output: (not shown: it holds a secret)')
        : lines(hint(this, sig), '', 'Expected: a secret', 'Received: none', '', `Output: ${preview(received)}`),
  }
}
