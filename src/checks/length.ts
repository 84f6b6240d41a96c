/**
 * The `length` check: 1 within every limit, else 0. Limits are in words or characters, inclusive
 * (`<=`) or strict (`<`), absolute (`maxWords`, `maxChars`) or a ratio to the case's reference
 * (`factor` × the expected answer's words, or characters with `unit: 'chars'`).
 *
 * @module
 */
import { describeValue } from '../errors.js'
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
      if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < 0))
        fail(`${prefix}${name} must be an integer >= 0, got ${got(v)}`, 'Pass a whole number such as 1.', kind(v))
    }
    const factor = options.factor
    if (factor !== undefined && (typeof factor !== 'number' || !Number.isFinite(factor) || factor <= 0))
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
