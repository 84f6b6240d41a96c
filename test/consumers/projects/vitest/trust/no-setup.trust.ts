import { expect, test } from 'vitest'

test('a lexical matcher without the setup file', () => {
  expect('You have 30 days.').toHaveRougeLAbove('You can ask within 30 days.', 0.3)
})
