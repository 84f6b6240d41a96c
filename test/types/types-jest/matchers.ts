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
