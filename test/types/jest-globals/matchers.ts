// Type test for @jest/globals users: the built `expect-llm/jest` types augment the `expect` module.
import { expect } from '@jest/globals'
import type {} from 'expect-llm/jest'

expect('x').toHaveRougeLAbove('y', 0.5)
expect('x').not.toHaveRougeLAbove('y', 0.5, { variant: 'rougeLsum', measure: 'recall' })
expect('x').toHaveRougeNAbove('y', 2, 0.3)
expect('x').toHaveTokenF1Above(['a', 'b'], 0.8)
expect('x').toHaveBleuAbove('y', 0.3)
expect('x').toHaveChrFAbove(['y', 'z'], 0.3, { wordOrder: 2 })
expect('x').toHaveTerBelow('y', 0.3, { normalized: true })
expect('x').toHaveEditSimilarityAbove('y', 0.9)
expect('x').toMatchAnswer('y')
expect('x').toContainAnswer(['y', 'z'])
expect('x').toContainKeywords(['y'], { mode: 'any' })
expect('{}').toMatchSchema({ type: 'object' })
expect('x').toBeConcise({ maxWords: 10 })
expect(['a']).toRetrieve(['a'], { k: 1, minScore: 0.2 })

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
const goal: Promise<void> = expect(run).toCompleteGoal('Refund order A17')
void goal
