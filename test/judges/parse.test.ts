import { describe, expect, test } from 'vitest'
import { JudgeReplyError, normalizeScore, parseJudgeReply } from '../../src/judges/parse.js'

describe('parseJudgeReply: JSON', () => {
  test('reads a structured reply', () => {
    expect(parseJudgeReply('{"reasoning":"Same facts as the reference.","score":1}', 'binary')).toEqual({ scaleValue: 1, score: 1, reason: 'Same facts as the reference.', parsedFrom: 'json' })
  })

  test('reads JSON inside a code fence with prose around it', () => {
    const reply = 'Here is my grade:\n```json\n{"score": 4, "reasoning": "Mostly complete."}\n```\nThanks!'
    expect(parseJudgeReply(reply, '1-5')).toMatchObject({ scaleValue: 4, score: 0.75, reason: 'Mostly complete.', parsedFrom: 'json' })
  })

  test('skips a JSON object without a score and keeps looking', () => {
    const reply = 'Input was {"q": "refund"}. Result: {"verdict": "FAIL", "explanation": "Wrong window."}'
    expect(parseJudgeReply(reply, 'binary')).toMatchObject({ score: 0, reason: 'Wrong window.', parsedFrom: 'json' })
  })

  test('reads a numeric string score', () => {
    expect(parseJudgeReply('{"score": "3", "reason": "ok"}', '0-5')).toMatchObject({ scaleValue: 3, score: 0.6 })
  })

  test('reads a boolean pass field as the ends of the scale', () => {
    expect(parseJudgeReply('{"pass": true, "reasoning": "fine"}', '1-5')).toMatchObject({ scaleValue: 5, score: 1 })
  })

  test('keeps braces inside JSON strings intact', () => {
    expect(parseJudgeReply('{"reasoning": "the output has {braces}", "score": 0}', 'binary')).toMatchObject({ score: 0, reason: 'the output has {braces}' })
  })

  test('reads faithfulness claims and uses the stated score', () => {
    const reply = JSON.stringify({ claims: [{ claim: 'A', supported: true, reason: 'stated' }, { claim: 'B', supported: false, reason: 'absent' }], reasoning: 'One of two.', score: 0.5 })
    expect(parseJudgeReply(reply, '0-1')).toMatchObject({
      score: 0.5,
      claims: [
        { claim: 'A', supported: true, reason: 'stated' },
        { claim: 'B', supported: false, reason: 'absent' },
      ],
    })
  })

  test('scores claims without an overall score as the share of supported claims', () => {
    const reply = JSON.stringify({ claims: [{ claim: 'A', supported: true }, { claim: 'B', supported: true }, { claim: 'C', supported: false }, { claim: 'D', supported: false }] })
    expect(parseJudgeReply(reply, '0-1').score).toBe(0.5)
  })
})

describe('parseJudgeReply: verdict words', () => {
  test.each([
    ['PASS', 1],
    ['FAIL', 0],
    ['yes', 1],
    ['No.', 0],
    ['**CORRECT**', 1],
    ['Incorrect', 0],
  ])('reads the whole reply %j', (reply, score) => {
    expect(parseJudgeReply(reply, 'binary')).toMatchObject({ score, parsedFrom: 'verdict' })
  })

  test('reads a labelled verdict and keeps the reply as the reason', () => {
    const reply = 'The answer inverts the condition.\nVerdict: FAIL'
    expect(parseJudgeReply(reply, 'binary')).toEqual({ scaleValue: 0, score: 0, reason: reply, parsedFrom: 'verdict' })
  })

  test('takes the last labelled verdict when the judge changes its mind', () => {
    expect(parseJudgeReply('Initial verdict: FAIL. On reflection it is fine. Final verdict: PASS', 'binary').score).toBe(1)
  })

  test('reads a first word followed by punctuation', () => {
    expect(parseJudgeReply('No, the refund window is reversed.', 'binary').score).toBe(0)
  })

  test('does not read "no" inside a sentence as a verdict', () => {
    expect(() => parseJudgeReply('There are no problems with tone but I cannot decide.', 'binary')).toThrow(JudgeReplyError)
  })

  test('maps a verdict word to the ends of a numeric scale', () => {
    expect(parseJudgeReply('PASS', '1-5')).toMatchObject({ scaleValue: 5, score: 1 })
  })
})

