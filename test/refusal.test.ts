import { describe, expect, test } from 'vitest'
import { detectRefusal, normalizeForRefusal } from '../src/refusal.js'

describe('detectRefusal', () => {
  test.each([
    ["I don't know.", 'dont-know'],
    ['I do not know the opening hours.', 'dont-know'],
    ['Honestly, I dont know', 'dont-know'],
    ['I’m not aware of any such policy.', 'not-aware'],
    ['I am not aware whether that exists.', 'not-aware'],
    ['Sorry, I am not aware.', 'not-aware'],
    ['There is no information about parking in the handbook.', 'no-information'],
    ['I have no details on that.', 'no-information'],
    ["I don't have any information on pricing.", 'dont-have-information'],
    ["I couldn't find any information about it.", 'could-not-find'],
    ['The context does not mention a refund window.', 'context-does-not-mention'],
    ["The provided documents don't say.", 'context-does-not-mention'],
    ['That is not mentioned in the context.', 'not-mentioned-in-context'],
    ["I can't help with that.", 'cannot-help'],
    ['I’m unable to assist with this request.', 'cannot-help'],
    ['Sorry, I cannot answer that question.', 'cannot-answer'],
    ['I must respectfully decline.', 'decline'],
    ['That is beyond my knowledge.', 'beyond-knowledge'],
  ])('recognizes %j as rule %s', (text, id) => {
    expect(detectRefusal(text)).toMatchObject({ refused: true, rule: { id } })
  })

  test.each([
    'Refunds are accepted within 30 days of purchase.',
    'No. The store closes at 9pm.',
    'Yes, you can bring a dog; there is no charge.',
    'The knowledge base says parking is free.',
  ])('does not flag the answer %j', (text) => {
    expect(detectRefusal(text)).toEqual({ refused: false })
  })

  test('reports the earliest matching phrase and where it is', () => {
    expect(detectRefusal('Parking is free. The context does not mention fees, and I don’t know about weekends.')).toMatchObject({
      refused: true,
      rule: { id: 'context-does-not-mention' },
      phrase: 'the context does not mention',
      index: 17,
    })
  })

  test('rejects a non-string with a clear error', () => {
    expect(() => detectRefusal(42 as unknown as string)).toThrow(
      '[expect-llm] Failed to detect a refusal: the text must be a string, got a number (42). Pass the text as a string.',
    )
  })
})

describe('normalizeForRefusal', () => {
  test('straightens typographic apostrophes, lower-cases and collapses whitespace', () => {
    expect(normalizeForRefusal('I Don’t\n  KNOW ‘it’')).toBe("i don't know 'it'")
  })
})
