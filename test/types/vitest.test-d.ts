// Type tests for Vitest users (run by `vitest --typecheck`): the matchers appear on expect(), with
// their argument types, for sync use and under .not; wrong arguments do not compile.
import { describe, expect, expectTypeOf, test } from 'vitest'
import type { CallToolsOptions, ConciseOptions, ExpectedToolCall, RougeLMatcherOptions, StepsOptions } from '../../matchers/index.js'
import '../../src/entries/vitest.js'

describe('expect-llm matchers on Vitest expect()', () => {
  test('lexical matchers are typed with their arguments', () => {
    expectTypeOf(expect('x').toHaveRougeLAbove).parameters.toEqualTypeOf<[reference: string, threshold: number, options?: RougeLMatcherOptions]>()
    expectTypeOf(expect('x').toBeConcise).parameters.toEqualTypeOf<[options: ConciseOptions]>()
    expectTypeOf(expect('x').toHaveTokenF1Above).parameters.toEqualTypeOf<[reference: string | string[], threshold: number]>()
  })

  test('sync matchers return void, also under .not', () => {
    expectTypeOf(expect('x').toHaveRougeLAbove('y', 0.5)).toEqualTypeOf<void>()
    expectTypeOf(expect('x').not.toMatchAnswer(['a', 'b'])).toEqualTypeOf<void>()
    expectTypeOf(expect(['a']).toRetrieve(['a'], { k: 1 })).toEqualTypeOf<void>()
  })

  test('agent matchers are typed: sync ones return void, toCompleteGoal a Promise', () => {
    const run = [{ role: 'user', content: 'Refund A17' }]
    expectTypeOf(expect(run).toCallTool('refundOrder', { amount: expect.any(Number) })).toEqualTypeOf<void>()
    expectTypeOf(
      expect(run).not.toCallTools(['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }], { order: 'strict', extra: 'forbid' }),
    ).toEqualTypeOf<void>()
    expectTypeOf(expect(run).toCallTools).parameters.toEqualTypeOf<[expected: ExpectedToolCall[], options?: CallToolsOptions]>()
    expectTypeOf(expect(run).toHaveValidToolArguments([{ name: 'lookupOrder', input_schema: { type: 'object' } }])).toEqualTypeOf<void>()
    expectTypeOf(expect(run).toUseAtMostSteps).parameters.toEqualTypeOf<[steps: number, options?: StepsOptions]>()
    expectTypeOf(expect(run).toCompleteGoal('Refund order A17')).toEqualTypeOf<Promise<void>>()
  })

  test('wrong arguments do not compile', () => {
    // @ts-expect-error the threshold is a number, not a string
    expect('x').toHaveRougeLAbove('y', '0.5')
    // @ts-expect-error unknown variant
    expect('x').toHaveRougeLAbove('y', 0.5, { variant: 'rouge3' })
    // @ts-expect-error keywords are a list
    expect('x').toContainKeywords('refund')
    // @ts-expect-error toBeConcise needs its limits
    expect('x').toBeConcise()
    // @ts-expect-error unknown order mode
    expect([]).toCallTools(['a'], { order: 'exact' })
    // @ts-expect-error the step limit is a number
    expect([]).toUseAtMostSteps('3')
  })
})
