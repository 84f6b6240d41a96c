// The list of equivalent mutants (test/mutation/equivalent.mjs): the `Stryker disable` marks in src/ and
// matchers/ are well formed, docs/equivalent-mutants.md is what the sources give, and
// `npm run test:mutation -- --equivalent` prints them.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { checkMarks, EQUIVALENT_FILE, explanationOf, findMarks, formatMarks, marksOf, problemsOf, renderMarkdown, STRYKER_MUTATORS } from './equivalent.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)

/** The marks of one made-up file, with the problems of each. */
function marks(source: string) {
  const found = marksOf('src/x.ts', source)
  return found.map((mark) => ({ ...mark, problems: problemsOf(mark, found) }))
}

// Reading every source file and starting node take a few seconds on a loaded machine.
describe('the marks of this repository', { timeout: 60_000 }, () => {
  it('each give a reason and name only mutators Stryker has', () => {
    const found = findMarks(root)
    expect(found.length).toBeGreaterThan(0)
    expect(checkMarks(found)).toEqual([])
  })

  it(`are listed, up to date, in ${EQUIVALENT_FILE}`, () => {
    const committed = readFileSync(join(root, EQUIVALENT_FILE), 'utf8')
    // On failure: run `npm run test:mutation -- --equivalent --write` and commit the file.
    expect(committed, `${EQUIVALENT_FILE} is out of date: run npm run test:mutation -- --equivalent --write`).toBe(renderMarkdown(findMarks(root)))
  })

  it('name mutators from the list of the installed Stryker', async () => {
    // @stryker-mutator/instrumenter does not export allMutators: import its module by path.
    const path = join(root, 'node_modules/@stryker-mutator/instrumenter/dist/src/mutators/mutate.js')
    const { allMutators } = (await import(pathToFileURL(path).href)) as { allMutators: { name: string }[] }
    expect([...STRYKER_MUTATORS].sort()).toEqual(allMutators.map((m) => m.name).sort())
  })
})

describe('marksOf', () => {
  it('reads a next-line mark: the mutators, the reason and the line of the code it covers', () => {
    const source = [
      'const a = 1',
      '// Stryker disable next-line EqualityOperator,ConditionalExpression: equivalent, n never exceeds 3',
      'if (a <= 3) f()',
      '',
    ].join('\n')
    expect(marks(source)).toEqual([
      {
        file: 'src/x.ts',
        line: 3,
        endLine: 3,
        mutators: ['EqualityOperator', 'ConditionalExpression'],
        reason: 'equivalent, n never exceeds 3',
        context: undefined,
        directiveLine: 2,
        detached: false,
        problems: [],
      },
    ])
  })

  it('covers the line of the code the mark leads, past the comments between them', () => {
    const source = [
      'function f(a: number) {',
      '  // Stryker disable next-line Regex: a reason',
      '  // a note',
      '',
      '  return /a+/.test(String(a))',
      '}',
      '',
    ].join('\n')
    expect(marks(source).map((m) => [m.directiveLine, m.line])).toEqual([[2, 5]])
  })

  it('keeps the plain comments right above a mark as its context, not the ones a code line or a blank line away', () => {
    const source = [
      '// Far away.',
      '',
      'f()',
      '// The guard only skips work that',
      '/* finds nothing. */',
      '// Stryker disable next-line ConditionalExpression: equivalent, see above',
      'if (s.includes("x")) g()',
      '',
    ].join('\n')
    const [mark] = marks(source)
    expect(mark?.context).toBe('The guard only skips work that finds nothing.')
    expect(mark?.problems).toEqual([])
  })

  it('reads a range from disable to restore, and to the end of the file without a restore', () => {
    const source = [
      '// Stryker disable StringLiteral: messages for people',
      "const a = 'x'",
      '// Stryker restore StringLiteral',
      '// Stryker disable ObjectLiteral: defaults only',
      'const b = {}',
      'const c = {}',
    ].join('\n')
    expect(marks(source).map((m) => [m.mutators, m.line, m.endLine])).toEqual([
      [['StringLiteral'], 1, 3],
      [['ObjectLiteral'], 4, 6],
    ])
  })

  it('finds block comments, and no mark inside a string, a template or a regex', () => {
    const source = [
      "const s = '// Stryker disable next-line Regex'",
      'const t = `',
      '// Stryker disable next-line StringLiteral',
      '`',
      'const r = /\\/\\/ Stryker disable next-line Regex/',
      '/* Stryker disable next-line BooleanLiteral: the default is never read */',
      'const d = true',
      '',
    ].join('\n')
    expect(marks(source).map((m) => [m.line, m.mutators])).toEqual([[7, ['BooleanLiteral']]])
  })

  it("reads what Stryker reads: one space at most before 'Stryker', a colon before the reason", () => {
    const source = ['//Stryker disable next-line Regex: a', '//  Stryker disable next-line Regex: not a directive', 'x()', ''].join('\n')
    expect(marks(source).map((m) => m.reason)).toEqual(['a'])
  })
})

