#!/usr/bin/env node
// Structure numbers of the code base (issue 11): the longest functions, the exported names of each package
// entry (runtime values and types), deep imports from matchers/ into src/, process-wide Symbol.for slots,
// runner branches and lines over 160 characters. Run from the repository root: `npm run stats:structure`
// (or `node scripts/structure-stats.mjs [--json] [--top N]`). Reads the sources only; builds nothing.
// `--check` (run by `npm run lint`) prints nothing when the house rules hold and exits 1 with the offenders when
// one does not: no function in src/ or matchers/ over 60 lines, no line there over 160 characters, no
// `runner ===` branch or `expect.getState()` read outside src/runners/, no `export type *` barrel.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import ts from 'typescript'

const root = resolve(import.meta.dirname, '..')
const args = process.argv.slice(2)
const asJson = args.includes('--json')
const checkOnly = args.includes('--check')
const topIndex = args.indexOf('--top')
const top = topIndex >= 0 ? Number(args[topIndex + 1]) : 15

/** Every .ts file under the given folders of the repository (no declarations). */
function tsFiles(...dirs) {
  const out = []
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path)
    }
  }
  for (const dir of dirs) if (existsSync(join(root, dir))) walk(join(root, dir))
  return out.sort()
}

const rel = (path) => relative(root, path).split('\\').join('/')
const sourceFiles = tsFiles('src', 'matchers')

/** The name a reader would search for: `Class.method`, `function name`, `const name = () =>`. */
function functionName(node, sf) {
  if (node.name && ts.isIdentifier(node.name)) {
    const owner = node.parent && ts.isClassLike(node.parent) && node.parent.name ? `${node.parent.name.text}.` : ''
    return owner + node.name.text
  }
  if (ts.isConstructorDeclaration(node) && node.parent.name) return `${node.parent.name.text}.constructor`
  const parent = node.parent
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(sf)
  return `(anonymous, line ${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1})`
}

function longestFunctions() {
  const found = []
  for (const file of sourceFiles) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    const visit = (node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line
        const end = sf.getLineAndCharacterOfPosition(node.end).line
        found.push({ name: functionName(node, sf), file: rel(file), line: start + 1, lines: end - start + 1 })
      }
      ts.forEachChild(node, visit)
    }
    visit(sf)
  }
  return found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file))
}

/** The source file behind each package.json export (src/entries/<name>.ts, or where it lived before). */
function entrySources() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const entries = {}
  for (const subpath of Object.keys(pkg.exports)) {
    if (subpath.endsWith('.json')) continue
    const name = subpath === '.' ? 'index' : subpath.slice(2)
    const candidates = [`src/entries/${name}.ts`, `src/${name}.ts`, `src/${name}/index.ts`, `${name}/index.ts`]
    const found = candidates.find((candidate) => existsSync(join(root, candidate)))
    if (found) entries[pkg.name + (subpath === '.' ? '' : subpath.slice(1))] = found
  }
  return entries
}

function exportedNames() {
  const entries = entrySources()
  const options = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  }
  const program = ts.createProgram(
    Object.values(entries).map((path) => join(root, path)),
    options,
  )
  const checker = program.getTypeChecker()
  const result = {}
  for (const [entry, path] of Object.entries(entries)) {
    const sf = program.getSourceFile(join(root, path))
    const moduleSymbol = sf && checker.getSymbolAtLocation(sf)
    const values = []
    const types = []
    for (const symbol of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
      ;(target.flags & ts.SymbolFlags.Value ? values : types).push(symbol.name)
    }
    result[entry] = { source: path, values: values.sort(), types: types.sort() }
  }
  return result
}

