import { describe, expect, test } from 'vitest'
import { describeScaleValue, JudgeReplyError, normalizeScore, parseJudgeReply } from '../../src/judges/parse.js'

describe('parseJudgeReply: JSON', () => {
  test('reads a structured reply', () => {
    expect(parseJudgeReply('{"reasoning":"Same facts as the reference.","score":1}', 'binary')).toEqual({
      scaleValue: 1,
      score: 1,
      reason: 'Same facts as the reference.',
      parsedFrom: 'json',
    })
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
    const reply = JSON.stringify({
      claims: [
        { claim: 'A', supported: true, reason: 'stated' },
        { claim: 'B', supported: false, reason: 'absent' },
      ],
      reasoning: 'One of two.',
      score: 0.5,
    })
    expect(parseJudgeReply(reply, '0-1')).toMatchObject({
      score: 0.5,
      claims: [
        { claim: 'A', supported: true, reason: 'stated' },
        { claim: 'B', supported: false, reason: 'absent' },
      ],
    })
  })

  test('scores claims without an overall score as the share of supported claims', () => {
    const reply = JSON.stringify({
      claims: [
        { claim: 'A', supported: true },
        { claim: 'B', supported: true },
        { claim: 'C', supported: false },
        { claim: 'D', supported: false },
      ],
    })
    expect(parseJudgeReply(reply, '0-1').score).toBe(0.5)
  })
})

describe('parseJudgeReply: JSON fields and their aliases', () => {
  test.each([
    ['rating', '{"rating": 4}', 4],
    ['grade', '{"grade": 2}', 2],
    ['verdict', '{"verdict": "PASS"}', 5],
    ['result', '{"result": "fail."}', 1],
    ['passed', '{"passed": false}', 1],
    ['a padded numeric string', '{"score": " 4 "}', 4],
    ['a decimal string', '{"score": "2.5"}', 2.5],
  ])('reads the score from %s', (_, reply, scaleValue) => {
    expect(parseJudgeReply(reply, '1-5')).toMatchObject({ scaleValue, parsedFrom: 'json' })
  })

  test('a score string that is not just a number is not read as the JSON score (the text fallbacks may still find one)', () => {
    expect(parseJudgeReply('{"score": "4 stars"}', '1-5')).toMatchObject({ scaleValue: 4, parsedFrom: 'number' })
    expect(parseJudgeReply('{"score": "x4"}', '1-5')).toMatchObject({ parsedFrom: 'number' })
    expect(parseJudgeReply('{"score": "4."}', '1-5')).toMatchObject({ parsedFrom: 'number' })
    expect(parseJudgeReply('{"score": "-2"}', '0-5')).toMatchObject({
      scaleValue: 0,
      parsedFrom: 'json',
      note: "the judge's score -2 is outside the 0-5 scale; clamped to 0",
    })
    expect(() => parseJudgeReply('{"score": "maybe"}', 'binary')).toThrow(JudgeReplyError)
    expect(() => parseJudgeReply('{"score": "-"}', '1-5')).toThrow(JudgeReplyError)
    // Only a trailing full stop or exclamation mark is dropped from a JSON verdict word, not one inside it.
    expect(() => parseJudgeReply('{"verdict": "n.o"}', 'binary')).toThrow(JudgeReplyError)
  })

  test.each([
    ['reason', '{"score": 1, "reason": "r1"}', 'r1'],
    ['explanation', '{"score": 1, "explanation": "r2"}', 'r2'],
    ['rationale', '{"score": 1, "rationale": "r3"}', 'r3'],
    ['justification', '{"score": 1, "justification": "r4"}', 'r4'],
    ['none', '{"score": 1}', ''],
  ])('reads the reasoning from %s', (_, reply, reason) => {
    expect(parseJudgeReply(reply, 'binary')).toEqual({ scaleValue: 1, score: 1, reason, parsedFrom: 'json' })
  })

  test('claims under other names (statement, text; verdict words; reasoning, evidence) and malformed ones skipped', () => {
    const reply = JSON.stringify({
      claims: [
        { statement: 'A', verdict: 'Yes', reasoning: 'said so' },
        { text: 'B', verdict: 'no', evidence: 'not said' },
        { claim: 'C' },
        null,
        'D',
        { supported: true },
      ],
    })
    expect(parseJudgeReply(reply, '0-1')).toEqual({
      scaleValue: 0.5,
      score: 0.5,
      reason: '',
      parsedFrom: 'json',
      claims: [
        { claim: 'A', supported: true, reason: 'said so' },
        { claim: 'B', supported: false, reason: 'not said' },
      ],
    })
  })

  test('the share of supported claims is placed on the scale', () => {
    const reply = JSON.stringify({
      claims: [
        { claim: 'A', supported: true },
        { claim: 'B', supported: true },
        { claim: 'C', supported: true },
        { claim: 'D', supported: false },
      ],
    })
    expect(parseJudgeReply(reply, '1-5')).toMatchObject({ scaleValue: 4, score: 0.75 })
  })

  test('an object with neither a score nor claims is skipped, so is an empty claims list', () => {
    expect(parseJudgeReply('{"claims": []} then {"score": 0}', 'binary')).toEqual({ scaleValue: 0, score: 0, reason: '', parsedFrom: 'json' })
  })

  test('escaped quotes inside JSON strings do not end the string, and a stray brace before the object is skipped', () => {
    expect(parseJudgeReply('{ oops {"reasoning": "she said \\"no\\" {", "score": 1}', 'binary')).toMatchObject({ score: 1, reason: 'she said "no" {' })
    expect(parseJudgeReply('{"reasoning": "a backslash \\\\", "score": 1}', 'binary')).toMatchObject({ score: 1, reason: 'a backslash \\' })
  })

  test('a JSON array or string is not a reply object', () => {
    expect(parseJudgeReply('[{"score": 1}]', 'binary')).toMatchObject({ score: 1 })
    expect(() => parseJudgeReply('["PASS"] "FAIL"', '1-5')).toThrow(JudgeReplyError)
  })
})

