// The list of equivalent mutants: every `Stryker disable` mark in src/ and matchers/, with its mutators and
// its reason, read from the sources so it cannot go stale. `npm run test:mutation -- --equivalent` prints it,
// `-- --equivalent --write` writes docs/equivalent-mutants.md, and test/mutation/equivalent.test.ts fails when
// a mark has no reason, names a mutator Stryker does not have, disables every mutator (`all`), or when the
// committed file differs from what the sources give.
//
// The comments are found with the TypeScript parser (not a line regex), the way Stryker finds them with
// Babel: as comments leading a node, so a string or a regex that contains "Stryker disable" is not a mark,
// and a `next-line` mark covers the line where the node it leads starts.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import ts from 'typescript'

/**
 * The mutators of StrykerJS 10 for JavaScript and TypeScript (`allMutators` in
 * @stryker-mutator/instrumenter, which the package does not export; equivalent.test.ts checks this list
 * against the installed one, so an upgrade that adds or renames a mutator fails there).
 */
export const STRYKER_MUTATORS = [
  'ArithmeticOperator',
  'ArrayDeclaration',
  'ArrowFunction',
  'AssignmentOperator',
  'BlockStatement',
  'BooleanLiteral',
  'CallExpression',
  'ConditionalExpression',
  'EqualityOperator',
  'LogicalOperator',
  'MethodExpression',
  'ObjectLiteral',
  'OptionalChaining',
  'Regex',
  'StringLiteral',
  'UnaryOperator',
  'UpdateOperator',
]

/** The folders whose marks are listed, relative to the repository root. */
export const MARKED_FOLDERS = ['src', 'matchers']

/** Where `--equivalent --write` writes the list. */
export const EQUIVALENT_FILE = 'docs/equivalent-mutants.md'

// Stryker's own directive pattern (DirectiveBookkeeper in @stryker-mutator/instrumenter 10.1), applied to
// the comment's text without its `//` or `/* */`.
const DIRECTIVE = /^\s?Stryker (disable|restore)(?: (next-line))? ([a-zA-Z, ]+)(?::(.+)?)?/
// A reason that only points elsewhere ("equivalent, see above", "equivalent (see above)").
const BACK_REFERENCE = /\bsee above\b/i

function tsFiles(dir) {
  const out = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...tsFiles(path))
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

/** Every comment of a source file that leads a node (or the end of the file), once, in source order. */
function leadingComments(sourceFile) {
  const text = sourceFile.text
  const byPos = new Map()
  const visit = (node) => {
    for (const range of ts.getLeadingCommentRanges(text, node.pos) ?? []) {
      if (!byPos.has(range.pos)) byPos.set(range.pos, { ...range, node })
    }
    // getChildren includes tokens (`}`, `else`, end of file), which forEachChild skips.
    for (const child of node.getChildren(sourceFile)) visit(child)
  }
  visit(sourceFile)
  return [...byPos.values()].sort((a, b) => a.pos - b.pos)
}

function commentText(text, range) {
  const raw = text.slice(range.pos, range.end)
  return range.kind === ts.SyntaxKind.SingleLineCommentTrivia ? raw.slice(2) : raw.slice(2, -2)
}

const lineOf = (sourceFile, pos) => sourceFile.getLineAndCharacterOfPosition(pos).line + 1

/**
 * The marks of one file. A mark: `{ file, line, endLine, mutators, reason, context, directiveLine }`, where
 * `line` is the first line it covers (for `next-line`, the line of the code it leads), `endLine` the last
 * (the same for `next-line`; the `Stryker restore` line or the end of the file for a range), `reason` the
 * text after the colon (undefined when there is none: Stryker then reports "Ignored using a comment"),
 * `context` the plain comment lines right above the mark, which often hold the longer explanation, and
 * `detached` whether it leads only a token (`else`, `}`), which Stryker does not read.
 */
