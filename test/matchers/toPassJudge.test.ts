import { stripVTControlCharacters } from 'node:util'
import { afterEach, describe, expect, test, vi } from 'vitest'
import * as matcher from '../../matchers/toPassJudge.js'
import { configure, resetConfig } from '../../src/config.js'
import { JudgeReplyError } from '../../src/judges/parse.js'
import { asyncFailureMessage, fixedJudge, sampledJudge } from '../helpers/model-fakes.js'
import { withoutReplaySession } from '../helpers/without-replay.js'

expect.extend(matcher)

afterEach(() => {
  resetConfig()
  vi.unstubAllEnvs()
})

const answer = 'Wait 30 days before you can ask for a refund.'
const reference = 'You can ask for a refund within 30 days.'

describe('.toPassJudge', () => {
  test('passes when the judge says PASS', async () => {
    await expect('You have 30 days to ask for a refund.').toPassJudge({ reference, judge: fixedJudge(1) })
  })

  test('passes at the threshold (inclusive) on the 1-5 scale', async () => {
    await expect(answer).toPassJudge('Is polite', { scale: '1-5', threshold: 0.75, judge: fixedJudge(4) })
  })

  test('uses the judge from configure() when the spec has none', async () => {
    const judge = fixedJudge(1)
    configure({ judge })
    await expect(answer).toPassJudge('Is polite')
    expect(judge.requests).toHaveLength(1)
  })

  test('fails when the judge says FAIL, with the score, threshold and reasoning', async () => {
    const judge = fixedJudge(0, 'The answer makes the customer wait 30 days; the reference allows a refund within 30 days.')
    expect(await asyncFailureMessage(expect(answer).toPassJudge({ reference, input: 'How do refunds work?', judge }))).toMatchInlineSnapshot(`
      "expect(output).toPassJudge(spec)

      Expected judge score: >= 0.7
      Received judge score:    0 (FAIL, judge fake-judge)

      Judge's reasoning: "The answer makes the customer wait 30 days; the reference allows a refund within 30 days."

      Template:  correctness
      Input:     "How do refunds work?"
      Reference: "You can ask for a refund within 30 days."
      Output:    "Wait 30 days before you can ask for a refund.""
    `)
  })

  test('fails below the threshold on the 1-5 scale', async () => {
    expect(await asyncFailureMessage(expect(answer).toPassJudge('Is helpful', { scale: '1-5', judge: fixedJudge(3, 'Adequate.') }))).toMatchInlineSnapshot(`
      "expect(output).toPassJudge(criteria, options)

      Expected judge score: >= 0.7
      Received judge score:    0.5 (3 on 1-5, judge fake-judge)

      Judge's reasoning: "Adequate."

      Template:  rubric
      Criteria:  "Is helpful"
      Output:    "Wait 30 days before you can ask for a refund.""
    `)
  })

  test('fails on a minority of passing samples and reports the agreement', async () => {
    expect(
      await asyncFailureMessage(expect(answer).toPassJudge({ criteria: 'Is correct', samples: 3, judge: sampledJudge([1, 0, 0]) })),
    ).toMatchInlineSnapshot(`
      "expect(output).toPassJudge(spec)

      Expected judge score: >= 0.7
      Received judge score:    0.3333 (mean of 3 samples, judge fake-judge)
      Samples: 3, 1 passed (agreement 67%, majority FAIL); scores 1, 0, 0

      Judge's reasoning: "Sample 1 says 0."

      Template:  rubric
      Criteria:  "Is correct"
      Output:    "Wait 30 days before you can ask for a refund.""
    `)
  })

  test('passes on a majority of passing samples', async () => {
    await expect(answer).toPassJudge({ criteria: 'Is correct', samples: 3, judge: sampledJudge([1, 0, 1]) })
  })

  test('shows a note when the judge score was clamped to the scale', async () => {
    const message = await asyncFailureMessage(
      expect(answer).toPassJudge('Is helpful', {
        scale: '1-5',
        judge: fixedJudge(1, 'Bad.', { note: "the judge's score 0 is outside the 1-5 scale; clamped to 1" }),
      }),
    )
    expect(message).toContain("Note: the judge's score 0 is outside the 1-5 scale; clamped to 1")
  })

  test('sends a custom template with its placeholders filled', async () => {
    const judge = fixedJudge(1)
    await expect(answer).toPassJudge({ template: 'Q: {input}\nA: {output}\nIs it kind?', input: 'Refunds?', judge })
    expect(
      judge.requests[0]?.prompt.startsWith('Q: Refunds?\nA: Wait 30 days before you can ask for a refund.\nIs it kind?\n\nReply with only a JSON object'),
    ).toBe(true)
  })
})

