// The steps of prepareJudgeCall (src/judges/run.ts), each on its own.
import { describe, expect, test } from 'vitest'
import { failWith } from '../../src/errors.js'
import {
  checkContext,
  checkSamples,
  checkScale,
  checkSpecObject,
  checkTemplateFields,
  checkThreshold,
  checkVerbatim,
  chooseTemplate,
  MAX_SAMPLES,
  templateFields,
} from '../../src/judges/run.js'

const fail = failWith('judge')

describe('checkSpecObject', () => {
  test('an object with known keys is returned as it is; undefined values are ignored', () => {
    const spec = { criteria: 'polite', threshold: undefined, extra: undefined }
    expect(checkSpecObject(spec, fail)).toBe(spec)
  })

  test('not an object, or an unknown key, fails', () => {
    expect(() => checkSpecObject(['x'], fail)).toThrow('the judge spec must be an object, got an array (length 1)')
    expect(() => checkSpecObject({ criterion: 'x' }, fail)).toThrow('unknown option "criterion"')
  })
})

describe('templateFields', () => {
  test('holds only the fields the spec gives', () => {
    expect(templateFields({}, 'Lyon', fail)).toStrictEqual({ output: 'Lyon' })
  })

  test('the output and the texts the spec gives; context as a list', () => {
    expect(templateFields({ reference: 'Paris', context: 'doc' }, 'Lyon', fail)).toEqual({ output: 'Lyon', reference: 'Paris', context: ['doc'] })
  })

  test('an empty text fails, naming the field', () => {
    expect(() => templateFields({ criteria: '  ' }, 'x', fail)).toThrow('"criteria" must be a non-empty string, got a string ("  ")')
  })
})

describe('checkScale, checkThreshold, checkSamples', () => {
  test('a known scale passes; another fails with the value given', () => {
    expect(checkScale('1-5', '1-5', fail)).toBe('1-5')
    expect(() => checkScale('1-10', '1-10', fail)).toThrow(`"scale" must be one of 'binary', '1-5', '0-5', '0-1', got a string ("1-10")`)
  })

  test('the threshold lies in [0, 1]', () => {
    expect(checkThreshold(0, fail)).toBe(0)
    expect(checkThreshold(1, fail)).toBe(1)
    expect(() => checkThreshold(1.5, fail)).toThrow('the threshold must be a number from 0 to 1, got 1.5')
    expect(() => checkThreshold(Number.NaN, fail)).toThrow('got NaN')
  })

  test('samples: a count from 1 to MAX_SAMPLES, or a panel without "judge"', () => {
    expect(checkSamples(MAX_SAMPLES, false, fail)).toBe(MAX_SAMPLES)
    expect(() => checkSamples(MAX_SAMPLES + 1, false, fail)).toThrow(`"samples" must be a whole number from 1 to ${MAX_SAMPLES}`)
    expect(() => checkSamples(1.5, false, fail)).toThrow('got 1.5')
    const panel = [{ model: 'a' }, { model: 'b' }]
    expect(checkSamples(panel, false, fail)).toBe(panel)
    expect(() => checkSamples([], false, fail)).toThrow(`"samples" must list 1 to ${MAX_SAMPLES} judges, got 0`)
    expect(() => checkSamples(panel, true, fail)).toThrow('"judge" and a list of judges in "samples" cannot be combined')
  })
})