export function marksOf(file, text) {
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const comments = leadingComments(sourceFile)
  const lastLine = lineOf(sourceFile, text.length)
  const marks = []
  const open = []
  comments.forEach((comment, index) => {
    const match = DIRECTIVE.exec(commentText(text, comment))
    if (!match) return
    const [, type, scope, names, reason] = match
    const mutators = names
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name.length > 0)
    const directiveLine = lineOf(sourceFile, comment.pos)
    if (type === 'restore') {
      // A range closes at the restore of any of its mutators (or of `all`).
      for (const mark of open.splice(0)) {
        if (mark.mutators.some((m) => mutators.includes(m) || mutators.includes('all'))) mark.endLine = directiveLine
        else open.push(mark)
      }
      return
    }
    // The plain comments right above the mark: consecutive comments, each ending on the line before the next.
    const context = []
    let expected = directiveLine - 1
    for (let i = index - 1; i >= 0; i--) {
      const before = comments[i]
      const beforeText = commentText(text, before)
      if (lineOf(sourceFile, before.end) !== expected || DIRECTIVE.test(beforeText)) break
      context.unshift(beforeText.replace(/^\s*\*?\s?/gm, '').trim())
      expected = lineOf(sourceFile, before.pos) - 1
    }
    // Stryker (Babel) reads comments that lead a statement or an expression; one that leads only a token
    // (`else`, a closing brace) is attached to nothing it mutates, so Stryker ignores it.
    const detached = comment.node.kind <= ts.SyntaxKind.LastToken && comment.node.kind !== ts.SyntaxKind.EndOfFileToken
    const mark = {
      file,
      line: scope === 'next-line' ? lineOf(sourceFile, comment.node.getStart(sourceFile)) : directiveLine,
      endLine: scope === 'next-line' ? undefined : lastLine,
      mutators,
      reason: reason?.trim() || undefined,
      context: context.join(' ').replace(/\s+/g, ' ').trim() || undefined,
      directiveLine,
      detached,
    }
    if (scope === 'next-line') mark.endLine = mark.line
    else open.push(mark)
    marks.push(mark)
  })
  return marks
}

/** Every mark under src/ and matchers/ of the repository at `root`, by file (sorted) and line. */
export function findMarks(root) {
  const files = MARKED_FOLDERS.flatMap((folder) => tsFiles(join(root, folder)))
  return (
    files
      .map((path) => relative(root, path).split(sep).join('/'))
      .sort()
      .map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }))
      // Parsing is the slow part: a file without the word has no mark.
      .filter(({ text }) => text.includes('Stryker'))
      .flatMap(({ file, text }) => marksOf(file, text))
  )
}

/**
 * What is wrong with a mark, one sentence each (empty when nothing): no reason, a mutator Stryker does not
 * have (spelled as Stryker spells it), `all` (which hides every mutant of the line, including the ones a
 * test should kill), or a reason that points above with nothing above to point to.
 */
export function problemsOf(mark, marksOfFile = [mark]) {
  const where = `${mark.file}:${mark.directiveLine}`
  const problems = []
  if (mark.mutators.includes('all')) {
    problems.push(`${where} disables every mutator ("all"): name the equivalent mutators instead.`)
  }
  for (const name of mark.mutators) {
    if (name !== 'all' && !STRYKER_MUTATORS.includes(name)) {
      const near = STRYKER_MUTATORS.find((m) => m.toLowerCase() === name.toLowerCase())
      problems.push(`${where} names "${name}", which is not a Stryker mutator${near ? ` (write ${near})` : ''}.`)
    }
  }
  if (mark.detached) {
    problems.push(
      `${where} leads no statement or expression (it sits before else or a closing brace), so Stryker ignores it: ` +
        "put it above the if, or inside the condition's parentheses.",
    )
  }
  if (mark.reason === undefined) {
    problems.push(`${where} gives no reason: write it after a colon, // Stryker disable next-line <Mutator>: <reason>.`)
  } else if (BACK_REFERENCE.test(mark.reason) && explanationOf(mark, marksOfFile) === undefined) {
    problems.push(`${where} says "see above", but no comment or earlier mark above it gives the reason.`)
  }
  return problems
}

