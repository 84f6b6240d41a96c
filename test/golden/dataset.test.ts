import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, expectTypeOf, test } from 'vitest'
import { caseIdFor, DatasetError, loadDataset, loadDatasetSync, validateCases } from '../../src/golden/dataset.js'
import type { GoldenCase } from '../../src/golden/types.js'

const fixtures = fileURLToPath(new URL('../../fixtures/golden/', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'golden-dataset-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function file(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

function errorOf(fn: () => unknown): DatasetError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError)
    return error as DatasetError
  }
  throw new Error('expected a DatasetError')
}

describe('formats', () => {
  test('loads JSON Lines with explicit and derived ids, tags, keywords and answerable', () => {
    const cases = loadDatasetSync(join(fixtures, 'handbook.jsonl'))
    expect(cases.map((c) => c.id)).toEqual(['refund-window', 'shipping-cost', 'ceo-address', caseIdFor('Do you ship to Canada?')])
    expect(cases[0]).toMatchObject({
      input: 'How long do I have to ask for a refund?',
      keywords: ['30 days'],
      tags: ['refunds'],
      source: expect.stringMatching(/handbook\.jsonl:1$/),
    })
    expect(cases[1]?.acceptable).toEqual(['Orders over $50 ship for free.'])
    expect(cases[2]).toMatchObject({ answerable: false, source: expect.stringMatching(/:3$/) })
    expect(cases[3]?.id).toMatch(/^case-[0-9a-f]{8}$/)
  })

  test('loads JSON as { cases: [...] } and as a bare array', () => {
    expect(loadDatasetSync(join(fixtures, 'handbook.json')).map((c) => [c.id, c.source?.split(':').at(-1)])).toEqual([
      ['refund-window', '3'],
      ['ceo-address', '10'],
    ])
    const bare = loadDatasetSync(file('bare.json', '[\n  {"input": "a"},\n  {"input": "b", "context": "doc"}\n]'))
    expect(bare.map((c) => c.source?.split(':').at(-1))).toEqual(['2', '3'])
    expect(bare[1]?.context).toEqual(['doc'])
  })

  test('loads YAML with object inputs and metadata, with line numbers', () => {
    const cases = loadDatasetSync(join(fixtures, 'handbook.yaml'))
    expect(cases[1]).toMatchObject({
      id: 'order-lookup',
      input: { question: 'Where is my order?', orderId: 'A-1001' },
      relevant: ['orders-faq'],
      metadata: { channel: 'chat' },
    })
    expect(cases.map((c) => c.source?.split(':').at(-1))).toEqual(['3', '8'])
    expect(loadDatasetSync(file('list.yml', '- input: a\n- input: b\n')).map((c) => c.input)).toEqual(['a', 'b'])
  })

  test('CSV header names are trimmed: "id, input, expected" names the same columns as "id,input,expected"', () => {
    const cases = loadDatasetSync(file('spaced.csv', 'id, input, expected, keywords\nrefund,How long for a refund?,Within 30 days.,30 days|refund\n'))
    expect(cases).toEqual([
      {
        id: 'refund',
        input: 'How long for a refund?',
        expected: 'Within 30 days.',
        keywords: ['30 days', 'refund'],
        source: expect.stringMatching(/spaced\.csv:2$/),
      },
    ])
  })

  test('loads CSV: lists split on |, booleans, unknown columns into metadata, quoted multi-line cells', () => {
    const cases = loadDatasetSync(join(fixtures, 'handbook.csv'))
    expect(cases[0]).toEqual({
      id: 'refund-window',
      input: 'How long do I have to ask for a refund?',
      expected: 'You can ask for a refund within 30 days of purchase.',
      keywords: ['30 days'],
      tags: ['refunds', 'billing'],
      metadata: { channel: 'email' },
      source: expect.stringMatching(/handbook\.csv:2$/),
    })
    expect(cases[1]).toMatchObject({ id: 'ceo-address', answerable: false, tags: ['privacy'] })
    expect(cases[1]?.expected).toBeUndefined()
    expect(cases[2]).toMatchObject({ input: 'Line one\nline two', source: expect.stringMatching(/:4$/) })
  })

  test('in-memory arrays and async loaders keep the user types', async () => {
    const cases = validateCases([{ input: { q: 'x' }, expected: 42, metadata: { owner: 'me' } }])
    expectTypeOf(cases).toEqualTypeOf<Array<GoldenCase<{ q: string }, number, { owner: string }>>>()
    expect(cases[0]?.source).toBe('dataset[0]')
    const loaded = await loadDataset(async () => [{ id: 'a', input: 'hi' }])
    expect(loaded[0]?.id).toBe('a')
    const fromPath = await loadDataset(() => join(fixtures, 'handbook.json'))
    expect(fromPath).toHaveLength(2)
  })

  test('derived ids are stable under reordering and distinct for duplicate inputs', () => {
    const a = validateCases<unknown, unknown, Record<string, unknown>>([{ input: 'x' }, { input: { b: 1, a: 2 } }, { input: 'x' }])
    const b = validateCases<unknown, unknown, Record<string, unknown>>([{ input: { a: 2, b: 1 } }, { input: 'x' }])
    expect(a[1]?.id).toBe(b[0]?.id)
    expect(a[0]?.id).toBe(b[1]?.id)
    expect(a[2]?.id).toBe(`${a[0]?.id}-2`)
  })
})

