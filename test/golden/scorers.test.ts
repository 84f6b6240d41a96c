// The golden suite's view of the checks (src/golden/scorers.ts): the input as judges and previews read it,
// a scorer that gives no score, and the order of runScorers (composites after the scores they combine).
import { describe, expect, test } from 'vitest'
import { defineCheck } from '../../src/checks/define.js'
import { inputText, planScorers, runScorer, runScorers } from '../../src/golden/scorers.js'

describe('inputText', () => {
  test('a string as it is; a conversation as "role: content" lines', () => {
    expect(inputText('hi')).toBe('hi')
    expect(
      inputText([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi?' },
      ]),
    ).toBe('system: Be brief.\nuser: Hi?')
  })

  test('anything else as compact JSON: an empty list, messages with other keys or types, objects; undefined as text', () => {
    expect(inputText([])).toBe('[]')
    expect(inputText([{ role: 'user', content: 'Hi?', name: 'ana' }])).toBe('[{"role":"user","content":"Hi?","name":"ana"}]')
    expect(inputText([{ role: 'user', content: 3 }])).toBe('[{"role":"user","content":3}]')
    expect(inputText([{ role: 'user', content: 'a' }, null])).toBe('[{"role":"user","content":"a"},null]')
    expect(inputText([{ role: 1, content: 'a' }])).toBe('[{"role":1,"content":"a"}]')
    expect(inputText({ question: 'q' })).toBe('{"question":"q"}')
    expect(inputText(undefined)).toBe('undefined')
    expect(inputText(null)).toBe('null')
  })

  test('a list of functions is no conversation, even with role and content properties: as text', () => {
    const message = Object.assign(() => 'hi', { role: 'user', content: 'Hi?' })
    expect(inputText([message])).toBe('[null]')
  })
})

describe('running scorers', () => {
  const c = { id: 'a', input: 'q' }
  const input = { output: 'the answer', c, inputText: 'q' }

  test('runScorer refuses a scorer that has no score for the case (a composite without its parts), naming both', async () => {
    const plans = planScorers({ exact: true, contains: true, composite: { weights: { exact: 1, contains: 1 } } })
    await expect(runScorer(plans.find((p) => p.key === 'composite')!, input, {})).rejects.toThrow('the composite scorer has no score for case "a"')
  })

  test("runScorers: every scorer settles (a result, nothing, or its error), composites last with the others' scores", async () => {
    const order: string[] = []
    const check = (name: string, score: number) =>
      defineCheck({
        name,
        run: () => {
          order.push(name)
          return score
        },
      })
    const broken = defineCheck({
      name: 'broken',
      run: () => {
        order.push('broken')
        throw new Error('down')
      },
    })
    const plans = planScorers({
      'composite:ok': { weights: { one: 1, half: 1 } },
      'composite:missing': { weights: { one: 1, broken: 1 } },
      one: check('one', 1),
      half: check('half', 0.5),
      broken,
    })
    const settled = await runScorers(plans, input, {})
    expect(settled.map((s) => s.key)).toEqual(['one', 'half', 'broken', 'composite:ok', 'composite:missing'])
    expect(order).toEqual(['one', 'half', 'broken'])
    const by = Object.fromEntries(settled.map((s) => [s.key, s]))
    expect(by.one).toEqual({ key: 'one', result: expect.objectContaining({ score: 1 }) })
    expect((by.broken!.error as Error).message).toMatch(/down/)
    expect(by['composite:ok']!.result).toMatchObject({ score: 0.75 })
    expect(by['composite:missing']).toEqual({ key: 'composite:missing' })
  })
})