describe('.not.toPassJudge', () => {
  test('passes when the judge says FAIL', async () => {
    await expect(answer).not.toPassJudge({ reference, judge: fixedJudge(0) })
  })

  test('fails when the judge says PASS', async () => {
    expect(await asyncFailureMessage(expect(reference).not.toPassJudge({ reference, judge: fixedJudge(1, 'Identical.') }))).toMatchInlineSnapshot(`
      "expect(output).not.toPassJudge(spec)

      Expected judge score: < 0.7
      Received judge score:   1 (PASS, judge fake-judge)

      Judge's reasoning: "Identical."

      Template:  correctness
      Reference: "You can ask for a refund within 30 days."
      Output:    "You can ask for a refund within 30 days.""
    `)
  })

  test('still fails when the judge reply cannot be read', async () => {
    const judge = { name: 'x', evaluate: () => Promise.reject(new JudgeReplyError('Hmm, hard to say.')) }
    expect(await asyncFailureMessage(expect(answer).not.toPassJudge('Is polite', { judge }))).toMatchInlineSnapshot(`
      "expect(output).not.toPassJudge(criteria, options)

      [expect-llm] Failed to read the judge's reply: it holds no JSON score, no verdict word (PASS/FAIL, YES/NO, CORRECT/INCORRECT) and no number. Use a judge model that follows the JSON reply format (or supports structured output), or a custom judge.
      Raw reply: "Hmm, hard to say.""
    `)
  })
})

describe('toPassJudge usage errors', () => {
  test('rejects a received value that is not a string', async () => {
    await expect(expect(42).toPassJudge('Is polite', { judge: fixedJudge(1) })).rejects.toThrow(
      '[expect-llm] Failed to run toPassJudge: the received value must be a string, got a number (42). Pass the model output text to expect().',
    )
  })

  test('rejects criteria that are neither a string nor a spec', async () => {
    await expect(expect(answer).toPassJudge(['Is polite'] as never)).rejects.toThrow(
      'the criteria must be a string or a judge spec object, got an array (length 1).',
    )
  })

  test('rejects an unknown spec key', async () => {
    await expect(expect(answer).toPassJudge({ criteria: 'x', treshold: 0.5 } as never)).rejects.toThrow(
      '[expect-llm] Failed to run toPassJudge: unknown option "treshold".',
    )
  })

  test('rejects a template placeholder without a value before calling the judge', async () => {
    const judge = fixedJudge(1)
    await expect(expect(answer).toPassJudge({ template: 'Compare {output} with {reference}', judge })).rejects.toThrow(
      '[expect-llm] Failed to run toPassJudge: the template uses {reference} but no reference was given. Pass { reference } in the judge spec, or remove {reference} from the template.',
    )
    expect(judge.requests).toHaveLength(0)
  })

  test('rejects an unknown template placeholder', async () => {
    await expect(expect(answer).toPassJudge({ template: 'Is {output} like {answer}?', judge: fixedJudge(1) })).rejects.toThrow(
      'the template uses unknown placeholder {answer}.',
    )
  })

  test('rejects with the matcher hint when the judge throws', async () => {
    const judge = { evaluate: () => Promise.reject(new Error('[expect-llm] Failed to call the judge model "m": boom.')) }
    expect(await asyncFailureMessage(expect(answer).toPassJudge('Is polite', { judge }))).toBe(
      'expect(output).toPassJudge(criteria, options)\n\n[expect-llm] Failed to call the judge model "m": boom.',
    )
  })

  test('names configure({ judge }) and OPENAI_API_KEY when no judge and no key are set', async () => {
    vi.stubEnv('OPENAI_API_KEY', '')
    await withoutReplaySession(() =>
      expect(expect(answer).toPassJudge('Is polite')).rejects.toThrow(
        '[expect-llm] Failed to create the OpenAI judge: no API key. Set OPENAI_API_KEY, or call configure({ judge: { apiKey, model, baseURL } }) in a setup file (any non-empty key for local servers), or configure({ judge }) with your own Judge or function.',
      ),
    )
  })
})

describe('toPassJudge usage errors and the template line', () => {
  const hintOf = (expected: string, options: boolean) =>
    `expect(output).toPassJudge(${expected}${options ? ', options' : ''})\n\n[expect-llm] Failed to run toPassJudge: `

  test.each([
    ['null', null],
    ['a string ("fast")', 'fast'],
    ['an array (length 0)', []],
  ])('options that are %s are refused', async (shown, options) => {
    expect(await asyncFailureMessage(expect(answer).toPassJudge('Is polite', options as never))).toBe(
      `${hintOf('criteria', true)}the options must be an object, got ${shown}. Pass judge options such as { threshold: 0.8, samples: 3 }.`,
    )
  })

  test('blank criteria are refused', async () => {
    expect(await asyncFailureMessage(expect(answer).toPassJudge(' \n'))).toBe(
      `${hintOf('criteria', false)}the criteria are an empty string. Describe what the output must do, e.g. "Answers the question politely".`,
    )
  })

  test.each([
    ['null', null],
    ['a number (3)', 3],
    ['an array (length 1)', ['Is polite']],
  ])('criteria that are %s are refused', async (shown, criteria) => {
    expect(await asyncFailureMessage(expect(answer).toPassJudge(criteria as never))).toBe(
      `${hintOf('spec', false)}the criteria must be a string or a judge spec object, got ${shown}. Pass criteria such as 'Answers politely', or { reference, criteria, scale, threshold }.`,
    )
  })

  test('a custom template is named as custom', async () => {
    const message = await asyncFailureMessage(expect(answer).toPassJudge({ template: 'Grade this: {output}', judge: fixedJudge(0) }))
    expect(message.split('\n')).toContain('Template:  custom')
  })
})

