// Type-checked only (tsc, no run), with Jest's @jest/globals and expect-llm, without openai or msw. The
// matchers' types come from the tsconfig's "types": ["node", "expect-llm/jest"] alone ("node": Jest's own
// declarations need the @types/node that Jest installs).
import { expect, test } from '@jest/globals'
import { rougeL } from 'expect-llm'

test('the matchers are typed on expect() from @jest/globals', async () => {
  expect('You have 30 days.').toHaveRougeLAbove('Within 30 days.', 0.3)
  expect('Paris.').not.toMatchAnswer(['Lyon'])
  const verdict: Promise<void> = expect('x').toPassJudge('Is polite')
  await verdict
  await expect('You have 30 days.').toBeSemanticallySimilar('Within 30 days.')
  expect(rougeL('a b', 'a c').f).toBeLessThan(1)
  // @ts-expect-error the threshold is a number, not a string
  expect('x').toHaveRougeLAbove('y', '0.5')
})
