import { afterEach, describe, expect, test } from 'vitest'
import { configure, resetConfig } from '../../src/config.js'
import { failWith } from '../../src/errors.js'
import { functionJudge, resolveJudge } from '../../src/judges/resolve.js'
import { prepareJudgeCall, runJudge } from '../../src/judges/run.js'
import type { Judge, JudgeRequest } from '../../src/judges/types.js'
import { getLedger, resetLedger } from '../../src/ledger.js'

afterEach(() => {
  resetConfig()
  resetLedger()
})

const fail = failWith('run the judge')
const prepare = (spec: unknown, output = 'Refunds within 30 days.') => prepareJudgeCall(spec, output, {}, fail)

describe('prepareJudgeCall', () => {
  test('chooses the correctness template when a reference is given', () => {
    expect(prepare({ reference: 'Refunds within 30 days.', judge: () => 1 }).template).toBe('correctness')
  })

  test('chooses the rubric template for criteria alone', () => {
    expect(prepare({ criteria: 'Is polite', judge: () => 1 }).template).toBe('rubric')
  })

  test('defaults to the binary scale, threshold 0.7 and one sample', () => {
    expect(prepare({ criteria: 'Is polite', judge: () => 1 })).toMatchObject({ scale: 'binary', threshold: 0.7, samples: 1 })
  })

  test('fails without criteria, reference or template', () => {
    expect(() => prepare({ judge: () => 1 })).toThrow(
      "[expect-llm] Failed to run the judge: the judge needs criteria or a reference answer. Pass the criteria as a string, or { reference: 'the expected answer' }, or a custom { template }.",
    )
  })

  test('fails on an unknown spec key', () => {
    expect(() => prepare({ criteria: 'x', treshold: 0.5 })).toThrow(
      'unknown option "treshold". Valid options are: criteria, reference, input, context, scale, threshold, template, judge, samples, verbatim, lenient.',
    )
  })

  test('fails on a threshold outside [0, 1]', () => {
    expect(() => prepare({ criteria: 'x', threshold: 4 })).toThrow('the threshold must be a number from 0 to 1, got 4.')
  })

  test('fails on an unknown scale', () => {
    expect(() => prepare({ criteria: 'x', scale: '1-10' })).toThrow(`"scale" must be one of 'binary', '1-5', '0-5', '0-1', got a string ("1-10").`)
  })

  test('fails on samples that are not a whole number from 1 to 25', () => {
    expect(() => prepare({ criteria: 'x', samples: 0 })).toThrow('"samples" must be a whole number from 1 to 25 or a list of judges, got 0.')
  })

  test('threshold and samples: the bounds are accepted, values past them, fractions, NaN and strings are not', () => {
    const judge = () => 1
    expect(prepare({ criteria: 'x', threshold: 0, judge }).threshold).toBe(0)
    expect(prepare({ criteria: 'x', threshold: 1, judge }).threshold).toBe(1)
    expect(() => prepare({ criteria: 'x', threshold: -0.01 })).toThrow(
      'the threshold must be a number from 0 to 1, got -0.01. Pass a fraction of the scale such as 0.7 (scores are normalized to [0, 1]).',
    )
    expect(() => prepare({ criteria: 'x', threshold: Number.NaN })).toThrow('the threshold must be a number from 0 to 1, got NaN.')
    expect(() => prepare({ criteria: 'x', threshold: '0.5' })).toThrow('the threshold must be a number from 0 to 1, got a string ("0.5").')
    expect(prepare({ criteria: 'x', samples: 25, judge }).samples).toBe(25)
    expect(() => prepare({ criteria: 'x', samples: 26 })).toThrow(
      '"samples" must be a whole number from 1 to 25 or a list of judges, got 26. Pass for example { samples: 3 } (an odd number avoids ties).',
    )
    expect(() => prepare({ criteria: 'x', samples: 1.5 })).toThrow('"samples" must be a whole number from 1 to 25 or a list of judges, got 1.5.')
    expect(() => prepare({ criteria: 'x', samples: '3' })).toThrow('"samples" must be a whole number from 1 to 25 or a list of judges, got a string ("3").')
  })

  test('criteria, reference and input must be non-empty strings; template a non-empty string; the spec an object', () => {
    expect(() => prepare({ criteria: '  ' })).toThrow(
      '[expect-llm] Failed to run the judge: "criteria" must be a non-empty string, got a string ("  "). Pass the criteria as text, or leave it out.',
    )
    expect(() => prepare({ criteria: 'x', reference: 3 })).toThrow(
      '"reference" must be a non-empty string, got a number (3). Pass the reference as text, or leave it out.',
    )
    expect(() => prepare({ criteria: 'x', input: '' })).toThrow('"input" must be a non-empty string, got a string (""). Pass the input as text')
    expect(() => prepare({ template: ' ' })).toThrow(
      `"template" must be a built-in template name or a template string, got a string (" "). Pass one of 'correctness', `,
    )
    expect(() => prepare({ template: 7 })).toThrow('"template" must be a built-in template name or a template string, got a number (7)')
    for (const bad of [null, ['x'], 'Is polite']) {
      expect(() => prepare(bad)).toThrow(
        `[expect-llm] Failed to run the judge: the judge spec must be an object, got ${bad === null ? 'null' : Array.isArray(bad) ? 'an array' : 'a string'}`,
      )
    }
    expect(() => prepare({ criteria: 'x', context: [] })).toThrow(
      "the context must be a non-empty string or an array of non-empty strings, got an empty array. Pass the context documents as text, e.g. ['Refunds are accepted within 30 days.'].",
    )
    expect(() => prepare({ criteria: 'x', context: ['ok', ' '] })).toThrow('got an array containing a string (" ")')
    expect(() => prepare({ criteria: 'x', context: ' ' })).toThrow(
      'the context must be a non-empty string or an array of non-empty strings, got a string (" ")',
    )
  })

  test('an option set to undefined counts as left out; the request carries only the fields given', () => {
    const call = prepare({ criteria: 'Is polite', reference: undefined, samples: undefined, judge: () => 1 })
    expect(call.request).toStrictEqual({
      prompt: expect.any(String),
      template: 'rubric',
      scale: 'binary',
      output: 'Refunds within 30 days.',
      criteria: 'Is polite',
    })
    const full = prepare({ reference: 'Refunds within 30 days.', input: 'Refund window?', context: 'Refunds: 30 days.', criteria: 'Exact', judge: () => 1 })
    expect(full.request).toMatchObject({ input: 'Refund window?', reference: 'Refunds within 30 days.', context: ['Refunds: 30 days.'], criteria: 'Exact' })
  })

  test('fails on a custom template placeholder that has no value, before calling the judge', () => {
    let called = false
    expect(() => prepare({ template: 'Compare {output} with {reference}', judge: () => ((called = true), 1) })).toThrow(
      'the template uses {reference} but no reference was given.',
    )
    expect(called).toBe(false)
  })

  test('fails when a built-in template lacks what it needs', () => {
    expect(() => prepare({ template: 'faithfulness', judge: () => 1 })).toThrow("the 'faithfulness' template needs { context }, which is missing.")
  })

  test('fails on unknown judge settings', () => {
    expect(() => prepare({ criteria: 'x', judge: { modle: 'gpt-4o' } })).toThrow('unknown option "judge.modle" (did you mean "judge.model"?)')
  })
})

