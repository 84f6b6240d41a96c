// The named steps behind toPassCheck (userCheckCase, scoreUserCheck in src/checks/direct.ts), with literal
// expected values.
import { describe, expect, test } from 'vitest'
import { defineCheck } from '../../src/checks/define.js'
import { scoreUserCheck, USER_CHECK_CASE_KEYS, userCheckCase } from '../../src/checks/direct.js'

const echo = defineCheck({ name: 'echo', threshold: 0.5, options: { strict: true }, run: () => 1 })

describe('userCheckCase', () => {
  test('no fields: case "expect" with an empty input, no references, the check\'s key and options', () => {
    expect(userCheckCase(echo, {})).toEqual({
      c: { id: 'expect', input: '' },
      context: { key: 'echo', inputText: '', references: [], options: { strict: true } },
    })
  })

  test('references from expected then acceptable; context documents as a list; retrieved in the context only', () => {
    const { c, context } = userCheckCase(echo, {
      expected: 'Paris',
      acceptable: ['paris, France'],
      context: 'Paris is the capital.',
      retrieved: ['doc-1', { id: 'doc-2', score: 0.4 }],
      input: 'Capital of France?',
    })
    expect(c).toEqual({ id: 'expect', input: 'Capital of France?', expected: 'Paris', acceptable: ['paris, France'], context: ['Paris is the capital.'] })
    expect(context).toEqual({
      key: 'echo',
      inputText: 'Capital of France?',
      references: ['Paris', 'paris, France'],
      context: ['Paris is the capital.'],
      retrieved: ['doc-1', { id: 'doc-2', score: 0.4 }],
      options: { strict: true },
    })
  })

  test('an object input is shown as compact JSON; a given id is kept', () => {
    const { c, context } = userCheckCase(echo, { id: 'q7', input: { question: 'Why?', n: 2 } })
    expect(c.id).toBe('q7')
    expect(context.inputText).toBe('{"question":"Why?","n":2}')
  })

  test('the fields a case may have', () => {
    expect(USER_CHECK_CASE_KEYS).toEqual(['id', 'input', 'expected', 'acceptable', 'context', 'relevant', 'keywords', 'criteria', 'metadata', 'retrieved'])
  })
})

describe('scoreUserCheck', () => {
  const run = (check: Parameters<typeof scoreUserCheck>[0]) => {
    const { c, context } = userCheckCase(check, { expected: 'ok' })
    return scoreUserCheck(check, 'the output', c, context)
  }

  test('a number or { score, reason } is the verdict; the check gets the output, the case and the context', async () => {
    const seen: unknown[] = []
    const check = defineCheck({
      name: 'seen',
      run: (output, c, context) => {
        seen.push(output, c.expected, context.references)
        return { score: 0.25, reason: 'too short' }
      },
    })
    expect(await run(check)).toEqual({ verdict: { score: 0.25, reason: 'too short' } })
    expect(seen).toEqual(['the output', 'ok', ['ok']])
    expect(await run(defineCheck({ name: 'n', run: async () => 0.75 }))).toEqual({ verdict: { score: 0.75 } })
  })

  test('a run that throws: an Error problem naming the check, without the library prefix', async () => {
    const check = defineCheck({
      name: 'boom',
      run: () => {
        throw new Error('[expect-llm] Failed to fetch: offline')
      },
    })
    expect(await run(check)).toEqual({
      problem: 'check "boom" threw: Failed to fetch: offline',
      fix: 'Fix the check, or catch the error in its run function and return a score.',
      kind: Error,
    })
    const thrown = defineCheck({
      name: 'str',
      run: () => {
        throw 'plain text'
      },
    })
    expect(await run(thrown)).toMatchObject({ problem: 'check "str" threw: plain text' })
  })

  test('no score in [0, 1]: a TypeError problem that says what was returned', async () => {
    const fix = 'Return a number from 0 to 1, or { score, reason? }.'
    expect(await run(defineCheck({ name: 'big', run: () => 2 }))).toEqual({ problem: 'check "big" returned 2, outside [0, 1]', fix, kind: TypeError })
    expect(await run(defineCheck({ name: 'nan', run: () => Number.NaN }))).toEqual({ problem: 'check "nan" returned NaN', fix, kind: TypeError })
    expect(await run(defineCheck({ name: 'why', run: () => ({ score: 1, reason: 3 }) as never }))).toEqual({
      problem: 'check "why" its reason is a number (3), not a string',
      fix,
      kind: TypeError,
    })
  })
})
