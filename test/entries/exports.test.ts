// The public API, entry by entry: the names each package entry exports (runtime values and types), read
// from the built declarations with the TypeScript API and compared with a committed snapshot, so that a
// name added or removed is a reviewed change (update with `npx vitest run test/entries -u`, and say it in
// CHANGELOG.md). Needs the build (`npm run build`, which `npm test` runs first).
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { beforeAll, describe, expect, test } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  name: string
  exports: Record<string, string | { import: { types: string; default: string }; require: { types: string; default: string } }>
}
const entries = Object.entries(pkg.exports).filter(
  (e): e is [string, { import: { types: string; default: string }; require: { types: string; default: string } }] => typeof e[1] === 'object',
)
const entryName = (subpath: string) => (subpath === '.' ? pkg.name : `${pkg.name}${subpath.slice(1)}`)

interface Names {
  values: string[]
  types: string[]
}

/** The exports of each declaration file, split into runtime values (functions, classes, constants) and types only. */
function declaredNames(files: string[]): Map<string, Names> {
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  })
  const checker = program.getTypeChecker()
  const out = new Map<string, Names>()
  for (const file of files) {
    const sf = program.getSourceFile(file)
    const moduleSymbol = sf && checker.getSymbolAtLocation(sf)
    if (!moduleSymbol) throw new Error(`${file} is not a module`)
    const names: Names = { values: [], types: [] }
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
      ;(target.flags & ts.SymbolFlags.Value ? names.values : names.types).push(symbol.name)
    }
    names.values.sort()
    names.types.sort()
    out.set(file, names)
  }
  return out
}

let esm: Map<string, Names>
let cjs: Map<string, Names>

beforeAll(() => {
  const missing = entries.map(([, e]) => `${root}${e.import.types.slice(2)}`).filter((f) => !existsSync(f))
  if (missing.length > 0) throw new Error(`Build first (npm run build): ${missing.join(', ')} missing`)
  esm = declaredNames(entries.map(([, e]) => `${root}${e.import.types.slice(2)}`))
  cjs = declaredNames(entries.map(([, e]) => `${root}${e.require.types.slice(2)}`))
  // Two TypeScript programs over the built declarations: seconds alone, more on a loaded CI machine.
}, 60_000)

test('the exported names of every entry match the reviewed list', async () => {
  const snapshot: Record<string, Names> = {}
  for (const [subpath, e] of entries) snapshot[entryName(subpath)] = esm.get(`${root}${e.import.types.slice(2)}`)!
  await expect(`${JSON.stringify(snapshot, null, 2)}\n`).toMatchFileSnapshot('./exports.snapshot.json')
})

test('the CommonJS declarations export the same names as the ESM ones', () => {
  for (const [subpath, e] of entries) {
    expect(cjs.get(`${root}${e.require.types.slice(2)}`), entryName(subpath)).toEqual(esm.get(`${root}${e.import.types.slice(2)}`))
  }
})

describe('the runtime exports are the declared values', () => {
  // The runner entries register matchers and hooks when loaded; their values are checked by the runner suites.
  const plain = entries.filter(([subpath]) => subpath !== './vitest' && subpath !== './jest')
  const require = createRequire(import.meta.url)

  test.each(plain.map(([subpath, e]) => [entryName(subpath), e] as const))('%s', async (_name, e) => {
    const declared = esm.get(`${root}${e.import.types.slice(2)}`)!.values
    const esmModule = (await import(`${root}${e.import.default.slice(2)}`)) as Record<string, unknown>
    expect(Object.keys(esmModule).sort()).toEqual(declared)
    const cjsModule = require(`${root}${e.require.default.slice(2)}`) as Record<string, unknown>
    expect(
      Object.keys(cjsModule)
        .filter((k) => k !== '__esModule')
        .sort(),
    ).toEqual(declared)
  })
})

test('no internal helper is exported from the core entry', () => {
  const core = esm.get(`${root}${pkg.exports['.'] && typeof pkg.exports['.'] === 'object' ? pkg.exports['.'].import.types.slice(2) : ''}`)!
  const internals = [
    'parseJudgeReply',
    'renderPrompt',
    'PLACEHOLDERS',
    'squadTokens',
    'tokenize13a',
    'seededRandom',
    'readGitInfo',
    'caseIdFor',
    'formatMessage',
    'resolveJudge',
    'resolveEmbedder',
  ]
  expect([...core.values, ...core.types].filter((n) => internals.includes(n))).toEqual([])
})