describe('the reasoning line when the judge gives none', () => {
  test('a blank reason reads "(none given)", not an empty quote', async () => {
    const message = await asyncFailureMessage(expect(answer).toPassJudge('Is polite', { judge: fixedJudge(0, ' \n ') }))
    expect(message.split('\n')).toContain("Judge's reasoning: (none given)")
  })

  test('on a panel too', async () => {
    const silent = (name: string, value: number) => ({ ...fixedJudge(value, ' \n', { model: name }), name })
    const message = await asyncFailureMessage(expect(answer).toPassJudge({ criteria: 'Is polite', samples: [silent('a', 1), silent('b', 0), silent('c', 0)] }))
    expect(message).toContain(
      "Judges: 3, 1 passed (agreement 67%, majority FAIL)\n  a: 1 (PASS)\n  b: 0 (FAIL)\n  c: 0 (FAIL)\n\nJudge's reasoning: (none given)",
    )
  })
})

describe('model errors become the matcher error', () => {
  test("the judge's error is kept as the cause, under the matcher hint", async () => {
    const down = new Error('[expect-llm] Failed to call the judge: 503 Service Unavailable.')
    const judge = { name: 'x', evaluate: () => Promise.reject(down) }
    const error = await expect(answer)
      .toPassJudge('Is polite', { judge })
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).cause).toBe(down)
    expect(stripVTControlCharacters((error as Error).message)).toBe(
      'expect(output).toPassJudge(criteria, options)\n\n[expect-llm] Failed to call the judge: 503 Service Unavailable.',
    )
  })

  test('a thrown value that is not an Error is shown as text', async () => {
    const judge = { name: 'x', evaluate: () => Promise.reject('quota exceeded') }
    expect(await asyncFailureMessage(expect(answer).toPassJudge('Is polite', { judge }))).toBe(
      'expect(output).toPassJudge(criteria, options)\n\nquota exceeded',
    )
  })
})

describe('the score line on other scales and panels', () => {
  test('a panel of one judge reads as that judge alone', async () => {
    const solo = { ...fixedJudge(0, 'No.', { model: 'solo' }), name: 'solo' }
    const message = await asyncFailureMessage(expect(answer).toPassJudge('Is polite', { samples: [solo] }))
    expect(message.split('\n').slice(2, 5)).toEqual(['Expected judge score: >= 0.7', 'Received judge score:    0 (FAIL, judge solo)', ''])
  })

  test('on the 0-1 scale the score is shown without a scale value', async () => {
    const message = await asyncFailureMessage(expect(answer).toPassJudge('Is polite', { scale: '0-1', judge: fixedJudge(0.25, 'Meh.') }))
    expect(message.split('\n')[3]).toBe('Received judge score:    0.25 (judge fake-judge)')
  })
})

describe('the samples and panel lines, case by case', () => {
  test('.not on a passing majority of samples reports it', async () => {
    const message = await asyncFailureMessage(expect(answer).not.toPassJudge({ criteria: 'Is correct', samples: 3, judge: sampledJudge([1, 1, 0]) }))
    expect(message.split('\n').slice(2, 5)).toEqual([
      'Expected judge score: < 0.7',
      'Received judge score:   0.6667 (mean of 3 samples, judge fake-judge)',
      'Samples: 3, 2 passed (agreement 67%, majority PASS); scores 1, 1, 0',
    ])
  })

  test("a panel shows each judge's notes", async () => {
    const note = "the judge's score 7 is outside the 1-5 scale; clamped to 5"
    const a = { ...fixedJudge(5, 'Good.', { model: 'a', note }), name: 'a' }
    const b = { ...fixedJudge(1, 'Bad.', { model: 'b' }), name: 'b' }
    const message = await asyncFailureMessage(expect(answer).toPassJudge({ criteria: 'Is helpful', scale: '1-5', samples: [a, b] }))
    expect(message).toContain(`  b: 0 (1 on 1-5, FAIL)\nNote: ${note}\n`)
  })
})
