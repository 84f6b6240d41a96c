// A folder's mutation score measured in parts (test/mutation/parts.mjs, used by run.mjs): each file's newest
// current result across the folder's report and its parts, stale and missing files making a folder partial,
// files without mutants, narrowed runs making the score a lower bound, run.json, and run.mjs's new flags.
// Synthetic reports only: no Stryker run.
import { execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import {
  assessFolder,
  assessReport,
  checkPartName,
  createMutantCounter,
  FOLDERS,
  type FileResult,
  folderFiles,
  formatSummary,
  isBelowTarget,
  nextPart,
  parseArgs,
  partName,
  partScope,
  type Result,
  RECORDS,
  readAllResults,
  readRecord,
  readRecords,
  readResults,
  recordOf,
  recordPath,
  resolveFiles,
  summariseFolder,
  syncRecords,
  writeRecords,
  writeRun,
} from './parts.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)
const metrics = FOLDERS.find((f) => f.name === 'src/metrics')!
const rest = FOLDERS.find((f) => f.name === 'src/rest')!

/** A report's entry for a file: its source and one mutant per status. */
function fileResult(source: string, statuses: string[]): FileResult {
  return {
    language: 'typescript',
    source,
    mutants: statuses.map((status, i) => ({
      id: String(i),
      mutatorName: 'EqualityOperator',
      status,
      location: { start: { line: 1, column: i + 1 }, end: { line: 1, column: i + 2 } },
    })),
  }
}

const result = (scope: string, time: number, files: Record<string, FileResult>, tests: string | null | undefined = null): Result => ({
  scope,
  part: scope.includes('/parts/') ? scope.split('/parts/')[1]! : null,
  time,
  tests,
  files,
})

/** Counts nothing it is not told about: a test fails loudly if a measured file is counted. */
const counts =
  (byPath: Record<string, number>) =>
  (path: string): number => {
    const n = byPath[path]
    if (n === undefined) throw new Error(`countMutants asked about ${path}`)
    return n
  }

const A = 'src/metrics/a.ts'
const B = 'src/metrics/b.ts'
const C = 'src/metrics/c.ts'
const sources = (entries: Record<string, string>) => new Map(Object.entries(entries))

describe('assessFolder', () => {
  it("counts each file's newest result across the whole-folder report and the parts", async () => {
    const results = [
      result('src-metrics', 100, { [A]: fileResult('a1', ['Killed', 'Survived']), [B]: fileResult('b1', ['Survived', 'Survived']) }),
      // A later part re-measured b.ts after a test was added.
      result('src-metrics/parts/b', 200, { [B]: fileResult('b1', ['Killed', 'Killed']) }),
      // An older part of a.ts does not override the newer whole-folder report.
      result('src-metrics/parts/a', 50, { [A]: fileResult('a1', ['Killed', 'Killed']) }),
    ]
    const a = await assessFolder({ folder: metrics, sources: sources({ [A]: 'a1', [B]: 'b1' }), results, countMutants: counts({}) })
    expect(a.files).toEqual([
      { path: A, state: 'measured', scope: 'src-metrics', mutants: 2 },
      { path: B, state: 'measured', scope: 'src-metrics/parts/b', mutants: 2 },
    ])
    expect(a.metrics).toMatchObject({ killed: 3, survived: 1, totalMutants: 4 })
    expect(a).toMatchObject({ complete: true, score: 75, lowerBound: false, narrowed: [] })
  })

  it('does not count a result whose recorded source differs from the file today (stale); the folder is partial', async () => {
    const results = [result('src-metrics', 100, { [A]: fileResult('a1', ['Killed']), [B]: fileResult('b-old', ['Killed', 'Killed']) })]
    const a = await assessFolder({ folder: metrics, sources: sources({ [A]: 'a1', [B]: 'b-new' }), results, countMutants: counts({ [B]: 3 }) })
    expect(a.files[1]).toEqual({ path: B, state: 'stale', scope: 'src-metrics', mutants: 3 })
    expect(a.metrics).toMatchObject({ killed: 1, totalMutants: 1 })
    expect(a).toMatchObject({ complete: false, score: null, measuredScore: 100 })
  })

  it('counts an older result of the source as it is today over a newer one of another source (a change reverted)', async () => {
    const results = [
      result('src-metrics/parts/old', 100, { [A]: fileResult('a1', ['Killed', 'Survived']) }),
      result('src-metrics/parts/new', 200, { [A]: fileResult('a2', ['Killed']) }),
    ]
    const a = await assessFolder({ folder: metrics, sources: sources({ [A]: 'a1' }), results, countMutants: counts({}) })
    expect(a.files).toEqual([{ path: A, state: 'measured', scope: 'src-metrics/parts/old', mutants: 2 }])
    expect(a.score).toBe(50)
  })

  it('a file with no result is missing and makes the folder partial; one without mutants is not needed', async () => {
    const results = [result('src-metrics/parts/a', 100, { [A]: fileResult('a1', ['Killed']) })]
    const a = await assessFolder({
      folder: metrics,
      sources: sources({ [A]: 'a1', [B]: 'b1', [C]: 'export type C = string' }),
      results,
      countMutants: counts({ [B]: 7, [C]: 0 }),
    })
    expect(a.files.map((f) => [f.path, f.state, f.mutants])).toEqual([
      [A, 'measured', 1],
      [B, 'missing', 7],
      [C, 'no-mutants', 0],
    ])
    expect(a).toMatchObject({ complete: false, score: null })
    const complete = await assessFolder({ folder: metrics, sources: sources({ [A]: 'a1', [C]: 'x' }), results, countMutants: counts({ [C]: 0 }) })
    expect(complete).toMatchObject({ complete: true, score: 100 })
    // A report entry without mutants (Stryker leaves such files out; another writer may not) is the same.
    const empty = [result('src-metrics', 1, { [A]: fileResult('a1', ['Killed']), [C]: fileResult('x', []) })]
    const withEmpty = await assessFolder({ folder: metrics, sources: sources({ [A]: 'a1', [C]: 'x' }), results: empty, countMutants: counts({}) })
    expect(withEmpty.files[1]).toEqual({ path: C, state: 'no-mutants', mutants: 0 })
    expect(withEmpty).toMatchObject({ complete: true, score: 100 })
  })

  it('is a lower bound when a counted result ran narrowed tests, or tests not recorded; not for a result it does not count', async () => {
    const narrowedPart = result('src-metrics/parts/a', 100, { [A]: fileResult('a1', ['Killed']) }, 'test/metrics/a*.test.ts')
    const full = result('src-metrics', 200, { [A]: fileResult('a1', ['Killed']), [B]: fileResult('b1', ['Killed']) })
    const countMutants = counts({})
    const superseded = await assessFolder({ folder: metrics, sources: sources({ [A]: 'a1', [B]: 'b1' }), results: [narrowedPart, full], countMutants })
    expect(superseded).toMatchObject({ lowerBound: false, narrowed: [] })

    const newer = { ...narrowedPart, time: 300 }
    const counted = await assessFolder({ folder: metrics, sources: sources({ [A]: 'a1', [B]: 'b1' }), results: [newer, full], countMutants })
    expect(counted).toMatchObject({
      complete: true,
      score: 100,
      lowerBound: true,
      narrowed: [{ scope: 'src-metrics/parts/a', tests: 'test/metrics/a*.test.ts' }],
    })

    const unrecorded = await assessFolder({ folder: metrics, sources: sources({ [A]: 'a1' }), results: [{ ...full, tests: undefined }], countMutants })
    expect(unrecorded).toMatchObject({ lowerBound: true, narrowed: [{ scope: 'src-metrics', tests: undefined }] })
  })
})

describe('nextPart (what --missing mutates)', () => {
  it('the files never measured or stale, in path order, at most --limit; none when the folder is complete', async () => {
    const D = 'src/metrics/d.ts'
    const results = [result('src-metrics', 1, { [B]: fileResult('b-old', ['Killed']), [C]: fileResult('c1', ['Killed']) })]
    const a = await assessFolder({
      folder: metrics,
      sources: sources({ [D]: 'd', [C]: 'c1', [B]: 'b1', [A]: 'a' }),
      results,
      countMutants: counts({ [A]: 5, [B]: 2, [D]: 0 }),
    })
    const two = nextPart(a, 2)
    expect(two.files.map((f) => [f.path, f.state, f.mutants])).toEqual([
      [A, 'missing', 5],
      [B, 'stale', 2],
    ])
    expect(two.left).toEqual([])
    expect(nextPart(a, 1)).toMatchObject({ files: [{ path: A }], left: [{ path: B }] })
    expect(nextPart(a, undefined).files).toHaveLength(2)
    const done = await assessFolder({ folder: metrics, sources: sources({ [C]: 'c1' }), results, countMutants: counts({}) })
    expect(nextPart(done, 3)).toEqual({ files: [], left: [] })
  })
})

describe('formatSummary and the exit code', () => {
  const folder = { ...metrics }

  it('prints a complete folder with its score, and a lower bound as such', async () => {
    const results = [
      result(
        'src-metrics/parts/a',
        1,
        { [A]: fileResult('a1', ['Killed', 'Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored']) },
        'test/metrics/a.test.ts',
      ),
    ]
    const a = await assessFolder({ folder, sources: sources({ [A]: 'a1' }), results, countMutants: counts({}) })
    expect(formatSummary([a])).toMatchInlineSnapshot(`
      "Mutation score per folder:
      folder                      score       target  files  killed  timeout  survived  no cov  ignored  errors  mutants
      src/metrics  60.00% (lower bound)  90% (below)    1/1       2        1         1       1        1       0        6

      src/metrics is a lower bound: reports/mutation/src-metrics/parts/a counts, and its tests were narrowed to test/metrics/a.test.ts.
      A lower bound: fewer tests can only kill fewer mutants, so the full suite scores at least that. Re-run those parts without EXPECT_LLM_MUTATION_TESTS for the score."
    `)
    expect(isBelowTarget(a)).toBe(true)
  })

  it('prints a partial folder as partial, never with a score, with the files to go; it is never below its target', async () => {
    const results = [result('src-metrics', 1, { [A]: fileResult('a1', ['Survived', 'Survived', 'Killed']), [B]: fileResult('b0', ['Killed']) })]
    const a = await assessFolder({ folder, sources: sources({ [A]: 'a1', [B]: 'b1', [C]: 'c' }), results, countMutants: counts({ [B]: 4, [C]: 1200 }) })
    const text = formatSummary([a], { notMeasured: ['src/golden'] })
    expect(text).toMatchInlineSnapshot(`
      "Mutation score per folder:
      folder         score  target  files  killed  timeout  survived  no cov  ignored  errors  mutants
      src/metrics  partial     90%    1/3       1        0         2       0        0       0        3
      Not measured yet: src/golden.

      src/metrics is partial: 1 of 3 files measured (3 mutants; 33.33% of those, which is not the folder's score), 1,204 mutants in 2 files to go.
        never measured: c.ts (1200)
        stale (changed since their result): b.ts (4)
        next part: npm run test:mutation -- src/metrics --missing --limit 3"
    `)
    expect(isBelowTarget(a)).toBe(false)
  })

  it('a complete folder at its target passes (inclusive); src/rest has no target', async () => {
    const nine = [...Array(9).fill('Killed'), 'Survived']
    const a = await assessFolder({
      folder,
      sources: sources({ [A]: 'a1' }),
      results: [result('src-metrics', 1, { [A]: fileResult('a1', nine) })],
      countMutants: counts({}),
    })
    expect(a.score).toBe(90)
    expect(isBelowTarget(a)).toBe(false)
    expect(isBelowTarget(assessReport(rest, { 'src/x.ts': fileResult('x', ['Survived']) }, null))).toBe(false)
    expect(isBelowTarget(assessReport(folder, { [A]: fileResult('x', ['Survived']) }, null))).toBe(true)
  })
})

describe('reports on disk: readResults and writeRun', () => {
  let dir: string | undefined
  afterEach(() => {
    // The stand-in's stuck worker, if a failing run.mjs left it behind.
    if (dir && existsSync(join(dir, 'worker.pid'))) {
      try {
        process.kill(Number(readFileSync(join(dir, 'worker.pid'), 'utf8')), 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })

  function writeReport(scope: string, files: Record<string, FileResult>) {
    const file = join(dir!, 'reports/mutation', scope, 'mutation.json')
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, JSON.stringify({ schemaVersion: '1.0', thresholds: { high: 80, low: 60 }, files }))
    return file
  }

  it('reads the whole-folder report and every part, with the tests and the time run.json records for that report', () => {
    dir = mkdtempSync(join(tmpdir(), 'expect-llm-parts-'))
    writeReport('src-metrics', { [A]: fileResult('a1', ['Killed']) })
    writeRun(dir, 'src-metrics', {
      folder: 'src/metrics',
      part: null,
      mutate: ['src/metrics/**/*.ts'],
      tests: undefined,
      withStatic: false,
      finishedAt: new Date(1000),
    })
    writeReport(partScope(metrics, 'lcs'), { [B]: fileResult('b1', ['Survived']) })
    const recorded = writeRun(dir, 'src-metrics/parts/lcs', {
      folder: 'src/metrics',
      part: 'lcs',
      mutate: [B],
      tests: 'test/metrics/lcs*.test.ts',
      withStatic: false,
      finishedAt: new Date(2000),
    })
    expect(recorded).toEqual({
      folder: 'src/metrics',
      part: 'lcs',
      mutate: [B],
      tests: 'test/metrics/lcs*.test.ts',
      static: false,
      finishedAt: '1970-01-01T00:00:02.000Z',
      report: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    expect(JSON.parse(readFileSync(join(dir, 'reports/mutation/src-metrics/parts/lcs/run.json'), 'utf8'))).toEqual(recorded)
    expect(readResults(dir, metrics).map(({ scope, part, time, tests }) => ({ scope, part, time, tests }))).toEqual([
      { scope: 'src-metrics', part: null, time: 1000, tests: null },
      { scope: 'src-metrics/parts/lcs', part: 'lcs', time: 2000, tests: 'test/metrics/lcs*.test.ts' },
    ])
  })

  it('a report that run.json does not describe (written after it, or without one) has its tests not recorded and its file time', () => {
    dir = mkdtempSync(join(tmpdir(), 'expect-llm-parts-'))
    writeReport('src-metrics', { [A]: fileResult('a1', ['Killed']) })
    writeRun(dir, 'src-metrics', { folder: 'src/metrics', part: null, mutate: [], tests: 'x', withStatic: false, finishedAt: new Date(1000) })
    const file = writeReport('src-metrics', { [A]: fileResult('a1', ['Survived']) })
    utimesSync(file, 5, 5)
    expect(readResults(dir, metrics)).toEqual([
      { scope: 'src-metrics', part: null, time: 5000, tests: undefined, files: { [A]: fileResult('a1', ['Survived']) } },
    ])
  })

  it('names an unreadable report and how to recover', () => {
    dir = mkdtempSync(join(tmpdir(), 'expect-llm-parts-'))
    const file = join(dir, 'reports/mutation/src-metrics/mutation.json')
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, '{"files": ')
    expect(() => readResults(dir!, metrics)).toThrow(
      /^reports\/mutation\/src-metrics\/mutation\.json is not a readable report \(.+\)\. Delete it and run that scope again\.$/,
    )
  })

  it('summariseFolder: the folder files on disk against the reports; undefined for a folder never measured', async () => {
    dir = mkdtempSync(join(tmpdir(), 'expect-llm-parts-'))
    mkdirSync(join(dir, 'src/metrics/sub'), { recursive: true })
    writeFileSync(join(dir, A), 'a1')
    writeFileSync(join(dir, 'src/metrics/sub/d.ts'), 'd1')
    writeFileSync(join(dir, 'src/metrics/types.d.ts'), 'export type T = 1')
    expect(await summariseFolder(dir, metrics, counts({}))).toBeUndefined()
    writeReport(partScope(metrics, 'a'), { [A]: fileResult('a1', ['Killed']) })
    const a = await summariseFolder(dir, metrics, counts({ 'src/metrics/sub/d.ts': 2 }))
    expect(a?.files.map((f) => [f.path, f.state])).toEqual([
      [A, 'measured'],
      ['src/metrics/sub/d.ts', 'missing'],
    ])
  })
})

describe('the files of a folder and the parts', () => {
  it('folderFiles: the .ts files under the folder (no .d.ts); src/rest is src/ without the named folders', () => {
    const files = folderFiles(root, metrics)
    expect(files).toContain('src/metrics/lcs.ts')
    expect(files.every((f) => f.startsWith('src/metrics/') && f.endsWith('.ts') && !f.endsWith('.d.ts'))).toBe(true)
    const restFiles = folderFiles(root, rest)
    expect(restFiles).toContain('src/errors.ts')
    expect(restFiles.some((f) => /^src\/(replay|golden|metrics|judges)\//.test(f) || f.startsWith('matchers/'))).toBe(false)
  })

  it('resolveFiles: globs from the root or from the folder, and errors for no file or another folder', () => {
    expect(resolveFiles(root, metrics, ['src/metrics/lcs.ts'])).toEqual(['src/metrics/lcs.ts'])
    expect(resolveFiles(root, metrics, ['lcs.ts', 'rouge.ts', 'src/metrics/lcs.ts'])).toEqual(['src/metrics/lcs.ts', 'src/metrics/rouge.ts'])
    expect(resolveFiles(root, metrics, ['src/metrics/r*.ts'])).toEqual(folderFiles(root, metrics).filter((f) => /^src\/metrics\/r[^/]*\.ts$/.test(f)))
    expect(() => resolveFiles(root, metrics, ['lcss.ts'])).toThrow(
      '--files lcss.ts names no .ts file under src/ or matchers/. Pass a path or glob such as src/metrics/x.ts.',
    )
    expect(() => resolveFiles(root, metrics, ['src/judges/**/*.ts'])).toThrow(
      /^--files src\/judges\/\*\*\/\*\.ts names src\/judges\/.+\.ts, which belongs to src\/judges, not src\/metrics\./,
    )
  })

  it('partName: readable and the same for the same list; long lists shortened with a hash', () => {
    expect(partName(metrics, ['src/metrics/lcs.ts'])).toBe('lcs')
    expect(partName(metrics, ['src/metrics/lcs.ts', 'rouge.ts'])).toBe('lcs+rouge')
    expect(partName(metrics, ['src/metrics/r*.ts'])).toBe('rx')
    expect(partName(metrics, ['src/metrics/**/*.ts'])).toBe('all-x')
    const many = folderFiles(root, metrics)
    const name = partName(metrics, many)
    expect(name).toMatch(/^[A-Za-z0-9][A-Za-z0-9._+-]*-and-more-[0-9a-f]{8}$/)
    expect(name.length).toBeLessThanOrEqual(60)
    expect(partName(metrics, many)).toBe(name)
    expect(partName(metrics, many.slice(1))).not.toBe(name)
    expect(checkPartName(name)).toBe(name)
    expect(() => checkPartName('../x')).toThrow('--part "../x" is not a usable name.')
  })
})

// Babel parses each file: a second or two on a loaded machine.
describe('createMutantCounter (Stryker instrumenter)', { timeout: 30_000 }, () => {
  it('finds no mutant in a file of types and re-exports, and the mutants of code', async () => {
    const count = await createMutantCounter()
    expect(await count('src/x.ts', "export type X = { a: string }\nexport { y } from './y.js'\n")).toBe(0)
    // `a > 1`: EqualityOperator twice (>=, <=), ConditionalExpression twice (true, false), and the arrow function.
    expect(await count('src/y.ts', 'export const f = (a: number) => a > 1\n')).toBeGreaterThanOrEqual(4)
  })
})

describe('parseArgs (the arguments of run.mjs)', () => {
  const judges = FOLDERS.find((f) => f.name === 'src/judges')!
  const refuses = (args: string[], message: string) => expect(() => parseArgs(args)).toThrow(message)

  it('reads a part: one folder with --files or --missing, --limit and --part; the rest goes to Stryker', () => {
    expect(parseArgs(['src/metrics', '--files', 'lcs.ts,rouge.ts', '--part', 'two', '--concurrency', '1'])).toMatchObject({
      chosen: [metrics],
      filesArg: 'lcs.ts,rouge.ts',
      part: 'two',
      missing: false,
      passThrough: ['--concurrency', '1'],
    })
    expect(parseArgs(['src/metrics/', '--missing', '--limit=2'])).toMatchObject({ chosen: [metrics], missing: true, limit: 2, filesArg: undefined })
  })

  it("takes Stryker's --mutate with its value, so a narrowed folder run is not read as two folders", () => {
    // Before: "src/judges/ai-sdk.ts" is not a folder of the mutation run (only --mutate=<files> worked).
    expect(parseArgs(['src/judges', '--mutate', 'src/judges/ai-sdk.ts', '--concurrency', '1'])).toMatchObject({
      chosen: [judges],
      passThrough: ['--mutate', 'src/judges/ai-sdk.ts', '--concurrency', '1'],
    })
    refuses(['src/judges/ai-sdk.ts'], '"src/judges/ai-sdk.ts" is not a folder of the mutation run.')
  })

  it('refuses a part without exactly one folder, or with --since, --summary, --mutate or the other part flag', () => {
    refuses(
      ['--files', 'src/metrics/lcs.ts'],
      '--files runs a part of one folder: pass exactly one folder, for example src/metrics --files src/metrics/lcs.ts.',
    )
    refuses(['src/metrics', 'matchers', '--missing'], '--missing runs a part of one folder: pass exactly one folder, for example src/metrics --missing.')
    refuses(['--since', 'main', '--missing'], '--missing runs a part of one folder')
    refuses(['src/metrics', '--files', 'lcs.ts', '--missing'], 'pass either --files or --missing, not both.')
    refuses(['src/metrics', '--missing', '--summary'], '--missing runs a part; --summary runs nothing: pass one of them.')
    refuses(['src/metrics', '--files', 'lcs.ts', '--mutate', 'src/metrics/rouge.ts'], '--files chooses the files to mutate: pass it without --mutate.')
    refuses(['src/metrics', '--missing', '-m', 'src/metrics/rouge.ts'], '--missing chooses the files to mutate: pass it without --mutate.')
  })

  it('reads --help and -h, whatever else is passed', () => {
    expect(parseArgs(['--help']).help).toBe(true)
    expect(parseArgs(['src/metrics', '-h', '--files', 'lcs.ts']).help).toBe(true)
    expect(parseArgs(['src/metrics']).help).toBe(false)
  })

  it('refuses --limit without --missing or not a whole number, --part without a part or with a path, and a flag without its value', () => {
    refuses(['src/metrics', '--limit', '3'], '--limit is the number of files of a --missing run: pass it with --missing.')
    refuses(['src/metrics', '--missing', '--limit', '0'], '--limit is the number of files per run, a whole number from 1, got "0". Pass for example --limit 3.')
    refuses(['src/metrics', '--missing', '--limit', '1.5'], 'got "1.5"')
    refuses(['src/metrics', '--part', 'x', '--summary'], '--part names a part: pass it with --files or --missing.')
    refuses(['src/metrics', '--missing', '--part', '../x'], '--part "../x" is not a usable name.')
    refuses(['src/metrics', '--files'], '--files needs a value. Pass for example --files src/metrics/lcs.ts.')
    refuses(['src/metrics', '--files', '--missing'], '--files needs a value.')
    refuses(['--equivalent', '--missing'], '--equivalent lists the marks of every folder and runs nothing: pass it alone (or with --write).')
  })
})

describe('committed records (test/mutation/results/): results that outlive the machine', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })
  const sha = (text: string) => createHash('sha256').update(text).digest('hex')

  /** A repository in a temporary folder: sources, and a scope's report with run.json. */
  function repo(files: Record<string, string>) {
    dir = mkdtempSync(join(tmpdir(), 'expect-llm-records-'))
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true })
      writeFileSync(join(dir, path), text)
    }
    return dir
  }
  function report(scope: string, files: Record<string, FileResult>, run?: { tests?: string; finishedAt: number }) {
    const file = join(dir!, 'reports/mutation', scope, 'mutation.json')
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, JSON.stringify({ schemaVersion: '1.0', thresholds: { high: 80, low: 60 }, files }))
    if (run) {
      writeRun(dir!, scope, { folder: 'src/metrics', part: null, mutate: [], tests: run.tests, withStatic: false, finishedAt: new Date(run.finishedAt) })
    }
  }
  /** A report's file whose mutants have these statuses, the undetected ones with a replacement. */
  const detailed = (source: string, statuses: string[]): FileResult => {
    const r = fileResult(source, statuses)
    r.mutants.forEach((m, i) => {
      m.location = { start: { line: 10 - i, column: 3 }, end: { line: 10 - i, column: 9 } }
      m.replacement = `r${i}`
    })
    return r
  }

  it('recordOf: the source hash, the run, the count of each status and every undetected mutant; no source text', () => {
    const record = recordOf(A, detailed('a1', ['Killed', 'Survived', 'Timeout', 'NoCoverage', 'Killed', 'Ignored']), {
      scope: 'src-metrics/parts/a',
      run: { folder: 'src/metrics', part: 'a', mutate: [A], tests: null, static: false, finishedAt: '2026-12-01T10:00:00.000Z', report: 'x' },
      commit: 'abc',
    })
    expect(record).toEqual({
      file: A,
      sourceSha256: sha('a1'),
      scope: 'src-metrics/parts/a',
      commit: 'abc',
      finishedAt: '2026-12-01T10:00:00.000Z',
      tests: null,
      static: false,
      counts: { Ignored: 1, Killed: 2, NoCoverage: 1, Survived: 1, Timeout: 1 },
      undetected: [
        { line: 7, column: 3, endLine: 7, endColumn: 9, mutator: 'EqualityOperator', replacement: 'r3', status: 'NoCoverage' },
        { line: 9, column: 3, endLine: 9, endColumn: 9, mutator: 'EqualityOperator', replacement: 'r1', status: 'Survived' },
      ],
    })
    expect(JSON.stringify(record)).not.toContain('a1')
  })

  it('recordOf without run.json: the tests are left out (not recorded) and the time is the given one', () => {
    const record = recordOf(A, fileResult('a1', ['Killed']), { scope: 'src-metrics', run: undefined, finishedAt: new Date(5000) })
    expect(record).not.toHaveProperty('tests')
    expect(record).toMatchObject({ commit: null, finishedAt: '1970-01-01T00:00:05.000Z', static: null, counts: { Killed: 1 }, undetected: [] })
  })

  it("writeRecords: one record per file of the scope's report, with its run.json; readRecord reads it back", () => {
    repo({ [A]: 'a1', [B]: 'b1' })
    report('src-metrics/parts/a+b', { [A]: fileResult('a1', ['Killed', 'Survived']), [B]: fileResult('b1', ['Timeout']) }, { finishedAt: 7000 })
    expect(writeRecords(dir!, 'src-metrics/parts/a+b', { commit: 'c1' })).toEqual([recordPath(A), recordPath(B)])
    expect(recordPath(A)).toBe(`${RECORDS}/src/metrics/a.ts.json`)
    expect(readRecord(dir!, A)).toMatchObject({
      file: A,
      commit: 'c1',
      tests: null,
      finishedAt: '1970-01-01T00:00:07.000Z',
      counts: { Killed: 1, Survived: 1 },
    })
    expect(readRecord(dir!, B)).toMatchObject({ counts: { Timeout: 1 }, undetected: [] })
    expect(readRecord(dir!, C)).toBeUndefined()
    expect(writeRecords(dir!, 'src-metrics/parts/none')).toEqual([])
  })

  it('a record counts while the source hashes the same: a fresh clone (records, no reports) gets the folder score', async () => {
    repo({ [A]: 'a1', [B]: 'b1' })
    report('src-metrics', { [A]: fileResult('a1', ['Killed', 'Killed', 'Survived']), [B]: fileResult('b1', ['Timeout', 'NoCoverage']) }, { finishedAt: 1000 })
    writeRecords(dir!, 'src-metrics')
    rmSync(join(dir!, 'reports'), { recursive: true })
    const a = await summariseFolder(dir!, metrics, counts({}))
    expect(a).toMatchObject({ complete: true, lowerBound: false })
    expect(a!.score).toBeCloseTo(60, 10)
    expect(a!.metrics).toMatchObject({ killed: 2, timeout: 1, survived: 1, noCoverage: 1, totalMutants: 5 })
    expect(a!.files.map((f) => [f.path, f.state, f.scope])).toEqual([
      [A, 'measured', recordPath(A)],
      [B, 'measured', recordPath(B)],
    ])
    expect(formatSummary([a!])).toContain(`src/metrics: 2 files counted from committed records (${RECORDS}/), not from a report on this machine.`)
  })

  it('a record of another source is stale: the file counts as changed since, and --missing picks it', async () => {
    repo({ [A]: 'a2' })
    report('src-metrics', { [A]: fileResult('a1', ['Killed']) }, { finishedAt: 1000 })
    writeRecords(dir!, 'src-metrics')
    rmSync(join(dir!, 'reports'), { recursive: true })
    const a = await summariseFolder(dir!, metrics, counts({ [A]: 4 }))
    expect(a).toMatchObject({ complete: false, score: null })
    expect(a!.files).toEqual([{ path: A, state: 'stale', scope: recordPath(A), mutants: 4 }])
    expect(nextPart(a!, undefined).files.map((f) => f.path)).toEqual([A])
  })

  it('the newest current result wins between a record and a local report, both ways', async () => {
    repo({ [A]: 'a1' })
    report('src-metrics', { [A]: fileResult('a1', ['Survived']) }, { finishedAt: 1000 })
    writeRecords(dir!, 'src-metrics')
    report('src-metrics/parts/a', { [A]: fileResult('a1', ['Killed']) }, { finishedAt: 2000 })
    const newerReport = await assessFolder({
      folder: metrics,
      sources: sources({ [A]: 'a1' }),
      results: readAllResults(dir!, metrics),
      countMutants: counts({}),
    })
    expect(newerReport.files[0]).toMatchObject({ state: 'measured', scope: 'src-metrics/parts/a' })
    expect(newerReport.score).toBe(100)
    writeRecords(dir!, 'src-metrics/parts/a')
    rmSync(join(dir!, 'reports/mutation/src-metrics/parts'), { recursive: true })
    report('src-metrics', { [A]: fileResult('a1', ['Survived']) }, { finishedAt: 1500 })
    const newerRecord = await assessFolder({
      folder: metrics,
      sources: sources({ [A]: 'a1' }),
      results: readAllResults(dir!, metrics),
      countMutants: counts({}),
    })
    expect(newerRecord.files[0]).toMatchObject({ state: 'measured', scope: recordPath(A) })
    expect(newerRecord.score).toBe(100)
  })

  it('a record of a narrowed run, or of a report without run.json, makes the score a lower bound and says why', async () => {
    repo({ [A]: 'a1', [B]: 'b1' })
    report('src-metrics/parts/a', { [A]: fileResult('a1', ['Killed']) }, { tests: 'test/metrics/a.test.ts', finishedAt: 1000 })
    report('src-metrics/parts/b', { [B]: fileResult('b1', ['Killed']) })
    writeRecords(dir!, 'src-metrics/parts/a')
    writeRecords(dir!, 'src-metrics/parts/b')
    rmSync(join(dir!, 'reports'), { recursive: true })
    expect(readRecords(dir!, metrics).map((r) => r.tests)).toEqual(['test/metrics/a.test.ts', undefined])
    const a = await summariseFolder(dir!, metrics, counts({}))
    expect(a).toMatchObject({ complete: true, lowerBound: true, score: 100 })
    const text = formatSummary([a!])
    expect(text).toContain(`src/metrics is a lower bound: ${recordPath(A)} counts, and its tests were narrowed to test/metrics/a.test.ts.`)
    expect(text).toContain(`src/metrics is a lower bound: ${recordPath(B)} counts, and it does not say which tests ran.`)
  })

  it('syncRecords (--record): writes current local results newer than the record, skips the rest, deletes records of removed files', () => {
    repo({ [A]: 'a1', [B]: 'b2', [C]: 'c1' })
    report('src-metrics', { [A]: fileResult('a1', ['Killed']), [B]: fileResult('b1', ['Killed']), [C]: fileResult('c1', ['Survived']) }, { finishedAt: 1000 })
    expect(syncRecords(dir!, { commit: 'c9' })).toEqual({ written: [recordPath(A), recordPath(C)], deleted: [] })
    expect(readRecord(dir!, A)).toMatchObject({ commit: 'c9', scope: 'src-metrics', finishedAt: '1970-01-01T00:00:01.000Z' })
    expect(syncRecords(dir!)).toEqual({ written: [], deleted: [] })
    report('src-metrics/parts/c', { [C]: fileResult('c1', ['Killed']) }, { finishedAt: 3000 })
    expect(syncRecords(dir!).written).toEqual([recordPath(C)])
    expect(readRecord(dir!, C)).toMatchObject({ counts: { Killed: 1 }, scope: 'src-metrics/parts/c' })
    rmSync(join(dir!, A))
    expect(syncRecords(dir!)).toEqual({ written: [], deleted: [recordPath(A)] })
    expect(readRecord(dir!, A)).toBeUndefined()
  })

  it('names an unreadable record, or one of another file, and how to recover', () => {
    repo({ [A]: 'a1' })
    mkdirSync(dirname(join(dir!, recordPath(A))), { recursive: true })
    writeFileSync(join(dir!, recordPath(A)), '{"file": ')
    expect(() => readRecord(dir!, A)).toThrow(
      new RegExp(`^${recordPath(A).replace(/\./g, '\\.')} is not a readable record \\(.+\\)\\. Delete it and run that file's part again\\.$`),
    )
    writeFileSync(join(dir!, recordPath(A)), JSON.stringify({ file: B, sourceSha256: 'x', counts: {} }))
    expect(() => readRecord(dir!, A)).toThrow(`${recordPath(A)} is not a record of ${A}. Delete it and run that file's part again.`)
  })
})

