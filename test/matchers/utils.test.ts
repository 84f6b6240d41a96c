import { stripVTControlCharacters } from 'node:util'
import { describe, expect, test } from 'vitest'
import type { MatcherContext } from '../../matchers/context.js'
import { toCallTool } from '../../matchers/toCallTool.js'
import { toHaveTokenF1Above } from '../../matchers/toHaveTokenF1Above.js'
import { toRetrieve } from '../../matchers/toRetrieve.js'
import { contextLine, fmt, lines, percent, preview, tokenDiff, tokenList } from '../../matchers/utils.js'
import { failureMessage } from '../helpers/failure-message.js'
import { refundRun } from '../helpers/trajectories.js'

expect.extend({ toHaveTokenF1Above, toRetrieve })

describe('tokenDiff', () => {
  test('lists reference tokens missing from the output and output tokens not in the reference', () => {
    expect(tokenDiff(['wait', '30', 'days', 'refund'], ['refund', 'within', '30', 'days'])).toEqual({ missing: ['within'], extra: ['wait'] })
  })

  test('counts repeated tokens as a multiset', () => {
    expect(tokenDiff(['mix'], ['mix', 'well', 'mix', 'well'])).toEqual({ missing: ['mix', 'well', 'well'], extra: [] })
  })

  test('counts repeated output tokens once each as extra', () => {
    expect(tokenDiff(['no', 'no', 'no', 'yes'], ['yes', 'no'])).toEqual({ missing: [], extra: ['no', 'no'] })
  })

  test('is empty for identical token lists', () => {
    expect(tokenDiff(['a', 'b'], ['b', 'a'])).toEqual({ missing: [], extra: [] })
  })
})

describe('tokenList', () => {
  test('quotes tokens and caps the list', () => {
    expect(tokenList('Missing', ['a', 'b', 'c'], 2)).toBe('Missing (3): "a", "b" … and 1 more')
  })

  test('says none for an empty list', () => {
    expect(tokenList('Missing', [])).toBe('Missing: none')
  })
})

describe('preview', () => {
  test('shows short texts whole, newlines as ⏎', () => {
    expect(preview('a\nb')).toBe('"a⏎b"')
  })

  test('cuts long texts in the middle and gives the length in characters', () => {
    const text = `${'a'.repeat(100)}${'z'.repeat(100)}`
    expect(preview(text, 10)).toBe('"aaaaaa" … "zzzz" (200 characters)')
  })

  test('never splits a surrogate pair', () => {
    expect(preview('🚆'.repeat(20), 10)).toBe(`"${'🚆'.repeat(6)}" … "${'🚆'.repeat(4)}" (20 characters)`)
  })
})

describe('fmt', () => {
  test('rounds to 4 decimals without trailing zeros', () => {
    expect([fmt(0.333333), fmt(0.5), fmt(1), fmt(1.0000000000000004)]).toEqual(['0.3333', '0.5', '1', '1'])
  })
})

describe('limits at their boundaries', () => {
  test('tokenList shows exactly max tokens without "more"', () => {
    expect(tokenList('Missing', ['a', 'b'], 2)).toBe('Missing (2): "a", "b"')
  })

  test('preview shows a text of exactly max characters whole', () => {
    expect(preview('abcdefghij', 10)).toBe('"abcdefghij"')
    expect(preview('a'.repeat(160))).toBe(`"${'a'.repeat(160)}"`)
  })
})

describe('the shared usage checks, through matchers that use them', () => {
  test('a threshold of 0 or 1 is accepted', () => {
    expect('a b').toHaveTokenF1Above('c d', 0)
    expect('a b').toHaveTokenF1Above('a b', 1)
  })

  test.each([
    ['null', null],
    ['an array (length 0)', []],
    ['a string ("k")', 'k'],
  ])('options that are %s are refused, listing the valid ones', (shown, options) => {
    expect(failureMessage(() => expect(['a']).toRetrieve(['a'], options as never))).toBe(
      `expect(retrieved).toRetrieve(relevantIds, options)\n\n[expect-llm] Failed to run toRetrieve: the options must be an object, got ${shown}. Pass an object with any of: k, minScore.`,
    )
  })

  test('an array of ids with a blank or non-string entry names it and its index', () => {
    expect(failureMessage(() => expect(['a']).toRetrieve(['a', ' ']))).toBe(
      'expect(retrieved).toRetrieve(relevantIds)\n\n[expect-llm] Failed to run toRetrieve: the relevant ids must be non-empty strings, got an empty string (" ") at index 1. Remove it, or pass the relevant ids as strings, e.g. [\'refund-policy\'].',
    )
    expect(failureMessage(() => expect(['a']).toRetrieve(['a', 3] as never))).toContain(
      'the relevant ids must be non-empty strings, got a number (3) at index 1.',
    )
    expect(failureMessage(() => expect(['a']).toRetrieve([]))).toContain(
      "the relevant ids must be a non-empty array of strings, got an empty array. Pass them as an array, e.g. ['refund-policy'].",
    )
  })

  test('k must be an integer of at least 1: 1 is accepted, a non-number is refused', () => {
    expect(['a']).toRetrieve(['a'], { k: 1 })
    expect(failureMessage(() => expect(['a']).toRetrieve(['a'], { k: Number.NaN }))).toContain('k must be an integer >= 1, got NaN.')
  })
})