describe('describeScaleValue', () => {
  test.each([
    [1, 'binary', 'PASS'],
    [0, 'binary', 'FAIL'],
    [0.5, 'binary', '0.5 on 0-1'],
    [4, '1-5', '4 on 1-5'],
    [1, '1-5', '1 on 1-5'],
    [0, '0-5', '0 on 0-5'],
    [3, '0-5', '3 on 0-5'],
    [0.33333, '0-1', '0.3333 on 0-1'],
  ] as const)('describes %d on %s as %j', (value, scale, text) => {
    expect(describeScaleValue(value, scale)).toBe(text)
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

  test('is a JudgeReplyError by name, and a very long reply is cut to 2,000 characters in the message', () => {
    const long = `${'x'.repeat(2000)}TAIL`
    let error: unknown
    try {
      parseJudgeReply(long, 'binary')
    } catch (e) {
      error = e
    }
    expect((error as Error).name).toBe('JudgeReplyError')
    expect((error as Error).message).toContain(`Raw reply: "${'x'.repeat(2000)}…"`)
    expect((error as JudgeReplyError).raw).toBe(long)
    expect(() => parseJudgeReply('x'.repeat(1999) + ' ', 'binary')).toThrow(`Raw reply: "${'x'.repeat(1999)} "`)
  })

  test('a score below a binary scale is clamped with the scale named as binary', () => {
    expect(parseJudgeReply('{"score": -1}', 'binary')).toMatchObject({
      scaleValue: 0,
      note: "the judge's score -1 is outside the 0-1 (binary) scale; clamped to 0",
    })
  })

  test('says when the reply is empty', () => {
    expect(() => parseJudgeReply('  ', 'binary')).toThrow("Failed to read the judge's reply: the reply is empty.")
  })
})

describe('parseJudgeReply with a chain of thought in the reply', () => {
  test('ignores a draft score inside <think> tags and reads the answer after them', () => {
    expect(parseJudgeReply('<think>\nFirst guess: {"score": 2}. No, it matches.\n</think>\n\n{"reasoning": "Matches.", "score": 5}', '1-5')).toMatchObject({
      scaleValue: 5,
      reason: 'Matches.',
    })
  })

  test('reads what follows a closing tag whose opening tag was in the prompt', () => {
    expect(parseJudgeReply('It could FAIL... but no.\n</think>\nVerdict: PASS', 'binary')).toMatchObject({ score: 1, parsedFrom: 'verdict' })
  })

  test('reads nothing from a reply cut off while thinking', () => {
    expect(() => parseJudgeReply('<think>\nThe score should be 4 because', '1-5')).toThrow(
      "Failed to read the judge's reply: the reply holds only the model's reasoning (<think>), with no answer after it.",
    )
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

describe('parseJudgeReply: reading JSON exactly', () => {
  test('an escaped quote before a brace inside a string does not end the string', () => {
    expect(parseJudgeReply('{"reasoning": "it prints \\"}\\" twice", "score": 0}', 'binary')).toStrictEqual({
      scaleValue: 0,
      score: 0,
      reason: 'it prints "}" twice',
      parsedFrom: 'json',
    })
  })

  test('an empty string as the first key is read', () => {
    expect(parseJudgeReply('{"": "", "score": 1}', 'binary')).toMatchObject({ score: 1, parsedFrom: 'json' })
  })

  test('a reply without claims or a note has no such fields', () => {
    expect(parseJudgeReply('{"reasoning": "ok", "score": 4}', '1-5')).toStrictEqual({ scaleValue: 4, score: 0.75, reason: 'ok', parsedFrom: 'json' })
  })

  test('a JSON score of 1e999 (Infinity) is not read as the JSON score', () => {
    expect(parseJudgeReply('{"score": 1e999}', '1-5')).toMatchObject({ parsedFrom: 'number' })
  })

  test.each([
    ['several digits', '{"score": "10"}', 5, "the judge's score 10 is outside the 1-5 scale; clamped to 5"],
    ['several decimals', '{"score": "2.25"}', 2.25, undefined],
  ])('a numeric string with %s is the JSON score', (_, reply, scaleValue, note) => {
    const parsed = parseJudgeReply(reply, '1-5')
    expect(parsed).toMatchObject({ scaleValue, parsedFrom: 'json' })
    expect(parsed.note).toBe(note)
  })
})

describe('parseJudgeReply: verdict words on the last line', () => {
  test.each([
    ['after reasoning on the lines above', 'The refund window matches the reference.\nPASS', 1],
    ['with emphasis and a full stop', 'The refund window is reversed.\n**FAIL.**', 0],
    ['quoted in markdown', 'The refund window matches.\n> PASS', 1],
    ['with several exclamation marks', 'The dates match.\nPASS!!', 1],
  ])('reads a verdict word %s', (_, reply, score) => {
    expect(parseJudgeReply(reply, 'binary')).toMatchObject({ score, parsedFrom: 'verdict' })
  })

  test('a last line with a dot inside a word is not a verdict word (only trailing marks are dropped)', () => {
    expect(() => parseJudgeReply('The dates are checked.\nn.o', 'binary')).toThrow(JudgeReplyError)
  })

  test('a last line of dots alone is not the last line read', () => {
    expect(parseJudgeReply('The dates match.\nPASS\n...', 'binary')).toMatchObject({ score: 1, parsedFrom: 'verdict' })
  })

  test('a first verdict word after a markdown quote is read', () => {
    expect(parseJudgeReply('> No, the refund window is reversed.', 'binary')).toMatchObject({ score: 0, parsedFrom: 'verdict' })
  })
})

describe('parseJudgeReply: which number counts', () => {
  test('on the binary scale a verdict word outranks a labelled number (no false pass from "Score: 1")', () => {
    expect(parseJudgeReply('Score: 1 for tone. Verdict: FAIL', 'binary')).toMatchObject({ score: 0, parsedFrom: 'verdict' })
  })

  test('on the binary scale a labelled number outranks the first number', () => {
    expect(parseJudgeReply('Attempt 2 of the answer. Score: 0', 'binary')).toMatchObject({ score: 0, parsedFrom: 'number' })
  })

  test.each([
    ['n/5', 'Of the 2 claims both hold: 4/5.', 4],
    ['n out of 5, in any case', 'Across 3 points: 4 Out Of 5.', 4],
  ])('reads %s rather than an earlier number', (_, reply, scaleValue) => {
    expect(parseJudgeReply(reply, '1-5')).toMatchObject({ scaleValue, parsedFrom: 'number' })
  })
})

describe('parseJudgeReply: reasoning set aside', () => {
  test('the answer between two reasoning blocks is read', () => {
    expect(parseJudgeReply('<think>Compare the dates.</think>{"reasoning": "Same.", "score": 4}<think>Done, it is 4.</think>', '1-5')).toMatchObject({
      scaleValue: 4,
      reason: 'Same.',
    })
  })

  test('a verdict right after a reasoning block is read', () => {
    expect(parseJudgeReply('<think>Compare the dates.</think>PASS', 'binary')).toMatchObject({ score: 1, parsedFrom: 'verdict' })
  })

  test('a draft score before a lone closing tag does not count', () => {
    expect(parseJudgeReply('First guess {"score": 1}\n</think>\n{"reasoning": "Wrong date.", "score": 0}', 'binary')).toMatchObject({ score: 0 })
    expect(parseJudgeReply('I lean to 5\n</think>\nThe refund window is wrong, 2 at most.', '1-5')).toMatchObject({ scaleValue: 2 })
  })
})
