import { describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toPassCheck.js'
import { defineCheck } from '../../src/checks/define.js'
import { asyncFailureMessage } from '../helpers/model-fakes.js'

expect.extend(matcher)

const concise = defineCheck({
  name: 'concise',
  threshold: 1,
  run: (output, c) => {
    const max = 2 * String(c.expected ?? '').length
    return output.length < max ? 1 : { score: 0, reason: `${output.length} characters, at least ${max}` }
  },
})
const politeness = defineCheck({ name: 'politeness', run: async (output) => (/please|thank/i.test(output) ? 0.9 : 0.2) })

describe('.toPassCheck', () => {
  test("passes at or above the check's own threshold, with the case fields it needs", async () => {
    await expect('Within 30 days.').toPassCheck(concise, undefined, { expected: 'Refunds within 30 days.' })
  })

  test('passes an async check at or above the threshold given (inclusive)', async () => {
    await expect('Thank you for asking.').toPassCheck(politeness, 0.9)
  })

  test("fails with the score and the check's reason", async () => {
    expect(
      await asyncFailureMessage(
        expect('Refunds are possible within thirty days of delivery.').toPassCheck(concise, undefined, { expected: 'Within 30 days.' }),
      ),
    ).toMatchInlineSnapshot(`
      "expect(output).toPassCheck(check)

      Expected concise: >= 1
      Received concise:    0

      Reason: 52 characters, at least 30

      Output: "Refunds are possible within thirty days of delivery.""
    `)
  })

  test('.not fails when the check passes', async () => {
    expect(await asyncFailureMessage(expect('Thanks!').not.toPassCheck(politeness, 0.5))).toMatchInlineSnapshot(`
      "expect(output).not.toPassCheck(check, threshold)

      Expected politeness: < 0.5
      Received politeness:   0.9

      Output: "Thanks!""
    `)
  })

  test('.not passes when the check fails', async () => {
    await expect('Go away.').not.toPassCheck(politeness, 0.5)
  })

  test('the check gets the input, references, context documents and retrieved items', async () => {
    let seen: unknown
    const probe = defineCheck({ name: 'probe', threshold: 0, options: { k: 1 }, run: (_o, c, ctx) => ((seen = { input: c.input, ...ctx }), 1) })
    await expect('x').toPassCheck(probe, undefined, { input: { q: 'refund' }, expected: 'a', acceptable: ['b'], context: 'doc', retrieved: ['d1'] })
    expect(seen).toEqual({
      input: { q: 'refund' },
      key: 'probe',
      inputText: '{"q":"refund"}',
      references: ['a', 'b'],
      context: ['doc'],
      retrieved: ['d1'],
      options: { k: 1 },
    })
  })

  test.each([
    ['a non-string output', 42, concise, 1, 'the received value must be a string, got a number (42)'],
    ['something that is not a check', 'x', { name: 'x', run: () => 1 }, 1, 'the check must be made by defineCheck(), got an object'],
    ['no threshold anywhere', 'x', politeness, undefined, 'check "politeness" has no threshold. Pass one: toPassCheck(politeness, 0.8)'],
    ['a threshold outside [0, 1]', 'x', politeness, 2, 'the threshold must be a number from 0 to 1, got 2'],
  ])('rejects %s, also under .not', async (_, received, check, threshold, error) => {
    await expect(expect(received).toPassCheck(check as never, threshold as never)).rejects.toThrow(error)
    await expect(expect(received).not.toPassCheck(check as never, threshold as never)).rejects.toThrow(error)
  })

  test.each([
    ['null', null, 'null'],
    ['a string', 'Paris', 'a string ("Paris")'],
    ['an array', ['Paris'], 'an array (length 1)'],
  ])('rejects a case that is %s, also under .not', async (_, caseFields, shown) => {
    for (const assertion of [
      expect('x').toPassCheck(politeness, 0.5, caseFields as never),
      expect('x').not.toPassCheck(politeness, 0.5, caseFields as never),
    ]) {
      const error = await assertion.then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(TypeError)
      expect((error as Error).message).toContain(`the case must be an object, got ${shown}. Pass { input?, expected?, context?, ... }.`)
    }
  })

  test('names every unknown case field and the valid ones', async () => {
    await expect(expect('x').toPassCheck(politeness, 0.5, { question: 'q', answer: 'a' } as never)).rejects.toThrow(
      'unknown case field "question", "answer". Valid fields are: id, input,',
    )
  })

  test('names the fix when the check is not made by defineCheck()', async () => {
    await expect(expect('x').toPassCheck({ name: 'x', run: () => 1 } as never, 0.5)).rejects.toThrow(
      "Pass defineCheck({ name, run }) (import { defineCheck } from 'expect-llm').",
    )
  })

  test('a check that throws or returns no score fails under .not too', async () => {
    const throws = defineCheck({
      name: 'throws',
      threshold: 0.5,
      run: () => {
        throw new Error('no API key')
      },
    })
    const nan = defineCheck({ name: 'nan', threshold: 0.5, run: () => Number.NaN })
    const above = defineCheck({ name: 'above', threshold: 0.5, run: () => 1.2 })
    await expect(expect('x').not.toPassCheck(throws)).rejects.toThrow('Failed to run toPassCheck: check "throws" threw: no API key.')
    await expect(expect('x').not.toPassCheck(nan)).rejects.toThrow('Failed to run toPassCheck: check "nan" returned NaN.')
    await expect(expect('x').not.toPassCheck(above)).rejects.toThrow('Failed to run toPassCheck: check "above" returned 1.2, outside [0, 1].')
  })

  test('rejects unknown case fields', async () => {
    await expect(expect('x').toPassCheck(concise, 1, { expcted: 'a' } as never)).rejects.toThrow(
      'unknown case field "expcted". Valid fields are: id, input, expected',
    )
  })
})