describe('runJudge', () => {
  test('passes the rendered request to the judge', async () => {
    const seen: JudgeRequest[] = []
    await runJudge(prepare({ criteria: 'Is polite', input: 'Refunds?', judge: (r: JudgeRequest) => (seen.push(r), 1) }))
    expect(seen[0]).toMatchObject({
      template: 'rubric',
      scale: 'binary',
      output: 'Refunds within 30 days.',
      input: 'Refunds?',
      criteria: 'Is polite',
      sample: 0,
    })
    expect(seen[0]?.prompt).toContain('<criteria>\nIs polite\n</criteria>')
  })

  test('passes at the threshold (inclusive) and fails below it', async () => {
    const at = await runJudge(prepare({ criteria: 'x', scale: '0-1', threshold: 0.6, judge: () => 0.6 }))
    const below = await runJudge(prepare({ criteria: 'x', scale: '0-1', threshold: 0.6, judge: () => 0.59 }))
    expect([at.pass, below.pass]).toEqual([true, false])
  })

  test('takes the majority of samples and reports the agreement', async () => {
    const votes = [true, false, true, true, false]
    const verdict = await runJudge(
      prepare({ criteria: 'x', samples: 5, judge: (r: JudgeRequest) => ({ score: votes[r.sample] ?? false, reason: `sample ${r.sample}` }) }),
    )
    expect(verdict).toMatchObject({ pass: true, passes: 3, agreement: 0.6, score: 0.6, reason: 'sample 0' })
  })

  test('fails a tie between samples', async () => {
    const verdict = await runJudge(prepare({ criteria: 'x', samples: 2, judge: (r: JudgeRequest) => r.sample === 0 }))
    expect(verdict).toMatchObject({ pass: false, passes: 1, agreement: 0.5 })
  })

  test('the reason, claims and judge name come from the first sample that agrees with the verdict, a score at the threshold agreeing with a pass', async () => {
    const results = [
      { score: 0.5, scaleValue: 0.5, reason: 'below', raw: '', model: 'm-below', claims: [{ claim: 'b', supported: false }] },
      { score: 0.7, scaleValue: 0.7, reason: 'at', raw: '', model: 'm-at', claims: [{ claim: 'a', supported: true }] },
      { score: 0.9, scaleValue: 0.9, reason: 'above', raw: '', model: 'm-above' },
    ]
    const judge = { name: 'samples', evaluate: async (r: JudgeRequest) => results[r.sample]! }
    const verdict = await runJudge(prepare({ criteria: 'x', scale: '0-1', threshold: 0.7, samples: 3, judge }))
    expect(verdict).toMatchObject({ pass: true, passes: 2, reason: 'at', judgeName: 'm-at', claims: [{ claim: 'a', supported: true }] })
    const plain = await runJudge(
      prepare({ criteria: 'x', judge: { name: 'plain', evaluate: async () => ({ score: 1, scaleValue: 1, reason: 'ok', raw: '' }) } }),
    )
    expect(plain.judgeName).toBe('plain')
    expect(plain).not.toHaveProperty('claims')
  })

  test('faithfulness scores the share of supported claims, over the number the judge wrote; no claims keeps the number', async () => {
    const claims = [
      { claim: 'a', supported: true },
      { claim: 'b', supported: true },
      { claim: 'c', supported: false },
      { claim: 'd', supported: true },
    ]
    const spec = (c: typeof claims) => ({
      template: 'faithfulness',
      context: 'ctx',
      scale: '0-1',
      judge: { name: 'f', evaluate: async () => ({ score: 0.1, scaleValue: 0.1, reason: '', raw: '', claims: c }) },
    })
    expect(await runJudge(prepare(spec(claims)))).toMatchObject({ score: 0.75, results: [{ score: 0.75, scaleValue: 0.75 }] })
    expect(await runJudge(prepare(spec([])))).toMatchObject({ score: 0.1, results: [{ score: 0.1, scaleValue: 0.1 }] })
    const rubric = { criteria: 'x', scale: '0-1', judge: { name: 'r', evaluate: async () => ({ score: 0.1, scaleValue: 0.1, reason: '', raw: '', claims }) } }
    expect((await runJudge(prepare(rubric))).score).toBe(0.1)
  })

  test('records the usage a judge reports in the ledger', async () => {
    const judge = {
      name: 'fake',
      evaluate: async () => ({ score: 1, scaleValue: 1, reason: '', raw: '', usage: { model: 'gpt-4o-mini', inputTokens: 120, outputTokens: 30 } }),
    }
    await runJudge(prepare({ criteria: 'x', samples: 2, judge }))
    expect(getLedger().byKind.judge).toMatchObject({ calls: 2, inputTokens: 240, outputTokens: 60 })
  })

  test('rejects a custom Judge result with a score outside [0, 1]', async () => {
    const judge = { name: 'broken', evaluate: async () => ({ score: 4, scaleValue: 4, reason: '', raw: '' }) }
    await expect(runJudge(prepare({ criteria: 'x', judge }))).rejects.toThrow(
      '[expect-llm] Failed to use the judge: the judge "broken" returned a result with score a number (4).',
    )
  })
})

