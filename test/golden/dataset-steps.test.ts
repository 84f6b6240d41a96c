// The pure steps of a dataset's validation (src/golden/dataset.ts validate): the CSV header check, the
// input of a case, the field checks, the id of a case, the case built, and the fix line of the error.
import { describe, expect, test } from 'vitest'
import {
  assignCaseId,
  buildCase,
  type CaseIds,
  caseIdFor,
  caseInput,
  checkCaseFields,
  csvColumnProblems,
  datasetFix,
  optionalFieldProblems,
} from '../../src/golden/dataset.js'

describe('csvColumnProblems', () => {
  test('a near miss of a case field is a typo; other unknown columns and metadata.* columns are data', () => {
    expect(csvColumnProblems([' expeted ', 'input', 'metadata.lang', 'region'], 'faq.csv:2')).toEqual([
      'faq.csv:2: column "expeted" is not a case field (did you mean "expected"?); name it "metadata.expeted" to keep it as metadata',
    ])
  })

  test('a metadata.* column close to a case field name is data too', () => {
    expect(csvColumnProblems(['input', 'metadata.x'], 'faq.csv:2')).toEqual([])
  })

  test('a header of case fields only has no problem', () => {
    expect(csvColumnProblems(['id', 'input', 'expected', 'tags'], 'faq.csv:2')).toEqual([])
  })
})

describe('caseInput', () => {
  const conversation = [
    { role: 'user', content: 'My order is A17.' },
    { role: 'assistant', content: 'Thanks!' },
    { role: 'user', content: 'Where is it?' },
  ]

  test('a conversation is the input of a case with messages', () => {
    expect(caseInput({ messages: conversation })).toEqual({ input: conversation, problems: [] })
  })

  test('messages and input together are refused', () => {
    expect(caseInput({ input: 'hi', messages: conversation }).problems).toEqual([
      ['messages', 'and "input" are both given; a case holds a conversation ("messages") or a single "input", not both'],
    ])
  })

  test('a conversation that ends with the assistant is refused', () => {
    expect(caseInput({ messages: conversation.slice(0, 2) }).problems).toEqual([
      ['messages', 'ends with a message of role "assistant"; the last message is the user\'s, which the task answers'],
    ])
  })

  test('a missing, blank or numeric input', () => {
    expect(caseInput({}).problems).toEqual([['input', 'is missing']])
    expect(caseInput({ input: '  ' }).problems).toEqual([['input', 'is empty (a string ("  "))']])
    expect(caseInput({ input: null }).problems).toEqual([['input', 'is empty (null)']])
    expect(caseInput({ input: 7 }).problems).toEqual([['input', 'must be a string or an object, got a number (7)']])
  })

  test('a string or an object is an input', () => {
    expect(caseInput({ input: 'Where is A17?' })).toEqual({ input: 'Where is A17?', problems: [] })
    expect(caseInput({ input: { question: 'q' } })).toEqual({ input: { question: 'q' }, problems: [] })
  })
})

describe('optionalFieldProblems', () => {
  test('every wrong optional field, in the order of the case fields', () => {
    expect(
      optionalFieldProblems({
        id: 1.5,
        acceptable: [],
        context: [''],
        relevant: 'doc-1',
        keywords: [3],
        tags: 'a',
        answerable: 'yes',
        criteria: ' ',
        metadata: [],
      }),
    ).toEqual([
      ['id', 'must be a non-empty string, got a number (1.5)'],
      ['acceptable', 'must be a non-empty array of non-empty strings, got an array (length 0)'],
      ['context', 'must be a string or a non-empty array of non-empty strings, got an array (length 1)'],
      ['relevant', 'must be a non-empty array of document ids, got a string ("doc-1")'],
      ['keywords', 'must be a non-empty array of non-empty strings, got an array (length 1)'],
      ['tags', 'must be an array of strings, got a string ("a")'],
      ['answerable', 'must be true or false, got a string ("yes")'],
      ['criteria', 'must be a non-empty string, got a string (" ")'],
      ['metadata', 'must be an object, got an array (length 0)'],
    ])
  })

  test('good values, a whole-number id and an empty tag list have no problem', () => {
    expect(
      optionalFieldProblems({
        id: 12,
        acceptable: ['a'],
        context: 'ctx',
        relevant: ['d1'],
        keywords: ['k'],
        tags: [],
        answerable: false,
        criteria: 'polite',
        metadata: {},
      }),
    ).toEqual([])
  })
})

