import { stripVTControlCharacters } from 'node:util'
import { describe, expect, test } from 'vitest'
import type { MatcherContext } from '../../matchers/context.js'
import { toCallTool } from '../../matchers/toCallTool.js'
import { toCallTools } from '../../matchers/toCallTools.js'
import { toHaveRougeNAbove } from '../../matchers/toHaveRougeNAbove.js'
import { toPassJudge } from '../../matchers/toPassJudge.js'
import { toHaveTokenF1Above } from '../../matchers/toHaveTokenF1Above.js'
import { toRetrieve } from '../../matchers/toRetrieve.js'
import { contextLine, fmt, lines, percent, preview, tokenDiff, tokenList } from '../../matchers/utils.js'
import { failureMessage } from '../helpers/failure-message.js'
import { fixedJudge } from '../helpers/model-fakes.js'
import { refundRun } from '../helpers/trajectories.js'

expect.extend({ toHaveTokenF1Above, toRetrieve, toCallTool, toCallTools, toHaveRougeNAbove, toPassJudge })

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

  test('a runner without custom testers (customTesters undefined) still matches arguments', () => {
    const ctx = { ...(runnerContext as MatcherContext), customTesters: undefined }
    expect(toCallTool.call(ctx, refundRun(), 'refundOrder', { amount: 30 }).pass).toBe(true)
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

describe('usage errors: their type and their whole message', () => {
  /** The error an assertion throws (or rejects with). */
  async function thrown(assertion: () => unknown): Promise<Error> {
    try {
      await assertion()
    } catch (error) {
      return error as Error
    }
    throw new Error('Expected the assertion to throw, but it passed.')
  }

  test('a usage error found while the judge call is prepared is thrown as is: a TypeError, with the hint once', async () => {
    const judge = fixedJudge(1)
    const error = await thrown(() => expect('Refunds within 30 days.').toPassJudge({ template: 'Compare {output} with {reference}', judge }))
    expect(error).toBeInstanceOf(TypeError)
    expect(stripVTControlCharacters(error.message)).toBe(
      'expect(output).toPassJudge(spec)\n\n[expect-llm] Failed to run toPassJudge: the template uses {reference} but no reference was given. ' +
        'Pass { reference } in the judge spec, or remove {reference} from the template.',
    )
    expect(judge.requests).toHaveLength(0)
  })

  test('a threshold that is not a number is a TypeError that describes it; a number out of range is a RangeError', async () => {
    const text = await thrown(() => expect('a b').toHaveTokenF1Above('a b', '0.5' as never))
    expect(text).toBeInstanceOf(TypeError)
    expect(stripVTControlCharacters(text.message)).toBe(
      'expect(output).toHaveTokenF1Above(reference, threshold)\n\n[expect-llm] Failed to run toHaveTokenF1Above: the threshold must be a number from 0 to 1, got a string ("0.5"). ' +
        'Pass a fraction such as 0.5 (scores are between 0 and 1).',
    )
    expect(await thrown(() => expect('a b').toHaveTokenF1Above('a b', 1.5))).toBeInstanceOf(RangeError)
  })

  test('several unknown options are all named', () => {
    expect(failureMessage(() => expect(['a']).toRetrieve(['a'], { top: 1, limit: 2 } as never))).toBe(
      'expect(retrieved).toRetrieve(relevantIds, options)\n\n[expect-llm] Failed to run toRetrieve: unknown option "top", "limit". Valid options are: k, minScore.',
    )
  })

  test('a value outside a fixed set names every allowed one, twice', () => {
    expect(failureMessage(() => expect(refundRun()).toCallTools(['lookupOrder'], { order: 'sorted' as never }))).toBe(
      "expect(trajectory).toCallTools(expected, options)\n\n[expect-llm] Failed to run toCallTools: order must be one of 'strict', 'in-order', 'any', got a string (\"sorted\"). " +
        "Pass one of 'strict', 'in-order', 'any'.",
    )
  })

  test('an integer argument: a non-number is a TypeError that describes it, a number below the minimum a RangeError', async () => {
    const text = await thrown(() => expect('a b').toHaveRougeNAbove('a b', '2' as never, 0.5))
    expect(text).toBeInstanceOf(TypeError)
    expect(stripVTControlCharacters(text.message)).toContain(
      'Failed to run toHaveRougeNAbove: n (the n-gram size) must be an integer >= 1, got a string ("2"). Pass a whole number such as 1.',
    )
    const zero = await thrown(() => expect('a b').toHaveRougeNAbove('a b', 0, 0.5))
    expect(zero).toBeInstanceOf(RangeError)
    expect(zero.message).toContain('n (the n-gram size) must be an integer >= 1, got 0. Pass a whole number such as 1.')
  })

  test('a blank tool name is refused', () => {
    expect(failureMessage(() => expect(refundRun()).toCallTool(' '))).toBe(
      'expect(trajectory).toCallTool(name)\n\n[expect-llm] Failed to run toCallTool: the tool name must be a non-empty string, got a string (" "). ' +
        "Pass the tool's name as the model sees it, e.g. 'lookupOrder'.",
    )
  })

  test('an error thrown while the trajectory is read (not a shape problem) propagates unchanged', () => {
    const broken = new Error('the getter broke')
    const received = {
      get then() {
        throw broken
      },
    }
    expect(() => expect(received).toCallTool('lookupOrder')).toThrow(broken)
  })
})
