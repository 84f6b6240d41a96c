// Type-checked only (tsc, no run), in a project with Vitest and expect-llm and nothing else: no openai, no
// msw, no @types/node. Nothing imports 'expect-llm/vitest': the matchers' types on expect() come from the
// tsconfig's "types": ["expect-llm/vitest"] alone (test/consumers/run.mjs writes the tsconfigs).
import { expect, expectTypeOf, test } from 'vitest'
import { configure, rougeL, type GoldenCaseInput } from 'expect-llm'

configure({ judge: { model: 'gpt-4.1-mini', baseURL: 'http://127.0.0.1:11434/v1' }, replay: { hosts: ['http://127.0.0.1:11434'] } })

const cases: GoldenCaseInput[] = [{ input: 'How long do I have?', expected: 'Within 30 days.' }]

test('the matchers are typed on expect()', async () => {
  expect('You have 30 days.').toHaveRougeLAbove('Within 30 days.', 0.3)
  expect('Paris.').not.toMatchAnswer(['Lyon'])
  expectTypeOf(expect('x').toHaveTokenF1Above('y', 0.8)).toEqualTypeOf<void>()
  expectTypeOf(expect('x').toPassJudge('Is polite')).toEqualTypeOf<Promise<void>>()
  await expect('You have 30 days.').toBeSemanticallySimilar('Within 30 days.', { threshold: 0.8 })
  await expect('You have 30 days.').not.toPassJudge({ reference: 'Within 30 days.', input: 'How long?' })
  expect(rougeL('a b', 'a c').f).toBeLessThan(1)
  expect(cases).toHaveLength(1)
  // @ts-expect-error the threshold is a number, not a string
  expect('x').toHaveRougeLAbove('y', '0.5')
  // @ts-expect-error a misspelled nested option of configure()
  configure({ replay: { host: ['http://127.0.0.1:11434'] } })
})