describe("partialEquals: argument matching needs the runner's equals()", () => {
  // The context Vitest gives a matcher, captured once, then stripped of one member at a time.
  let runnerContext: MatcherContext | undefined
  expect.extend({
    captureContext(this: MatcherContext) {
      runnerContext = this
      return { pass: true, message: () => '' }
    },
  })
  ;(expect(null) as unknown as { captureContext(): void }).captureContext()

  test.each([
    ['equals()', (ctx: MatcherContext): MatcherContext => ({ ...ctx, equals: undefined })],
    ['utils.subsetEquality', (ctx: MatcherContext): MatcherContext => ({ ...ctx, utils: { ...ctx.utils, subsetEquality: undefined } })],
    ['utils.iterableEquality', (ctx: MatcherContext): MatcherContext => ({ ...ctx, utils: { ...ctx.utils, iterableEquality: undefined } })],
  ])('a context without %s is refused with how to register the matcher', (_, strip) => {
    const ctx = strip(runnerContext as MatcherContext)
    let thrown: unknown
    try {
      toCallTool.call(ctx, refundRun(), 'refundOrder', { amount: 30 })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(Error)
    expect(thrown).not.toBeInstanceOf(TypeError)
    expect(stripVTControlCharacters((thrown as Error).message)).toBe(
      'expect(trajectory).toCallTool(name, args)\n\n[expect-llm] Failed to run toCallTool: the matcher context has no equals() and subsetEquality ' +
        "(they come from the test runner's expect). Register the matcher with expect.extend() of Vitest or Jest, or through expect-llm/vitest or expect-llm/jest.",
    )
  })

  test("the runner's custom equality testers are used", () => {
    // A tester that takes a number and its decimal string as equal, as expect.addEqualityTesters would add.
    const numberAsText = (a: unknown, b: unknown) => (typeof a === 'number' && typeof b === 'string' ? String(a) === b : undefined)
    const ctx = runnerContext as MatcherContext
    expect(toCallTool.call(ctx, refundRun(), 'refundOrder', { amount: '30' }).pass).toBe(false)
    expect(toCallTool.call({ ...ctx, customTesters: [numberAsText] }, refundRun(), 'refundOrder', { amount: '30' }).pass).toBe(true)
  })

  test('an error thrown by an asymmetric matcher is not restated as a usage error', () => {
    const broken = new RangeError('my matcher broke')
    const matcher = {
      asymmetricMatch: () => {
        throw broken
      },
    }
    expect(() => toCallTool.call(runnerContext as MatcherContext, refundRun(), 'refundOrder', { amount: matcher })).toThrow(broken)
  })

  test('with the full context, the runner equals() decides (asymmetric matchers work)', () => {
    const result = toCallTool.call(runnerContext as MatcherContext, refundRun(), 'refundOrder', { amount: expect.any(Number) })
    expect(result.pass).toBe(true)
  })
})

describe('message helpers at their edges', () => {
  test('preview shows Windows line ends as one ⏎ each', () => {
    expect(preview('a\r\nb\nc')).toBe('"a⏎b⏎c"')
  })

  test('preview keeps the first 60% (rounded up) and the last 40% (rounded down) of a long text', () => {
    // max 11: 7 characters of head, 4 of tail.
    expect(preview('abcdefghijklmnopqrstuvwxyz', 11)).toBe('"abcdefg" … "wxyz" (26 characters)')
  })

  test('preview cuts past 160 characters by default', () => {
    const text = 'a'.repeat(161)
    expect(preview(text)).toBe(`"${'a'.repeat(96)}" … "${'a'.repeat(64)}" (161 characters)`)
  })

  test('tokenList shows 15 tokens by default', () => {
    const tokens = Array.from({ length: 16 }, (_, i) => `t${i}`)
    expect(tokenList('Extra', tokens.slice(0, 15))).toBe(
      `Extra (15): ${tokens
        .slice(0, 15)
        .map((t) => `"${t}"`)
        .join(', ')}`,
    )
    expect(tokenList('Extra', tokens)).toBe(
      `Extra (16): ${tokens
        .slice(0, 15)
        .map((t) => `"${t}"`)
        .join(', ')} … and 1 more`,
    )
  })

  test('lines drops undefined and false parts, flattens arrays and keeps blank lines', () => {
    expect(lines('a', undefined, false, ['b', 'c'], '', 'd')).toBe('a\nb\nc\n\nd')
  })

  test('contextLine counts the documents and previews the first one', () => {
    expect(contextLine(['Refunds within 30 days.'])).toBe('Context: 1 document, first "Refunds within 30 days."')
    expect(contextLine(['a', 'b'])).toBe('Context: 2 documents, first "a"')
    expect(contextLine([])).toBe('Context: 0 documents, first ""')
    expect(contextLine([`${'x'.repeat(60)}${'y'.repeat(60)}`])).toBe(`Context: 1 document, first "${'x'.repeat(60)}" … "${'y'.repeat(40)}" (120 characters)`)
  })

  test('percent rounds to a whole percent', () => {
    expect([percent(2 / 3), percent(0.005), percent(1), percent(0)]).toEqual(['67%', '1%', '100%', '0%'])
  })
})