describe('npm run test:mutation with a part', { timeout: 60_000 }, () => {
  const runMjs = join(root, 'test/mutation/run.mjs')
  const refuse = (args: string[], stderr: string) =>
    expect(run(process.execPath, [runMjs, ...args], { cwd: root })).rejects.toMatchObject({
      code: 2,
      stderr: `[expect-llm] Failed to run mutation testing: ${stderr}\n`,
    })

  it('exits 2 with the message, before any Stryker run, for wrong flags and --files naming another folder', async () => {
    await refuse(['src/metrics', '--limit', '3'], '--limit is the number of files of a --missing run: pass it with --missing.')
    await refuse(['--record', 'src/metrics'], '--record writes the committed records from the local reports and runs nothing: pass it alone.')
    await refuse(
      ['src/metrics', '--files', 'src/judges/openai.ts'],
      '--files src/judges/openai.ts names src/judges/openai.ts, which belongs to src/judges, not src/metrics. Run it as a part of its own folder.',
    )
  })

  it('--help (or -h) prints the usage and runs nothing, even with other arguments', async () => {
    for (const args of [['--help'], ['-h'], ['src/golden', '--help']]) {
      const { stdout, stderr } = await run(process.execPath, [runMjs, ...args], { cwd: root })
      expect(stderr).toBe('')
      expect(stdout).toMatch(/^Mutation testing of the library's own suite with StrykerJS: `npm run test:mutation`\./)
      expect(stdout).toContain('npm run test:mutation -- src/metrics --missing [--limit 3]')
      expect(stdout).toContain('Any other argument goes to `stryker run` unchanged')
      expect(stdout).not.toMatch(/^\/\/|import /m)
    }
  })
})

describe('stopping a run with Ctrl-C', { timeout: 60_000 }, () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })

  // run.mjs in a copy of the repository's layout whose Stryker is a stand-in: it makes its sandbox where
  // --tempDirName says, logs each SIGINT it gets and exits 130 half a second after the first, leaving the
  // sandbox behind, as Stryker 10.1 does (it saves the incremental file, and removes its sandbox only at the
  // end of a run that was not stopped).
  it("Stryker gets one SIGINT for a terminal's Ctrl-C, even when npm passes it on too; its sandbox is removed", async () => {
    dir = mkdtempSync(join(tmpdir(), 'expect-llm-sigint-'))
    mkdirSync(join(dir, 'test/mutation'), { recursive: true })
    for (const f of ['run.mjs', 'parts.mjs', 'equivalent.mjs']) copyFileSync(join(root, 'test/mutation', f), join(dir, 'test/mutation', f))
    mkdirSync(join(dir, 'node_modules/@stryker-mutator/core/bin'), { recursive: true })
    for (const pkg of ['mutation-testing-metrics', 'typescript', '@stryker-mutator/instrumenter']) {
      if (!existsSync(join(dir, 'node_modules', pkg))) symlinkSync(join(root, 'node_modules', pkg), join(dir, 'node_modules', pkg))
    }
    const log = join(dir, 'signals.log')
    writeFileSync(
      join(dir, 'node_modules/@stryker-mutator/core/bin/stryker.js'),
      `const { appendFileSync, mkdirSync, writeFileSync } = require('node:fs')
const { spawn } = require('node:child_process')
// A test worker stuck in an endless loop, deaf to SIGINT, in Stryker's process group.
const worker = spawn(process.execPath, ['-e', 'process.on("SIGINT", () => {}); setInterval(() => {}, 1000)'], { stdio: 'ignore' })
writeFileSync(${JSON.stringify(join(dir, 'worker.pid'))}, String(worker.pid))
const temp = process.argv[process.argv.indexOf('--tempDirName') + 1]
mkdirSync(temp + '/sandbox-x/src', { recursive: true })
writeFileSync(temp + '/sandbox-x/src/a.ts', '')
appendFileSync(${JSON.stringify(log)}, 'started in ' + temp + '\\n')
let stopping = false
process.on('SIGINT', () => {
  appendFileSync(${JSON.stringify(log)}, 'SIGINT\\n')
  if (!stopping) setTimeout(() => process.exit(130), 500)
  stopping = true
})
setInterval(() => {}, 1000)
`,
    )
    mkdirSync(join(dir, 'src/metrics'), { recursive: true })
    writeFileSync(join(dir, 'src/metrics/a.ts'), 'export const f = (a: number) => a > 1\n')
    // Its own process group, as a terminal's foreground job is: a signal to the group is a Ctrl-C.
    const child = spawn(process.execPath, [join(dir, 'test/mutation/run.mjs'), 'src/metrics', '--files', 'a.ts'], { cwd: dir, detached: true, stdio: 'pipe' })
    let stderr = ''
    child.stderr.on('data', (d) => {
      stderr += d
    })
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    const started = Date.now()
    while (!(existsSync(log) && readFileSync(log, 'utf8').includes('started'))) {
      if (Date.now() - started > 30_000) throw new Error(`the stand-in Stryker never started: ${stderr}`)
      await new Promise((r) => setTimeout(r, 50))
    }
    mkdirSync(join(dir, '.stryker-tmp/run-other'), { recursive: true }) // another run's sandbox, in use
    process.kill(-child.pid!, 'SIGINT') // the terminal's copy, to the whole foreground group
    process.kill(child.pid!, 'SIGINT') // npm's copy, to its child
    expect(await exited).toBe(2)
    expect(readFileSync(log, 'utf8')).toBe(`started in ${join('.stryker-tmp', `run-${child.pid}`)}\nSIGINT\n`)
    expect(readdirSync(join(dir, '.stryker-tmp'))).toEqual(['run-other'])
    // The stuck worker went with Stryker's group.
    const worker = Number(readFileSync(join(dir, 'worker.pid'), 'utf8'))
    const alive = () => {
      try {
        process.kill(worker, 0)
        return true
      } catch {
        return false
      }
    }
    const deadline = Date.now() + 5000
    while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    expect(alive()).toBe(false)
    expect(stderr).toContain('[expect-llm] Failed to run mutation testing: stryker run for src-metrics/parts/a exited with 130.')
  })
})
