import {
  describeValue,
  directInput,
  type LengthLimit,
  lengthCheck,
  lengthLimits,
  measureLength,
  runDirect,
  type TextLength,
  tightestLimits,
} from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { checkOptions, checkReceivedString, checkString, definitionPlan, fmt, hint, lines, preview, usageError, type Signature } from './utils.js'

/** Limits of {@link toBeConcise}. Give at least one of `maxWords`, `maxChars` and `reference`. */
export interface ConciseOptions {
  /** At most this many words (whitespace-separated, as Python's `len(text.split())`). */
  maxWords?: number
  /** At most this many characters (Unicode code points). */
  maxChars?: number
  /** A reference answer: the output may have at most `factor` × its word count. */
  reference?: string
  /** With `reference`: how many times the reference's word count is allowed. Default 2. */
  factor?: number
}

const OPTIONS = ['maxWords', 'maxChars', 'reference', 'factor'] as const
const FIX = "Pass { maxWords }, { maxChars }, or { reference, factor? } (at most factor × the reference's words)."

const plural = (n: number, unit: 'words' | 'chars') => `${fmt(n)} ${unit === 'words' ? (n === 1 ? 'word' : 'words') : n === 1 ? 'character' : 'characters'}`

/** How a limit reads in the message: `maxWords 40`, `2 × the reference's 12 words (24)`. */
function label(limit: LengthLimit): string {
  if (limit.from !== 'reference') return `${limit.from} ${limit.max}`
  return `${fmt(limit.factor as number)} × the reference's ${plural(limit.referenceWords as number, 'words')} (${fmt(limit.max)})`
}

/** The row of one unit: the count, then within or over (by how much) each of its limits. */
function limitRow(actual: TextLength, limits: readonly LengthLimit[], unit: 'words' | 'chars'): string {
  const standing = limits
    .filter((l) => l.unit === unit)
    .map((l) => (actual[unit] > l.max ? `over ${label(l)} by ${fmt(actual[unit] - l.max)}` : `within ${label(l)}`))
  return `${fmt(actual[unit])}, ${standing.join(', ')}`
}

/** Checks the limits: an object of known options, at least one limit, and no factor without a reference. */
function checkLimits(ctx: MatcherContext, sig: Signature, options: unknown): asserts options is ConciseOptions {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    usageError(ctx, sig, `the limits must be an object, got ${describeValue(options)}`, FIX)
  }
  checkOptions(ctx, sig, options, OPTIONS)
  const { maxWords, maxChars, reference, factor } = options as ConciseOptions
  if (maxWords === undefined && maxChars === undefined && reference === undefined) usageError(ctx, sig, 'no limit was given', FIX)
  if (factor !== undefined && reference === undefined)
    usageError(ctx, sig, 'factor was given without a reference', 'Pass the reference text too: { reference, factor }.')
}

/** The reference's word count: the reference must be a string with at least one word. */
function referenceWords(ctx: MatcherContext, sig: Signature, reference: unknown): number {
  checkString(ctx, sig, reference, 'reference')
  const words = measureLength(reference).words
  if (words === 0) {
    usageError(
      ctx,
      sig,
      'the reference has no words, so factor × its length allows nothing',
      'Pass the reference answer text, or use maxWords / maxChars.',
      RangeError,
    )
  }
  return words
}

/**
 * Passes when the received text stays within every limit given: `maxWords`, `maxChars`, and/or at most
 * `factor` (default 2) × the word count of `reference`. Limits are inclusive. Words are counted as Python's
 * `len(text.split())` counts them, characters in Unicode code points.
 *
 * @example
 * ```ts
 * expect(answer).toBeConcise({ maxWords: 50 })
 * expect(tweet).toBeConcise({ maxChars: 280 })
 * expect(summary).toBeConcise({ reference: humanSummary, factor: 1.5 })
 * expect(rambling).not.toBeConcise({ maxWords: 20 })
 * ```
 */
export function toBeConcise(this: MatcherContext, received: unknown, options: ConciseOptions): MatcherResult {
  const sig: Signature = { name: 'toBeConcise', expected: 'limits' }
  checkReceivedString(this, sig, received)
  checkLimits(this, sig, options)
  const { maxWords, maxChars, reference, factor } = options
  // The limits are validated by the length check; `reference` is the case's reference there, and a
  // reference alone allows twice its words.
  const limitOptions = { maxWords, maxChars, ...(reference !== undefined ? { factor: factor ?? 2 } : {}) }
  const plan = definitionPlan(this, sig, lengthCheck, limitOptions, lengthCheck.defaultThreshold)
  const references = reference !== undefined ? [reference] : []
  const limits = lengthLimits(options, references.length > 0 ? referenceWords(this, sig, references[0]) : undefined)

  const { data: actual, pass } = runDirect<TextLength>(plan, directInput(received, { references }))

  return {
    pass,
    message: () => {
      const tightest = tightestLimits(limits)
      const units = tightest.map((t) => t.unit)
      const expected = this.isNot
        ? `more than ${tightest.map((t) => plural(t.max, t.unit)).join(' or more than ')}`
        : `at most ${tightest.map((t) => plural(t.max, t.unit)).join(', at most ')}`
      return lines(
        hint(this, sig),
        '',
        `Expected: ${expected}`,
        `Received: ${units.map((unit) => plural(actual[unit], unit)).join(', ')}`,
        '',
        units.includes('words') ? `Words:      ${limitRow(actual, limits, 'words')}` : undefined,
        units.includes('chars') ? `Characters: ${limitRow(actual, limits, 'chars')}` : undefined,
        '',
        `Output:    ${preview(received)}`,
        reference !== undefined ? `Reference: ${preview(reference)}` : undefined,
      )
    },
  }
}