describe('chooseTemplate and checkTemplateFields', () => {
  test('the spec’s template, then the default, then correctness with a reference, rubric with criteria', () => {
    expect(chooseTemplate('Rate {output}', { template: 'faithfulness' }, { output: 'x', reference: 'r' }, fail)).toBe('Rate {output}')
    expect(chooseTemplate(undefined, { template: 'faithfulness' }, { output: 'x', reference: 'r' }, fail)).toBe('faithfulness')
    expect(chooseTemplate(undefined, {}, { output: 'x', reference: 'r', criteria: 'c' }, fail)).toBe('correctness')
    expect(chooseTemplate(undefined, {}, { output: 'x', criteria: 'c' }, fail)).toBe('rubric')
    expect(() => chooseTemplate(undefined, {}, { output: 'x' }, fail)).toThrow('the judge needs criteria or a reference answer')
    expect(() => chooseTemplate(3, {}, { output: 'x' }, fail)).toThrow('"template" must be a built-in template name or a template string, got a number (3)')
  })

  test('a built-in template needs its fields; a custom one its placeholders', () => {
    expect(checkTemplateFields('rubric', { output: 'x', criteria: 'c' }, fail)).toBe(true)
    expect(() => checkTemplateFields('correctness', { output: 'x' }, fail)).toThrow("the 'correctness' template needs { reference }, which is missing")
    expect(checkTemplateFields('Is {output} polite?', { output: 'x' }, fail)).toBe(false)
    expect(() => checkTemplateFields('Compare {output} with {reference}', { output: 'x' }, fail)).toThrow(/reference/)
  })
})

describe('the messages of each step', () => {
  test('a spec that is not an object names every option', () => {
    expect(() => checkSpecObject(5, fail)).toThrow(
      '[expect-llm] Failed to judge: the judge spec must be an object, got a number (5). Pass criteria as a string, or an object with any of: ' +
        'criteria, reference, input, context, scale, threshold, template, judge, samples, verbatim, lenient.',
    )
  })

  test('every unknown option is named', () => {
    expect(() => checkSpecObject({ criteria: 'x', treshold: 0.5, sample: 3 }, fail)).toThrow('unknown option "treshold", "sample". Valid options are:')
  })

  test('an unknown scale says what to pass', () => {
    expect(() => checkScale('1-10', '1-10', fail)).toThrow(
      `"scale" must be one of 'binary', '1-5', '0-5', '0-1', got a string ("1-10"). Pass for example { scale: '1-5' }.`,
    )
  })

  test('a built-in template without what it needs says what to pass', () => {
    expect(() => checkTemplateFields('correctness', { output: 'x' }, fail)).toThrow(
      "the 'correctness' template needs { reference }, which is missing. Pass { reference } in the judge spec.",
    )
  })

  test('a panel of more than MAX_SAMPLES judges fails with an example; MAX_SAMPLES judges pass', () => {
    const judges = (n: number) => Array.from({ length: n }, () => () => 1)
    expect(checkSamples(judges(MAX_SAMPLES), false, fail)).toHaveLength(MAX_SAMPLES)
    expect(() => checkSamples(judges(MAX_SAMPLES + 1), false, fail)).toThrow(
      `"samples" must list 1 to ${MAX_SAMPLES} judges, got ${MAX_SAMPLES + 1}. ` +
        "Pass for example { samples: [openAIJudgeSettings, { model: anthropic('claude-haiku-4-5') }] } (an odd number avoids ties).",
    )
  })
})

describe('checkContext', () => {
  test('a list with an item that is not text names it', () => {
    expect(() => checkContext(['Refunds within 30 days.', 5], fail)).toThrow(
      'the context must be a non-empty string or an array of non-empty strings, got an array containing a number (5)',
    )
  })
})

describe('checkVerbatim', () => {
  test('verbatim and lenient must be booleans', () => {
    expect(() => checkVerbatim({ verbatim: 'yes' }, 'Rate {output}', false, fail)).toThrow(
      '[expect-llm] Failed to judge: "verbatim" must be true or false, got a string ("yes"). Pass { verbatim: true }.',
    )
    expect(() => checkVerbatim({ lenient: 1 }, 'Rate {output}', false, fail)).toThrow(
      '"lenient" must be true or false, got a number (1). Pass { lenient: true }.',
    )
  })

  test('verbatim with a built-in template says to pass a template text', () => {
    expect(() => checkVerbatim({ verbatim: true }, 'correctness', true, fail)).toThrow(
      '"verbatim" sends a custom template as written, but "correctness" is a built-in template. ' +
        'Pass your own template text with {output} (and {input}, {context}, ...), or leave verbatim out.',
    )
  })
})