describe('problemsOf', () => {
  it('refuses a mark without a reason, or with only a colon', () => {
    const source = ['// Stryker disable next-line Regex', 'a()', '// Stryker disable next-line Regex:  ', 'b()', ''].join('\n')
    expect(marks(source).map((m) => m.problems)).toEqual([
      ['src/x.ts:1 gives no reason: write it after a colon, // Stryker disable next-line <Mutator>: <reason>.'],
      ['src/x.ts:3 gives no reason: write it after a colon, // Stryker disable next-line <Mutator>: <reason>.'],
    ])
  })

  it('refuses a mutator Stryker does not have, and names the right spelling when only the case differs', () => {
    const source = ['// Stryker disable next-line Equality,conditionalExpression: a reason', 'a()', ''].join('\n')
    expect(marks(source)[0]?.problems).toEqual([
      'src/x.ts:1 names "Equality", which is not a Stryker mutator.',
      'src/x.ts:1 names "conditionalExpression", which is not a Stryker mutator (write ConditionalExpression).',
    ])
  })

  it('refuses a mark Stryker does not read: one before else or a closing brace leads no code', () => {
    const source = [
      'if (a) f()',
      '// Stryker disable next-line EqualityOperator: a reason',
      'else if (b > c) g()',
      'if (d) {',
      '  h()',
      '  // Stryker disable next-line Regex: a reason',
      '}',
      'if (a) f()',
      'else if (',
      '  // Stryker disable next-line EqualityOperator: read, it leads the condition',
      '  b > c',
      ') g()',
      '',
    ].join('\n')
    const why = 'leads no statement or expression (it sits before else or a closing brace), so Stryker ignores it: '
    expect(marks(source).map((m) => m.problems)).toEqual([
      [`src/x.ts:2 ${why}put it above the if, or inside the condition's parentheses.`],
      [`src/x.ts:6 ${why}put it above the if, or inside the condition's parentheses.`],
      [],
    ])
  })

  it('refuses all, even with a reason', () => {
    const source = ['// Stryker disable next-line all: too many to list', 'a()', ''].join('\n')
    expect(marks(source)[0]?.problems).toEqual(['src/x.ts:1 disables every mutator ("all"): name the equivalent mutators instead.'])
  })

  it('refuses "see above" with nothing above, and resolves it to the nearest earlier explanation', () => {
    const alone = marks(['// Stryker disable next-line Regex: equivalent (see above)', 'a()', ''].join('\n'))
    expect(alone[0]?.problems).toEqual(['src/x.ts:1 says "see above", but no comment or earlier mark above it gives the reason.'])

    const source = [
      '// Stryker disable next-line Regex: equivalent, the pattern only shortens the search',
      'a()',
      '// Stryker disable next-line Regex: equivalent, see above',
      'b()',
      '',
    ].join('\n')
    const found = marksOf('src/x.ts', source)
    expect(found.map((m) => problemsOf(m, found))).toEqual([[], []])
    expect(explanationOf(found[1] as (typeof found)[number], found)).toBe('equivalent, the pattern only shortens the search')
  })
})

describe('the list', () => {
  const source = [
    '// Stryker disable next-line EqualityOperator: equivalent, a | b',
    'if (a <= b) f()',
    '// Why: `x` is never read.',
    '// Stryker disable next-line StringLiteral,ConditionalExpression: equivalent (see above)',
    "const x = a ? 'x' : ''",
    '',
  ].join('\n')
  const found = marksOf('src/metrics/x.ts', source)

  it('prints file:line, the mutators and the reason, with the explanation under it', () => {
    expect(formatMarks(found)).toBe(
      [
        'src/metrics/x.ts:2  EqualityOperator  equivalent, a | b',
        'src/metrics/x.ts:5  StringLiteral,ConditionalExpression  equivalent (see above)',
        '    Why: `x` is never read.',
        '',
        '2 mark(s) in 1 file(s).',
      ].join('\n'),
    )
    expect(formatMarks([])).toBe('No Stryker disable mark in src/ or matchers/.')
  })

  it('writes one table per file, with links to the lines, and the pipes and backquotes of reasons escaped', () => {
    const markdown = renderMarkdown(found)
    expect(markdown).toContain('2 marks in 1 files.')
    expect(markdown.split('## ')[1]).toBe(
      [
        '[src/metrics/x.ts](../src/metrics/x.ts)',
        '',
        '| line | mutators | reason |',
        '| --- | --- | --- |',
        '| [2](../src/metrics/x.ts#L2) | EqualityOperator | equivalent, a \\| b |',
        "| [5](../src/metrics/x.ts#L5) | StringLiteral, ConditionalExpression | equivalent (see above) (Why: 'x' is never read.) |",
        '',
      ].join('\n'),
    )
  })
})

describe('npm run test:mutation -- --equivalent', { timeout: 60_000 }, () => {
  const runMjs = join(root, 'test/mutation/run.mjs')

  it('prints every mark of the repository and exits 0', async () => {
    const { stdout } = await run(process.execPath, [runMjs, '--equivalent'], { cwd: root })
    expect(stdout).toBe(`${formatMarks(findMarks(root))}\n`)
  })

  it('refuses --write without --equivalent, and --equivalent with a folder', async () => {
    await expect(run(process.execPath, [runMjs, '--write'], { cwd: root })).rejects.toMatchObject({
      code: 2,
      stderr: '[expect-llm] Failed to run mutation testing: --write writes the list of equivalent mutants: pass it with --equivalent.\n',
    })
    await expect(run(process.execPath, [runMjs, '--equivalent', 'src/metrics'], { cwd: root })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--equivalent lists the marks of every folder and runs nothing'),
    })
  })
})