/** Every problem of every mark. */
export function checkMarks(marks) {
  return marks.flatMap((mark) =>
    problemsOf(
      mark,
      marks.filter((m) => m.file === mark.file),
    ),
  )
}

/**
 * The longer explanation a "see above" reason points to: the comment right above the mark, else the nearest
 * earlier mark of the same file that has one (or a reason of its own).
 */
export function explanationOf(mark, marksOfFile) {
  if (mark.context !== undefined) return mark.context
  if (mark.reason === undefined || !BACK_REFERENCE.test(mark.reason)) return undefined
  const earlier = marksOfFile.filter((m) => m.directiveLine < mark.directiveLine).reverse()
  for (const m of earlier) {
    if (m.context !== undefined) return m.context
    if (m.reason !== undefined && !BACK_REFERENCE.test(m.reason)) return m.reason
  }
  return undefined
}

const lines = (mark) => (mark.endLine === mark.line ? `${mark.line}` : `${mark.line}-${mark.endLine}`)

/** The list for a terminal: `file:line  Mutators  reason`, one mark a line, the explanation indented below. */
export function formatMarks(marks) {
  if (marks.length === 0) return 'No Stryker disable mark in src/ or matchers/.'
  const out = []
  for (const mark of marks) {
    out.push(`${mark.file}:${lines(mark)}  ${mark.mutators.join(',')}  ${mark.reason ?? '(no reason)'}`)
    const explanation = explanationOf(
      mark,
      marks.filter((m) => m.file === mark.file),
    )
    if (explanation !== undefined) out.push(`    ${explanation}`)
  }
  const files = new Set(marks.map((m) => m.file)).size
  out.push(`\n${marks.length} mark(s) in ${files} file(s).`)
  return out.join('\n')
}

const cell = (text) => text.replaceAll('|', '\\|').replaceAll('`', "'")

/** docs/equivalent-mutants.md: the marks grouped by file, each with the lines, mutators and reason. */
export function renderMarkdown(marks) {
  const files = [...new Set(marks.map((m) => m.file))]
  const out = [
    '# Equivalent mutants',
    '',
    '<!-- Generated by `npm run test:mutation -- --equivalent --write` from the sources: do not edit. -->',
    '',
    'An equivalent mutant is a change Stryker makes that no test can tell apart from the original, because the',
    'behaviour stays the same (a bound that is never reached, a shortcut that gives the same result). Each one',
    'is marked where it is, with the reason, `// Stryker disable next-line <Mutator>: <reason>`, so the mutation',
    'report counts it as ignored, outside the score (README, "Mutation testing"). This file lists every mark in',
    '`src/` and `matchers/`; `test/mutation/equivalent.test.ts` fails when it is out of date, when a mark has no',
    'reason, names a mutator Stryker does not have, or disables every mutator (`all`).',
    '',
    `${marks.length} marks in ${files.length} files.`,
  ]
  for (const file of files) {
    const ofFile = marks.filter((m) => m.file === file)
    // Links relative to docs/, to the file and to its lines (GitHub's #L anchors).
    out.push('', `## [${file}](../${file})`, '', '| line | mutators | reason |', '| --- | --- | --- |')
    for (const mark of ofFile) {
      const explanation = explanationOf(mark, ofFile)
      const reason = mark.reason ?? '(no reason)'
      const text = explanation === undefined ? reason : `${reason} (${explanation})`
      const anchor = mark.endLine === mark.line ? `L${mark.line}` : `L${mark.line}-L${mark.endLine}`
      out.push(`| [${lines(mark)}](../${file}#${anchor}) | ${mark.mutators.join(', ')} | ${cell(text)} |`)
    }
  }
  return `${out.join('\n')}\n`
}