describe('functionJudge', () => {
  const request = (scale: JudgeRequest['scale']): JudgeRequest => ({ prompt: '', template: 'rubric', scale, output: 'x', sample: 0 })

  test('reads a number on the request scale', async () => {
    expect(await functionJudge(() => 4).evaluate(request('1-5'))).toEqual({ score: 0.75, scaleValue: 4, reason: '', raw: '', parsedFrom: 'function' })
  })

  test('reads booleans as PASS and FAIL', async () => {
    expect((await functionJudge(() => false).evaluate(request('binary'))).score).toBe(0)
  })

  test('rejects a number outside the scale', async () => {
    await expect(
      functionJudge(function strict() {
        return 7
      }).evaluate(request('1-5')),
    ).rejects.toThrow(
      '[expect-llm] Failed to use the judge: the judge function "strict" returned a number (7), which is not a score on the 1-5 scale (1 to 5). Return a number from 1 to 5, true/false, or { score, reason }.',
    )
  })
})

describe('resolveJudge', () => {
  test('uses the configured judge when none is passed', () => {
    const judge = { evaluate: async () => ({ score: 1, scaleValue: 1, reason: '', raw: '' }) }
    configure({ judge })
    expect(resolveJudge()).toBe(judge)
  })

  test('returns one OpenAI judge per settings object', () => {
    const settings = { model: 'gpt-4o-mini', apiKey: 'k' }
    expect(resolveJudge(settings)).toBe(resolveJudge(settings))
  })
})

