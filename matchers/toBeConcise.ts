import { describeValue, directInput, lengthCheck, measureLength, runDirect } from './_engine.js'
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

interface Limit {
  unit: 'words' | 'chars'
  max: number
  /** How the limit reads in the message: `maxWords 40`, `2 × the reference's 12 words (24)`. */
  label: string
}

const plural = (n: number, unit: 'words' | 'chars') => `${fmt(n)} ${unit === 'words' ? (n === 1 ? 'word' : 'words') : n === 1 ? 'character' : 'characters'}`

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
  const fix = "Pass { maxWords }, { maxChars }, or { reference, factor? } (at most factor × the reference's words)."
  checkReceivedString(this, sig, received)
  if (options === undefined || options === null || typeof options !== 'object' || Array.isArray(options)) {
    usageError(this, sig, `the limits must be an object, got ${describeValue(options)}`, fix)
  }
  checkOptions(this, sig, options as unknown, OPTIONS)
  const { maxWords, maxChars, reference, factor } = options
  if (maxWords === undefined && maxChars === undefined && reference === undefined) {
    usageError(this, sig, 'no limit was given', fix)
  }
  if (factor !== undefined && reference === undefined)
    usageError(this, sig, 'factor was given without a reference', 'Pass the reference text too: { reference, factor }.')
  // The limits are validated by the length check; `reference` is the case's reference there, and a
  // reference alone allows twice its words.
  const limitOptions = { maxWords, maxChars, ...(reference !== undefined ? { factor: factor ?? 2 } : {}) }
  const plan = definitionPlan(this, sig, lengthCheck, limitOptions, lengthCheck.defaultThreshold, [])

  // Stryker disable next-line ArrayDeclaration: equivalent, a stray element has no unit, so no check and no message line reads it
  const limits: Limit[] = []
  if (maxWords !== undefined) limits.push({ unit: 'words', max: maxWords, label: `maxWords ${maxWords}` })
  let referenceWords: number | undefined
  if (reference !== undefined) {
    checkString(this, sig, reference, 'reference')
    referenceWords = measureLength(reference).words
    if (referenceWords === 0) {
      usageError(
        this,
        sig,
        'the reference has no words, so factor × its length allows nothing',
        'Pass the reference answer text, or use maxWords / maxChars.',
        RangeError,
      )
    }
    const times = factor ?? 2
    limits.push({
      unit: 'words',
      max: times * referenceWords,
      label: `${fmt(times)} × the reference's ${plural(referenceWords, 'words')} (${fmt(times * referenceWords)})`,
    })
  }
  if (maxChars !== undefined) limits.push({ unit: 'chars', max: maxChars, label: `maxChars ${maxChars}` })

  const references = reference !== undefined ? [reference] : []
  const { data: actual, pass } = runDirect<{ words: number; chars: number }>(plan, directInput(received, { references }))
  const over = (limit: Limit) => actual[limit.unit] > limit.max

  return {
    pass,
    message: () => {
      const units = (['words', 'chars'] as const).filter((unit) => limits.some((l) => l.unit === unit))
      const tightest = units.map((unit) => ({ unit, max: Math.min(...limits.filter((l) => l.unit === unit).map((l) => l.max)) }))
      const expected = this.isNot
        ? `more than ${tightest.map((t) => plural(t.max, t.unit)).join(' or more than ')}`
        : `at most ${tightest.map((t) => plural(t.max, t.unit)).join(', at most ')}`
      const row = (unit: 'words' | 'chars') =>
        `${fmt(actual[unit])}, ${limits
          .filter((l) => l.unit === unit)
          .map((l) => (over(l) ? `over ${l.label} by ${fmt(actual[unit] - l.max)}` : `within ${l.label}`))
          .join(', ')}`
      return lines(
        hint(this, sig),
        '',
        `Expected: ${expected}`,
        `Received: ${units.map((unit) => plural(actual[unit], unit)).join(', ')}`,
        '',
        units.includes('words') ? `Words:      ${row('words')}` : undefined,
        units.includes('chars') ? `Characters: ${row('chars')}` : undefined,
        '',
        `Output:    ${preview(received)}`,
        reference !== undefined ? `Reference: ${preview(reference)}` : undefined,
      )
    },
  }
}
