// Dataset loading, field by field: what each case field accepts and the exact problem line for what it
// refuses, conversations, ids, the CSV cell conventions, file types, loaders, and the cap on listed problems.
import { createHash } from 'node:crypto'
import { pathToFileURL } from 'node:url'
import { describe, expect, test } from 'vitest'
import { caseIdFor, DatasetError, loadDataset, loadDatasetSync, validateCases } from '../../src/golden/dataset.js'
import { datasetFiles, errorOf, problemsOf } from './dataset-helpers.js'

const { dir, file } = datasetFiles('golden-dataset-fields-')

/** The message JSON.parse gives for `text`. */
function jsonError(text: string): string {
  try {
    JSON.parse(text)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('expected invalid JSON')
}

/** The problems of one in-memory case. */
const problems = (c: unknown) => problemsOf(() => validateCases([c as never]))

describe('each field: accepted values, and the problem for a refused one', () => {
  test('input: a string or an object; missing, null, blank and other types are refused', () => {
    expect(validateCases([{ input: { question: 'q', locale: 'fr' } }])[0]!.input).toEqual({ question: 'q', locale: 'fr' })
    expect(problems({})).toEqual(['dataset[0]: field "input" is missing'])
    expect(problems({ input: null })).toEqual(['dataset[0]: field "input" is empty (null)'])
    expect(problems({ input: '   ' })).toEqual(['dataset[0]: field "input" is empty (a string ("   "))'])
    expect(problems({ input: 42 })).toEqual(['dataset[0]: field "input" must be a string or an object, got a number (42)'])
    expect(problems({ input: true })).toEqual(['dataset[0]: field "input" must be a string or an object, got a boolean (true)'])
  })

  test('id: a non-empty string (trimmed) or a whole number', () => {
    const [a, b] = validateCases([
      { id: '  padded ', input: 'q' },
      { id: 7 as never, input: 'q' },
    ])
    expect([a!.id, b!.id]).toEqual(['padded', '7'])
    expect(problems({ id: ' ', input: 'q' })).toEqual(['dataset[0]: field "id" must be a non-empty string, got a string (" ")'])
    expect(problems({ id: 1.5, input: 'q' })).toEqual(['dataset[0]: field "id" must be a non-empty string, got a number (1.5)'])
    expect(problems({ id: null, input: 'q' })).toEqual(['dataset[0]: field "id" must be a non-empty string, got null'])
  })

  test('acceptable, relevant and keywords: non-empty arrays of non-empty strings', () => {
    expect(problems({ input: 'q', acceptable: [] })).toEqual([
      'dataset[0]: field "acceptable" must be a non-empty array of non-empty strings, got an array (length 0)',
    ])
    expect(problems({ input: 'q', acceptable: ['a', ' '] })[0]).toMatch(
      /^dataset\[0\]: field "acceptable" must be a non-empty array of non-empty strings, got /,
    )
    expect(problems({ input: 'q', acceptable: 'a' })[0]).toMatch(/field "acceptable" must be/)
    expect(problems({ input: 'q', relevant: [1] })[0]).toMatch(/^dataset\[0\]: field "relevant" must be a non-empty array of document ids, got /)
    expect(problems({ input: 'q', relevant: [] })[0]).toMatch(/field "relevant" must be a non-empty array of document ids/)
    expect(problems({ input: 'q', keywords: [] })[0]).toMatch(/field "keywords" must be a non-empty array of non-empty strings/)
    const [c] = validateCases([{ input: 'q', acceptable: ['a', 'b'], relevant: ['doc1'], keywords: ['k'] }])
    expect(c).toMatchObject({ acceptable: ['a', 'b'], relevant: ['doc1'], keywords: ['k'] })
  })

  test('context: a string (kept as a one-item list) or a non-empty array of non-empty strings', () => {
    expect(validateCases([{ input: 'q', context: 'Refunds take 30 days.' }])[0]!.context).toEqual(['Refunds take 30 days.'])
    expect(validateCases([{ input: 'q', context: ['a', 'b'] }])[0]!.context).toEqual(['a', 'b'])
    expect(problems({ input: 'q', context: '' })).toEqual([
      'dataset[0]: field "context" must be a string or a non-empty array of non-empty strings, got a string ("")',
    ])
    expect(problems({ input: 'q', context: [] })[0]).toMatch(/field "context" must be a string or a non-empty array/)
    expect(problems({ input: 'q', context: 3 })[0]).toMatch(/field "context" must be a string or a non-empty array/)
  })

  test('tags: an array of strings, possibly empty', () => {
    expect(validateCases([{ input: 'q', tags: [] }])[0]!.tags).toEqual([])
    expect(problems({ input: 'q', tags: 'refunds' })).toEqual(['dataset[0]: field "tags" must be an array of strings, got a string ("refunds")'])
    expect(problems({ input: 'q', tags: ['ok', ''] })[0]).toMatch(/field "tags" must be an array of strings/)
  })

  test('answerable, criteria and metadata', () => {
    expect(validateCases([{ input: 'q', answerable: false, criteria: 'Polite.', metadata: { a: 1 } }])[0]).toMatchObject({
      answerable: false,
      criteria: 'Polite.',
      metadata: { a: 1 },
    })
    expect(problems({ input: 'q', criteria: ' ' })).toEqual(['dataset[0]: field "criteria" must be a non-empty string, got a string (" ")'])
    expect(problems({ input: 'q', criteria: 1 })[0]).toMatch(/field "criteria" must be a non-empty string/)
    expect(problems({ input: 'q', metadata: null })).toEqual(['dataset[0]: field "metadata" must be an object, got null'])
    expect(problems({ input: 'q', metadata: ['a'] })[0]).toMatch(/^dataset\[0\]: field "metadata" must be an object, got /)
    expect(problems({ input: 'q', metadata: 'x' })[0]).toMatch(/field "metadata" must be an object/)
  })

  test('every problem of a case is listed, and a case with problems is not kept', () => {
    expect(problems({ input: 'q', tags: 'x', answerable: 'yes', criteria: '' })).toEqual([
      'dataset[0]: field "tags" must be an array of strings, got a string ("x")',
      'dataset[0]: field "answerable" must be true or false, got a string ("yes")',
      'dataset[0]: field "criteria" must be a non-empty string, got a string ("")',
    ])
  })

  test('a case keeps only the fields it was given, and its source', () => {
    expect(validateCases([{ id: 'a', input: 'q' }])).toEqual([{ id: 'a', input: 'q', source: 'dataset[0]' }])
    expect(validateCases([{ input: 'q', expected: 'e' }], 'mine')[0]).toEqual({ id: caseIdFor('q'), input: 'q', expected: 'e', source: 'mine[0]' })
  })
})

describe('conversations (messages)', () => {
  const user = (content: string) => ({ role: 'user', content })

  test('a conversation ending with the user is the input', () => {
    const messages = [user('My order is A17.'), { role: 'assistant', content: 'Thanks!' }, user('Where is it?')]
    const [c] = validateCases([{ id: 'c', messages } as never])
    expect(c).toMatchObject({ id: 'c', input: messages, messages })
  })

  test('each problem of a conversation, with its message number', () => {
    expect(problems({ messages: [user('q')], input: 'q' })).toEqual([
      'dataset[0]: field "messages" and "input" are both given; a case holds a conversation ("messages") or a single "input", not both',
    ])
    expect(problems({ messages: [] })[0]).toMatch(
      /^dataset\[0\]: field "messages" must be a non-empty list of \{ role, content \} messages, got an array \(length 0\); write for example \[\{ "role": "user"/,
    )
    expect(problems({ messages: 'hi' })[0]).toMatch(/field "messages" must be a non-empty list of \{ role, content \} messages, got a string \("hi"\)/)
    expect(problems({ messages: [user('a'), 'b'] })).toEqual(['dataset[0]: field "messages" message 1 must be { role, content }, got a string ("b")'])
    expect(problems({ messages: [null] })).toEqual(['dataset[0]: field "messages" message 0 must be { role, content }, got null'])
    expect(problems({ messages: [[]] })[0]).toMatch(/message 0 must be \{ role, content \}/)
    expect(problems({ messages: [{ role: 'user', content: 'q', name: 'x', at: 1 }] })).toEqual([
      'dataset[0]: field "messages" message 0 has unknown key "name", "at"; a message is { role, content }',
    ])
    expect(problems({ messages: [{ role: 'bot', content: 'q' }] })).toEqual([
      'dataset[0]: field "messages" message 0 has role a string ("bot"); the roles are "system", "user", "assistant"',
    ])
    expect(problems({ messages: [{ role: 'user', content: ' ' }] })).toEqual([
      'dataset[0]: field "messages" message 0 must have a non-empty string "content", got a string (" ")',
    ])
    expect(problems({ messages: [{ role: 'user', content: 5 }] })[0]).toMatch(/message 0 must have a non-empty string "content", got a number \(5\)/)
    expect(problems({ messages: [user('q'), { role: 'assistant', content: 'a' }] })).toEqual([
      'dataset[0]: field "messages" ends with a message of role "assistant"; the last message is the user\'s, which the task answers',
    ])
  })
})

describe('ids', () => {
  test('derived from the input: the same input twice gets -2, and an explicit id may not be reused', () => {
    const [a, b, c] = validateCases([{ input: 'same' }, { input: 'same' }, { input: 'other' }])
    expect(a!.id).toBe(caseIdFor('same'))
    expect(b!.id).toBe(`${caseIdFor('same')}-2`)
    expect(c!.id).toBe(caseIdFor('other'))
    expect(caseIdFor('same')).toMatch(/^case-[0-9a-f]{8}$/)
  })

  test('the derived id of an object input does not depend on key order, nested too', () => {
    expect(caseIdFor({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(caseIdFor({ b: { c: [1, { e: 3, d: 2 }] }, a: 1 }))
    expect(caseIdFor({ a: 1 })).not.toBe(caseIdFor({ a: 2 }))
    expect(caseIdFor([1, 2])).not.toBe(caseIdFor([2, 1]))
    expect(caseIdFor(undefined)).toMatch(/^case-[0-9a-f]{8}$/)
  })

  test('the derived id of undefined hashes "undefined"; null values inside an object input are kept', () => {
    expect(caseIdFor(undefined)).toBe(`case-${createHash('sha256').update('undefined').digest('hex').slice(0, 8)}`)
    expect(caseIdFor({ b: null, a: 1 })).toBe(`case-${createHash('sha256').update('{"a":1,"b":null}').digest('hex').slice(0, 8)}`)
  })

  test('an explicit id written like a derived one collides and is reported as a duplicate', () => {
    const derived = caseIdFor('q')
    expect(problems2([{ input: 'q' }, { id: derived, input: 'other' }])).toEqual([
      `dataset[1]: field "id" "${derived}" is a duplicate (first used at dataset[0])`,
    ])
  })
})

function problems2(cases: unknown[]): string[] {
  return problemsOf(() => validateCases(cases as never))
}

describe('the error message', () => {
  test('one problem is one sentence with the fix; several are listed, at most 20, then how many more', () => {
    const one = (() => {
      try {
        validateCases([{}] as never)
      } catch (e) {
        return (e as Error).message
      }
    })()
    expect(one).toBe('[expect-llm] Failed to load the golden dataset: dataset[0]: field "input" is missing. Fix the cases listed.')
    let many = ''
    try {
      validateCases(Array.from({ length: 23 }, () => ({})) as never)
    } catch (e) {
      many = (e as Error).message
      expect((e as DatasetError).problems).toHaveLength(23)
      expect((e as Error).name).toBe('DatasetError')
    }
    const lines = many.split('\n')
    expect(lines[0]).toBe('[expect-llm] Failed to load the golden dataset dataset: 23 problems. Fix the cases listed.')
    expect(lines.slice(1, 21)).toEqual(Array.from({ length: 20 }, (_, i) => `  - dataset[${i}]: field "input" is missing`))
    expect(lines.slice(21)).toEqual(['  - … and 3 more'])
  })

  test('exactly 20 problems are all listed, with no "more" line', () => {
    try {
      validateCases(Array.from({ length: 20 }, () => ({})) as never)
    } catch (e) {
      const lines = (e as Error).message.split('\n')
      expect(lines).toHaveLength(21)
      expect(lines.at(-1)).toBe('  - dataset[19]: field "input" is missing')
    }
    expect.assertions(2)
  })

  test('a value that is not an array, and a case that is not an object', () => {
    expect(problemsOf(() => validateCases('cases' as never))).toEqual(['dataset is a string ("cases"), not an array of cases'])
    expect(problems2([null, ['q'], 3])).toEqual([
      'dataset[0]: the case is null, not an object',
      expect.stringMatching(/^dataset\[1\]: the case is an array.*, not an object$/),
      'dataset[2]: the case is a number (3), not an object',
    ])
  })
})

describe('CSV cells', () => {
  test('lists: a|b, a JSON array, or text that is not JSON; empty cells are left out', () => {
    const path = file('lists.csv', ['id,input,acceptable,keywords,tags,context', 'a,q,"x | y|","[""k1"",""k2""]",,ctx', 'b,q2,,k,t1|t2,'].join('\n'))
    const [a, b] = loadDatasetSync(path)
    expect(a).toMatchObject({ acceptable: ['x', 'y'], keywords: ['k1', 'k2'], context: ['ctx'] })
    expect(a).not.toHaveProperty('tags')
    expect(b).toMatchObject({ keywords: ['k'], tags: ['t1', 't2'] })
    expect(b).not.toHaveProperty('context')
    expect(b).not.toHaveProperty('acceptable')
    // A cell starting with [ that is not JSON stays text, which the list field then refuses.
    expect(problemsOf(() => loadDatasetSync(file('badlist.csv', 'id,input,acceptable\na,q,[not json\n')))).toEqual([
      expect.stringMatching(/badlist\.csv:2: field "acceptable" must be a non-empty array of non-empty strings, got a string \("\[not json"\)$/),
    ])
  })

  test('answerable: true/yes/1/y and false/no/0/n in any case; anything else is refused', () => {
    const rows = ['TRUE', 'Yes', '1', 'y', 'false', 'NO', '0', 'n', '']
    const path = file('bools.csv', ['id,input,answerable', ...rows.map((r, i) => `c${i},q${i},${r}`)].join('\n'))
    expect(loadDatasetSync(path).map((c) => c.answerable)).toEqual([true, true, true, true, false, false, false, false, undefined])
    const bad = problemsOf(() => loadDatasetSync(file('badbool.csv', 'id,input,answerable\na,q,maybe\n')))
    expect(bad).toEqual([expect.stringMatching(/badbool\.csv:2: field "answerable" must be true or false, got a string \("maybe"\)$/)])
  })

  test('input, expected and metadata cells starting with { or [ are JSON; invalid JSON stays text', () => {
    const path = file('json-cells.csv', ['id,input,expected,metadata', 'a,"{""q"":1}","[1,2]","{""source"":""web""}"', 'b,{oops,{oops,'].join('\n'))
    const [a, b] = loadDatasetSync(path)
    expect(a).toMatchObject({ input: { q: 1 }, expected: [1, 2], metadata: { source: 'web' } })
    expect(b).toMatchObject({ input: '{oops', expected: '{oops' })
    expect(problemsOf(() => loadDatasetSync(file('meta-text.csv', 'id,input,metadata\na,q,plain\n')))).toEqual([
      expect.stringMatching(/meta-text\.csv:2: field "metadata" must be an object, got a string \("plain"\)$/),
    ])
  })

  test('metadata.<key> columns and unknown columns go into metadata, merged with a metadata cell; empty cells are dropped', () => {
    const path = file('meta.csv', ['id,input,metadata,metadata.owner,team,note', 'a,q,"{""source"":""web""}",ana,support,', 'b,q2,,,,'].join('\n'))
    const [a, b] = loadDatasetSync(path)
    expect(a!.metadata).toEqual({ source: 'web', owner: 'ana', team: 'support' })
    expect(b).toEqual({ id: 'b', input: 'q2', source: expect.stringMatching(/meta\.csv:3$/) })
  })

  test('an empty cell of a case field is the field left out; an empty input is missing', () => {
    const [c] = loadDatasetSync(file('empty-cells.csv', 'id,input,expected,criteria\na,q,,\n'))
    expect(c).toEqual({ id: 'a', input: 'q', source: expect.stringMatching(/empty-cells\.csv:2$/) })
  })
})

describe('CSV cells of spaces', () => {
  test('a cell of spaces is an empty cell: list, boolean, JSON, text, metadata column and unknown column', () => {
    const header = 'id,input,acceptable,answerable,expected,criteria,metadata.owner,note'
    const [c] = loadDatasetSync(file('spaces.csv', `${header}\na,q,  ,  ,  ,  ,  ,  \n`))
    expect(c).toStrictEqual({ id: 'a', input: 'q', source: `${dir}/spaces.csv:2` })
  })

  test('a cell is read after trimming its spaces: a boolean and a JSON value', () => {
    const [c] = loadDatasetSync(file('padded.csv', 'id,input,answerable,expected\na,q, yes ," {""a"": 1}"\n'))
    expect(c).toMatchObject({ answerable: true, expected: { a: 1 } })
  })

  test('a cell that does not start with { or [ is text, even when it would parse as JSON', () => {
    const [c] = loadDatasetSync(file('text-cells.csv', 'id,input,expected\na,42,true\n'))
    expect(c).toMatchObject({ input: '42', expected: 'true' })
  })

  test('context and relevant cells are lists split on |', () => {
    const [c] = loadDatasetSync(file('list-cells.csv', 'id,input,context,relevant\na,q,one|two,doc1|doc2\n'))
    expect(c).toMatchObject({ context: ['one', 'two'], relevant: ['doc1', 'doc2'] })
  })

  test('a metadata cell that is not an object is reported, not dropped for the metadata columns', () => {
    expect(problemsOf(() => loadDatasetSync(file('meta-string.csv', 'id,input,metadata,team\na,q,plain,support\n')))).toEqual([
      `${dir}/meta-string.csv:2: field "metadata" must be an object, got a string ("plain")`,
    ])
    expect(problemsOf(() => loadDatasetSync(file('meta-array.csv', 'id,input,metadata,team\na,q,"[1]",support\n')))).toEqual([
      `${dir}/meta-array.csv:2: field "metadata" must be an object, got an array (length 1)`,
    ])
    expect(loadDatasetSync(file('meta-only.csv', 'id,input,team\na,q,support\n'))[0]!.metadata).toEqual({ team: 'support' })
  })
})

describe('files', () => {
  test('.ndjson, .yml and upper-case extensions; a file URL', () => {
    expect(loadDatasetSync(file('a.ndjson', '{"id":"a","input":"q"}\n'))[0]!.id).toBe('a')
    expect(loadDatasetSync(file('b.yml', '- id: b\n  input: q\n'))[0]!.id).toBe('b')
    expect(loadDatasetSync(file('C.JSONL', '{"id":"c","input":"q"}\n'))[0]!.id).toBe('c')
    expect(loadDatasetSync(pathToFileURL(file('d.json', '[{"id":"d","input":"q"}]')))[0]!.id).toBe('d')
  })

  test('a file without extension', () => {
    expect(problemsOf(() => loadDatasetSync(file('noext', 'x')))).toEqual([expect.stringMatching(/noext: unknown file type "\(none\)"$/)])
  })

  test('JSON cases are placed by their line, also under "cases" and with strings holding brackets, commas and quotes', () => {
    const text = ['{ "cases": [', '  { "id": "a", "input": "[x], {y}, \\"z\\"" },', '', '  { "id": "b",', '    "input": "q" }', '] }'].join('\n')
    const cases = loadDatasetSync(file('placed.json', text))
    expect(cases.map((c) => c.source?.split(':').at(-1))).toEqual(['2', '4'])
    const arr = ['[', '  {"id": "a", "input": "q"},', '  {"id": "b", "input": "q2"}', ']'].join('\n')
    expect(loadDatasetSync(file('arr.json', arr)).map((c) => c.source?.split(':').at(-1))).toEqual(['2', '3'])
  })

  test('under "cases", arrays and commas of other top-level keys are not cases; a repeated "cases" counts the last', () => {
    const text = [
      '{ "meta": { "a": [1, 2], "b": 2 },',
      '  "cases": [',
      '    { "id": "a", "input": "q" },',
      '    { "id": "b", "input": "q" }',
      '  ],',
      '  "tags": ["x", "y"] }',
    ].join('\n')
    expect(loadDatasetSync(file('other-keys.json', text)).map((c) => c.source?.split(':').at(-1))).toEqual(['3', '4'])
    const repeated = ['{ "cases": [{ "id": "old", "input": "q" }, {}],', '  "cases": [', '    { "id": "a", "input": "q" }] }'].join('\n')
    expect(loadDatasetSync(file('repeated.json', repeated)).map((c) => `${c.id}:${c.source?.split(':').at(-1)}`)).toEqual(['a:3'])
  })

  test('an empty array before "cases" starts no case', () => {
    const text = ['{ "empty": [ ],', '  "cases": [', '    { "id": "a", "input": "q" }] }'].join('\n')
    expect(loadDatasetSync(file('empty-first.json', text)).map((c) => c.source?.split(':').at(-1))).toEqual(['3'])
  })

  test('a JSON syntax error names the line of the case that does not parse', () => {
    const text = ['[', '  {"input": "a"},', '  {"input": "b"},', '  {"input": "c",}', ']'].join('\n')
    expect(problemsOf(() => loadDatasetSync(file('trailing.json', text)))).toEqual([expect.stringMatching(/trailing\.json:4: invalid JSON \([\s\S]+\)$/)])
    const nested = ['{"cases": [', '  {"input": "a"},', '  {"input": }', ']}'].join('\n')
    expect(problemsOf(() => loadDatasetSync(file('nested.json', nested)))).toEqual([expect.stringMatching(/nested\.json:3: invalid JSON \([\s\S]+\)$/)])
  })

  test('a JSON error with a position names the line of that position, not of the case around it', () => {
    const text = ['[', '  {"input":', '    "a" "b"}', ']'].join('\n')
    expect(errorOf(() => loadDatasetSync(file('position.json', text)))).toBe(
      `[expect-llm] Failed to load the golden dataset: ${dir}/position.json:3: invalid JSON (${jsonError(text)}). Fix the JSON syntax.`,
    )
  })

  test('a JSON error at a line break counts only the lines before it', () => {
    const text = ['[', '  {"input": "line one', 'line two"}', ']'].join('\n')
    expect(errorOf(() => loadDatasetSync(file('control.json', text)))).toBe(
      `[expect-llm] Failed to load the golden dataset: ${dir}/control.json:2: invalid JSON (${jsonError(text)}). Fix the JSON syntax.`,
    )
  })

  test('a JSON error without a position names the first case that does not parse, in an array or under "cases"', () => {
    const lineOfError = (name: string, text: string) => errorOf(() => loadDatasetSync(file(name, text))).replace(/ invalid JSON [\s\S]*$/, '')
    const first = ['[', '  {"input": },', '  {"input": "b"}', ']'].join('\n')
    expect(lineOfError('first.json', first)).toBe(`[expect-llm] Failed to load the golden dataset: ${dir}/first.json:2:`)
    const second = ['[', '  {"id": "a", "input": "q"},', '  {"id": "b", "input": }', ']'].join('\n')
    expect(lineOfError('second.json', second)).toBe(`[expect-llm] Failed to load the golden dataset: ${dir}/second.json:3:`)
    expect(lineOfError('second-cases.json', `{"cases": ${second}}`)).toBe(`[expect-llm] Failed to load the golden dataset: ${dir}/second-cases.json:3:`)
    const truncated = ['[', '  {"input": "a"},', '  {"input": "b"},', ''].join('\n')
    expect(errorOf(() => loadDatasetSync(file('truncated.json', truncated)))).toBe(
      `[expect-llm] Failed to load the golden dataset: ${dir}/truncated.json:3: invalid JSON (Unexpected end of JSON input). Fix the JSON syntax.`,
    )
  })

  test('a JSON error outside every case (each parses on its own) names the file only', () => {
    const whole = (name: string, text: string) =>
      `[expect-llm] Failed to load the golden dataset: ${dir}/${name}: invalid JSON (${jsonError(text)}). Fix the JSON syntax.`
    // The last case ends right at the closing bracket(s), its text holds a bracket, and the file has no final line break.
    const array = ['// golden cases', '[', '  {"input": "a"},', '  {"input": "b [x]"}]'].join('\n')
    expect(errorOf(() => loadDatasetSync(file('commented.json', array)))).toBe(whole('commented.json', array))
    const cases = ['// golden cases', '{"cases": [', '  {"input": "a"},', '  {"input": {"tags": ["x"]}}]}'].join('\n')
    expect(errorOf(() => loadDatasetSync(file('commented-cases.json', cases)))).toBe(whole('commented-cases.json', cases))
    const spaced = ['// golden cases', '{"cases": [', '  {"input": "a"} ] }', ''].join('\n')
    expect(errorOf(() => loadDatasetSync(file('spaced-cases.json', spaced)))).toBe(whole('spaced-cases.json', spaced))
    const empty = ['// no cases yet', '[', ']', ''].join('\n')
    expect(errorOf(() => loadDatasetSync(file('commented-empty.json', empty)))).toBe(whole('commented-empty.json', empty))
  })

  test('a JSON error after an empty "cases" array names the file only, not a value of another key', () => {
    const text = ['{"cases": [],', '  "tags": ["x",', '    "y", ]}'].join('\n')
    expect(errorOf(() => loadDatasetSync(file('empty-cases.json', text)))).toBe(
      `[expect-llm] Failed to load the golden dataset: ${dir}/empty-cases.json: invalid JSON (${jsonError(text)}). Fix the JSON syntax.`,
    )
  })

  test('a JSON error under "cases" after other keys names the case, not the "cases" key', () => {
    const text = ['{"name": "bot",', '  "cases": [', '    {"id": "a", "input": "q"},', '    {"id": "b", "input": }', ']}'].join('\n')
    expect(errorOf(() => loadDatasetSync(file('keyed-cases.json', text)))).toBe(
      `[expect-llm] Failed to load the golden dataset: ${dir}/keyed-cases.json:4: invalid JSON (${jsonError(text)}). Fix the JSON syntax.`,
    )
  })

  test('a JSON error names no case for an array after a nested value holding the string "cases"', () => {
    // The first error (line 1) has no position; the array on line 3 follows "meta", not a "cases" key.
    const text = ['{"x": ,', '  "meta": {"k": "cases"} [', '    {"input": }', ']}'].join('\n')
    expect(errorOf(() => loadDatasetSync(file('nested-cases-string.json', text)))).toBe(
      `[expect-llm] Failed to load the golden dataset: ${dir}/nested-cases-string.json: invalid JSON (${jsonError(text)}). Fix the JSON syntax.`,
    )
  })

  test('JSON cases are placed by their line with a space before a comma, or no space after it', () => {
    const text = ['[', '  {"id": "a", "input": "q"} ,', '  {"id": "b", "input": "q"},{"id": "c", "input": "q"}', ']'].join('\n')
    expect(loadDatasetSync(file('commas.json', text)).map((c) => `${c.id}:${c.source?.split(':').at(-1)}`)).toEqual(['a:2', 'b:3', 'c:3'])
  })

  test('JSON cases are placed by their line when a string holds an unbalanced bracket or an escaped quote', () => {
    const text = ['[', '  {"input": "a \\" ]"},', '  {"input": "b ["}', ']'].join('\n')
    expect(loadDatasetSync(file('strings.json', text)).map((c) => c.source)).toEqual([`${dir}/strings.json:2`, `${dir}/strings.json:3`])
  })

  test('a JSON top level that is not an array: the whole message', () => {
    expect(errorOf(() => loadDatasetSync(file('number.json', '1')))).toBe(
      `[expect-llm] Failed to load the golden dataset: ${dir}/number.json:1: the top level is a number (1), not an array of cases. Write a JSON array of cases, or an object { "cases": [...] }.`,
    )
  })

  test('JSON Lines: a line of spaces is skipped like an empty line', () => {
    expect(loadDatasetSync(file('spaces.jsonl', '{"input": "a"}\n   \n{"input": "b"}\n')).map((c) => c.source)).toEqual([
      `${dir}/spaces.jsonl:1`,
      `${dir}/spaces.jsonl:3`,
    ])
  })

  test('YAML whose top level is not a list, or a map without a cases list', () => {
    expect(problemsOf(() => loadDatasetSync(file('scalar.yaml', 'just text\n')))).toEqual([
      expect.stringMatching(/scalar\.yaml:1: the top level is not a list of cases$/),
    ])
    expect(problemsOf(() => loadDatasetSync(file('map.yaml', 'items:\n  - input: q\n')))).toEqual([
      expect.stringMatching(/map\.yaml:1: the top level is not a list of cases$/),
    ])
    expect(loadDatasetSync(file('list.yaml', '# cases\n- id: a\n  input: q\n\n- id: b\n  input: r\n')).map((c) => c.source?.split(':').at(-1))).toEqual([
      '2',
      '5',
    ])
  })

  test('a JSON file that is null or a string at the top level', () => {
    expect(problemsOf(() => loadDatasetSync(file('null.json', 'null')))).toEqual([
      expect.stringMatching(/null\.json:1: the top level is null, not an array of cases$/),
    ])
    expect(problemsOf(() => loadDatasetSync(file('cases-obj.json', '{"cases": {"a": 1}}')))[0]).toMatch(/the top level is an object/)
  })
})

describe('whole messages of YAML, CSV, path and array errors', () => {
  test('invalid YAML: the first line of each parser message, with its line', () => {
    expect(errorOf(() => loadDatasetSync(file('bad.yaml', 'cases:\n  - input: a\n   - input: [b\n')))).toBe(
      `[expect-llm] Failed to load the golden dataset ${dir}/bad.yaml: 2 problems. Fix the YAML syntax.\n` +
        `  - ${dir}/bad.yaml:3: invalid YAML (All sequence items must start at the same column)\n` +
        `  - ${dir}/bad.yaml:4: invalid YAML (Flow sequence in block collection must be sufficiently indented and end with a ])`,
    )
  })

  test('YAML that is not a list of cases', () => {
    expect(errorOf(() => loadDatasetSync(file('text.yaml', 'just text\n')))).toBe(
      `[expect-llm] Failed to load the golden dataset: ${dir}/text.yaml:1: the top level is not a list of cases. Write a YAML list of cases (\`- input: ...\`), or a map with a \`cases:\` list.`,
    )
  })

  test('invalid CSV', () => {
    expect(errorOf(() => loadDatasetSync(file('bad.csv', 'id,input\na,b,c\n')))).toBe(
      `[expect-llm] Failed to load the golden dataset: ${dir}/bad.csv:2: invalid CSV (Invalid Record Length: columns length is 2, got 3 on line 2). ` +
        'Fix the CSV: a header row, then one row per case with the same number of columns (quote cells that contain commas).',
    )
  })

  test('a file that cannot be read', () => {
    expect(errorOf(() => loadDatasetSync(`${dir}/missing.jsonl`))).toBe(
      `[expect-llm] Failed to load the golden dataset: ${dir}/missing.jsonl: cannot be read (ENOENT). ` +
        'Check the path; relative paths resolve against the current working directory (usually the project root).',
    )
  })

  test('a value that is not an array', () => {
    expect(errorOf(() => validateCases(42 as never))).toBe(
      '[expect-llm] Failed to load the golden dataset: dataset is a number (42), not an array of cases. Pass a file path, an array of cases, or a function returning one.',
    )
  })

  test('a file under the working directory is shown relative to it, one outside by its absolute path', () => {
    expect(loadDatasetSync('fixtures/golden/handbook.jsonl')[0]!.source).toBe('fixtures/golden/handbook.jsonl:1')
    expect(loadDatasetSync(file('outside.jsonl', '{"input": "q"}\n'))[0]!.source).toBe(`${dir}/outside.jsonl:1`)
  })

  test('a duplicate id is named trimmed', () => {
    expect(
      problems2([
        { id: ' a ', input: 'q' },
        { id: 'a ', input: 'r' },
      ]),
    ).toEqual(['dataset[1]: field "id" "a" is a duplicate (first used at dataset[0])'])
  })

  test('a case with a field problem takes no id: a later case with the same id is not its duplicate', () => {
    expect(
      problems2([
        { id: 'a', input: 'q', tags: 'x' },
        { id: 'a', input: 'r' },
      ]),
    ).toEqual(['dataset[0]: field "tags" must be an array of strings, got a string ("x")'])
  })
})

describe('loaders', () => {
  test('a loader may return a file path (or URL) to load', async () => {
    const path = file('from-loader.jsonl', '{"id":"l","input":"q"}\n')
    expect((await loadDataset(() => path))[0]!.id).toBe('l')
    expect((await loadDataset(async () => pathToFileURL(path)))[0]!.id).toBe('l')
  })

  test('a loader\'s result is validated under the name "loader result"', async () => {
    await expect(loadDataset(async () => [{ id: 'x' }] as never)).rejects.toThrow(
      '[expect-llm] Failed to load the golden dataset: loader result[0]: field "input" is missing. Fix the cases listed.',
    )
    await expect(loadDataset(async () => ({ cases: [] }) as never)).rejects.toThrow('loader result is an object')
  })

  test('a loader that throws a non-Error keeps it as the cause', async () => {
    const thrown = { status: 503 }
    const error = await loadDataset(() => Promise.reject(thrown)).catch((e: Error) => e)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).cause).toBe(thrown)
    expect((error as Error).message).toMatch(/^\[expect-llm\] Failed to load the golden dataset: the loader threw: /)
  })

  test('loadDatasetSync refuses a loader function and names loadDataset', () => {
    expect(() => loadDatasetSync((() => []) as never)).toThrow(
      new TypeError(
        '[expect-llm] Failed to load the golden dataset: a loader function cannot be loaded synchronously. Use `await loadDataset(loader)` and pass the cases.',
      ),
    )
  })

  test('loadDataset of an array or a path, without a loader', async () => {
    expect((await loadDataset([{ id: 'x', input: 'q' }]))[0]!.id).toBe('x')
    expect((await loadDataset(file('direct.jsonl', '{"id":"p","input":"q"}\n')))[0]!.id).toBe('p')
  })
})