describe('runJudge: names', () => {
  const unnamed = (score: number): Judge => ({ evaluate: async () => ({ score, scaleValue: score, reason: 'r', raw: '' }) })

  test('a Judge without a name is "judge" in the verdict and in its errors', async () => {
    expect((await runJudge(prepare({ criteria: 'x', judge: unnamed(1) }))).judgeName).toBe('judge')
    await expect(runJudge(prepare({ criteria: 'x', judge: unnamed(2) }))).rejects.toThrow('the judge "judge" returned a result with score a number (2)')
  })

  test('a panel names judges without a name by their place', async () => {
    const verdict = await runJudge(prepare({ criteria: 'x', samples: [unnamed(1), unnamed(0), unnamed(1)] }))
    expect(verdict.judgeName).toBe('judge 1 + judge 2 + judge 3')
    expect(verdict.panel?.map((v) => v.judge)).toEqual(['judge 1', 'judge 2', 'judge 3'])
  })

  test("a panel judge's score at the threshold is a passing vote", async () => {
    const verdict = await runJudge(prepare({ criteria: 'x', scale: '0-1', threshold: 0.6, samples: [unnamed(0.6), unnamed(0.5), unnamed(0.6)] }))
    expect(verdict.panel?.map((v) => v.pass)).toEqual([true, false, true])
  })

  test('the request carries no criteria when the spec gives none', () => {
    expect(prepare({ reference: 'Refunds within 30 days.', judge: () => 1 }).request).not.toHaveProperty('criteria')
  })
})