describe('checkCaseFields', () => {
  test('unknown keys first, then input, then expectedTools, then the other fields', () => {
    const { problems } = checkCaseFields({ inptu: 'x', expectedTools: 5, tags: 'a' })
    expect(problems.map(([field]) => field)).toEqual(['inptu', 'input', 'expectedTools', 'tags'])
    expect(problems[0]).toEqual([
      'inptu',
      'is not a case field (did you mean "input"?); valid fields: id, input, expected, acceptable, context, relevant, keywords, answerable, criteria, ' +
        'expectedTools, messages, tags, metadata; put your own data under "metadata"',
    ])
  })

  test('a good case gives its input and its expected tools', () => {
    expect(checkCaseFields({ input: 'Where is A17?', expectedTools: ['lookup_order'] })).toEqual({
      problems: [],
      input: 'Where is A17?',
      expectedTools: { calls: [{ name: 'lookup_order' }], order: 'in-order', extra: 'allow' },
    })
  })

  test('a case without expected tools has no expectedTools key', () => {
    expect(checkCaseFields({ input: 'q' })).toStrictEqual({ problems: [], input: 'q' })
  })
})

describe('assignCaseId', () => {
  const fresh = (): CaseIds => ({ lines: new Map(), derived: new Map() })

  test('a given id is trimmed and a number becomes a string', () => {
    const ids = fresh()
    expect(assignCaseId(ids, ' A17 ', 'q', 'a.jsonl:1')).toEqual({ id: 'A17' })
    expect(assignCaseId(ids, 42, 'q', 'a.jsonl:2')).toEqual({ id: '42' })
  })

  test('a given id used before is a duplicate of its first line', () => {
    const ids = fresh()
    assignCaseId(ids, 'A17', 'q1', 'a.jsonl:1')
    expect(assignCaseId(ids, 'A17 ', 'q2', 'a.jsonl:4')).toEqual({ duplicateOf: 'a.jsonl:1' })
  })

  test('a case without an id gets the hash of its input, numbered on repeats', () => {
    const ids = fresh()
    expect(assignCaseId(ids, undefined, 'Where is A17?', 'a.jsonl:1')).toEqual({ id: 'case-3aef53f6' })
    expect(assignCaseId(ids, undefined, 'Where is A17?', 'a.jsonl:2')).toEqual({ id: 'case-3aef53f6-2' })
    // sha256 of the JSON text "Where is A17?" (with its quotes), first 8 hex digits: `printf '"Where is A17?"' | sha256sum`.
    expect(caseIdFor('Where is A17?')).toBe('case-3aef53f6')
  })
})

describe('buildCase', () => {
  test('only the fields given; a context string becomes a list of one', () => {
    expect(buildCase({ input: 'q', expected: 'a', context: 'ctx', tags: ['t'] }, 'c1', 'q', undefined, 'a.jsonl:1')).toEqual({
      id: 'c1',
      input: 'q',
      source: 'a.jsonl:1',
      expected: 'a',
      context: ['ctx'],
      tags: ['t'],
    })
  })

  test('the input given (a conversation) and the expected tools read are kept', () => {
    const messages = [{ role: 'user', content: 'hi' }]
    const tools = { calls: [{ name: 'x' }], order: 'any' as const, extra: 'allow' as const }
    expect(buildCase({ messages, answerable: false }, 'c2', messages, tools, 'a.jsonl:2')).toEqual({
      id: 'c2',
      input: messages,
      source: 'a.jsonl:2',
      answerable: false,
      messages,
      expectedTools: tools,
    })
  })
})

describe('datasetFix', () => {
  test('only syntax errors, some, or none', () => {
    expect(datasetFix(3, 3)).toBe('Write one JSON object per line (JSON Lines).')
    expect(datasetFix(1, 3)).toBe('Fix the cases listed (JSON Lines: one JSON object per line).')
    expect(datasetFix(0, 2)).toBe('Fix the cases listed.')
  })
})
