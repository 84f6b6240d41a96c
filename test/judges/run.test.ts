import { afterEach, describe, expect, test } from 'vitest'
import { configure, resetConfig } from '../../src/config.js'
import { failWith } from '../../src/judges/fail.js'
import { functionJudge, resolveJudge } from '../../src/judges/resolve.js'
import { prepareJudgeCall, runJudge } from '../../src/judges/run.js'
import type { JudgeRequest } from '../../src/judges/types.js'
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
    expect(() => prepare({ criteria: 'x', treshold: 0.5 })).toThrow('unknown option "treshold". Valid options are: criteria, reference, input, context, scale, threshold, template, judge, samples.')
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

  test('fails on a custom template placeholder that has no value, before calling the judge', () => {
    let called = false
    expect(() => prepare({ template: 'Compare {output} with {reference}', judge: () => ((called = true), 1) })).toThrow('the template uses {reference} but no reference was given.')
    expect(called).toBe(false)
  })

  test('fails when a built-in template lacks what it needs', () => {
    expect(() => prepare({ template: 'faithfulness', judge: () => 1 })).toThrow("the 'faithfulness' template needs { context }, which is missing.")
  })

  test('fails on unknown judge settings', () => {
    expect(() => prepare({ criteria: 'x', judge: { modle: 'gpt-4o' } })).toThrow('unknown judge option "modle"')
  })
})

describe('runJudge', () => {
  test('passes the rendered request to the judge', async () => {
    const seen: JudgeRequest[] = []
    await runJudge(prepare({ criteria: 'Is polite', input: 'Refunds?', judge: (r: JudgeRequest) => (seen.push(r), 1) }))
    expect(seen[0]).toMatchObject({ template: 'rubric', scale: 'binary', output: 'Refunds within 30 days.', input: 'Refunds?', criteria: 'Is polite', sample: 0 })
    expect(seen[0]?.prompt).toContain('<criteria>\nIs polite\n</criteria>')
  })

  test('passes at the threshold (inclusive) and fails below it', async () => {
    const at = await runJudge(prepare({ criteria: 'x', scale: '0-1', threshold: 0.6, judge: () => 0.6 }))
    const below = await runJudge(prepare({ criteria: 'x', scale: '0-1', threshold: 0.6, judge: () => 0.59 }))
    expect([at.pass, below.pass]).toEqual([true, false])
  })

  test('takes the majority of samples and reports the agreement', async () => {
    const votes = [true, false, true, true, false]
    const verdict = await runJudge(prepare({ criteria: 'x', samples: 5, judge: (r: JudgeRequest) => ({ score: votes[r.sample] ?? false, reason: `sample ${r.sample}` }) }))
    expect(verdict).toMatchObject({ pass: true, passes: 3, agreement: 0.6, score: 0.6, reason: 'sample 0' })
  })

  test('fails a tie between samples', async () => {
    const verdict = await runJudge(prepare({ criteria: 'x', samples: 2, judge: (r: JudgeRequest) => r.sample === 0 }))
    expect(verdict).toMatchObject({ pass: false, passes: 1, agreement: 0.5 })
  })

  test('records the usage a judge reports in the ledger', async () => {
    const judge = { name: 'fake', evaluate: async () => ({ score: 1, scaleValue: 1, reason: '', raw: '', usage: { model: 'gpt-4o-mini', inputTokens: 120, outputTokens: 30 } }) }
    await runJudge(prepare({ criteria: 'x', samples: 2, judge }))
    expect(getLedger().byKind.judge).toMatchObject({ calls: 2, inputTokens: 240, outputTokens: 60 })
  })

  test('rejects a custom Judge result with a score outside [0, 1]', async () => {
    const judge = { name: 'broken', evaluate: async () => ({ score: 4, scaleValue: 4, reason: '', raw: '' }) }
    await expect(runJudge(prepare({ criteria: 'x', judge }))).rejects.toThrow('[expect-llm] Failed to use the judge: the judge "broken" returned a result with score a number (4).')
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
    await expect(functionJudge(function strict() { return 7 }).evaluate(request('1-5'))).rejects.toThrow(
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
