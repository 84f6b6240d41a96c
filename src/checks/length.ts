/**
 * The `length` check: 1 within every limit, else 0. Limits are in words or characters, inclusive
 * (`<=`) or strict (`<`), absolute (`maxWords`, `maxChars`) or a ratio to the case's reference
 * (`factor` × the expected answer's words, or characters with `unit: 'chars'`).
 *
 * @module
 */
import { describeValue, isFiniteNumber, isWholeNumber } from '../errors.js'
import { measureLength } from '../metrics/length.js'
import { fmt, result } from './shared.js'
import type { CheckDefinition } from './types.js'

export const length: CheckDefinition = {
  name: 'length',
  defaultThreshold: 1,
  optionKeys: ['maxWords', 'maxChars', 'factor', 'unit', 'strict'],
  shorthands: { noNumber: 'Pass { length: { maxWords: 50 } }.' },
  resolve({ key, threshold, options }, _raw, how) {
    const { fail, prefix } = how
    if (options.maxWords === undefined && options.maxChars === undefined && options.factor === undefined) {
      fail(`the "${key}" scorer has no limit`, "Pass { maxWords }, { maxChars } or { factor } (at most factor × the expected answer's words).")
    }
    const got = (v: unknown) => (typeof v === 'number' ? String(v) : describeValue(v))
    const kind = (v: unknown) => (typeof v === 'number' ? RangeError : TypeError)
    for (const name of ['maxWords', 'maxChars'] as const) {
      const v = options[name]
      if (v !== undefined && (!isWholeNumber(v) || v < 0))
        fail(`${prefix}${name} must be an integer >= 0, got ${got(v)}`, 'Pass a whole number such as 1.', kind(v))
    }
    const factor = options.factor
    if (factor !== undefined && (!isFiniteNumber(factor) || factor <= 0))
      fail(`${prefix}factor must be a positive number, got ${got(factor)}`, "Pass a multiple of the reference's word count, such as 1.5 or 2.", kind(factor))
    if (options.unit !== undefined && options.unit !== 'words' && options.unit !== 'chars') {
      fail(
        `${prefix}unit must be 'words' or 'chars', got ${describeValue(options.unit)}`,
        "Pass { factor: 2, unit: 'chars' } to compare characters with the reference's.",
      )
    }
    if (options.strict !== undefined && typeof options.strict !== 'boolean')
      fail(`${prefix}strict must be a boolean, got ${describeValue(options.strict)}`, 'Pass { strict: true } for < instead of <=.')
    return threshold
  },
  appliesTo: (_c, plan, refs) => plan.options.factor === undefined || refs.length > 0,
  run({ output, references }, { threshold, options }) {
    const { words, chars } = measureLength(output)
    const strict = options.strict === true
    const over = (n: number, max: number) => (strict ? n >= max : n > max)
    const sign = strict ? '>=' : '>'
    const out: string[] = []
    if (typeof options.maxWords === 'number' && over(words, options.maxWords)) out.push(`${words} words ${sign} ${options.maxWords}`)
    if (typeof options.maxChars === 'number' && over(chars, options.maxChars)) out.push(`${chars} characters ${sign} ${options.maxChars}`)
    if (typeof options.factor === 'number') {
      const chars_ = options.unit === 'chars'
      const ref = measureLength(references[0] as string)
      const n = chars_ ? chars : words
      const refN = chars_ ? ref.chars : ref.words
      const unit = chars_ ? 'characters' : 'words'
      if (over(n, options.factor * refN)) out.push(`${n} ${unit} ${sign} ${fmt(options.factor)} × the expected ${refN}`)
    }
    return result(out.length === 0 ? 1 : 0, threshold, out.join(', ') || undefined, undefined, { words, chars })
  },
}

/** One limit of `toBeConcise`: at most `max` words or characters, from an option or from the reference. */
export interface LengthLimit {
  unit: 'words' | 'chars'
  max: number
  /** The option that set it: `maxWords`, `maxChars`, or `reference` (`factor` × the reference's words). */
  from: 'maxWords' | 'maxChars' | 'reference'
  /** With `from: 'reference'`: the factor and the reference's word count (`max` is their product). */
  factor?: number
  referenceWords?: number
}

/**
 * The limits a text must stay within, in the order a message lists them: `maxWords`, then `factor` × the
 * reference's words (when a reference was measured; factor defaults to 2), then `maxChars`.
 */
export function lengthLimits(
  options: { maxWords?: number | undefined; maxChars?: number | undefined; factor?: number | undefined },
  referenceWords: number | undefined,
): LengthLimit[] {
  // Stryker disable next-line ArrayDeclaration: equivalent, a stray element has no unit, so no check and no message line reads it
  const limits: LengthLimit[] = []
  if (options.maxWords !== undefined) limits.push({ unit: 'words', max: options.maxWords, from: 'maxWords' })
  if (referenceWords !== undefined) {
    const factor = options.factor ?? 2
    limits.push({ unit: 'words', max: factor * referenceWords, from: 'reference', factor, referenceWords })
  }
  if (options.maxChars !== undefined) limits.push({ unit: 'chars', max: options.maxChars, from: 'maxChars' })
  return limits
}

/** The tightest limit of each unit that has one, words first. */
export function tightestLimits(limits: readonly LengthLimit[]): Array<{ unit: 'words' | 'chars'; max: number }> {
  const units = (['words', 'chars'] as const).filter((unit) => limits.some((l) => l.unit === unit))
  return units.map((unit) => ({ unit, max: Math.min(...limits.filter((l) => l.unit === unit).map((l) => l.max)) }))
}
