import { describe, expect, test } from 'vitest'
import { BUILT_IN_TEMPLATES, checkTemplate, missingForBuiltIn, placeholdersIn, renderPrompt, replyFormat } from '../../src/judges/templates.js'

describe('checkTemplate', () => {
  test('accepts a template whose placeholders all have values', () => {
    expect(checkTemplate('Q: {input}\nA: {output}', { output: 'Paris', input: 'Capital?' })).toBeUndefined()
  })

  test('ignores braces that are not placeholders, such as JSON examples', () => {
    expect(checkTemplate('Grade {output}. Reply like {"score": 1}', { output: 'x' })).toBeUndefined()
  })

  test('reports an unknown placeholder', () => {
    expect(checkTemplate('Is {output} as good as {answer}?', { output: 'x' })).toEqual({
      reason: 'the template uses unknown placeholder {answer}',
      fix: 'Use only {input}, {output}, {reference}, {context}, {criteria} (or {query} for {input}, {response} for {output}).',
    })
  })

  test('reports a placeholder whose value is missing', () => {
    expect(checkTemplate('{output} vs {reference}', { output: 'x' })).toEqual({
      reason: 'the template uses {reference} but no reference was given',
      fix: 'Pass { reference } in the judge spec, or remove {reference} from the template.',
    })
  })

  test('reports a template without {output}', () => {
    expect(checkTemplate('Is the sky blue?', { output: 'x' })?.reason).toBe(
      'the template has no {output} placeholder, so the judge would never see the text under test',
    )
  })

  test('reports mustache-style double braces', () => {
    expect(checkTemplate('Grade {{output}}', { output: 'x' })).toEqual({
      reason: 'the template uses {{output}} with double braces',
      fix: 'Write placeholders with single braces, e.g. {output}.',
    })
  })
})

describe('placeholdersIn', () => {
  test('lists placeholders once each in order of first use', () => {
    expect(placeholdersIn('{output} {input} {output} {x_1}')).toEqual(['output', 'input', 'x_1'])
  })
})

describe('renderPrompt', () => {
  test('fills a custom template and appends the reply format for the scale', () => {
    expect(renderPrompt('Context:\n{context}\n\nIs "{output}" polite?', '1-5', { output: 'Hi!', context: ['a', 'b'] })).toBe(
      'Context:\n[1] a\n\n[2] b\n\nIs "Hi!" polite?\n\nReply with only a JSON object, no other text:\n{"reasoning": "<one to three sentences>", "score": an integer from 1 (worst) to 5 (best)}',
    )
  })

  test('renders the correctness template with the question, reference and answer', () => {
    const prompt = renderPrompt('correctness', 'binary', { output: 'Wait 30 days.', reference: 'Refunds within 30 days.', input: 'Refund policy?' })
    expect(prompt).toContain('<question>\nRefund policy?\n</question>')
    expect(prompt).toContain('<reference_answer>\nRefunds within 30 days.\n</reference_answer>')
    expect(prompt).toContain('<answer>\nWait 30 days.\n</answer>')
    expect(prompt.endsWith('"score": 1 if it passes, 0 if it fails}')).toBe(true)
  })

  test('leaves out the sections of a built-in template that have no value', () => {
    const prompt = renderPrompt('rubric', 'binary', { output: 'Hello', criteria: 'Is polite' })
    expect(prompt).not.toContain('<input>')
    expect(prompt).not.toContain('<context>')
  })

  test('asks the faithfulness judge for claims', () => {
    expect(renderPrompt('faithfulness', '0-1', { output: 'x', context: ['y'] })).toContain('{"claims": [{"claim": "<the claim>", "supported": true or false')
  })
})

// The prompts are part of what a judge verdict means: a wording change must be a deliberate snapshot
// update (npx vitest run test/judges/templates.test.ts -u), reviewed like code.
describe('the prompts, word for word', () => {
  const all = {
    output: 'Refunds take 30 days.',
    input: 'How long do refunds take?',
    reference: 'Within 30 days.',
    context: ['Refunds: 30 days.', 'Shipping: 5 days.'],
    criteria: 'Names the window.',
  }
  test.each(BUILT_IN_TEMPLATES.map((t) => [t]))('%s with every field', (template) => {
    expect(renderPrompt(template, '1-5', all)).toMatchSnapshot()
  })

  test('the reply format of each scale, with claims for faithfulness', () => {
    const formats = Object.fromEntries(
      ['binary', '1-5', '0-5', '0-1'].flatMap((scale) =>
        (['rubric', 'faithfulness', 'custom'] as const).map((t) => [`${t} ${scale}`, replyFormat(scale as never, t)]),
      ),
    )
    expect(formats).toMatchSnapshot()
  })

  test.each(BUILT_IN_TEMPLATES.map((t) => [t]))('%s with only the fields it needs', (template) => {
    const needs = {
      correctness: { reference: all.reference },
      rubric: { criteria: all.criteria },
      relevance: { input: all.input },
      faithfulness: { context: all.context },
      refusal: {},
      goal: { criteria: all.criteria },
    }[template]
    expect(missingForBuiltIn(template, { output: all.output, ...needs })).toBeUndefined()
    expect(renderPrompt(template, 'binary', { output: all.output, ...needs })).toMatchSnapshot()
  })

  test('each built-in template names the field it cannot do without', () => {
    expect(BUILT_IN_TEMPLATES.map((t) => missingForBuiltIn(t, { output: 'x' }))).toEqual(['reference', 'criteria', 'input', 'context', undefined, 'criteria'])
  })

  test('a custom template keeps unknown braces and fills every placeholder, context as a numbered list', () => {
    expect(renderPrompt('Q {input} C {context} R {reference} K {criteria} O {output} J {"score": 1}', '0-5', all)).toMatchSnapshot()
  })
})

describe('checkTemplate messages', () => {
  test('double braces with spaces inside are named too', () => {
    expect(checkTemplate('Grade {{ output }}', { output: 'x' })?.reason).toBe('the template uses {{output}} with double braces')
  })

  test('several unknown placeholders are all named', () => {
    expect(checkTemplate('Is {output} as good as {answer} for {user}?', { output: 'x' })?.reason).toBe(
      'the template uses unknown placeholders {answer}, {user}',
    )
  })

  test('a template without {output} says where to add it', () => {
    expect(checkTemplate('Is the sky blue?', { output: 'x' })?.fix).toBe('Add {output} where the response should appear.')
  })
})

describe('renderPrompt of a custom template', () => {
  test('the template is trimmed, and a template without {context} fills its other placeholders', () => {
    expect(renderPrompt('\n  Is "{output}" an answer to {input}?  \n', 'binary', { output: 'Hi!', input: 'Hello?' })).toBe(
      `Is "Hi!" an answer to Hello??\n\n${replyFormat('binary', 'custom')}`,
    )
  })
})