describe('parseJudgeReply: numbers', () => {
  test('prefers a labelled score on numeric scales over a verdict word', () => {
    expect(parseJudgeReply('Yes, mostly right. Score: 4', '1-5')).toMatchObject({ scaleValue: 4, parsedFrom: 'number' })
  })

  test('reads "n/5"', () => {
    expect(parseJudgeReply('I would give it 3/5 overall.', '0-5')).toMatchObject({ scaleValue: 3, score: 0.6 })
  })

  test('falls back to the first number', () => {
    expect(parseJudgeReply('0.85 seems right to me', '0-1')).toMatchObject({ scaleValue: 0.85, score: 0.85, parsedFrom: 'number' })
  })

  test('clamps a number above the scale and says so', () => {
    expect(parseJudgeReply('{"score": 7, "reasoning": "great"}', '1-5')).toMatchObject({
      scaleValue: 5,
      score: 1,
      note: "the judge's score 7 is outside the 1-5 scale; clamped to 5",
    })
  })

  test('clamps a number below the scale', () => {
    expect(parseJudgeReply('Score: -2', '0-5')).toMatchObject({ scaleValue: 0, score: 0, note: "the judge's score -2 is outside the 0-5 scale; clamped to 0" })
  })
})

describe('parseJudgeReply: unreadable replies', () => {
  test('throws a JudgeReplyError carrying the raw reply', () => {
    const reply = 'I am not able to evaluate this.'
    let error: unknown
    try {
      parseJudgeReply(reply, 'binary')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(JudgeReplyError)
    expect((error as JudgeReplyError).raw).toBe(reply)
    expect((error as JudgeReplyError).message).toBe(
      `[expect-llm] Failed to read the judge's reply: it holds no JSON score, no verdict word (PASS/FAIL, YES/NO, CORRECT/INCORRECT) and no number. Use a judge model that follows the JSON reply format (or supports structured output), or a custom judge.\nRaw reply: "I am not able to evaluate this."`,
    )
  })

  test('says when the reply is empty', () => {
    expect(() => parseJudgeReply('  ', 'binary')).toThrow("Failed to read the judge's reply: the reply is empty.")
  })
})

describe('parseJudgeReply with a chain of thought in the reply', () => {
  test('ignores a draft score inside <think> tags and reads the answer after them', () => {
    expect(parseJudgeReply('<think>\nFirst guess: {"score": 2}. No, it matches.\n</think>\n\n{"reasoning": "Matches.", "score": 5}', '1-5')).toMatchObject({ scaleValue: 5, reason: 'Matches.' })
  })

  test('reads what follows a closing tag whose opening tag was in the prompt', () => {
    expect(parseJudgeReply('It could FAIL... but no.\n</think>\nVerdict: PASS', 'binary')).toMatchObject({ score: 1, parsedFrom: 'verdict' })
  })

  test('reads nothing from a reply cut off while thinking', () => {
    expect(() => parseJudgeReply('<think>\nThe score should be 4 because', '1-5')).toThrow("Failed to read the judge's reply: the reply holds only the model's reasoning (<think>), with no answer after it.")
  })

  test('also skips <thinking> blocks', () => {
    expect(parseJudgeReply('<thinking>score: 1</thinking>{"reasoning": "ok", "score": 0}', 'binary')).toMatchObject({ score: 0 })
  })
})

describe('normalizeScore', () => {
  test.each([
    ['binary', 1, 1],
    ['1-5', 1, 0],
    ['1-5', 4, 0.75],
    ['0-5', 4, 0.8],
    ['0-1', 0.3, 0.3],
  ] as const)('normalizes %s value %d to %d', (scale, value, expected) => {
    expect(normalizeScore(value, scale)).toBe(expected)
  })
})