/** Import/export-from lines in matchers/ that reach a src/ module other than the one internal module. */
function deepImports() {
  const lines = []
  for (const file of tsFiles('matchers')) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    for (const statement of sf.statements) {
      const spec = (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier
      if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith('../src/')) continue
      lines.push({ file: rel(file), module: spec.text.replace(/^\.\.\//, '') })
    }
  }
  return { lines: lines.length, modules: [...new Set(lines.map((l) => l.module))].sort() }
}

const code = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .map((text, i) => ({ text, line: i + 1 }))
    .filter(({ text }) => !/^\s*(\*|\/\/|\/\*)/.test(text))

function symbolSlots() {
  const slots = []
  for (const file of sourceFiles) {
    for (const { text, line } of code(file)) {
      for (const match of text.matchAll(/Symbol\.for\(\s*['"`]([^'"`]+)['"`]\s*\)/g)) slots.push({ key: match[1], file: rel(file), line })
    }
  }
  return { slots: slots.length, files: [...new Set(slots.map((s) => s.file))].sort(), keys: slots.map((s) => `${s.key} (${s.file}:${s.line})`) }
}

function grepCode(pattern, exceptUnder) {
  const hits = []
  for (const file of sourceFiles) {
    if (exceptUnder && rel(file).startsWith(exceptUnder)) continue
    for (const { text, line } of code(file)) if (pattern.test(text)) hits.push(`${rel(file)}:${line}`)
  }
  return hits
}

function longLines(limit = 160) {
  const counts = {}
  for (const dir of ['src', 'matchers', 'test', 'bench', 'examples', 'scripts']) {
    let n = 0
    const files = tsFiles(dir)
    for (const file of files)
      n += readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.length > limit).length
    counts[dir] = n
  }
  return counts
}

const stats = {
  longestFunctions: longestFunctions().slice(0, top),
  functionsOver60Lines: longestFunctions().filter((f) => f.lines > 60).length,
  exports: exportedNames(),
  deepImportsFromMatchers: deepImports(),
  symbolForSlots: symbolSlots(),
  runnerBranches: grepCode(/\brunner\s*[!=]==?/, 'src/runners/'),
  getStateReads: grepCode(/\.getState\(\)/, 'src/runners/'),
  exportTypeStar: grepCode(/export type \* from/),
  linesOver160: longLines(),
}

/** The house rules `--check` enforces, each with its offenders (empty when it holds). */
function ruleBreaks() {
  const long = longestFunctions().filter((f) => f.lines > 60)
  const wide = []
  for (const file of tsFiles('src', 'matchers')) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((l, i) => {
        if (l.length > 160) wide.push(`${rel(file)}:${i + 1} (${l.length} characters)`)
      })
  }
  return [
    ['functions over 60 lines (split them into named steps)', long.map((f) => `${f.name} (${f.file}:${f.line}, ${f.lines} lines)`)],
    ['lines over 160 characters (wrap them)', wide],
    ['runner === branches outside src/runners/ (ask the runner adapter)', stats.runnerBranches],
    ['expect.getState() reads outside src/runners/ (ask the runner adapter)', stats.getStateReads],
    ['export type * barrels (export the names one by one)', stats.exportTypeStar],
  ].filter(([, offenders]) => offenders.length > 0)
}

if (checkOnly) {
  const breaks = ruleBreaks()
  for (const [rule, offenders] of breaks) console.error(`[expect-llm] structure: ${rule}:\n${offenders.map((o) => `  ${o}`).join('\n')}`)
  process.exit(breaks.length > 0 ? 1 : 0)
} else if (asJson) {
  console.log(JSON.stringify(stats, null, 2))
} else {
  console.log(`Longest functions (top ${top}; ${stats.functionsOver60Lines} over 60 lines in src/ and matchers/):`)
  for (const f of stats.longestFunctions) console.log(`  ${String(f.lines).padStart(4)}  ${f.name}  (${f.file}:${f.line})`)
  console.log('\nExported names per entry (runtime values / types only):')
  for (const [entry, e] of Object.entries(stats.exports)) {
    console.log(`  ${entry.padEnd(22)} ${String(e.values.length).padStart(4)} values  ${String(e.types.length).padStart(4)} types  (${e.source})`)
  }
  const d = stats.deepImportsFromMatchers
  console.log(`\nImports from matchers/ into src/: ${d.lines} lines, ${d.modules.length} modules: ${d.modules.join(', ')}`)
  const s = stats.symbolForSlots
  console.log(`\nSymbol.for slots: ${s.slots} in ${s.files.length} files`)
  for (const key of s.keys) console.log(`  ${key}`)
  console.log(`\nrunner === branches outside src/runners/: ${stats.runnerBranches.length}  ${stats.runnerBranches.join(' ')}`)
  console.log(`expect.getState() reads outside src/runners/: ${stats.getStateReads.length}  ${stats.getStateReads.join(' ')}`)
  console.log(`export type * barrels: ${stats.exportTypeStar.length}  ${stats.exportTypeStar.join(' ')}`)
  console.log(
    `\nLines over 160 characters: ${Object.entries(stats.linesOver160)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  )
}
