// Type-checked only (tsc, no run), with @types/jest (the global expect) and expect-llm, without openai or
// msw. The matchers' types come from the tsconfig's "types": ["node", "jest", "expect-llm/jest"].
test('the matchers are typed on the global expect()', async () => {
  expect('You have 30 days.').toHaveRougeLAbove('Within 30 days.', 0.3)
  expect('Paris.').not.toMatchAnswer(['Lyon'])
  const verdict: Promise<void> = expect('x').toPassJudge('Is polite')
  await verdict
  await expect('You have 30 days.').toBeSemanticallySimilar('Within 30 days.')
  // @ts-expect-error the threshold is a number, not a string
  expect('x').toHaveRougeLAbove('y', '0.5')
})

export {}
