// Type test for @types/jest users (global `expect`): the built `expect-llm/jest` types augment `jest.Matchers`.
import type {} from 'expect-llm/jest'

expect('x').toHaveRougeLAbove('y', 0.5)
expect('x').not.toHaveRougeLAbove('y', 0.5, { stemmer: true, tokenizer: 'rouge-score' })
expect('x').toHaveTokenF1Above('y', 0.8)
expect('x').toMatchAnswer(['y'])
expect('{}').toMatchSchema({ type: 'object' })
expect(['a']).toRetrieve(['a'])

// @ts-expect-error the threshold is a number, not a string
expect('x').toHaveRougeLAbove('y', '0.5')
// @ts-expect-error unknown option
expect('x').toBeConcise({ maxLines: 3 })

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
