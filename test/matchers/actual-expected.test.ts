// The text matchers hand the received text and the reference to the runner as `actual` and `expected`,
// so that Vitest and IDEs can show a diff beside the message.
import { expect, test } from 'vitest'

function thrown(fn: () => unknown): { actual?: unknown; expected?: unknown; message: string } {
  try {
    fn()
  } catch (error) {
    return error as { actual?: unknown; expected?: unknown; message: string }
  }
  throw new Error('the assertion did not fail')
}

const output = 'The cat sat on the mat.'
const reference = 'A dog slept on the rug.'

test.each([
  ['toHaveRougeLAbove', () => expect(output).toHaveRougeLAbove(reference, 0.9)],
  ['toHaveRougeNAbove', () => expect(output).toHaveRougeNAbove(reference, 2, 0.9)],
  ['toHaveTokenF1Above', () => expect(output).toHaveTokenF1Above(reference, 0.9)],
  ['toHaveBleuAbove', () => expect(output).toHaveBleuAbove(reference, 0.9)],
  ['toHaveChrFAbove', () => expect(output).toHaveChrFAbove(reference, 0.9)],
  ['toHaveTerBelow', () => expect(output).toHaveTerBelow(reference, 0.1)],
  ['toHaveEditSimilarityAbove', () => expect(output).toHaveEditSimilarityAbove(reference, 0.9)],
  ['toMatchAnswer', () => expect(output).toMatchAnswer(reference)],
  ['toContainAnswer', () => expect(output).toContainAnswer(reference)],
])('%s: actual is the output, expected the reference', (name, assertion) => {
  const error = thrown(assertion)
  expect(error.message).toContain(name)
  expect(error.actual).toBe(output)
  expect(error.expected).toBe(reference)
})

test('several acceptable references are the expected value as given', () => {
  const answers = ['Paris', 'paris, France']
  const error = thrown(() => expect('Lyon').toMatchAnswer(answers))
  expect(error.actual).toBe('Lyon')
  expect(error.expected).toEqual(answers)
})

test('a .not failure carries them too', () => {
  const error = thrown(() => expect(output).not.toHaveRougeLAbove(output, 0.5))
  expect(error.actual).toBe(output)
  expect(error.expected).toBe(output)
})