describe('errors name the file, the line and the field', () => {
  test('a bad JSON line', () => {
    const path = file('bad.jsonl', '{"input": "ok"}\n\n{"input": "broken"\n')
    const e = errorOf(() => loadDatasetSync(path))
    expect(e.message).toMatch(/^\[expect-llm\] Failed to load the golden dataset: .*bad\.jsonl:3: invalid JSON \(.+\)\. Write one JSON object per line/)
  })

  test('a missing input, a wrong type and an unknown field, all listed', () => {
    const path = file(
      'fields.jsonl',
      ['{"id": "a"}', '{"input": "q", "keywords": "refund"}', '{"input": "q2", "expectd": "typo"}', '{"input": "q3", "answerable": "no"}'].join('\n'),
    )
    const e = errorOf(() => loadDatasetSync(path))
    expect(e.problems).toEqual([
      expect.stringMatching(/fields\.jsonl:1: field "input" is missing$/),
      expect.stringMatching(/fields\.jsonl:2: field "keywords" must be a non-empty array of non-empty strings, got a string \("refund"\)$/),
      expect.stringMatching(/fields\.jsonl:3: field "expectd" is not a case field \(did you mean "expected"\?\); valid fields: id, input, expected/),
      expect.stringMatching(/fields\.jsonl:4: field "answerable" must be true or false, got a string \("no"\)$/),
    ])
    expect(e.message).toContain('4 problems. Fix the cases listed.\n  - ')
  })

  test('JSON Lines: every bad line and every bad case of the file, at once, in line order', () => {
    const text = ['{"input": "ok"}', '{"input": "broken"', '{"inptu": "typo"}', '{"input": "fine"}', '{input: "no quotes"}'].join('\n')
    const e = errorOf(() => loadDatasetSync(file('mixed.jsonl', text)))
    expect(e.problems).toEqual([
      expect.stringMatching(/mixed\.jsonl:2: invalid JSON \(.+\)$/),
      expect.stringMatching(/mixed\.jsonl:3: field "inptu" is not a case field \(did you mean "input"\?\); valid fields: /),
      expect.stringMatching(/mixed\.jsonl:3: field "input" is missing$/),
      expect.stringMatching(/mixed\.jsonl:5: invalid JSON \(.+\)$/),
    ])
    expect(e.message).toContain('4 problems. Fix the cases listed (JSON Lines: one JSON object per line).')
  })

  test('CSV: a column that looks like a misspelled case field is reported, not kept as metadata', () => {
    const e = errorOf(() => loadDatasetSync(file('typo.csv', 'input,expeted,source\nq1,a1,web\nq2,a2,app\n')))
    expect(e.problems).toEqual([
      expect.stringMatching(
        /typo\.csv:2: column "expeted" is not a case field \(did you mean "expected"\?\); name it "metadata\.expeted" to keep it as metadata$/,
      ),
    ])
  })

  test('a duplicate id names both lines', () => {
    const e = errorOf(() => loadDatasetSync(file('dup.yaml', 'cases:\n  - id: a\n    input: x\n  - id: a\n    input: y\n')))
    expect(e.problems).toEqual([expect.stringMatching(/dup\.yaml:4: field "id" "a" is a duplicate \(first used at .*dup\.yaml:2\)$/)])
  })

  test('an empty dataset', () => {
    expect(errorOf(() => loadDatasetSync(file('empty.jsonl', '\n\n'))).message).toMatch(/empty\.jsonl: the dataset has no cases\. Add at least one case/)
    expect(errorOf(() => validateCases([])).message).toContain('dataset: the dataset has no cases')
  })

  test('invalid JSON, YAML and CSV syntax, with the line', () => {
    expect(errorOf(() => loadDatasetSync(file('syntax.json', '[\n  {"input": "a"},\n  {"input": }\n]'))).message).toMatch(/syntax\.json:3: invalid JSON/)
    expect(errorOf(() => loadDatasetSync(file('syntax.yaml', 'cases:\n  - input: a\n   - input: [b\n'))).message).toMatch(/syntax\.yaml:\d: invalid YAML/)
    expect(errorOf(() => loadDatasetSync(file('syntax.csv', 'id,input\na,b\nc,d,e\n'))).message).toMatch(/syntax\.csv:3: invalid CSV/)
  })

  test('CSV rows are reported by their line', () => {
    const e = errorOf(() => loadDatasetSync(file('rows.csv', 'id,input,answerable\na,"multi\nline",true\nb,,\n')))
    expect(e.problems).toEqual([expect.stringMatching(/rows\.csv:4: field "input" is missing$/)])
  })

  test('the wrong top level, an unknown extension and a missing file', () => {
    expect(errorOf(() => loadDatasetSync(file('obj.json', '{"input": "a"}'))).message).toMatch(/obj\.json:1: the top level is an object, not an array of cases/)
    expect(errorOf(() => loadDatasetSync(file('cases.txt', 'x'))).message).toMatch(/unknown file type "\.txt"\. Use \.jsonl, \.json, \.yaml, \.yml or \.csv\./)
    expect(errorOf(() => loadDatasetSync(join(dir, 'nope.jsonl'))).message).toMatch(/nope\.jsonl: cannot be read \(ENOENT\)/)
  })

  test('array positions for in-memory datasets, and a loader that throws', async () => {
    expect(errorOf(() => validateCases([{ input: 'ok' }, { input: '' } as never, 'text' as never])).problems).toEqual([
      'dataset[1]: field "input" is empty (a string (""))',
      'dataset[2]: the case is a string ("text"), not an object',
    ])
    await expect(loadDataset(async () => Promise.reject(new Error('503 from the CMS')))).rejects.toThrow(
      '[expect-llm] Failed to load the golden dataset: the loader threw: 503 from the CMS.',
    )
  })
})
