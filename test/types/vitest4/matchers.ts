// Type test for Vitest 4.1 users: the built `expect-llm/vitest` types merge into Vitest 4's
// `Matchers<T = any>` (sync matchers return void, model-backed ones Promise<void>).
import { expect, expectTypeOf } from 'vitest'
import type {} from 'expect-llm/vitest'

expect('x').toHaveRougeLAbove('y', 0.5)
expect('x').not.toHaveRougeLAbove('y', 0.5, { variant: 'rougeLsum' })
expect('x').toMatchAnswer(['a', 'b'])
expect(['a']).toRetrieve(['a'], { k: 1 })
expect.toHaveRougeLAbove('y', 0.5)
expectTypeOf(expect('x').toHaveTokenF1Above('y', 0.8)).toEqualTypeOf<void>()
expectTypeOf(expect('x').toBeSemanticallySimilar('y')).toEqualTypeOf<Promise<void>>()
expectTypeOf(expect('x').toPassJudge('is polite')).toEqualTypeOf<Promise<void>>()

// @ts-expect-error the threshold is a number, not a string
expect('x').toHaveRougeLAbove('y', '0.5')
// @ts-expect-error keywords are a list
expect('x').toContainKeywords('refund')

// Agent matchers
const run = [{ role: 'user', content: 'Refund A17' }]
expect(run).toCallTool('refundOrder', { amount: expect.any(Number) })
expect(run).not.toCallTools(['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }], { order: 'any', extra: 'forbid' })
expect(run).toHaveValidToolArguments({ lookupOrder: { type: 'object' } })
expect(run).toUseAtMostSteps(5, { repeatedCalls: 'forbid' })
// @ts-expect-error unknown order mode
expect(run).toCallTools(['a'], { order: 'exact' })
expectTypeOf(expect(run).toCompleteGoal('Refund order A17')).toEqualTypeOf<Promise<void>>()
